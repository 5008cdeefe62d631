// Forward mode of a choice between memory that carries a tangent and a
// parameter left out of ct::wrt: the parameter gets zeroed scratch memory
// at the entry, made once, not per iteration of the loop making the choice
// (reserved scratch memory for a C pointer, whose extent is unknown), freed
// at the return. The tangent of the choice is the same choice between
// tangents. Before, this was an error.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @orDefaults.jvp.dcc
// CHECK-SAME: (%{{[^:]*}}: memref<?xf64, strided<[1], offset: ?>>, %[[D:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %{{.*}}: index, %[[TX:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>)
// CHECK: memref.dim %[[D]]
// CHECK: %[[SCRATCH:.*]] = scf.if
// CHECK: call @ct_scratch_reserve
// CHECK: scf.for
// CHECK-NOT: ct_scratch_reserve
// CHECK: %[[C:.*]] = arith.cmpf ogt
// CHECK: arith.select %[[C]], %[[TX]], %[[SCRATCH]]
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

func.func @main(%n: index, %m: memref<?xf64, strided<[1], offset: ?>>, %d: memref<?xf64, strided<[1], offset: ?>>, %tm: memref<?xf64, strided<[1], offset: ?>>) -> (f64, f64) {
  %q:2 = ct.jvp @orDefaults(%m, %d, %n) tangents(%tm) activity [dup, const, const] : (memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, index, memref<?xf64, strided<[1], offset: ?>>) -> (f64, f64)
  return %q#0, %q#1 : f64, f64
}
