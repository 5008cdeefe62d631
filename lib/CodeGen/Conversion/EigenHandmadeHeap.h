//===- EigenHandmadeHeap.h - Eigen's hand-aligned heap memory ---*- C++ -*-===//
//
// Eigen allocates with its own aligned `malloc` where the C library's does
// not align enough for its packets (32 bytes with AVX): the caller's Eigen
// frees with it what the function makes, and the function frees the
// caller's. These define the two functions, privately, in the module.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_CODEGEN_CONVERSION_EIGENHANDMADEHEAP_H
#define COTANGENT_LIB_CODEGEN_CONVERSION_EIGENHANDMADEHEAP_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace cotangent::codegen {

/// `ptr (i64 bytes, i64 alignment)`: malloc of bytes + alignment, the
/// address rounded up past the next multiple of the alignment, malloc's
/// address stored in the word before it; null if malloc gives null.
mlir::FailureOr<mlir::LLVM::LLVMFuncOp>
getEigenHandmadeMalloc(mlir::ModuleOp module);

/// `void (ptr)`: frees, unless null, the address stored in the word before.
mlir::FailureOr<mlir::LLVM::LLVMFuncOp>
getEigenHandmadeFree(mlir::ModuleOp module);

} // namespace cotangent::codegen

#endif // COTANGENT_LIB_CODEGEN_CONVERSION_EIGENHANDMADEHEAP_H
