// ct.load_address and ct.store_address round-trip and lower to a load and
// a store of a pointer at the slot's address (8 bytes from element `i` of
// the holder, whatever its scalar type); a loaded address becomes the
// descriptor { p, p, 0, 2^60, 1 }, as ct.pointer_view makes it.
// RUN: %cotangent-opt %s | %cotangent-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s

// ROUNDTRIP-LABEL: func.func @follow
// ROUNDTRIP: ct.load_address %arg0[%arg1] : memref<?xf64, strided<[1], offset: ?>> -> memref<?xf64, strided<[1], offset: ?>>
// ROUNDTRIP-LABEL: func.func @keep
// ROUNDTRIP: ct.store_address %arg0, %arg1[%{{.*}}] : memref<?xf32, strided<[1], offset: ?>>, memref<4xf32>

// CHECK-LABEL: llvm.func @follow
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[I:.*]]: i64)
// CHECK: %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[BASE]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: %[[P:.*]] = llvm.load %[[SLOT]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[D0:.*]] = llvm.insertvalue %[[P]], %{{.*}}[0]
// CHECK: %[[D1:.*]] = llvm.insertvalue %[[P]], %[[D0]][1]
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[D2:.*]] = llvm.insertvalue %[[ZERO]], %[[D1]][2]
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(1152921504606846976 : i64) : i64
// CHECK: %[[D3:.*]] = llvm.insertvalue %[[SIZE]], %[[D2]][3, 0]
// CHECK: llvm.insertvalue %{{.*}}, %[[D3]][4, 0]
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f64
func.func @follow(%holder: memref<?xf64, strided<[1], offset: ?>>, %i: index) -> f64 {
  %c1 = arith.constant 1 : index
  %view = ct.load_address %holder[%i] : memref<?xf64, strided<[1], offset: ?>> -> memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %view[%c1] : memref<?xf64, strided<[1], offset: ?>>
  return %v : f64
}

// The address of the array's first element (its offset applied), stored
// at element 2 of a holder of floats: bytes 8 to 15.
// CHECK-LABEL: llvm.func @keep
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[ADDRESS:.*]] = llvm.getelementptr %[[FIRST]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[%[[TWO]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: llvm.store %[[ADDRESS]], %[[SLOT]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
func.func @keep(%array: memref<?xf32, strided<[1], offset: ?>>, %holder: memref<4xf32>) {
  %c2 = arith.constant 2 : index
  ct.store_address %array, %holder[%c2] : memref<?xf32, strided<[1], offset: ?>>, memref<4xf32>
  return
}

// A view with the lanes of vector mode (3 per element): sizes
// { 2^60 / 3, 3 } and strides { 3, 1 }, element i lane k at i * 3 + k.
// ROUNDTRIP-LABEL: func.func @lanes
// ROUNDTRIP: ct.load_address %arg0[%arg1] : memref<?xf64> -> memref<?x3xf64, strided<[3, 1], offset: ?>>
// CHECK-LABEL: llvm.func @lanes
// CHECK: %[[P:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[ROWS:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: llvm.insertvalue %[[ROWS]], %{{.*}}[3, 1]
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.insertvalue %[[ONE]], %{{.*}}[4, 1]
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(384307168202282325 : i64) : i64
// CHECK: llvm.insertvalue %[[SIZE]], %{{.*}}[3, 0]
// CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: llvm.insertvalue %[[THREE]], %{{.*}}[4, 0]
func.func @lanes(%holder: memref<?xf64>, %i: index) -> f64 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %view = ct.load_address %holder[%i] : memref<?xf64> -> memref<?x3xf64, strided<[3, 1], offset: ?>>
  %v = memref.load %view[%c1, %c2] : memref<?x3xf64, strided<[3, 1], offset: ?>>
  return %v : f64
}
