// ct.polygamma expands to a recurrence loop up to 12 + n and the asymptotic
// series there (digamma: log and the reflection for x < 0); lgamma and
// tgamma lower to the C library's functions.
// RUN: %cotangent-opt %s --ct-expand-special-functions | FileCheck %s
// RUN: %cotangent-opt %s --ct-expand-special-functions --convert-to-llvm | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @digamma
// CHECK-NOT: ct.polygamma
// CHECK: math.tan
// CHECK: arith.select
// CHECK: %[[LOOP:.*]]:2 = scf.while
// CHECK: arith.cmpf olt, %{{.*}}, %cst{{.*}} : f64
// CHECK: math.log %[[LOOP]]#0
func.func @digamma(%x: f64) -> f64 {
  %r = ct.polygamma 0, %x : f64
  return %r : f64
}

// CHECK-LABEL: func.func @tetragamma
// CHECK-NOT: math.tan
// CHECK: scf.while
// CHECK-NOT: math.log
// CHECK: return
func.func @tetragamma(%x: f32) -> f32 {
  %r = ct.polygamma 2, %x : f32
  return %r : f32
}

// LLVM-DAG: llvm.func @lgamma(f64) -> f64
// LLVM-DAG: llvm.func @tgammaf(f32) -> f32
// LLVM-LABEL: llvm.func @gammas
// LLVM: llvm.call @lgamma
// LLVM: llvm.call @tgammaf
func.func @gammas(%x: f64, %y: f32) -> (f64, f32) {
  %l = ct.lgamma %x : f64
  %g = ct.tgamma %y : f32
  return %l, %g : f64, f32
}
