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
// the place keep the select of memories.
//
//===----------------------------------------------------------------------===//

#include "ChosenPlaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace cotangent::structure {
namespace {

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
    Value onTrue = memref::LoadOp::create(rewriter, loc, select.getTrueValue(),
                                          load.getIndices());
    Value onFalse = memref::LoadOp::create(
        rewriter, loc, select.getFalseValue(), load.getIndices());
    rewriter.replaceOpWithNewOp<arith::SelectOp>(load, select.getCondition(),
                                                 onTrue, onFalse);
    return success();
  }
};

} // namespace

void populateChosenPlacePatterns(RewritePatternSet &patterns) {
  patterns.add<LoadOfChosenPlace>(patterns.getContext());
}

} // namespace cotangent::structure
