//===- LibraryMathToLLVM.cpp - ct's C library functions to LLVM -----------===//

#include "CTToLLVMPatterns.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace {

/// The C library's name for `base` in `type`: hypotf, hypot, hypotl.
std::optional<std::string> libraryName(StringRef base, Type type) {
  if (type.isF32())
    return (base + "f").str();
  if (type.isF64())
    return base.str();
  if (type.isF80())
    return (base + "l").str();
  return std::nullopt;
}

template <typename Op> struct LibraryCallLowering : ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    std::optional<std::string> name = libraryName(Op::getLibraryName(), type);
    if (!name)
      return rewriter.notifyMatchFailure(op, "no C library function");
    auto module = op->template getParentOfType<ModuleOp>();
    SmallVector<Type> parameters(op->getNumOperands(), type);
    FailureOr<LLVM::LLVMFuncOp> callee =
        LLVM::lookupOrCreateFn(rewriter, module, *name, parameters, type);
    if (failed(callee))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::CallOp>(op, *callee,
                                              adaptor.getOperands());
    return success();
  }
};

} // namespace

void cotangent::populateLibraryMathToLLVMPatterns(LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns
      .add<LibraryCallLowering<ct::HypotOp>, LibraryCallLowering<ct::LgammaOp>,
           LibraryCallLowering<ct::TgammaOp>>(converter);
}
