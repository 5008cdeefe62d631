// ct.bit_cast folds a round trip and constants, and canonicalization
// rewrites the sign-bit tricks into the floating-point operation each
// computes (the operands of the integer ops in either order); other bit
// manipulations stay bits.
// RUN: %cotangent-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func @round_trip
// CHECK-SAME: (%[[X:.*]]: f64)
// CHECK-NEXT: return %[[X]]
func.func @round_trip(%x: f64) -> f64 {
  %bits = ct.bit_cast %x : f64 to i64
  %back = ct.bit_cast %bits : i64 to f64
  return %back : f64
}

// CHECK-LABEL: func @constant
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: return %[[ONE]]
func.func @constant() -> f64 {
  %bits = arith.constant 4607182418800017408 : i64
  %one = ct.bit_cast %bits : i64 to f64
  return %one : f64
}

// CHECK-LABEL: func @negate
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f32)
// CHECK-DAG: %[[NX:.*]] = arith.negf %[[X]] : f64
// CHECK-DAG: %[[NY:.*]] = arith.negf %[[Y]] : f32
// CHECK: return %[[NX]], %[[NY]]
func.func @negate(%x: f64, %y: f32) -> (f64, f32) {
  %sign = arith.constant -9223372036854775808 : i64
  %bits = ct.bit_cast %x : f64 to i64
  %flipped = arith.xori %sign, %bits : i64
  %r = ct.bit_cast %flipped : i64 to f64
  %sign32 = arith.constant -2147483648 : i32
  %bits32 = ct.bit_cast %y : f32 to i32
  %flipped32 = arith.xori %bits32, %sign32 : i32
  %r32 = ct.bit_cast %flipped32 : i32 to f32
  return %r, %r32 : f64, f32
}

// CHECK-LABEL: func @absolute
// CHECK-SAME: (%[[X:.*]]: f64)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[A:.*]] = math.absf %[[X]] : f64
// CHECK-DAG: %[[N:.*]] = math.absf %[[X]] : f64
// CHECK: %[[NA:.*]] = arith.negf %[[N]] : f64
// CHECK: %[[Z:.*]] = math.copysign %[[ZERO]], %[[X]] : f64
// CHECK: return %[[A]], %[[NA]], %[[Z]]
func.func @absolute(%x: f64) -> (f64, f64, f64) {
  %magnitude = arith.constant 9223372036854775807 : i64
  %sign = arith.constant -9223372036854775808 : i64
  %bits = ct.bit_cast %x : f64 to i64
  %cleared = arith.andi %bits, %magnitude : i64
  %a = ct.bit_cast %cleared : i64 to f64
  %set = arith.ori %bits, %sign : i64
  %na = ct.bit_cast %set : i64 to f64
  %only = arith.andi %bits, %sign : i64
  %z = ct.bit_cast %only : i64 to f64
  return %a, %na, %z : f64, f64, f64
}

// CHECK-LABEL: func @signs
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[C:.*]] = math.copysign %[[X]], %[[Y]] : f64
// CHECK: %[[S:.*]] = math.copysign %[[ONE]], %[[Y]] : f64
// CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[S]] : f64
// CHECK: return %[[C]], %[[M]]
func.func @signs(%x: f64, %y: f64) -> (f64, f64) {
  %magnitude = arith.constant 9223372036854775807 : i64
  %sign = arith.constant -9223372036854775808 : i64
  %bx = ct.bit_cast %x : f64 to i64
  %by = ct.bit_cast %y : f64 to i64
  %mx = arith.andi %bx, %magnitude : i64
  %sy = arith.andi %by, %sign : i64
  %merged = arith.ori %sy, %mx : i64
  %c = ct.bit_cast %merged : i64 to f64
  %flipped = arith.xori %bx, %sy : i64
  %m = ct.bit_cast %flipped : i64 to f64
  return %c, %m : f64, f64
}

// A shift is no sign trick: the bits stay.
// CHECK-LABEL: func @shifted
// CHECK: ct.bit_cast %{{.*}} : f64 to i64
// CHECK: arith.shrui
// CHECK: ct.bit_cast %{{.*}} : i64 to f64
func.func @shifted(%x: f64) -> f64 {
  %one = arith.constant 1 : i64
  %bits = ct.bit_cast %x : f64 to i64
  %half = arith.shrui %bits, %one : i64
  %r = ct.bit_cast %half : i64 to f64
  return %r : f64
}

