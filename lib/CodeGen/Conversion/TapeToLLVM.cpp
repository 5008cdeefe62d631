//===- TapeToLLVM.cpp - Lowering of ct tapes to the LLVM dialect ----------===//
//
// Also lowers what else of the ct dialect survives differentiation: markers
// become the identity and rule bindings disappear.
//
// A tape is a pointer to a header on the stack (TapeHelpers.h); push and
// pop call small linkonce_odr helpers (TapeHelpers.cpp) that return the
// slot's address, and the store or load of the value itself stays inline,
// so the optimizer sees the value's type. Each tape_init is a site of its
// own: freed tapes keep their memory for the next tape made at the same
// site (TapeMemoryCache.cpp). A derivative called again and again (an
// optimizer's loop) then writes its tape into memory it already touched,
// instead of fresh pages the kernel must fault in and zero on every call,
// which cost as much as the derivative's own work on large tapes.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Conversion/TapeToLLVM.h"
#include "CTToLLVMPatterns.h"
#include "TapeHelpers.h"
#include "cotangent/CodeGen/Transforms/TapeAliasScopes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/TapeSlots.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::tape;

namespace {

/// Tags an access of tape memory for ct-tape-alias-scopes: a load or store
/// of a slot, a store into the header, or a call of a helper (which reads
/// and writes the header and, growing the tape, copies its slots; LLVM
/// gives a helper's body the call's scopes when it inlines it).
Operation *markTapeAccess(Operation *access) {
  access->setAttr(codegen::kTapeSlotAccess,
                  UnitAttr::get(access->getContext()));
  return access;
}

/// Calls a helper that takes the tape and returns a slot address.
Value callSlotHelper(ConversionPatternRewriter &rewriter, Location loc,
                     StringRef helper, Value tape) {
  auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  return markTapeAccess(LLVM::CallOp::create(rewriter, loc, TypeRange{ptr},
                                             helper, ValueRange{tape}))
      ->getResult(0);
}

struct TapeInitLowering : ConvertOpToLLVMPattern<ct::TapeInitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeInitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto header = getHeaderType(context);
    Value one = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                         rewriter.getI64IntegerAttr(1));
    Value tape = LLVM::AllocaOp::create(rewriter, loc, ptr, header, one);
    // { header's own slots, 0, kInlineSlots, site }; the slots need no
    // zeroing.
    Value slots = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                      ArrayRef<LLVM::GEPArg>{0, kSlotsField});
    Value sizeAddr = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                         ArrayRef<LLVM::GEPArg>{0, kSizeField});
    Value capacityAddr =
        LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                            ArrayRef<LLVM::GEPArg>{0, kCapacityField});
    auto i64 = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                      rewriter.getI64IntegerAttr(value));
    };
    markTapeAccess(LLVM::StoreOp::create(rewriter, loc, slots, tape));
    markTapeAccess(LLVM::StoreOp::create(rewriter, loc, i64(0), sizeAddr));
    markTapeAccess(
        LLVM::StoreOp::create(rewriter, loc, i64(kInlineSlots), capacityAddr));
    Value siteAddr = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                         ArrayRef<LLVM::GEPArg>{0, kSiteField});
    Value site =
        LLVM::AddressOfOp::create(rewriter, loc, createSite(rewriter, op));
    markTapeAccess(LLVM::StoreOp::create(rewriter, loc, site, siteAddr));
    rewriter.replaceOp(op, tape);
    return success();
  }
};

/// The low and high 64-bit words of the bits of `value`: an entry of two
/// slots (ct::getTapeSlots), each pushed as an i64 (a push may move the
/// tape, so the first word is stored before the second slot is taken).
std::pair<Value, Value> splitWords(OpBuilder &b, Location loc, Value value) {
  unsigned width = value.getType().getIntOrFloatBitWidth();
  Type i64 = b.getI64Type(), i128 = b.getIntegerType(128);
  Value bits = LLVM::BitcastOp::create(b, loc, b.getIntegerType(width), value);
  Value wide = LLVM::ZExtOp::create(b, loc, i128, bits);
  Value shift =
      LLVM::ConstantOp::create(b, loc, i128, b.getIntegerAttr(i128, 64));
  return {LLVM::TruncOp::create(b, loc, i64, wide),
          LLVM::TruncOp::create(b, loc, i64,
                                LLVM::LShrOp::create(b, loc, wide, shift))};
}

