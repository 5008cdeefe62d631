// The reverse half of a split callee passes on primal memory it cannot
// reach: a buffer a branch made and passed out (a first derivative's
// working copy, differentiated again). The reverse code never reads primal
// memory, so a fresh buffer of the same shape stands for it, freed where
// that reverse code ends. (Before, this was an error: "an array of 2
// doubles created inside a loop, branch or called function is needed by
// the reverse sweep".) The branch passes the buffer out twice: both results
// share one shadow, so the adjoints the load adds reach the callee's.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @inner.rev.ac
// The shadow the two results share, of the chosen buffer's taped size.
// CHECK: %[[SIZE:.*]] = ct.tape_pop %{{.*}} : index
// CHECK: %[[SHARED:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf64>
// CHECK: %[[SHADOW:.*]] = memref.cast %[[SHARED]] : memref<?xf64> to memref<2xf64>
// The stand-in.
// CHECK: %[[STAND_IN:.*]] = memref.alloc() : memref<2xf64>
// The load's adjoint (of the second result), then the callee's reverse half
// on the stand-in with the same shadow.
// CHECK: memref.store %{{.*}}, %[[SHARED]][%{{.*}}] : memref<?xf64>
// CHECK: call @leaf.rev.da(%[[STAND_IN]], %{{.*}}, %{{.*}}, %{{.*}}, %[[SHADOW]])
// CHECK: scf.if
// CHECK: memref.load %[[SHARED]]
// CHECK-DAG: memref.dealloc %[[SHARED]]
// CHECK-DAG: memref.dealloc %[[STAND_IN]]
// CHECK: return
func.func private @leaf(%a: memref<2xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<2xf64>
  %y = arith.mulf %v, %x : f64
  memref.store %y, %a[%c0] : memref<2xf64>
  return %y : f64
}
func.func private @inner(%x: f64, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  %r:2 = scf.if %c -> (memref<2xf64>, memref<2xf64>) {
    %a = memref.alloc() : memref<2xf64>
    memref.store %x, %a[%c0] : memref<2xf64>
    scf.yield %a, %a : memref<2xf64>, memref<2xf64>
  } else {
    %b = memref.alloc() : memref<2xf64>
    memref.store %one, %b[%c0] : memref<2xf64>
    scf.yield %b, %b : memref<2xf64>, memref<2xf64>
  }
  %y = func.call @leaf(%r#0, %x) : (memref<2xf64>, f64) -> f64
  %w = memref.load %r#1[%c0] : memref<2xf64>
  %z = arith.mulf %w, %y : f64
  memref.dealloc %r#1 : memref<2xf64>
  return %z : f64
}
func.func @outer(%x: f64, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (f64) {
    %y = func.call @inner(%acc, %c) : (f64, i1) -> f64
    %t = math.sin %y : f64
    scf.yield %t : f64
  }
  return %s : f64
}
func.func @main(%x: f64, %c: i1) -> (f64, f64) {
  %v, %dx = ct.gradient @outer(%x, %c) activity [active, const] : (f64, i1) -> (f64, f64)
  return %v, %dx : f64, f64
}
