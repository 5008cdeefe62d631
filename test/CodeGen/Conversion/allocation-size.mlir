// ct.allocation_size round-trips and lowers to the C library's
// malloc_usable_size of the view's first element (its offset applied),
// divided by the size of a scalar in memory (16 bytes for x86's long
// double, not its 10 bytes of data; an element of 4 lanes is 4 scalars).
// RUN: %cotangent-opt %s | %cotangent-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s

// ROUNDTRIP-LABEL: func.func @doubles
// ROUNDTRIP: ct.allocation_size %arg0 : memref<?xf64, strided<[1], offset: ?>>
// ROUNDTRIP-LABEL: func.func @long_doubles
// ROUNDTRIP: ct.allocation_size %arg0 : memref<?xf80>

// CHECK: llvm.func @malloc_usable_size(!llvm.ptr) -> i64
// CHECK-LABEL: llvm.func @doubles
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: %[[START:.*]] = llvm.getelementptr %[[FIRST]][%[[ZERO]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: %[[BYTES:.*]] = llvm.call @malloc_usable_size(%[[START]]) : (!llvm.ptr) -> i64
// CHECK: %[[SIZE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
// CHECK: %[[COUNT:.*]] = llvm.udiv %[[BYTES]], %[[SIZE]] : i64
// CHECK: llvm.return %[[COUNT]] : i64
func.func @doubles(%memory: memref<?xf64, strided<[1], offset: ?>>) -> index {
  %n = ct.allocation_size %memory : memref<?xf64, strided<[1], offset: ?>>
  return %n : index
}

// CHECK-LABEL: llvm.func @long_doubles
// CHECK: llvm.call @malloc_usable_size
// CHECK: llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, f80
// CHECK: llvm.udiv
func.func @long_doubles(%memory: memref<?xf80>) -> index {
  %n = ct.allocation_size %memory : memref<?xf80>
  return %n : index
}

// CHECK-LABEL: llvm.func @lanes
// CHECK: %[[BYTES:.*]] = llvm.call @malloc_usable_size
// CHECK: %[[SCALAR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[ELEMENT:.*]] = llvm.mul %[[SCALAR]], %[[FOUR]] : i64
// CHECK: llvm.udiv %[[BYTES]], %[[ELEMENT]] : i64
func.func @lanes(%memory: memref<?x4xf64>) -> index {
  %n = ct.allocation_size %memory : memref<?x4xf64>
  return %n : index
}
