// The derivative IR of every unary rule, in forward mode after clean-up:
// for y = op(x) the tangent is D * t, with D built from the rule's formula
// (see lib/AD/Rules). Piecewise-constant functions have tangent 0.
// Numbers are checked by test/Integration/MLIR/rules-fd.mlir.
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s

func.func @math_sin(%x: f64) -> f64 {
  %r = math.sin %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_sin.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[D:.*]] = math.cos %[[X]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_cos(%x: f64) -> f64 {
  %r = math.cos %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_cos.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[S:.*]] = math.sin %[[X]]
// CHECK: %[[D:.*]] = arith.negf %[[S]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_tan(%x: f64) -> f64 {
  %r = math.tan %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_tan.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[R:.*]] = math.tan %[[X]]
// CHECK: %[[RR:.*]] = arith.mulf %[[R]], %[[R]]
// CHECK: %[[D:.*]] = arith.addf %[[RR]], %cst
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_asin(%x: f64) -> f64 {
  %r = math.asin %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_asin.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[U:.*]] = arith.subf %cst{{.*}}, %[[XX]]
// CHECK: %[[Q:.*]] = math.sqrt %[[U]]
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[Q]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_acos(%x: f64) -> f64 {
  %r = math.acos %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_acos.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[U:.*]] = arith.subf %cst{{.*}}, %[[XX]]
