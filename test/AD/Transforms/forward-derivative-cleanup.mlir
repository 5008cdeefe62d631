// ct-forward-derivative-cleanup, run on a function into which forward-mode
// derivatives were inlined before reverse mode differentiates it (a
// Hessian-vector product): what the tangent code recomputes is computed
// once (cse), a load of a loop-invariant element leaves the loop
// (ct-hoist-invariant-loads), and a load of an element just stored is its
// value (ct-forward-stores).
// RUN: %cotangent-opt %s --pass-pipeline='builtin.module(ct-forward-derivative-cleanup)' | FileCheck %s

// CHECK-LABEL: func.func @tangent_of_sin
// CHECK-COUNT-1: math.cos
// CHECK-NOT: math.cos
func.func @tangent_of_sin(%x: f64, %dx: f64) -> (f64, f64) {
  %s = math.sin %x : f64
  %c = math.cos %x : f64
  %c2 = math.cos %x : f64
  %t = arith.mulf %c2, %dx : f64
  %u = arith.addf %c, %t : f64
  return %s, %u : f64, f64
}

// c[k] is read from a local buffer while the loop writes another one.
// CHECK-LABEL: func.func @invariant_load
// CHECK: %[[K:.*]] = scf.if
// CHECK-NEXT: memref.load %{{.*}}[%arg1] : memref<8xf64>
// CHECK: scf.for
// CHECK-NOT: memref.load %{{.*}}[%arg1] : memref<8xf64>
// CHECK: arith.mulf %{{.*}}, %[[K]]
func.func @invariant_load(%q: memref<?xf64>, %k: index, %n: index) -> f64 {
  %c = memref.alloca() : memref<8xf64>
  %t = memref.alloca() : memref<8xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %r = %c0 to %n step %c1 {
    %qr = memref.load %q[%r] : memref<?xf64>
    %ck = memref.load %c[%k] : memref<8xf64>
    %p = arith.mulf %qr, %ck : f64
    memref.store %p, %t[%r] : memref<8xf64>
  }
  %r = memref.load %t[%c0] : memref<8xf64>
  return %r : f64
}

// CHECK-LABEL: func.func @stored_then_loaded
// CHECK-NOT: memref.load
// CHECK: %[[D:.*]] = arith.subf %arg1, %arg2
// CHECK: memref.store %[[D]], %arg0
// CHECK: arith.mulf %arg3, %[[D]]
func.func @stored_then_loaded(%c: memref<4xf64>, %x: f64, %m: f64,
                              %d: f64) -> f64 {
  %i = arith.constant 1 : index
  %v = arith.subf %x, %m : f64
  memref.store %v, %c[%i] : memref<4xf64>
  %r = memref.load %c[%i] : memref<4xf64>
  %y = arith.mulf %d, %r : f64
  return %y : f64
}
