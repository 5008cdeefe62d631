// Straight-line code: after clean-up the pullback is what one would write
// by hand (no slots, no tape): v = x^2 y, dx = 2 x y s, dy = x^2 s.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s
// The registered pipeline does the same.
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s

func.func @f(%x: f64, %y: f64) -> f64 {
  %0 = arith.mulf %x, %x : f64
  %1 = arith.mulf %0, %y : f64
  return %1 : f64
}

// Derivatives are placed after their primal function.
// CHECK-LABEL: func.func private @f.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[S:.*]]: f64) -> (f64, f64, f64)
// CHECK-NOT: memref
// CHECK-NOT: ct.tape
// CHECK-DAG: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK-DAG: %[[V:.*]] = arith.mulf %[[XX]], %[[Y]]
// CHECK-DAG: %[[YS:.*]] = arith.mulf %[[Y]], %[[S]]
// CHECK-DAG: %[[DY:.*]] = arith.mulf %[[XX]], %[[S]]
// CHECK-DAG: %[[H:.*]] = arith.mulf %[[X]], %[[YS]]
// CHECK-DAG: %[[DX:.*]] = arith.addf %[[H]], %[[H]]
// CHECK: return %[[V]], %[[DX]], %[[DY]]

// The request becomes a call with the seed 1.
// CHECK-LABEL: func.func @main
// CHECK: %[[ONE:.*]] = arith.constant 1.0
// CHECK: call @f.pullback.aa(%{{.*}}, %{{.*}}, %[[ONE]]) : (f64, f64, f64) -> (f64, f64, f64)
func.func @main(%x: f64, %y: f64) -> (f64, f64, f64) {
  %v, %dx, %dy = ct.gradient @f(%x, %y) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  return %v, %dx, %dy : f64, f64, f64
}
