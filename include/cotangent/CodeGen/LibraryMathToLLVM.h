//===- LibraryMathToLLVM.h - ct's C library functions to LLVM ---*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_LIBRARYMATHTOLLVM_H
#define COTANGENT_CODEGEN_LIBRARYMATHTOLLVM_H

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace cotangent {

/// Lowers ct's C library functions (`ct.hypot`, ...) to calls of the C
/// library's own, `hypotf`/`hypot`/`hypotl` by floating-point type.
void populateLibraryMathToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);

} // namespace cotangent

#endif // COTANGENT_CODEGEN_LIBRARYMATHTOLLVM_H
