// A view the reverse sweep makes again inside a loop, built from another
// op's metadata (offset, sizes, strides, each a result of its own): the
// reverse code takes each result it needs, not the op's first (which would
// put the base buffer where the offset goes).
// RUN: %cotangent-opt %s --ct-differentiate="commuting-iterations=false eager-loops=false" %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @rows.pullback.dc(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %[[SIZES:.*]], %[[STRIDES:.*]] = memref.extract_strided_metadata
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%[[OFFSET]]]
// CHECK: return
func.func @rows(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %start = arith.muli %i, %c2 : index
    %row = memref.subview %x[%start] [2] [1] : memref<?xf64> to memref<2xf64, strided<[1], offset: ?>>
    %base, %offset, %size, %stride = memref.extract_strided_metadata %row : memref<2xf64, strided<[1], offset: ?>> -> memref<f64>, index, index, index
    %pair = memref.reinterpret_cast %row to offset: [%offset], sizes: [1, 2], strides: [2, 1] : memref<2xf64, strided<[1], offset: ?>> to memref<1x2xf64, strided<[2, 1], offset: ?>>
    %a = memref.load %pair[%c0, %c0] : memref<1x2xf64, strided<[2, 1], offset: ?>>
    %b = memref.load %pair[%c0, %c1] : memref<1x2xf64, strided<[2, 1], offset: ?>>
    %p = arith.mulf %a, %b : f64
    %s = arith.addf %acc, %p : f64
    scf.yield %s : f64
  }
  return %r : f64
}

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %n: index) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = ct.pullback @rows(%x, %n) seeds(%one) shadows(%dx) activity [dup, const] : (memref<?xf64>, index, f64, memref<?xf64>) -> f64
  return %r : f64
}
