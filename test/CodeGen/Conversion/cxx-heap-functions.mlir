// Heap memory of the derivative code goes through C++'s allocation
// functions: the generic functions finalize-memref-to-llvm calls get
// bodies calling ::operator new(size_t) and ::operator delete(void *), so
// memory a caller's std::vector owns may be freed by the derivative code
// and memory the derivative code allocates by the vector's destructor.
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s --check-prefix=DEFS
// RUN: %cotangent-opt %s --ct-lower-to-llvm | not grep -E "@(malloc|free)\("

// CHECK-LABEL: llvm.func @grow
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: llvm.call @_mlir_memref_to_llvm_free
func.func @grow(%n: index) {
  %m = memref.alloc(%n) : memref<?xf64>
  memref.dealloc %m : memref<?xf64>
  return
}

// DEFS: llvm.func linkonce_odr @_mlir_memref_to_llvm_free(%[[P:.*]]: !llvm.ptr)
// DEFS-NEXT: llvm.call @_ZdlPv(%[[P]])
// DEFS: llvm.func linkonce_odr @_mlir_memref_to_llvm_alloc(%[[SIZE:.*]]: i64) -> !llvm.ptr
// DEFS-NEXT: %[[NEW:.*]] = llvm.call @_Znwm(%[[SIZE]])
// DEFS-NEXT: llvm.return %[[NEW]]
// DEFS-DAG: llvm.func @_Znwm(i64) -> !llvm.ptr
// DEFS-DAG: llvm.func @_ZdlPv(!llvm.ptr)
