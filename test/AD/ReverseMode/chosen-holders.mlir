// An address loaded from one of two holders chosen at run time (a struct
// with a pointer field that keeps its address, bound to `c ? a : b`): the
// forward sweep makes the same choice between the holders' shadows where
// it makes the choice, loads the shadow address from it, and the reverse
// sweep adds into the memory it designates.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @chosen.pullback.ddc
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[Y:.*]]: memref<?xf64>, %[[C:.*]]: i1, %[[SEED:.*]]: f64, %[[DX:.*]]: memref<?xf64>, %[[DY:.*]]: memref<?xf64>)
// CHECK: ct.store_address %[[X]], %[[A:[a-z0-9_]+]][
// CHECK: ct.store_address %[[DX]], %[[DA:[a-z0-9_]+]][
// CHECK: ct.store_address %[[Y]], %[[B:[a-z0-9_]+]][
// CHECK: ct.store_address %[[DY]], %[[DB:[a-z0-9_]+]][
// CHECK: %[[H:.*]] = arith.select %[[C]], %[[A]], %[[B]]
// CHECK: %[[DH:.*]] = arith.select %[[C]], %[[DA]], %[[DB]]
// CHECK: %[[P:.*]] = ct.load_address %[[H]]
// CHECK: %[[DP:.*]] = ct.load_address %[[DH]]
// CHECK: %[[V:.*]] = memref.load %[[P]]
// CHECK: memref.load %[[DP]]
// CHECK: memref.store %{{.*}}, %[[DP]]
func.func @chosen(%x: memref<?xf64>, %y: memref<?xf64>, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<1xf64>
  %b = memref.alloca() : memref<1xf64>
  ct.store_address %x, %a[%c0] : memref<?xf64>, memref<1xf64>
  ct.store_address %y, %b[%c0] : memref<?xf64>, memref<1xf64>
  %holder = arith.select %c, %a, %b : memref<1xf64>
  %p = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %r = arith.mulf %v, %v : f64
  return %r : f64
}

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %y: memref<?xf64>, %dy: memref<?xf64>, %c: i1) -> f64 {
  %s = arith.constant 1.0 : f64
  %r = ct.pullback @chosen(%x, %y, %c) seeds(%s) shadows(%dx, %dy) activity [dup, dup, const] : (memref<?xf64>, memref<?xf64>, i1, f64, memref<?xf64>, memref<?xf64>) -> f64
  return %r : f64
}
