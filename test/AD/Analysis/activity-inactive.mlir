// Only active values get derivative code: integer arithmetic, parameters
// declared const, values computed from them alone, and anything behind
// ct.stop_gradient are never differentiated.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// f(x, c, n) = x * stop_gradient(x) * (c * c + n): df/dx = stop(x)(c*c + n)
func.func @f(%x: f64, %c: f64, %n: i32) -> f64 {
  %k = arith.sitofp %n : i32 to f64
  %cc = arith.mulf %c, %c : f64
  %w = arith.addf %cc, %k : f64
  %s = ct.stop_gradient %x : f64
  %xs = arith.mulf %x, %s : f64
  %r = arith.mulf %xs, %w : f64
  return %r : f64
}

// Derivatives are inserted right after their primal, the latest first.
// Reverse mode: the adjoint of x only, through the non-stopped factor.
// CHECK-LABEL: func.func private @f.pullback.acc
// CHECK-SAME: (%[[X:.*]]: f64, %[[C:.*]]: f64, %[[N:.*]]: i32, %[[SEED:.*]]: f64)
// CHECK-NOT: memref
// CHECK-DAG: %[[W:.*]] = arith.addf
// CHECK-DAG: %[[S:.*]] = ct.stop_gradient %[[X]]
// CHECK-DAG: %[[A:.*]] = arith.mulf %[[W]], %[[SEED]]
// CHECK-DAG: %[[DX:.*]] = arith.mulf %[[S]], %[[A]]
// CHECK: return %{{.*}}, %[[DX]] : f64, f64

// Forward mode: one product per active op, none for %cc, %w or %s.
// CHECK-LABEL: func.func private @f.jvp.acc
// CHECK-SAME: (%[[X:.*]]: f64, %[[C:.*]]: f64, %[[N:.*]]: i32, %[[TX:.*]]: f64)
// CHECK-DAG: %[[W:.*]] = arith.addf
// CHECK-DAG: %[[S:.*]] = ct.stop_gradient %[[X]]
// CHECK-DAG: %[[XS:.*]] = arith.mulf %[[X]], %[[S]]
// CHECK-DAG: %[[TXS:.*]] = arith.mulf %[[S]], %[[TX]]
// CHECK-DAG: %[[R:.*]] = arith.mulf %[[XS]], %[[W]]
// CHECK-DAG: %[[TR:.*]] = arith.mulf %[[W]], %[[TXS]]
// CHECK: return %[[R]], %[[TR]]

func.func @main(%x: f64, %c: f64, %n: i32, %tx: f64) -> (f64, f64, f64, f64) {
  %v, %t = ct.jvp @f(%x, %c, %n) tangents(%tx) activity [active, const, const]
      : (f64, f64, i32, f64) -> (f64, f64)
  %w, %dx = ct.gradient @f(%x, %c, %n) activity [active, const, const]
      : (f64, f64, i32) -> (f64, f64)
  return %v, %t, %w, %dx : f64, f64, f64, f64
}
