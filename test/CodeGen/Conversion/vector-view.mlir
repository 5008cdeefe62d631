// ct.vector_view round-trips and lowers to a descriptor over the vector's
// first element whose size is the bytes between its first two pointers in
// scalars: { first, first, 0, (end - first) / 8, 1 } for doubles.
// RUN: %cotangent-opt %s | %cotangent-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s

// ROUNDTRIP-LABEL: func.func @size_of
// ROUNDTRIP: ct.vector_view %arg0 {begin = 0 : i64, end = 8 : i64} : memref<?xf64, strided<[1], offset: ?>>

// CHECK-LABEL: llvm.func @size_of
// CHECK-SAME: (%[[V:.*]]: !llvm.ptr) -> i64
// CHECK: %[[AT0:.*]] = llvm.getelementptr %[[V]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[FIRST:.*]] = llvm.load %[[AT0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[AT8:.*]] = llvm.getelementptr %[[V]][8] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[END:.*]] = llvm.load %[[AT8]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[E:.*]] = llvm.ptrtoint %[[END]] : !llvm.ptr to i64
// CHECK: %[[F:.*]] = llvm.ptrtoint %[[FIRST]] : !llvm.ptr to i64
// CHECK: %[[BYTES:.*]] = llvm.sub %[[E]], %[[F]] : i64
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[SIZE:.*]] = llvm.udiv %[[BYTES]], %[[EIGHT]] : i64
// CHECK: llvm.insertvalue %[[FIRST]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[FIRST]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[SIZE]], %{{.*}}[3, 0]
func.func @size_of(%v: !llvm.ptr) -> index {
  %c0 = arith.constant 0 : index
  %view = ct.vector_view %v {begin = 0 : i64, end = 8 : i64} : memref<?xf64, strided<[1], offset: ?>>
  %n = memref.dim %view, %c0 : memref<?xf64, strided<[1], offset: ?>>
  return %n : index
}
