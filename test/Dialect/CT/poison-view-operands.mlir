// A view's offset, size or stride that is poison (no path defines it) is
// given the value zero before MLIR folds constant operands into the view:
// that folding reads a poison attribute as if it were an integer (it
// produced a garbage stride, or crashed, compiling Eigen's blocked LU with
// the plain strategy). Other operands and poison of other types stay.
// RUN: %cotangent-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @poison_stride
// CHECK-NOT: ub.poison
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: memref.subview %arg0[%arg1] [4] [%[[ZERO]]]
func.func @poison_stride(%m: memref<?xf64>, %o: index)
    -> memref<?xf64, strided<[?], offset: ?>> {
  %p = ub.poison : index
  %c = arith.constant 4 : index
  %s = memref.subview %m[%o] [%c] [%p]
      : memref<?xf64> to memref<?xf64, strided<[?], offset: ?>>
  return %s : memref<?xf64, strided<[?], offset: ?>>
}

// CHECK-LABEL: func.func @poison_offset_and_size
// CHECK-NOT: ub.poison
// CHECK: memref.subview %arg0[0] [0] [1]
func.func @poison_offset_and_size(%m: memref<?xf64>)
    -> memref<?xf64, strided<[1], offset: ?>> {
  %p = ub.poison : index
  %s = memref.subview %m[%p] [%p] [1]
      : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
  return %s : memref<?xf64, strided<[1], offset: ?>>
}

// CHECK-LABEL: func.func @poison_elsewhere
// CHECK: %[[P:.*]] = ub.poison : index
// CHECK: %[[M:.*]] = ub.poison : memref<?xf64>
// CHECK: memref.subview %[[M]][%arg0] [%arg0] [1]
// CHECK: return {{.*}}, %[[P]]
func.func @poison_elsewhere(%n: index)
    -> (memref<?xf64, strided<[1], offset: ?>>, index) {
  %p = ub.poison : index
  %m = ub.poison : memref<?xf64>
  %s = memref.subview %m[%n] [%n] [1]
      : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
  return %s, %p : memref<?xf64, strided<[1], offset: ?>>, index
}

func.func @load_dialect(%x: f64) -> i64 {
  %bits = ct.bit_cast %x : f64 to i64
  return %bits : i64
}
