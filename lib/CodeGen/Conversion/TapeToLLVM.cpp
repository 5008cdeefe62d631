//===- TapeToLLVM.cpp - Lowering of ct tapes to the LLVM dialect ----------===//
//
// Also lowers what else of the ct dialect survives differentiation: markers
// become the identity and rule bindings disappear.
//
// A tape is a pointer to a header { ptr data, i64 size, i64 capacity,
// [32 x i64] slots } on the stack. Data starts in the header's own slots and
// moves to the heap when they run out, grown at least twofold with realloc
// (a push doubles, a reserve takes at least double). Push
// and pop call two small linkonce_odr helpers that return the slot's address;
// the store or load of the value itself stays inline, so the optimizer sees
// the value's type.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Conversion/TapeToLLVM.h"
#include "CTToLLVMPatterns.h"
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
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace cotangent;

namespace {

constexpr StringLiteral kPushHelper = "__ct_tape_push";
constexpr StringLiteral kPopHelper = "__ct_tape_pop";
constexpr StringLiteral kFreeHelper = "__ct_tape_free";
constexpr StringLiteral kReserveHelper = "__ct_tape_reserve";
constexpr StringLiteral kClaimHelper = "__ct_tape_claim";
constexpr StringLiteral kReleaseHelper = "__ct_tape_release";

// The helpers' bodies. The header holds kInlineSlots slots of its own, so
// a small tape (a pullback without loops) never calls malloc; growing out
// of them copies into the heap, growing further reallocs.
// The helpers' `!header` alias spells the same count.
constexpr int64_t kInlineSlots = 32;
constexpr StringLiteral kHelperSource = R"mlir(
!header = !llvm.struct<(ptr, i64, i64, array<32 x i64>)>
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @realloc(!llvm.ptr, i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
llvm.func @abort()
llvm.mlir.global linkonce_odr constant @__ct_tape_oom_message("cotangent: out of memory: a reverse-mode tape (the values a derivative keeps for its reverse sweep) needs %llu bytes\0A\00") {addr_space = 0 : i32} : !llvm.array<118 x i8>
llvm.func linkonce_odr @__ct_tape_out_of_memory(%bytes: i64) attributes {passthrough = ["noreturn", "cold", "noinline"]} {
  %stderr = llvm.mlir.constant(2 : i32) : i32
  %message = llvm.mlir.addressof @__ct_tape_oom_message : !llvm.ptr
  %printed = llvm.call @dprintf(%stderr, %message, %bytes) vararg(!llvm.func<i32 (i32, ptr, ...)>) : (i32, !llvm.ptr, i64) -> i32
  llvm.call @abort() : () -> ()
  llvm.unreachable
}
llvm.func linkonce_odr @__ct_tape_grow(%tape: !llvm.ptr, %capacity: i64) {
  %eight = llvm.mlir.constant(8 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %capacity_addr = llvm.getelementptr %tape[0, 2] : (!llvm.ptr) -> !llvm.ptr, !header
  %inline = llvm.getelementptr %tape[0, 3] : (!llvm.ptr) -> !llvm.ptr, !header
  %product = "llvm.intr.umul.with.overflow"(%capacity, %eight) : (i64, i64) -> !llvm.struct<(i64, i1)>
  %bytes = llvm.extractvalue %product[0] : !llvm.struct<(i64, i1)>
  %overflows = llvm.extractvalue %product[1] : !llvm.struct<(i64, i1)>
  llvm.cond_br %overflows weights([1, 1000]), ^fail, ^allocate
^allocate:
  %old_data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %in_header = llvm.icmp "eq" %old_data, %inline : !llvm.ptr
  llvm.cond_br %in_header, ^copy, ^resize
^copy:
  %fresh = llvm.call @malloc(%bytes) : (i64) -> !llvm.ptr
  %no_fresh = llvm.icmp "eq" %fresh, %null : !llvm.ptr
  llvm.cond_br %no_fresh weights([1, 1000]), ^fail, ^fill
^fill:
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %used = llvm.mul %size, %eight : i64
  "llvm.intr.memcpy"(%fresh, %old_data, %used) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.br ^done(%fresh : !llvm.ptr)
^resize:
  %resized = llvm.call @realloc(%old_data, %bytes) : (!llvm.ptr, i64) -> !llvm.ptr
  %no_resized = llvm.icmp "eq" %resized, %null : !llvm.ptr
  llvm.cond_br %no_resized weights([1, 1000]), ^fail, ^done(%resized : !llvm.ptr)
^fail:
  // The C library's allocators failed, or the size does not fit in 64 bits
  // (reported as 2^64 - 1).
  %all_ones = llvm.mlir.constant(-1 : i64) : i64
  %reported = llvm.select %overflows, %all_ones, %bytes : i1, i64
  llvm.call @__ct_tape_out_of_memory(%reported) : (i64) -> ()
  llvm.unreachable
^done(%new_data: !llvm.ptr):
  llvm.store %new_data, %tape : !llvm.ptr, !llvm.ptr
  llvm.store %capacity, %capacity_addr : i64, !llvm.ptr
  llvm.return
}
llvm.func linkonce_odr @__ct_tape_push(%tape: !llvm.ptr) -> !llvm.ptr {
  %one = llvm.mlir.constant(1 : i64) : i64
  %two = llvm.mlir.constant(2 : i64) : i64
  %minimum = llvm.mlir.constant(1024 : i64) : i64
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %capacity_addr = llvm.getelementptr %tape[0, 2] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %capacity = llvm.load %capacity_addr : !llvm.ptr -> i64
  %full = llvm.icmp "eq" %size, %capacity : i64
  llvm.cond_br %full weights([1, 1000]), ^grow, ^push
^grow:
  %doubled = llvm.mul %capacity, %two : i64
  %new_capacity = llvm.intr.umax(%doubled, %minimum) : (i64, i64) -> i64
  llvm.call @__ct_tape_grow(%tape, %new_capacity) : (!llvm.ptr, i64) -> ()
  llvm.br ^push
^push:
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %slot = llvm.getelementptr %data[%size] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  %next = llvm.add %size, %one : i64
  llvm.store %next, %size_addr : i64, !llvm.ptr
  llvm.return %slot : !llvm.ptr
}
llvm.func linkonce_odr @__ct_tape_reserve(%tape: !llvm.ptr, %count: i64) {
  %two = llvm.mlir.constant(2 : i64) : i64
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %capacity_addr = llvm.getelementptr %tape[0, 2] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %capacity = llvm.load %capacity_addr : !llvm.ptr -> i64
  %needed = llvm.add %size, %count : i64
  %short = llvm.icmp "ugt" %needed, %capacity : i64
  llvm.cond_br %short, ^grow, ^done
^grow:
  %doubled = llvm.mul %capacity, %two : i64
  %new_capacity = llvm.intr.umax(%needed, %doubled) : (i64, i64) -> i64
  llvm.call @__ct_tape_grow(%tape, %new_capacity) : (!llvm.ptr, i64) -> ()
  llvm.br ^done
^done:
  llvm.return
}
llvm.func linkonce_odr @__ct_tape_claim(%tape: !llvm.ptr, %count: i64) -> !llvm.ptr {
  llvm.call @__ct_tape_reserve(%tape, %count) : (!llvm.ptr, i64) -> ()
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %next = llvm.add %size, %count : i64
  llvm.store %next, %size_addr : i64, !llvm.ptr
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %block = llvm.getelementptr %data[%size] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.return %block : !llvm.ptr
}
llvm.func linkonce_odr @__ct_tape_release(%tape: !llvm.ptr, %count: i64) -> !llvm.ptr {
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %rest = llvm.sub %size, %count : i64
  llvm.store %rest, %size_addr : i64, !llvm.ptr
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %block = llvm.getelementptr %data[%rest] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.return %block : !llvm.ptr
}
llvm.func linkonce_odr @__ct_tape_pop(%tape: !llvm.ptr) -> !llvm.ptr {
  %one = llvm.mlir.constant(1 : i64) : i64
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %top = llvm.sub %size, %one : i64
  llvm.store %top, %size_addr : i64, !llvm.ptr
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %slot = llvm.getelementptr %data[%top] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.return %slot : !llvm.ptr
}
llvm.func linkonce_odr @__ct_tape_free(%tape: !llvm.ptr) {
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %inline = llvm.getelementptr %tape[0, 3] : (!llvm.ptr) -> !llvm.ptr, !header
  %on_heap = llvm.icmp "ne" %data, %inline : !llvm.ptr
  llvm.cond_br %on_heap, ^release, ^done
^release:
  llvm.call @free(%data) : (!llvm.ptr) -> ()
  llvm.br ^done
^done:
  llvm.return
}
)mlir";

/// Makes sure the module has the tape helpers (and the C library functions
/// they call), parsing them on first use.
LogicalResult ensureHelpers(OpBuilder &builder, Operation *from) {
  constexpr StringLiteral kFailed = "ct.tape_helpers_failed";
  auto module = from->getParentOfType<ModuleOp>();
  if (module.lookupSymbol(kPushHelper))
    return success();
  if (module->hasAttr(kFailed))
    return failure(); // Reported at the first tape operation.
  OwningOpRef<ModuleOp> helpers =
      parseSourceString<ModuleOp>(kHelperSource, builder.getContext());
  if (!helpers)
    return from->emitError("internal error: tape helpers do not parse");
  // The C library functions the helpers call: the program's own
  // declarations of them must have the C signatures.
  for (auto function : helpers->getOps<LLVM::LLVMFuncOp>()) {
    auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(function.getName());
    if (function.isExternal() && existing &&
        existing.getFunctionType() != function.getFunctionType()) {
      module->setAttr(kFailed, builder.getUnitAttr());
      return from->emitError("the program declares '")
             << function.getName()
             << "' with a signature other than the C library's; "
                "reverse-mode tapes call the C library's";
    }
  }
  // Declarations go up front, definitions at the end.
  OpBuilder::InsertionGuard guard(builder);
  for (Operation &op : helpers->getBody()->getOperations()) {
    auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
    bool declaration = function && function.isExternal();
    if (declaration && module.lookupSymbol(function.getName()))
      continue;
    if (declaration)
      builder.setInsertionPointToStart(module.getBody());
    else
      builder.setInsertionPointToEnd(module.getBody());
    builder.clone(op);
  }
  return success();
}

LLVM::LLVMStructType getHeaderType(MLIRContext *context) {
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  return LLVM::LLVMStructType::getLiteral(
      context, {ptr, i64, i64, LLVM::LLVMArrayType::get(i64, kInlineSlots)});
}

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
    // { header's own slots, 0, kInlineSlots }; the slots need no zeroing.
    Value slots = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                      ArrayRef<LLVM::GEPArg>{0, 3});
    Value sizeAddr = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                         ArrayRef<LLVM::GEPArg>{0, 1});
    Value capacityAddr = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                             ArrayRef<LLVM::GEPArg>{0, 2});
    auto i64 = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                      rewriter.getI64IntegerAttr(value));
    };
    markTapeAccess(LLVM::StoreOp::create(rewriter, loc, slots, tape));
    markTapeAccess(LLVM::StoreOp::create(rewriter, loc, i64(0), sizeAddr));
    markTapeAccess(
        LLVM::StoreOp::create(rewriter, loc, i64(kInlineSlots), capacityAddr));
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