// A select written with a comparison's mask (SSE2's and/andnot/or): the
// select of the floats, whose derivative is that of the lane it takes.
// CHECK-LABEL: func @maskSelect
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK: %[[C:.*]] = arith.cmpf olt, %[[X]], %[[Y]] : f64
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[X]], %[[Y]] : f64
// CHECK: return %[[S]]
func.func @maskSelect(%x: f64, %y: f64) -> f64 {
  %ones = arith.constant -1 : i64
  %c = arith.cmpf olt, %x, %y : f64
  %mask = arith.extsi %c : i1 to i64
  %maskf = ct.bit_cast %mask : i64 to f64
  %m = ct.bit_cast %maskf : f64 to i64
  %bx = ct.bit_cast %x : f64 to i64
  %by = ct.bit_cast %y : f64 to i64
  %taken = arith.andi %m, %bx : i64
  %takenf = ct.bit_cast %taken : i64 to f64
  %inverse = arith.xori %m, %ones : i64
  %other = arith.andi %inverse, %by : i64
  %otherf = ct.bit_cast %other : i64 to f64
  %tb = ct.bit_cast %takenf : f64 to i64
  %ob = ct.bit_cast %otherf : f64 to i64
  %joined = arith.ori %tb, %ob : i64
  %r = ct.bit_cast %joined : i64 to f64
  return %r : f64
}

// One half alone: the lane or +0.0.
// CHECK-LABEL: func @maskHalf
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[C:.*]] = arith.cmpf ogt, %[[X]], %[[Y]] : f64
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[ZERO]], %[[X]] : f64
// CHECK: return %[[S]]
func.func @maskHalf(%x: f64, %y: f64) -> f64 {
  %ones = arith.constant -1 : i64
  %c = arith.cmpf ogt, %x, %y : f64
  %mask = arith.extsi %c : i1 to i64
  %inverse = arith.xori %mask, %ones : i64
  %bx = ct.bit_cast %x : f64 to i64
  %half = arith.andi %bx, %inverse : i64
  %r = ct.bit_cast %half : i64 to f64
  return %r : f64
}

// Two floats' bits joined into one 64-bit lane, masked there, and split
// again (`_mm512_and_si512` of a float packet): each float's own mask,
// hence its absolute value and its negation.
// CHECK-LABEL: func @joined_lanes_masked
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-DAG: %[[ABS:.*]] = math.absf %[[A]] : f32
// CHECK-DAG: %[[NEG:.*]] = arith.negf %[[B]] : f32
// CHECK: return %[[ABS]], %[[NEG]]
func.func @joined_lanes_masked(%a: f32, %b: f32) -> (f32, f32) {
  %ai = ct.bit_cast %a : f32 to i32
  %bi = ct.bit_cast %b : f32 to i32
  %lo = arith.extui %ai : i32 to i64
  %hi0 = arith.extui %bi : i32 to i64
  %c32 = arith.constant 32 : i64
  %hi = arith.shli %hi0, %c32 : i64
  %joined = arith.ori %lo, %hi : i64
  // (abs in the low lane, a sign flip in the high one)
  %mask = arith.constant 0x000000007fffffff : i64
  %flip = arith.constant 0x8000000000000000 : i64
  %masked = arith.andi %joined, %mask : i64
  %flipped = arith.xori %joined, %flip : i64
  %low = arith.trunci %masked : i64 to i32
  %shifted = arith.shrui %flipped, %c32 : i64
  %high = arith.trunci %shifted : i64 to i32
  %x = ct.bit_cast %low : i32 to f32
  %y = ct.bit_cast %high : i32 to f32
  return %x, %y : f32, f32
}

// A part of a wide lane that is not made of narrower values stays bits.
// CHECK-LABEL: func @wide_bits_kept
// CHECK: arith.trunci
// CHECK: ct.bit_cast
func.func @wide_bits_kept(%w: i64) -> f32 {
  %mask = arith.constant 0x000000007fffffff : i64
  %masked = arith.andi %w, %mask : i64
  %low = arith.trunci %masked : i64 to i32
  %x = ct.bit_cast %low : i32 to f32
  return %x : f32
}