/// The value of `type` whose bits are the words `low` and `high`.
Value joinWords(OpBuilder &b, Location loc, Type type, Value low, Value high) {
  unsigned width = type.getIntOrFloatBitWidth();
  Type i128 = b.getIntegerType(128);
  Value shift =
      LLVM::ConstantOp::create(b, loc, i128, b.getIntegerAttr(i128, 64));
  Value wide = LLVM::OrOp::create(
      b, loc, LLVM::ZExtOp::create(b, loc, i128, low),
      LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i128, high),
                          shift));
  return LLVM::BitcastOp::create(
      b, loc, type,
      LLVM::TruncOp::create(b, loc, b.getIntegerType(width), wide));
}

struct TapePushLowering : ConvertOpToLLVMPattern<ct::TapePushOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapePushOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value, 2> words = {adaptor.getValue()};
    if (ct::getTapeSlots(adaptor.getValue().getType()) == 2) {
      auto [low, high] = splitWords(rewriter, loc, adaptor.getValue());
      words = {low, high};
    }
    for (Value word : words) {
      Value slot =
          callSlotHelper(rewriter, loc, kPushHelper, adaptor.getTape());
      markTapeAccess(LLVM::StoreOp::create(rewriter, loc, word, slot));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct TapePopLowering : ConvertOpToLLVMPattern<ct::TapePopOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapePopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    auto pop = [&](Type word) -> Value {
      Value slot = callSlotHelper(rewriter, loc, kPopHelper, adaptor.getTape());
      return markTapeAccess(LLVM::LoadOp::create(rewriter, loc, word, slot))
          ->getResult(0);
    };
    if (ct::getTapeSlots(type) == 1) {
      rewriter.replaceOp(op, pop(type));
      return success();
    }
    Value high = pop(rewriter.getI64Type());
    Value low = pop(rewriter.getI64Type());
    rewriter.replaceOp(op, joinWords(rewriter, loc, type, low, high));
    return success();
  }
};

struct TapeReserveLowering : ConvertOpToLLVMPattern<ct::TapeReserveOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeReserveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    markTapeAccess(LLVM::CallOp::create(
        rewriter, op.getLoc(), TypeRange{}, kReserveHelper,
        ValueRange{adaptor.getTape(), adaptor.getCount()}));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Claim and release call their helper, which returns the block's address.
template <typename BlockOp, const StringLiteral &helper>
struct TapeBlockLowering : ConvertOpToLLVMPattern<BlockOp> {
  using ConvertOpToLLVMPattern<BlockOp>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BlockOp op, typename BlockOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    markTapeAccess(rewriter.replaceOpWithNewOp<LLVM::CallOp>(
        op, TypeRange{ptr}, helper,
        ValueRange{adaptor.getTape(), adaptor.getCount()}));
    return success();
  }
};

/// The address of slot `index` (8 bytes each) of a block.
Value buildSlotAddress(ConversionPatternRewriter &rewriter, Location loc,
                       Value block, Value index) {
  auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  return LLVM::GEPOp::create(rewriter, loc, ptr, rewriter.getI64Type(), block,
                             ArrayRef<LLVM::GEPArg>{index});
}

struct TapeWriteLowering : ConvertOpToLLVMPattern<ct::TapeWriteOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeWriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value slot = buildSlotAddress(rewriter, op.getLoc(), adaptor.getBlock(),
                                  adaptor.getIndex());
    markTapeAccess(
        LLVM::StoreOp::create(rewriter, op.getLoc(), adaptor.getValue(), slot));
    rewriter.eraseOp(op);
    return success();
  }
};

struct TapeReadLowering : ConvertOpToLLVMPattern<ct::TapeReadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    Value slot = buildSlotAddress(rewriter, op.getLoc(), adaptor.getBlock(),
                                  adaptor.getIndex());
    markTapeAccess(rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, type, slot));
    return success();
  }
};

struct TapeFreeLowering : ConvertOpToLLVMPattern<ct::TapeFreeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeFreeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    markTapeAccess(LLVM::CallOp::create(rewriter, op.getLoc(), TypeRange{},
                                        kFreeHelper,
                                        ValueRange{adaptor.getTape()}));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Markers are the identity on values once differentiation is done.
struct StopGradientLowering : ConvertOpToLLVMPattern<ct::StopGradientOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::StopGradientOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

struct PassThroughLowering : ConvertOpToLLVMPattern<ct::PassThroughOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::PassThroughOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getValue());
    return success();
  }
};

/// The bits of a number read as another: an LLVM bitcast.
struct BitCastLowering : ConvertOpToLLVMPattern<ct::BitCastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::BitCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, op.getType(),
                                                 adaptor.getInput());
    return success();
  }
};

