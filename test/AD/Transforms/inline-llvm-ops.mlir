// Functions holding the LLVM ops the frontend writes (the null pointer kept
// in memory, pointer and integer casts) inline like any other, so that
// reverse mode differentiates one function (no fwd/rev halves whose
// forward half lacks the shadows of the addresses it stores); llvm.alloca
// does not (it would grow the stack in every iteration of a loop).
// RUN: %cotangent-opt %s --inline | FileCheck %s

// CHECK-LABEL: func.func @largest
// CHECK-NOT: call @bestOrNull
// CHECK: llvm.mlir.zero
// CHECK: ct.store_address
func.func private @bestOrNull(%a: memref<?xf64, strided<[1], offset: ?>>, %slot: memref<1xf64>) -> i1 {
  %c0 = arith.constant 0 : index
  %null = llvm.mlir.zero : !llvm.ptr
  %view = ct.pointer_view %null : memref<?xf64, strided<[1], offset: ?>>
  ct.store_address %view, %slot[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
  %kept = ct.load_address %slot[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %bits = memref.extract_aligned_pointer_as_index %kept : memref<?xf64, strided<[1], offset: ?>> -> index
  %isNull = arith.cmpi eq, %bits, %c0 : index
  return %isNull : i1
}
func.func @largest(%a: memref<?xf64, strided<[1], offset: ?>>) -> i1 {
  %slot = memref.alloca() : memref<1xf64>
  %r = call @bestOrNull(%a, %slot) : (memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>) -> i1
  return %r : i1
}

// CHECK-LABEL: func.func @stackUser
// CHECK: call @withAlloca
func.func private @withAlloca(%n: i64) -> !llvm.ptr {
  %p = llvm.alloca %n x f64 : (i64) -> !llvm.ptr
  return %p : !llvm.ptr
}
func.func @stackUser(%n: i64) -> !llvm.ptr {
  %p = call @withAlloca(%n) : (i64) -> !llvm.ptr
  return %p : !llvm.ptr
}
