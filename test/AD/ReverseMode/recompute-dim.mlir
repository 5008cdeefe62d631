// The size of a memref is recomputed in the reverse sweep, not taped: a view
// passed to a call inside a loop is rebuilt from its source and its size.
// (The sum is squared, so that the loop is not reversed in place and the
// call is split into halves.)
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @outer.pullback.dc
// CHECK: scf.for
// CHECK-NOT: ct.tape_push %{{.*}} : index
// CHECK: call @inner.fwd
// CHECK: scf.for
// CHECK: %[[SIZE:.*]] = memref.dim %arg0
// CHECK: %[[VIEW:.*]] = memref.subview %arg0[%{{.*}}] [%[[SIZE]]] [1]
// CHECK: call @inner.rev.d(%[[VIEW]]
func.func @inner(%v: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %c0 = arith.constant 0 : index
  %x = memref.load %v[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %y = arith.mulf %x, %x : f64
  return %y : f64
}

func.func @outer(%a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %size = memref.dim %a, %c0 : memref<?xf64>
    %view = memref.subview %a[%i] [%size] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
    %r = func.call @inner(%view) : (memref<?xf64, strided<[1], offset: ?>>) -> f64
    %next = arith.addf %acc, %r : f64
    scf.yield %next : f64
  }
  %s2 = arith.mulf %s, %s : f64
  return %s2 : f64
}

func.func @main(%a: memref<?xf64>, %da: memref<?xf64>, %n: index) -> f64 {
  %g = ct.gradient @outer(%a, %n) shadows(%da) activity [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> f64
  return %g : f64
}
