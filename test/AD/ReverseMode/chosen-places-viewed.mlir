// A place chosen in a loop between two local buffers (a reference bound to
// `c ? a : b` and passed on) and viewed there: where the loop's forward
// values serve its reverse code directly, the forward sweep makes the
// same choice between the buffers' shadows, and the view of the choice
// gets the same view of that (before, the view found no shadow and the
// compiler crashed). The reverse sweep adds into the chosen shadow.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @pick.pullback.dc
// CHECK: %[[A:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[DA:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[B:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[DB:.*]] = memref.alloca() : memref<3xf64>
// CHECK: scf.for
// CHECK: %[[P:.*]] = arith.select %[[C:.*]], %{{.*}}, %{{.*}} : memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[DP:.*]] = arith.select %[[C]], %{{.*}}, %{{.*}} : memref<?xf64, strided<[1], offset: ?>>
// CHECK: memref.subview %[[P]]
// CHECK: %[[DV:.*]] = memref.subview %[[DP]]
// CHECK: memref.store %{{.*}}, %[[DV]]
func.func @pick(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f64
  %zero = arith.constant 0.0 : f64
  %a = memref.alloca() : memref<2xf64>
  %b = memref.alloca() : memref<3xf64>
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %x1 = memref.load %x[%c1] : memref<?xf64>
  memref.store %x0, %a[%c0] : memref<2xf64>
  memref.store %x1, %b[%c0] : memref<3xf64>
  %ca = memref.cast %a : memref<2xf64> to memref<?xf64, strided<[1], offset: ?>>
  %cb = memref.cast %b : memref<3xf64> to memref<?xf64, strided<[1], offset: ?>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %c = arith.cmpf ogt, %v, %half : f64
    %p = arith.select %c, %ca, %cb : memref<?xf64, strided<[1], offset: ?>>
    %dim = memref.dim %p, %c0 : memref<?xf64, strided<[1], offset: ?>>
    %view = memref.subview %p[0] [%dim] [1] : memref<?xf64, strided<[1], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
    %e = memref.load %view[%c0] : memref<?xf64, strided<[1], offset: ?>>
    %t = arith.mulf %e, %v : f64
    %next = arith.addf %s, %t : f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %n: index) -> f64 {
  %s = arith.constant 1.0 : f64
  %r = ct.pullback @pick(%x, %n) seeds(%s) shadows(%dx) activity [dup, const] : (memref<?xf64>, index, f64, memref<?xf64>) -> f64
  return %r : f64
}
