//===- AddressesToLLVM.cpp - Addresses kept in memory, to LLVM ------------===//
//
// An address slot is 8 bytes of its holder starting at one of its
// elements: `ct.store_address` stores the address of a view's first
// element there, `ct.load_address` loads it and views the memory it points
// to as a C pointer is viewed (`ct.pointer_view`: offset 0, stride 1, the
// extent no object reaches). `ct.retype_view` views an element's bytes as
// scalars of another type: the same address, the remaining bytes.
// `ct.vtable_address` is the address of a point in a class's virtual table,
// declared here and defined by the C++ compiler's code for the class.
// `ct.function_address` is the address of the unit's function, named
// through a placeholder until the module is LLVM IR.
// `ct.allocation_size` asks the C library how much heap memory an
// allocation holds.
//
//===----------------------------------------------------------------------===//

#include "CTToLLVMPatterns.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
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

/// The descriptor { &source[index], &source[index], 0, remaining bytes in
/// the view's scalars, 1 }.
struct RetypeViewLowering : ConvertOpToLLVMPattern<ct::RetypeViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::RetypeViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    MemRefType sourceType = op.getSource().getType();
    Value start = getStridedElementPtr(rewriter, loc, sourceType,
                                       adaptor.getSource(), adaptor.getIndex());
    Type i64 = rewriter.getI64Type();
    auto constant = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i64,
                                      rewriter.getI64IntegerAttr(value));
    };
    Value remaining = LLVM::SubOp::create(
        rewriter, loc,
        MemRefDescriptor(adaptor.getSource()).size(rewriter, loc, 0),
        adaptor.getIndex());
    Value bytes = LLVM::MulOp::create(
        rewriter, loc, remaining,
        constant(llvm::divideCeil(sourceType.getElementTypeBitWidth(), 8)));
    Value count = LLVM::UDivOp::create(
        rewriter, loc, bytes,
        constant(llvm::divideCeil(op.getType().getElementTypeBitWidth(), 8)));
    auto descriptor = MemRefDescriptor::poison(rewriter, loc, type);
    descriptor.setAllocatedPtr(rewriter, loc, start);
    descriptor.setAlignedPtr(rewriter, loc, start);
    descriptor.setOffset(rewriter, loc, constant(0));
    descriptor.setSize(rewriter, loc, 0, count);
    descriptor.setStride(rewriter, loc, 0, constant(1));
    rewriter.replaceOp(op, Value(descriptor));
    return success();
  }
};

/// The address of the byte global `name`, declared at the module's start
/// with `linkage` unless the module has it: a symbol the unit defines.
Value addressOfDeclared(ConversionPatternRewriter &rewriter, Operation *op,
                        StringRef name, LLVM::Linkage linkage) {
  Location loc = op->getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(rewriter, loc, rewriter.getI8Type(),
                           /*isConstant=*/true, linkage, name, Attribute());
  }
  return LLVM::AddressOfOp::create(
      rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()), name);
}

/// The table is the unit's: declared, its definition linked in with the
/// derivatives (or by the system linker). Weakly: C++ emits a class's
/// table only where the class is used, and a virtual call compares with
/// the table of every class of the unit derived from its static class; a
/// class no object of which is made anywhere has no table, its address is
/// null there, and no object's equals it.
struct VTableAddressLowering : ConvertOpToLLVMPattern<ct::VTableAddressOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::VTableAddressOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value table = addressOfDeclared(rewriter, op, op.getSymbol(),
                                    LLVM::Linkage::ExternWeak);
    Value point = LLVM::GEPOp::create(
        rewriter, op.getLoc(), table.getType(), rewriter.getI8Type(), table,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(op.getOffset())});
    rewriter.replaceOpWithNewOp<LLVM::PtrToIntOp>(op, rewriter.getI64Type(),
                                                  point);
    return success();
  }
};

/// The address of a placeholder global named after the function, which
/// translateToLLVMIR replaces by the unit's function: the module defines
/// its own (differentiable) copy under the function's own name.
struct FunctionAddressLowering : ConvertOpToLLVMPattern<ct::FunctionAddressOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::FunctionAddressOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value function = addressOfDeclared(
        rewriter, op, (ct::kFunctionAddressPrefix + op.getSymbol()).str(),
        LLVM::Linkage::External);
    rewriter.replaceOpWithNewOp<LLVM::PtrToIntOp>(op, rewriter.getI64Type(),
                                                  function);
    return success();
  }
};

/// `malloc_usable_size(&memory[0]) / sizeof(scalar)`.
struct AllocationSizeLowering : ConvertOpToLLVMPattern<ct::AllocationSizeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::AllocationSizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    FailureOr<LLVM::LLVMFuncOp> usableSize =
        LLVM::lookupOrCreateFn(rewriter, op->getParentOfType<ModuleOp>(),
                               "malloc_usable_size", {ptr}, i64);
    if (failed(usableSize))
      return failure();
    Value zero = LLVM::ConstantOp::create(rewriter, loc, i64,
                                          rewriter.getI64IntegerAttr(0));
    Value start = getStridedElementPtr(rewriter, loc, op.getMemory().getType(),
                                       adaptor.getMemory(), ValueRange{zero});
    Value bytes =
        LLVM::CallOp::create(rewriter, loc, *usableSize, ValueRange{start})
            .getResult();
    // (The size of a scalar in memory: 16 bytes for x86's long double; an
    // element with lanes is that many scalars.)
    MemRefType type = op.getMemory().getType();
    Value scalar = getSizeInBytes(loc, type.getElementType(), rewriter);
    if (type.getRank() == 2) {
      if (type.isDynamicDim(1))
        return failure();
      scalar = LLVM::MulOp::create(
          rewriter, loc, scalar,
          LLVM::ConstantOp::create(
              rewriter, loc, scalar.getType(),
              rewriter.getIntegerAttr(scalar.getType(), type.getDimSize(1))));
    }
    Type index = getIndexType();
    if (index != i64)
      bytes = LLVM::TruncOp::create(rewriter, loc, index, bytes);
    rewriter.replaceOpWithNewOp<LLVM::UDivOp>(op, bytes, scalar);
    return success();
  }
};

} // namespace

void cotangent::populateAddressesToLLVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<StoreAddressLowering, LoadAddressLowering, RetypeViewLowering,
               VTableAddressLowering, FunctionAddressLowering,
               AllocationSizeLowering>(converter);
}
