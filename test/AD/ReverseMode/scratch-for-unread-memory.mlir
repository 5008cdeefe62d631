// A call reversed for the memory with a derivative it is given (%p) may
// also be given memory the caller never reads back (%buf: a local whose
// contents flow into nothing useful here). The callee's results are
// outputs to it whether or not they are used here, so what it stores into
// that memory and reads back carries a derivative there: the memory takes
// part with a zeroed scratch shadow, freed after the call (before, the
// callee was told the memory was constant and refused the store).
// RUN: %cotangent-opt %s --ct-differentiate --canonicalize | FileCheck %s

func.func private @body(%x: f64, %buf: memref<2xf64>, %p: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %p[%c0] : memref<?xf64>
  %m = arith.mulf %v, %x : f64
  memref.store %m, %buf[%c0] : memref<2xf64>
  %r = memref.load %buf[%c0] : memref<2xf64>
  return %r : f64
}
func.func @f(%x: f64, %p: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloca() : memref<2xf64>
  %unused = func.call @body(%x, %buf, %p) {no_inline} : (f64, memref<2xf64>, memref<?xf64>) -> f64
  %v = memref.load %p[%c0] : memref<?xf64>
  %y = arith.mulf %v, %v : f64
  return %y : f64
}
func.func @main(%x: f64, %p: memref<?xf64>, %dp: memref<?xf64>) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x, %p) shadows(%dp) activity [active, dup] : (f64, memref<?xf64>, memref<?xf64>) -> (f64, f64)
  return %v, %dx : f64, f64
}

// The callee's reverse half takes the buffer as dup (the `d` second).
// CHECK-LABEL: func.func private @body.rev.cdd
// CHECK-SAME: %[[SEED:[a-z0-9]+]]: f64, %[[DBUF:[a-z0-9]+]]: memref<2xf64>, %{{[a-z0-9]+}}: memref<?xf64>)
// CHECK: memref.load %[[DBUF]]
// CHECK-LABEL: func.func private @f.pullback.ad
// CHECK-SAME: %[[DP:[a-z0-9]+]]: memref<?xf64>) -> (f64, f64)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[BUF:.*]] = memref.alloca() : memref<2xf64>
// CHECK: call @body.fwd.cdd
// CHECK: %[[SCRATCH:.*]] = memref.alloc() : memref<2xf64>
// CHECK: scf.for
// CHECK:   memref.store %[[ZERO]], %[[SCRATCH]]
// CHECK: call @body.rev.cdd(%{{.*}}, %[[BUF]], %{{.*}}, %{{.*}}, %[[ZERO]], %[[SCRATCH]], %[[DP]])
// CHECK: memref.dealloc %[[SCRATCH]]
