//===- AddressesToLLVM.cpp - Addresses kept in memory, to LLVM ------------===//
//
// An address slot is 8 bytes of its holder starting at one of its
// elements: `ct.store_address` stores the address of a view's first
// element there, `ct.load_address` loads it and views the memory it points
// to as a C pointer is viewed (`ct.pointer_view`: offset 0, stride 1, the
// extent no object reaches).
//
//===----------------------------------------------------------------------===//

#include "CTToLLVMPatterns.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace cotangent;

namespace {

struct StoreAddressLowering : ConvertOpToLLVMPattern<ct::StoreAddressOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::StoreAddressOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value zero = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                          rewriter.getI64IntegerAttr(0));
    Value address = getStridedElementPtr(rewriter, loc, op.getView().getType(),
                                         adaptor.getView(), ValueRange{zero});
    Value slot = getStridedElementPtr(rewriter, loc, op.getHolder().getType(),
                                      adaptor.getHolder(), adaptor.getIndex());
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, address, slot,
                                               /*alignment=*/8);
    return success();
  }
};

struct LoadAddressLowering : ConvertOpToLLVMPattern<ct::LoadAddressOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::LoadAddressOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    Value slot = getStridedElementPtr(rewriter, loc, op.getHolder().getType(),
                                      adaptor.getHolder(), adaptor.getIndex());
    Value address = LLVM::LoadOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()), slot,
        /*alignment=*/8);
    rewriter.replaceOp(
        op, buildPointerDescriptor(rewriter, loc, op.getType(), type, address));
    return success();
  }
};

} // namespace

void cotangent::populateAddressesToLLVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<StoreAddressLowering, LoadAddressLowering>(converter);
}
