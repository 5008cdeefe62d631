// The elements of a local buffer loaded and stored only at constant
// indices (a struct's fields after inlining) are tracked apart: field 1
// takes x and is updated in a loop from both fields, but only field 0 (from
// y) reaches the result. Field 1 carries no derivative: its loop gets no
// derivative code, so an overflow in it cannot make the result's derivative
// NaN, and x is reported as not influencing the result.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup 2>&1 | FileCheck %s

// CHECK: warning: parameter 'x' of 'fields' does not influence its result
func.func @fields(%x: f64, %y: f64) -> f64 attributes {ct.source_name = "fields", ct.param_names = ["x", "y"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c25_i32 = arith.constant 25 : i32
  %half = arith.constant 5.000000e-01 : f64
  %s = memref.alloca() : memref<2xf64>
  %v = arith.mulf %y, %half : f64
  memref.store %v, %s[%c0] : memref<2xf64>
  memref.store %x, %s[%c1] : memref<2xf64>
  scf.for %i = %c0_i32 to %c25_i32 step %c1_i32 : i32 {
    %a = memref.load %s[%c0] : memref<2xf64>
    %b = memref.load %s[%c1] : memref<2xf64>
    %aa = arith.mulf %a, %a : f64
    %bb = arith.mulf %b, %b : f64
    %n = arith.addf %aa, %bb : f64
    %d = arith.subf %b, %n : f64
    memref.store %d, %s[%c1] : memref<2xf64>
  }
  %r = memref.load %s[%c0] : memref<2xf64>
  return %r : f64
}

// (Derivatives follow their primal, the latest first.)
// Forward mode: the loop computes and stores no tangent.
// CHECK-LABEL: func.func private @fields.jvp.aa
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-COUNT-2: memref.load
// CHECK-COUNT-2: arith.mulf
// CHECK-NOT: memref.load
// CHECK: arith.subf
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// Reverse mode: after the forward sweep's loop, none; dx = 0, dy = seed/2.
// CHECK-LABEL: func.func private @fields.pullback.aa
// CHECK-SAME: (%{{.*}}: f64, %{{.*}}: f64, %[[SEED:.*]]: f64)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: arith.subf
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NOT: scf.for
// CHECK: %[[ADJ:.*]] = arith.addf %{{.*}}, %[[SEED]]
// CHECK-NOT: scf.for
// CHECK: %[[DY:.*]] = arith.mulf %{{.*}}, %[[HALF]]
// CHECK-NEXT: return %{{.*}}, %[[ZERO]], %[[DY]] : f64, f64, f64
func.func @main(%x: f64, %y: f64, %tx: f64, %ty: f64) -> (f64, f64, f64, f64) {
  %v, %dx, %dy = ct.gradient @fields(%x, %y) activity [active, active]
    : (f64, f64) -> (f64, f64, f64)
  %w, %t = ct.jvp @fields(%x, %y) tangents(%tx, %ty) activity [active, active]
    : (f64, f64, f64, f64) -> (f64, f64)
  return %dx, %dy, %t, %w : f64, f64, f64, f64
}
