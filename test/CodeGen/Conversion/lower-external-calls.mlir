// RUN: %cotangent-opt %s --ct-lower-external-calls | FileCheck %s

// A function compiled elsewhere is called by its own name with the C ABI:
// a memref as the address of its first element, numbers as they are, a
// narrow integer widened as ct.extend says.

// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[M:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[N:.*]]: i16)
// CHECK: %[[ALIGNED:.*]] = memref.extract_aligned_pointer_as_index %[[M]]
// CHECK: %[[INT:.*]] = arith.index_cast %[[ALIGNED]] : index to i64
// CHECK: %[[BASE:.*]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr
// CHECK: %[[BASE_BUFFER:.*]], %[[OFFSET:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[M]]
// CHECK: %[[OFFSET64:.*]] = arith.index_cast %[[OFFSET]] : index to i64
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %[[BASE]][%[[OFFSET64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: %[[R:.*]] = llvm.call @_Z7norm_ofPKds(%[[FIRST]], %[[N]]) : (!llvm.ptr, i16) -> f64
// CHECK: return %[[R]]
func.func @caller(%m: memref<?xf64, strided<[1], offset: ?>>, %n: i16) -> f64 {
  %r = func.call @_Z7norm_ofPKds(%m, %n) : (memref<?xf64, strided<[1], offset: ?>>, i16) -> f64
  return %r : f64
}

// CHECK: llvm.func @_Z7norm_ofPKds(!llvm.ptr, i16 {llvm.signext}) -> f64
// CHECK-NOT: func.func private @_Z7norm_ofPKds
func.func private @_Z7norm_ofPKds(memref<?xf64, strided<[1], offset: ?>> {ct.readonly}, i16 {ct.extend = "sext"}) -> f64 attributes {ct.external}

// A bool result the C ABI zero-extends.
// CHECK-LABEL: func.func @flag(
// CHECK: llvm.call @is_enabled() : () -> i1
func.func @flag() -> i1 {
  %b = func.call @is_enabled() : () -> i1
  return %b : i1
}
// CHECK: llvm.func @is_enabled() -> (i1 {llvm.zeroext})
func.func private @is_enabled() -> (i1 {ct.extend = "zext"}) attributes {ct.external}
