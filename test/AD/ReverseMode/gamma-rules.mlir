// The gamma functions' rules: lgamma' = ψ = polygamma 0, tgamma' = Γ ψ,
// (polygamma n)' = polygamma n+1, so derivatives of any order exist.
// Numbers: test/Integration/CPU/gamma-functions.cpp.
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s

func.func @lgamma(%x: f64) -> f64 {
  %r = ct.lgamma %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @lgamma.pullback.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[PSI:.*]] = ct.polygamma 0, %[[X]] : f64
// CHECK: arith.mulf %[[PSI]], %[[S]]

func.func @tgamma(%x: f64) -> f64 {
  %r = ct.tgamma %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @tgamma.pullback.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[G:.*]] = ct.tgamma %[[X]] : f64
// CHECK: %[[PSI:.*]] = ct.polygamma 0, %[[X]] : f64
// CHECK: %[[D:.*]] = arith.mulf %[[G]], %[[PSI]]
// CHECK: arith.mulf %[[D]], %[[S]]

func.func @trigamma(%x: f32) -> f32 {
  %r = ct.polygamma 1, %x : f32
  return %r : f32
}
// CHECK-LABEL: func.func private @trigamma.pullback.a
// CHECK: ct.polygamma 2, %{{.*}} : f32

func.func @main(%x: f64, %y: f32) {
  %a:2 = ct.gradient @lgamma(%x) activity [active] : (f64) -> (f64, f64)
  %b:2 = ct.gradient @tgamma(%x) activity [active] : (f64) -> (f64, f64)
  %c:2 = ct.gradient @trigamma(%y) activity [active] : (f32) -> (f32, f32)
  return
}
