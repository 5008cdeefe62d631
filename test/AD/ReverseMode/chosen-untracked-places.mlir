// A choice between memory whose derivative is tracked and memory whose
// derivative is not (`c ? x : d` with `d` a parameter left out of
// ct::wrt): the untracked place's shadow is zeroed scratch memory made where
// the reverse code of its block starts (a C pointer's extent is unknown:
// reserved scratch memory there) and freed where it ends, so the choice
// between shadows is made as for two tracked places and what is added to
// the untracked side is discarded. Before, this was an error.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @orDefaults.pullback.dcc
// CHECK-SAME: (%[[X:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %[[D:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %{{.*}}: index, %{{.*}}: f64, %[[DX:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>)
// CHECK: %[[SIZE:.*]] = memref.dim %[[D]]
// CHECK: %[[SCRATCH:.*]] = scf.if
// CHECK: call @ct_scratch_reserve
// CHECK: } else {
// CHECK: memref.alloc(%[[SIZE]])
// CHECK: scf.for
// CHECK: %[[C:.*]] = arith.cmpf ogt
// CHECK: %[[DP:.*]] = arith.select %[[C]], %[[DX]], %[[SCRATCH]]
// CHECK: memref.store %{{.*}}, %[[DP]]
// CHECK: }
// CHECK: scf.if
// CHECK: call @ct_scratch_release
// CHECK: memref.dealloc
// CHECK: return
func.func @orDefaults(%x: memref<?xf64, strided<[1], offset: ?>>, %d: memref<?xf64, strided<[1], offset: ?>>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %v = memref.load %x[%i] : memref<?xf64, strided<[1], offset: ?>>
    %c = arith.cmpf ogt, %v, %zero : f64
    %p = arith.select %c, %x, %d : memref<?xf64, strided<[1], offset: ?>>
    %e = memref.load %p[%i] : memref<?xf64, strided<[1], offset: ?>>
    %t = arith.mulf %e, %v : f64
    %next = arith.addf %s, %t : f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @main(%x: memref<?xf64, strided<[1], offset: ?>>, %d: memref<?xf64, strided<[1], offset: ?>>, %dx: memref<?xf64, strided<[1], offset: ?>>, %n: index) -> f64 {
  %s = arith.constant 1.0 : f64
  %r = ct.pullback @orDefaults(%x, %d, %n) seeds(%s) shadows(%dx) activity [dup, const, const] : (memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, index, f64, memref<?xf64, strided<[1], offset: ?>>) -> f64
  return %r : f64
}
