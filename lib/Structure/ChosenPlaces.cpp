//===- ChosenPlaces.cpp - Reads of a chosen place choose values -----------===//
//
// A function returning one of two references (`const T &pick(const T &a,
// const T &b) { return a < b ? b : a; }`, inlined) or a conditional place
// leaves `memref.load (arith.select %c, %A, %B)[%k]`. Read at a constant
// offset k (a scalar, or a field of the chosen object), both places hold
// an object of the same type, so both reads are in bounds and the load can
// choose between the values instead: `select %c, A[k], B[k]`. Then the AD
// engine needs no shadow of the place, and the two sides may differ in
// activity (a constant table against an active variable). Writes through
// the place keep the select of memories, except where every place it may
// be is a local slot (StoreToChosenSlots, before slots are promoted).
//
//===----------------------------------------------------------------------===//

#include "ChosenPlaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace cotangent::structure {
namespace {

/// `memory` without the casts around it.
Value stripCasts(Value memory) {
  while (auto cast = memory.getDefiningOp<memref::CastOp>())
    memory = cast.getSource();
  return memory;
}

struct LoadOfChosenPlace : OpRewritePattern<memref::LoadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::LoadOp load,
                                PatternRewriter &rewriter) const override {
    // Through views that start at the same element (a reference passed on
    // is a subview from it to the end).
    Value memory = load.getMemRef();
    while (true) {
      if (auto cast = memory.getDefiningOp<memref::CastOp>()) {
        memory = cast.getSource();
        continue;
      }
      auto view = memory.getDefiningOp<memref::SubViewOp>();
      if (view && view.getSourceType().getRank() == 1 &&
          isZeroInteger(view.getMixedOffsets()[0]) &&
          isOneInteger(view.getMixedStrides()[0])) {
        memory = view.getSource();
        continue;
      }
      break;
    }
    auto select = memory.getDefiningOp<arith::SelectOp>();
    if (!select || !llvm::all_of(load.getIndices(), [](Value index) {
          return matchPattern(index, m_Constant());
        }))
      return rewriter.notifyMatchFailure(load, "not a constant read of a "
                                               "chosen place");
    Location loc = load.getLoc();
    // A place the read would leave (the stand-in of `nullptr`, a buffer of
    // no elements) is never the one read where the program is defined: the
    // read is of the other place, with no load made outside a buffer.
    bool trueInBounds = readsWithin(select.getTrueValue(), load.getIndices());
    bool falseInBounds = readsWithin(select.getFalseValue(), load.getIndices());
    if (trueInBounds != falseInBounds) {
      rewriter.replaceOpWithNewOp<memref::LoadOp>(
          load, trueInBounds ? select.getTrueValue() : select.getFalseValue(),
          load.getIndices());
      return success();
    }
    Value onTrue = memref::LoadOp::create(rewriter, loc, select.getTrueValue(),
                                          load.getIndices());
    Value onFalse = memref::LoadOp::create(
        rewriter, loc, select.getFalseValue(), load.getIndices());
    rewriter.replaceOpWithNewOp<arith::SelectOp>(load, select.getCondition(),
                                                 onTrue, onFalse);
    return success();
  }

  /// Whether the constant `indices` may lie within `place` (through casts:
  /// false only where its size is known and they lie outside it).
  static bool readsWithin(Value place, ValueRange indices) {
    auto type = cast<MemRefType>(stripCasts(place).getType());
    if (!type.hasStaticShape() || type.getRank() != int64_t(indices.size()))
      return true;
    for (auto [dim, index] : llvm::enumerate(indices)) {
      std::optional<int64_t> at = getConstantIntValue(index);
      if (at && (*at < 0 || *at >= type.getDimSize(dim)))
        return false;
    }
    return true;
  }
};

