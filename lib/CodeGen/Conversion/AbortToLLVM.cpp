//===- AbortToLLVM.cpp - ct.abort to the C library ------------------------===//

#include "CTToLLVMPatterns.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace cotangent;

namespace {

/// write(2, "message\n", size); abort(). The message is a private constant,
/// one per distinct text.
struct AbortLowering : ConvertOpToLLVMPattern<ct::AbortOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::AbortOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    MLIRContext *context = rewriter.getContext();
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    FailureOr<LLVM::LLVMFuncOp> write =
        LLVM::lookupOrCreateFn(rewriter, module, "write", {i32, ptr, i64}, i64);
    FailureOr<LLVM::LLVMFuncOp> abort = LLVM::lookupOrCreateFn(
        rewriter, module, "abort", {}, LLVM::LLVMVoidType::get(context));
    if (failed(write) || failed(abort))
      return op.emitError("the program declares 'write' or 'abort' with a "
                          "signature other than the C library's");
    std::string text = (op.getMessage() + "\n").str();
    std::string name =
        "__ct_abort_message_" + llvm::utohexstr(llvm::hash_value(text));
    Value message;
    if (module.lookupSymbol(name))
      message = LLVM::AddressOfOp::create(rewriter, loc, ptr, name);
    else
      message = LLVM::createGlobalString(loc, rewriter, name, text,
                                         LLVM::Linkage::Private);
    auto constant = [&](Type type, int64_t value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, type,
                                      rewriter.getIntegerAttr(type, value));
    };
    LLVM::CallOp::create(
        rewriter, loc, *write,
        ValueRange{constant(i32, 2), message, constant(i64, text.size())});
    LLVM::CallOp::create(rewriter, loc, *abort, ValueRange{});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void cotangent::populateAbortToLLVMPatterns(LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<AbortLowering>(converter);
}
