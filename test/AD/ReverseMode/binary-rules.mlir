// The derivative IR of every binary rule, in reverse mode after clean-up:
// for y = op(a, b) with seed s, da = s * dy/da and db = s * dy/db built from
// the rule's formula (see lib/AD/Rules). Numbers are checked by
// test/Integration/MLIR/rules-fd.mlir. (atan2's operands are (y, x).)
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s

func.func @arith_addf(%a: f64, %b: f64) -> f64 {
  %r = arith.addf %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @arith_addf.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK: return %{{.*}}, %[[S]], %[[S]]

func.func @arith_subf(%a: f64, %b: f64) -> f64 {
  %r = arith.subf %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @arith_subf.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[DY:.*]] = arith.mulf %[[S]], %cst
// CHECK: return %{{.*}}, %[[S]], %[[DY]]

func.func @arith_mulf(%a: f64, %b: f64) -> f64 {
  %r = arith.mulf %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @arith_mulf.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[DX:.*]] = arith.mulf %[[Y]], %[[S]]
// CHECK: %[[DY:.*]] = arith.mulf %[[X]], %[[S]]
// CHECK: return %{{.*}}, %[[DX]], %[[DY]]

func.func @arith_divf(%a: f64, %b: f64) -> f64 {
  %r = arith.divf %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @arith_divf.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[R:.*]] = arith.divf %[[X]], %[[Y]]
// CHECK: %[[INV:.*]] = arith.divf %cst, %[[Y]]
// CHECK: %[[RI:.*]] = arith.mulf %[[R]], %[[INV]]
// CHECK: %[[NRI:.*]] = arith.negf %[[RI]]
// CHECK: %[[DX:.*]] = arith.mulf %[[INV]], %[[S]]
// CHECK: %[[DY:.*]] = arith.mulf %[[NRI]], %[[S]]
// CHECK: return %[[R]], %[[DX]], %[[DY]]

func.func @arith_remf(%a: f64, %b: f64) -> f64 {
  %r = arith.remf %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @arith_remf.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[Q:.*]] = arith.divf %[[X]], %[[Y]]
// CHECK: %[[T:.*]] = math.trunc %[[Q]]
// CHECK: %[[NT:.*]] = arith.negf %[[T]]
// CHECK: %[[DY:.*]] = arith.mulf %[[NT]], %[[S]]
// CHECK: return %{{.*}}, %[[S]], %[[DY]]

func.func @arith_maximumf(%a: f64, %b: f64) -> f64 {
  %r = arith.maximumf %a, %b : f64
  return %r : f64
}
// At a tie each operand gets half.
// CHECK-LABEL: func.func private @arith_maximumf.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-DAG: %[[TIE:.*]] = arith.cmpf oeq, %[[X]], %[[Y]]
// CHECK-DAG: %[[C:.*]] = arith.cmpf ogt, %[[X]], %[[Y]]
// CHECK: %[[PICK:.*]] = arith.select %[[C]]
// CHECK: arith.select %[[TIE]], %[[HALF]], %[[PICK]]
// CHECK: return

func.func @arith_minimumf(%a: f64, %b: f64) -> f64 {
  %r = arith.minimumf %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @arith_minimumf.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK-DAG: %[[TIE:.*]] = arith.cmpf oeq, %[[X]], %[[Y]]
// CHECK-DAG: %[[C:.*]] = arith.cmpf olt, %[[X]], %[[Y]]
// CHECK: %[[PICK:.*]] = arith.select %[[C]]
// CHECK: arith.select %[[TIE]], %{{.*}}, %[[PICK]]
// CHECK: return

func.func @math_powf(%a: f64, %b: f64) -> f64 {
  %r = math.powf %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_powf.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[R:.*]] = math.powf %[[X]], %[[Y]]
// CHECK: %[[YM1:.*]] = arith.subf %[[Y]], %cst
// CHECK: %[[P:.*]] = math.powf %[[X]], %[[YM1]]
// d/da is 0 where b = 0, d/db is 0 where a <= 0.
// CHECK: %[[VARIES:.*]] = arith.cmpf une, %[[Y]], %[[ZERO:.*]] : f64
// CHECK: %[[POSITIVE:.*]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : f64
// CHECK: %[[A0:.*]] = arith.mulf %[[Y]], %[[P]]
// CHECK: %[[A:.*]] = arith.select %[[VARIES]], %[[A0]], %[[ZERO]]
// CHECK: %[[L:.*]] = math.log %[[X]]
// CHECK: %[[B0:.*]] = arith.mulf %[[R]], %[[L]]
// CHECK: %[[B:.*]] = arith.select %[[POSITIVE]], %[[B0]], %[[ZERO]]
// CHECK: %[[DX:.*]] = arith.mulf %[[A]], %[[S]]
// CHECK: %[[DY:.*]] = arith.mulf %[[B]], %[[S]]
// CHECK: return %[[R]], %[[DX]], %[[DY]]

func.func @math_atan2(%a: f64, %b: f64) -> f64 {
  %r = math.atan2 %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_atan2.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[YY:.*]] = arith.mulf %[[Y]], %[[Y]]
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[N:.*]] = arith.addf %[[YY]], %[[XX]]
// Both partials are 0 at the origin.
// CHECK: %[[AWAY:.*]] = arith.cmpf une, %[[N]], %[[ZERO:.*]] : f64
// CHECK: %[[A:.*]] = arith.divf %[[Y]], %[[N]]
// CHECK: arith.select %[[AWAY]], %[[A]], %[[ZERO]]
// CHECK: %[[B:.*]] = arith.divf %[[X]], %[[N]]
// CHECK: return

func.func @math_copysign(%a: f64, %b: f64) -> f64 {
  %r = math.copysign %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_copysign.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK: math.copysign %cst, %[[X]]
// CHECK: math.copysign %cst, %[[Y]]
// CHECK: return %{{.*}}, %{{.*}}, %cst

func.func @ct_hypot(%a: f64, %b: f64) -> f64 {
  %r = ct.hypot %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @ct_hypot.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[H:.*]] = ct.hypot %[[X]], %[[Y]] : f64
// Both partials are 0 at the origin.
// CHECK: %[[AWAY:.*]] = arith.cmpf une, %[[H]], %[[ZERO:.*]] : f64
// CHECK: %[[A:.*]] = arith.divf %[[X]], %[[H]]
// CHECK: arith.select %[[AWAY]], %[[A]], %[[ZERO]]
// CHECK: %[[B:.*]] = arith.divf %[[Y]], %[[H]]
// CHECK: arith.select %[[AWAY]], %[[B]], %[[ZERO]]
// CHECK: return

func.func @main(%a: f64, %b: f64) {
  %arith_addf:3 = ct.gradient @arith_addf(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %arith_subf:3 = ct.gradient @arith_subf(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %arith_mulf:3 = ct.gradient @arith_mulf(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %arith_divf:3 = ct.gradient @arith_divf(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %arith_remf:3 = ct.gradient @arith_remf(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %arith_maximumf:3 = ct.gradient @arith_maximumf(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %arith_minimumf:3 = ct.gradient @arith_minimumf(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %math_powf:3 = ct.gradient @math_powf(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %math_atan2:3 = ct.gradient @math_atan2(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %math_copysign:3 = ct.gradient @math_copysign(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %ct_hypot:3 = ct.gradient @ct_hypot(%a, %b) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  return
}

// A choice passes the seed to the operand chosen and zero to the other, by
// choosing, not by multiplying with 1 or 0 (a NaN or infinite seed from
// code that did not run, 0 * inf, must not reach the other side).
func.func @arith_select(%c: i1, %a: f64, %b: f64) -> f64 {
  %r = arith.select %c, %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @arith_select.pullback.caa
// CHECK-SAME: (%[[C:.*]]: i1, %[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[DX:.*]] = arith.select %[[C]], %[[S]], %[[ZERO]] : f64
// CHECK-DAG: %[[DY:.*]] = arith.select %[[C]], %[[ZERO]], %[[S]] : f64
// CHECK-NOT: arith.mulf
// CHECK: return %{{.*}}, %[[DX]], %[[DY]]

func.func @choose(%c: i1, %a: f64, %b: f64) {
  %r:3 = ct.gradient @arith_select(%c, %a, %b) activity [const, active, active] : (i1, f64, f64) -> (f64, f64, f64)
  return
}
