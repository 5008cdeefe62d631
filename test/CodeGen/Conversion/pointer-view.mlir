// ct.pointer_view round-trips and lowers to the descriptor
// { p, p, 0, 2^60, 1 }.
// RUN: %cotangent-opt %s | %cotangent-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s

// ROUNDTRIP-LABEL: func.func @load_first
// ROUNDTRIP: ct.pointer_view %arg0 : memref<?xf64, strided<[1], offset: ?>>

// CHECK-LABEL: llvm.func @load_first
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr) -> f64
// CHECK: %[[D0:.*]] = llvm.insertvalue %[[P]], %{{.*}}[0]
// CHECK: %[[D1:.*]] = llvm.insertvalue %[[P]], %[[D0]][1]
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[D2:.*]] = llvm.insertvalue %[[ZERO]], %[[D1]][2]
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(1152921504606846976 : i64) : i64
// CHECK: %[[D3:.*]] = llvm.insertvalue %[[SIZE]], %[[D2]][3, 0]
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.insertvalue %[[ONE]], %[[D3]][4, 0]
// CHECK: llvm.load
func.func @load_first(%p: !llvm.ptr) -> f64 {
  %c0 = arith.constant 0 : index
  %view = ct.pointer_view %p : memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %view[%c0] : memref<?xf64, strided<[1], offset: ?>>
  return %v : f64
}
