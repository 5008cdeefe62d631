//===- ClosedFormCounters.cpp - Running counters as functions of the iv ---===//
//
// C++ often walks a packed array with a counter of its own beside the loop's
// (`out[j] += l[idx] * x[i]; idx++;`, a triangular matrix stored column by
// column). In an scf.for that counter is an iteration argument advanced by
// a loop-invariant amount, which reverse mode can only tape, once per
// iteration, together with every value read through it. Its value is a
// function of the induction variable,
//
//   counter = init + (iv - lb) * c   (step 1),
//
// and after the loop init + max(ub - lb, 0) * c; with the argument
// replaced by these, the reverse sweep recomputes the index and reads the
// array again instead. The arithmetic wraps like the C++ increments it
// replaces (no overflow flags), so every value is the same.
//
//===----------------------------------------------------------------------===//

#include "CountedLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace cotangent::structure {
namespace {

/// The loop-invariant amount iteration argument `i` of `loop` advances by
/// each iteration, if that is all that happens to it.
Value invariantIncrement(scf::ForOp loop, unsigned i) {
  BlockArgument counter = loop.getRegionIterArgs()[i];
  if (counter.getType() != loop.getInductionVar().getType())
    return nullptr;
  Value next = loop.getYieldedValues()[i];
  auto add = next.getDefiningOp<arith::AddIOp>();
  if (!add || add->getBlock() != loop.getBody())
    return nullptr;
  Value amount = add.getLhs() == counter   ? add.getRhs()
                 : add.getRhs() == counter ? add.getLhs()
                                           : Value();
  if (!amount || loop->isAncestor(amount.getParentBlock()->getParentOp()))
    return nullptr;
  return amount;
}

struct ClosedFormCounter : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!step || *step != 1 || loop.getUnsignedCmp())
      return rewriter.notifyMatchFailure(loop, "not a step-1 signed loop");
    for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i) {
      Value amount = invariantIncrement(loop, i);
      if (!amount)
        continue;
      Location loc = loop.getLoc();
      Value init = loop.getInitArgs()[i];
      Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
      // In the body: init + (iv - lb) * amount.
      rewriter.setInsertionPointToStart(loop.getBody());
      Value done =
          arith::SubIOp::create(rewriter, loc, loop.getInductionVar(), lb);
      Value current = arith::AddIOp::create(
          rewriter, loc, init,
          arith::MulIOp::create(rewriter, loc, done, amount));
      rewriter.replaceAllUsesWith(loop.getRegionIterArgs()[i], current);
      // After the loop: init + max(ub - lb, 0) * amount.
      rewriter.setInsertionPointAfter(loop);
      Value zero = arith::ConstantOp::create(
          rewriter, loc, lb.getType(), rewriter.getZeroAttr(lb.getType()));
      Value trips = arith::MaxSIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, ub, lb), zero);
      Value final = arith::AddIOp::create(
          rewriter, loc, init,
          arith::MulIOp::create(rewriter, loc, trips, amount));
      rewriter.replaceAllUsesWith(loop.getResult(i), final);
      // The argument now only feeds its own increment: the loop's
      // canonicalization drops it.
      rewriter.modifyOpInPlace(loop, [&] {
        loop.getBody()->getTerminator()->setOperand(
            i, loop.getRegionIterArgs()[i]);
      });
      return success();
    }
    return rewriter.notifyMatchFailure(loop, "no running counter");
  }
};

} // namespace

void populateClosedFormCounterPatterns(RewritePatternSet &patterns) {
  patterns.add<ClosedFormCounter>(patterns.getContext());
}

} // namespace cotangent::structure
