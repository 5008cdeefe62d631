//===- CTToLLVMPatterns.h - Lowerings of ct ops to LLVM ---------*- C++ -*-===//
//
// Internal to lib/CodeGen: the pattern sets that the ct dialect's
// convert-to-llvm interface (TapeToLLVM.cpp) adds besides the tapes'.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_CODEGEN_CTTOLLVMPATTERNS_H
#define COTANGENT_LIB_CODEGEN_CTTOLLVMPATTERNS_H

#include "mlir/IR/Builders.h"

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace cotangent {

/// ct's C library functions (`ct.hypot`, ...) become calls of the C
/// library's own: `hypotf`/`hypot`/`hypotl` by floating-point type.
void populateLibraryMathToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);

/// `ct.abort` becomes write(2, message) and abort().
void populateAbortToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

/// The descriptor of type `type` (memref `view` converted) viewing C
/// pointer `pointer` as `ct.pointer_view` does: { pointer, pointer, 0, the
/// extent no object reaches, 1 } for a 1-D view; row-major for a view with
/// static inner dimensions (the lanes of vector mode).
mlir::Value buildPointerDescriptor(mlir::OpBuilder &b, mlir::Location loc,
                                   mlir::MemRefType view, mlir::Type type,
                                   mlir::Value pointer);

/// `ct.store_address` and `ct.load_address` become a store and a load of
/// a pointer at the slot's address; a loaded address is viewed as
/// `ct.pointer_view` views a C pointer. `ct.vtable_address` becomes the
/// address of the table's global, declared, plus its offset;
/// `ct.function_address` that of a placeholder for the unit's function.
void populateAddressesToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);

} // namespace cotangent

#endif // COTANGENT_LIB_CODEGEN_CTTOLLVMPATTERNS_H