/// The local slots a chosen place may be, each with the condition under
/// which it is the one (`arith.select` trees through casts, ending at
/// `memref.alloca`s), or false if the place is anything else.
bool collectChosenSlots(OpBuilder &b, Location loc, Value memory,
                        Value condition,
                        SmallVectorImpl<std::pair<Value, Value>> &slots) {
  memory = stripCasts(memory);
  if (auto select = memory.getDefiningOp<arith::SelectOp>()) {
    Value whenTrue = select.getCondition();
    Value whenFalse = arith::XOrIOp::create(
        b, loc, whenTrue, arith::ConstantIntOp::create(b, loc, 1, 1));
    if (condition) {
      whenTrue = arith::AndIOp::create(b, loc, condition, whenTrue);
      whenFalse = arith::AndIOp::create(b, loc, condition, whenFalse);
    }
    return collectChosenSlots(b, loc, select.getTrueValue(), whenTrue, slots) &&
           collectChosenSlots(b, loc, select.getFalseValue(), whenFalse, slots);
  }
  auto alloca = memory.getDefiningOp<memref::AllocaOp>();
  if (!alloca || alloca.getType().getRank() != 1 ||
      !alloca.getType().hasStaticShape())
    return false;
  slots.push_back({alloca, condition});
  return true;
}

/// Whether every leaf of the choice `memory` is a local slot `k` fits in.
bool choosesSlotsHolding(Value memory, int64_t k) {
  memory = stripCasts(memory);
  if (auto select = memory.getDefiningOp<arith::SelectOp>())
    return choosesSlotsHolding(select.getTrueValue(), k) &&
           choosesSlotsHolding(select.getFalseValue(), k);
  auto alloca = memory.getDefiningOp<memref::AllocaOp>();
  return alloca && alloca.getType().getRank() == 1 &&
         alloca.getType().hasStaticShape() &&
         k < alloca.getType().getDimSize(0);
}

/// A write through a place chosen among local slots (`(c ? (t = x) : (u =
/// y)) *= y` on scalars) at a constant offset becomes a write to each slot
/// of the value chosen for it: the new value where it is the chosen one,
/// its old value elsewhere. The slots' addresses then no longer escape, so
/// they are promoted to SSA values like any other scalar.
struct StoreToChosenSlots : OpRewritePattern<memref::StoreOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::StoreOp store,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> k;
    if (store.getIndices().size() == 1)
      k = getConstantIntValue(store.getIndices()[0]);
    Value memory = stripCasts(store.getMemRef());
    if (!k || *k < 0 || !memory.getDefiningOp<arith::SelectOp>() ||
        !choosesSlotsHolding(memory, *k))
      return rewriter.notifyMatchFailure(store, "not a write to chosen slots");
    Location loc = store.getLoc();
    SmallVector<std::pair<Value, Value>> slots;
    collectChosenSlots(rewriter, loc, memory, nullptr, slots);
    // One write per slot, whatever the paths to it.
    llvm::MapVector<Value, Value> chosenWhen;
    for (auto [slot, condition] : slots) {
      Value &when = chosenWhen[slot];
      when =
          when
              ? arith::OrIOp::create(rewriter, loc, when, condition).getResult()
              : condition;
    }
    Value index = arith::ConstantIndexOp::create(rewriter, loc, *k);
    SmallVector<std::pair<Value, Value>> updates;
    for (auto [slot, when] : chosenWhen) {
      Value old = memref::LoadOp::create(rewriter, loc, slot, index);
      updates.push_back(
          {slot, arith::SelectOp::create(rewriter, loc, when,
                                         store.getValueToStore(), old)});
    }
    for (auto [slot, value] : updates)
      memref::StoreOp::create(rewriter, loc, value, slot, index);
    rewriter.eraseOp(store);
    return success();
  }
};

} // namespace

void populateChosenPlacePatterns(RewritePatternSet &patterns) {
  patterns.add<LoadOfChosenPlace>(patterns.getContext());
}

void populateChosenSlotPatterns(RewritePatternSet &patterns) {
  patterns.add<StoreToChosenSlots, LoadOfChosenPlace>(patterns.getContext());
}

} // namespace cotangent::structure
