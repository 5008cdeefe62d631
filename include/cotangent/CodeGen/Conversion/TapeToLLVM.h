//===- TapeToLLVM.h - Lowering of ct tapes to the LLVM dialect --*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_CONVERSION_TAPETOLLVM_H
#define COTANGENT_CODEGEN_CONVERSION_TAPETOLLVM_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace cotangent {

/// Lets `convert-to-llvm` lower `!ct.tape` and the ct tape operations.
void registerConvertCTToLLVMInterface(mlir::DialectRegistry &registry);

} // namespace cotangent

#endif // COTANGENT_CODEGEN_CONVERSION_TAPETOLLVM_H