/// A pointer view is the descriptor { p, p, 0, kUnknownExtent, 1 }.
struct PointerViewLowering : ConvertOpToLLVMPattern<ct::PointerViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::PointerViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOp(op, buildPointerDescriptor(rewriter, loc, op.getType(),
                                                  type, adaptor.getPointer()));
    return success();
  }
};

} // namespace

Value cotangent::buildPointerDescriptor(OpBuilder &b, Location loc,
                                        MemRefType view, Type type,
                                        Value pointer) {
  auto index = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                    b.getI64IntegerAttr(value));
  };
  auto descriptor = MemRefDescriptor::poison(b, loc, type);
  descriptor.setAllocatedPtr(b, loc, pointer);
  descriptor.setAlignedPtr(b, loc, pointer);
  descriptor.setOffset(b, loc, index(0));
  // Row-major from the innermost dimension; the dynamic (outermost) size
  // is the extent no object reaches. Views of memory with the lanes of
  // vector mode have a static innermost dimension.
  int64_t stride = 1;
  for (int64_t d = view.getRank() - 1; d >= 0; --d) {
    int64_t extent = view.getDimSize(d);
    if (ShapedType::isDynamic(extent))
      extent = ct::PointerViewOp::kUnknownExtent / stride;
    descriptor.setSize(b, loc, d, index(extent));
    descriptor.setStride(b, loc, d, index(stride));
    stride *= extent;
  }
  return descriptor;
}

namespace {

/// A vector view reads the vector's first and end pointers: the
/// descriptor { first, first, 0, (end - first) / scalar size, 1 }.
struct VectorViewLowering : ConvertOpToLLVMPattern<ct::VectorViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::VectorViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    Type i64 = rewriter.getI64Type();
    auto index = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i64,
                                      rewriter.getI64IntegerAttr(value));
    };
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto loadPointer = [&](int64_t byteOffset) -> Value {
      Value at = LLVM::GEPOp::create(rewriter, loc, ptrType,
                                     rewriter.getI8Type(), adaptor.getObject(),
                                     ArrayRef<LLVM::GEPArg>{byteOffset});
      return LLVM::LoadOp::create(rewriter, loc, ptrType, at);
    };
    Value first = loadPointer(op.getBegin());
    Value end = loadPointer(op.getEnd());
    Value bytes = LLVM::SubOp::create(
        rewriter, loc, LLVM::PtrToIntOp::create(rewriter, loc, i64, end),
        LLVM::PtrToIntOp::create(rewriter, loc, i64, first));
    unsigned scalarBytes =
        op.getType().getElementType().getIntOrFloatBitWidth() / 8;
    Value size = LLVM::UDivOp::create(rewriter, loc, bytes, index(scalarBytes));
    auto descriptor = MemRefDescriptor::poison(rewriter, loc, type);
    descriptor.setAllocatedPtr(rewriter, loc, first);
    descriptor.setAlignedPtr(rewriter, loc, first);
    descriptor.setOffset(rewriter, loc, index(0));
    descriptor.setSize(rewriter, loc, 0, size);
    descriptor.setStride(rewriter, loc, 0, index(1));
    rewriter.replaceOp(op, Value(descriptor));
    return success();
  }
};

/// Rule bindings have done their work by the time code is generated.
template <typename RuleOp> struct RuleErasure : ConvertOpToLLVMPattern<RuleOp> {
  using ConvertOpToLLVMPattern<RuleOp>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(RuleOp op, typename RuleOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct CTToLLVMInterface : public ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;
  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &converter,
      RewritePatternSet &patterns) const final {
    converter.addConversion([](ct::TapeType type) -> Type {
      return LLVM::LLVMPointerType::get(type.getContext());
    });
    patterns.add<
        TapeInitLowering, TapePushLowering, TapePopLowering,
        TapeReserveLowering, TapeBlockLowering<ct::TapeClaimOp, kClaimHelper>,
        TapeBlockLowering<ct::TapeReleaseOp, kReleaseHelper>, TapeWriteLowering,
        TapeReadLowering, TapeFreeLowering, StopGradientLowering,
        PassThroughLowering, BitCastLowering, PointerViewLowering,
        VectorViewLowering, RuleErasure<ct::CustomGradientOp>,
        RuleErasure<ct::CustomVjpOp>, RuleErasure<ct::CustomJvpOp>>(converter);
    populateLibraryMathToLLVMPatterns(converter, patterns);
    populateAbortToLLVMPatterns(converter, patterns);
    populateAddressesToLLVMPatterns(converter, patterns);
  }
};

} // namespace

void cotangent::registerConvertCTToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, ct::CTDialect *dialect) {
    dialect->addInterfaces<CTToLLVMInterface>();
  });
}