// CHECK: %[[Q:.*]] = math.sqrt %[[U]]
// CHECK: %[[I:.*]] = arith.divf %cst{{.*}}, %[[Q]]
// CHECK: %[[D:.*]] = arith.negf %[[I]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_atan(%x: f64) -> f64 {
  %r = math.atan %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_atan.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[U:.*]] = arith.addf %[[XX]], %cst
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[U]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_sinh(%x: f64) -> f64 {
  %r = math.sinh %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_sinh.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[D:.*]] = math.cosh %[[X]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_cosh(%x: f64) -> f64 {
  %r = math.cosh %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_cosh.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[D:.*]] = math.sinh %[[X]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_tanh(%x: f64) -> f64 {
  %r = math.tanh %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_tanh.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[R:.*]] = math.tanh %[[X]]
// CHECK: %[[RR:.*]] = arith.mulf %[[R]], %[[R]]
// CHECK: %[[D:.*]] = arith.subf %cst{{.*}}, %[[RR]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_asinh(%x: f64) -> f64 {
  %r = math.asinh %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_asinh.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[U:.*]] = arith.addf %[[XX]], %cst
// CHECK: %[[Q:.*]] = math.sqrt %[[U]]
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[Q]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_acosh(%x: f64) -> f64 {
  %r = math.acosh %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_acosh.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[U:.*]] = arith.subf %[[XX]], %cst
// CHECK: %[[Q:.*]] = math.sqrt %[[U]]
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[Q]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_atanh(%x: f64) -> f64 {
  %r = math.atanh %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_atanh.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[U:.*]] = arith.subf %cst{{.*}}, %[[XX]]
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[U]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_exp(%x: f64) -> f64 {
  %r = math.exp %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_exp.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[D:.*]] = math.exp %[[X]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_exp2(%x: f64) -> f64 {
  %r = math.exp2 %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_exp2.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[R:.*]] = math.exp2 %[[X]]
// CHECK: %[[D:.*]] = arith.mulf %[[R]], %cst
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_expm1(%x: f64) -> f64 {
  %r = math.expm1 %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_expm1.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[R:.*]] = math.expm1 %[[X]]
// CHECK: %[[D:.*]] = arith.addf %[[R]], %cst
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_log(%x: f64) -> f64 {
  %r = math.log %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_log.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[X]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_log2(%x: f64) -> f64 {
  %r = math.log2 %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_log2.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[U:.*]] = arith.mulf %[[X]], %cst
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[U]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_log10(%x: f64) -> f64 {
  %r = math.log10 %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_log10.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[U:.*]] = arith.mulf %[[X]], %cst
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[U]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_log1p(%x: f64) -> f64 {
  %r = math.log1p %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_log1p.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[U:.*]] = arith.addf %[[X]], %cst
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[U]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_sqrt(%x: f64) -> f64 {
  %r = math.sqrt %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_sqrt.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[R:.*]] = math.sqrt %[[X]]
// CHECK: %[[D:.*]] = arith.divf %cst{{.*}}, %[[R]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_rsqrt(%x: f64) -> f64 {
  %r = math.rsqrt %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_rsqrt.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[R:.*]] = math.rsqrt %[[X]]
// CHECK: %[[U:.*]] = arith.mulf %[[X]], %cst
// CHECK: %[[Q:.*]] = arith.divf %[[R]], %[[U]]
// CHECK: %[[D:.*]] = arith.negf %[[Q]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_cbrt(%x: f64) -> f64 {
  %r = math.cbrt %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_cbrt.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// cbrt' = 1 / (3 cbrt^2), +inf at 0.
// CHECK: %[[R:.*]] = math.cbrt %[[X]]
// CHECK: %[[RR:.*]] = arith.mulf %[[R]], %[[R]]
// CHECK: %[[U:.*]] = arith.mulf %[[RR]], %cst
// CHECK: %[[D:.*]] = arith.divf %{{.*}}, %[[U]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_absf(%x: f64) -> f64 {
  %r = math.absf %x : f64
  return %r : f64
}
// sign(x), 0 at 0.
// CHECK-LABEL: func.func private @math_absf.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[NONZERO:.*]] = arith.cmpf une, %[[X]], %[[ZERO:.*]] : f64
// CHECK: %[[SIGN:.*]] = math.copysign %cst{{.*}}, %[[X]]
// CHECK: %[[D:.*]] = arith.select %[[NONZERO]], %[[SIGN]], %[[ZERO]]
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_erf(%x: f64) -> f64 {
  %r = math.erf %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_erf.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[N:.*]] = arith.negf %[[XX]]
// CHECK: %[[E:.*]] = math.exp %[[N]]
// CHECK: %[[D:.*]] = arith.mulf %[[E]], %cst
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @math_erfc(%x: f64) -> f64 {
  %r = math.erfc %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_erfc.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[N:.*]] = arith.negf %[[XX]]
// CHECK: %[[E:.*]] = math.exp %[[N]]
// CHECK: %[[D:.*]] = arith.mulf %[[E]], %cst
// CHECK: %[[DT:.*]] = arith.mulf %[[D]], %[[T]]
// CHECK: return %{{.*}}, %[[DT]]

func.func @arith_negf(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @arith_negf.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[M:.*]] = arith.constant -1.0
// CHECK: %[[D:.*]] = arith.mulf %[[T]], %[[M]]
// CHECK: return %{{.*}}, %[[D]]

func.func @math_floor(%x: f64) -> f64 {
  %r = math.floor %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_floor.jvp.a
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: math.floor
// CHECK: return %{{.*}}, %[[ZERO]]

func.func @math_ceil(%x: f64) -> f64 {
  %r = math.ceil %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_ceil.jvp.a
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: math.ceil
// CHECK: return %{{.*}}, %[[ZERO]]

func.func @math_round(%x: f64) -> f64 {
  %r = math.round %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_round.jvp.a
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: math.round
// CHECK: return %{{.*}}, %[[ZERO]]

func.func @math_roundeven(%x: f64) -> f64 {
  %r = math.roundeven %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_roundeven.jvp.a
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: math.roundeven
// CHECK: return %{{.*}}, %[[ZERO]]

func.func @math_trunc(%x: f64) -> f64 {
  %r = math.trunc %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @math_trunc.jvp.a
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: math.trunc
// CHECK: return %{{.*}}, %[[ZERO]]

func.func @main(%x: f64, %t: f64) {
  %math_sin:2 = ct.jvp @math_sin(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_cos:2 = ct.jvp @math_cos(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_tan:2 = ct.jvp @math_tan(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_asin:2 = ct.jvp @math_asin(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_acos:2 = ct.jvp @math_acos(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_atan:2 = ct.jvp @math_atan(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_sinh:2 = ct.jvp @math_sinh(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_cosh:2 = ct.jvp @math_cosh(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_tanh:2 = ct.jvp @math_tanh(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_asinh:2 = ct.jvp @math_asinh(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_acosh:2 = ct.jvp @math_acosh(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_atanh:2 = ct.jvp @math_atanh(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_exp:2 = ct.jvp @math_exp(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_exp2:2 = ct.jvp @math_exp2(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_expm1:2 = ct.jvp @math_expm1(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_log:2 = ct.jvp @math_log(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_log2:2 = ct.jvp @math_log2(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_log10:2 = ct.jvp @math_log10(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_log1p:2 = ct.jvp @math_log1p(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_sqrt:2 = ct.jvp @math_sqrt(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_rsqrt:2 = ct.jvp @math_rsqrt(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_cbrt:2 = ct.jvp @math_cbrt(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_absf:2 = ct.jvp @math_absf(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_erf:2 = ct.jvp @math_erf(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_erfc:2 = ct.jvp @math_erfc(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %arith_negf:2 = ct.jvp @arith_negf(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_floor:2 = ct.jvp @math_floor(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_ceil:2 = ct.jvp @math_ceil(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_round:2 = ct.jvp @math_round(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_roundeven:2 = ct.jvp @math_roundeven(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  %math_trunc:2 = ct.jvp @math_trunc(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  return
}

// A choice's tangent is the chosen operand's tangent, chosen (never a
// product with 1 or 0).
func.func @arith_select(%c: i1, %a: f64, %b: f64) -> f64 {
  %r = arith.select %c, %a, %b : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @arith_select.jvp
// CHECK-SAME: (%[[C:.*]]: i1, %[[X:.*]]: f64, %[[Y:.*]]: f64, %[[TX:.*]]: f64, %[[TY:.*]]: f64)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[A:.*]] = arith.select %[[C]], %[[TX]], %[[ZERO]] : f64
// CHECK-DAG: %[[B:.*]] = arith.select %[[C]], %[[ZERO]], %[[TY]] : f64
// CHECK-NOT: arith.mulf
// CHECK: %[[T:.*]] = arith.addf %[[A]], %[[B]]
// CHECK: return %{{.*}}, %[[T]]

func.func @choose(%c: i1, %a: f64, %b: f64, %ta: f64, %tb: f64) {
  %r:2 = ct.jvp @arith_select(%c, %a, %b) tangents(%ta, %tb) activity [const, active, active] : (i1, f64, f64, f64, f64) -> (f64, f64)
  return
}
