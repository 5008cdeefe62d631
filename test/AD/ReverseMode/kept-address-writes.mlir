// Memory whose address is kept (in a holder, as a pointer variable tested
// for null keeps it) may be written through an address read back: here
// after the loop that read it directly. The reverse sweep cannot read it
// again (it would see the later 5, a wrong derivative): every write through
// a read-back address counts as a write of every buffer whose address is
// stored, so the loop tapes what it read.
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup > /dev/null

func.func @f(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %five = arith.constant 5.0 : f64
  %a = memref.alloc(%c1) : memref<?xf64>
  %holder = memref.alloca() : memref<1xf64>
  %view = memref.cast %a : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
  ct.store_address %view, %holder[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
  %b = memref.alloc(%n) : memref<?xf64>
  %holder2 = memref.alloca() : memref<1xf64>
  %bview = memref.cast %b : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
  ct.store_address %bview, %holder2[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
  %p0 = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  memref.store %x, %p0[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %a[%c0] : memref<?xf64>
    %sq = arith.mulf %v, %v : f64
    %t = arith.mulf %sq, %acc : f64
    %u = arith.addf %t, %v : f64
    %q = ct.load_address %holder2[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
    memref.store %u, %q[%i] : memref<?xf64, strided<[1], offset: ?>>
    scf.yield %u : f64
  }
  %p = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  memref.store %five, %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  memref.dealloc %a : memref<?xf64>
  memref.dealloc %b : memref<?xf64>
  return %s : f64
}
// CHECK-LABEL: func.func private @f.pullback.ac
// CHECK: %[[A:.*]] = memref.alloc() : memref<1xf64>
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %[[A]][%{{.*}}] : memref<1xf64>
// CHECK: ct.tape_write %[[V]], %{{.*}} : f64
// CHECK: scf.yield
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.for
// CHECK-NOT: memref.load %[[A]][
// CHECK: return

func.func @main(%x: f64, %n: index) -> (f64, f64) {
  %v:2 = ct.gradient @f(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  return %v#0, %v#1 : f64, f64
}
