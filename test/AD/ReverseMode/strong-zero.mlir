// Strong zero: each product of a partial and an adjoint (reverse) or a
// tangent (forward) is zero where either factor is zero, whatever the
// other; without the option, a plain product.
// RUN: %cotangent-opt %s --ct-differentiate=strong-zero=true %ad-cleanup | FileCheck %s
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s --check-prefix=IEEE

func.func @expm(%x: f64) -> f64 {
  %e = math.exp %x : f64
  return %e : f64
}

// CHECK-LABEL: func.func private @expm.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[E:.*]] = math.exp %[[X]]
// CHECK-DAG: %[[P:.*]] = arith.mulf %[[E]], %[[T]]
// CHECK-DAG: %[[ZP:.*]] = arith.cmpf oeq, %[[E]], %[[ZERO]]
// CHECK-DAG: %[[ZF:.*]] = arith.cmpf oeq, %[[T]], %[[ZERO]]
// CHECK-DAG: %[[Z:.*]] = arith.ori %[[ZP]], %[[ZF]]
// CHECK: %[[R:.*]] = arith.select %[[Z]], %[[ZERO]], %[[P]]
// CHECK: return %[[E]], %[[R]]
// CHECK-LABEL: func.func private @expm.pullback.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[S:.*]]: f64)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[E:.*]] = math.exp %[[X]]
// CHECK-DAG: %[[P:.*]] = arith.mulf %[[E]], %[[S]]
// CHECK-DAG: %[[ZP:.*]] = arith.cmpf oeq, %[[E]], %[[ZERO]]
// CHECK-DAG: %[[ZF:.*]] = arith.cmpf oeq, %[[S]], %[[ZERO]]
// CHECK-DAG: %[[Z:.*]] = arith.ori %[[ZP]], %[[ZF]]
// CHECK: %[[R:.*]] = arith.select %[[Z]], %[[ZERO]], %[[P]]
// CHECK: return %[[E]], %[[R]]

// IEEE-LABEL: func.func private @expm.jvp.a
// IEEE-NOT: arith.select
// IEEE-LABEL: func.func private @expm.pullback.a
// IEEE-NOT: arith.select
// IEEE: return

func.func @main(%x: f64, %t: f64) -> (f64, f64) {
  %v, %dx = ct.gradient @expm(%x) activity [active] : (f64) -> (f64, f64)
  %w, %tx = ct.jvp @expm(%x) tangents(%t) activity [active]
    : (f64, f64) -> (f64, f64)
  return %dx, %tx : f64, f64
}
