// ct.retype_view round-trips and lowers to the descriptor
// { &source[index], &source[index], 0, remaining bytes / scalar size, 1 }:
// the bytes from element `index` on, as scalars of the view's type.
// RUN: %cotangent-opt %s | %cotangent-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s

// ROUNDTRIP-LABEL: func.func @ints
// ROUNDTRIP: ct.retype_view %arg0[%arg1] : memref<?xf64, strided<[1], offset: ?>> -> memref<?xi32, strided<[1], offset: ?>>

// CHECK-LABEL: llvm.func @ints
// CHECK-SAME: %[[I:[^:]*]]: i64)
// CHECK: %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: %[[START:.*]] = llvm.getelementptr %[[BASE]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: %[[SIZE:.*]] = llvm.extractvalue %{{.*}}[3, 0]
// CHECK: %[[LEFT:.*]] = llvm.sub %[[SIZE]], %[[I]] : i64
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[LEFT]], %[[EIGHT]] : i64
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[COUNT:.*]] = llvm.udiv %[[BYTES]], %[[FOUR]] : i64
// CHECK: %[[D0:.*]] = llvm.insertvalue %[[START]], %{{.*}}[0]
// CHECK: %[[D1:.*]] = llvm.insertvalue %[[START]], %[[D0]][1]
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[D2:.*]] = llvm.insertvalue %[[ZERO]], %[[D1]][2]
// CHECK: %[[D3:.*]] = llvm.insertvalue %[[COUNT]], %[[D2]][3, 0]
// CHECK: llvm.insertvalue %{{.*}}, %[[D3]][4, 0]
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i32
func.func @ints(%object: memref<?xf64, strided<[1], offset: ?>>, %i: index) -> i32 {
  %c1 = arith.constant 1 : index
  %ids = ct.retype_view %object[%i] : memref<?xf64, strided<[1], offset: ?>> -> memref<?xi32, strided<[1], offset: ?>>
  %v = memref.load %ids[%c1] : memref<?xi32, strided<[1], offset: ?>>
  return %v : i32
}

// Bools are a byte each: 3 floats from element 1 on are 12 bools.
// ROUNDTRIP-LABEL: func.func @bools
// CHECK-LABEL: llvm.func @bools
// CHECK: llvm.sub
// CHECK: llvm.mlir.constant(4 : i64) : i64
// CHECK: llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.udiv
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i1
func.func @bools(%object: memref<4xf32>) -> i1 {
  %c1 = arith.constant 1 : index
  %flags = ct.retype_view %object[%c1] : memref<4xf32> -> memref<?xi1, strided<[1], offset: ?>>
  %v = memref.load %flags[%c1] : memref<?xi1, strided<[1], offset: ?>>
  return %v : i1
}
