//===- CountedLoops.cpp - scf.while loops with a counter become scf.for ---===//
//
// A C++ loop `for (i = lb; i < ub; i += step)` (or the same written with
// `while`) arrives from CFG-to-SCF as an scf.while whose `before` region is
// one `i < ub` comparison and whose `after` region ends with `i + step`.
// It becomes an scf.for over [lb, ub) by step; the counter's value after the
// loop, which later code may read (a second loop going on from where the
// first stopped), is the first value that failed the test:
//
//   lb < ub ? lb + ceil((ub - lb) / step) * step : lb
//
// (MLIR's own uplift pattern returns the last value that passed it, and
// lb - step for a loop that never runs.)
//
// Unsigned tests (`i < n` with a size_t counter) are taken where the lower
// bound is known to be below 2^63. Then the signed comparison scf.for makes
// is the same test for every upper bound below 2^63; for a larger one
// (`n - 1` with n = 0) C++ would count at least 2^63 - lb iterations with
// no way out of the loop (a loop with a `break` or `return` has another
// shape), i.e. never finish, so taking it as zero iterations changes no
// program that terminates. The bound's computation, when it is in the
// condition (`i < v.size()` reads the size each time), is hoisted first if
// it is pure and loop-invariant.
//
// Only increasing counters with a step that is loop-invariant are taken;
// C++ makes a non-positive step with lb < ub an endless loop (undefined),
// and so does scf.for.
//
//===----------------------------------------------------------------------===//

#include "CountedLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace cotangent::structure {
namespace {

/// The parts of a counted scf.while.
struct CountedLoop {
  unsigned counter; // position of the counter among the loop's values
  Value lowerBound, upperBound, step;
};

/// Whether `value`, an integer, is known to be non-negative as a signed
/// number: a constant, a zero-extension from a narrower type, or a
/// memref's extent.
bool isKnownNonNegative(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return *constant >= 0;
  if (auto extend = value.getDefiningOp<arith::ExtUIOp>())
    return true;
  auto width = [](Type type) {
    return type.isIndex() ? 64u : type.getIntOrFloatBitWidth();
  };
  if (auto cast = value.getDefiningOp<arith::IndexCastUIOp>())
    return isKnownNonNegative(cast.getIn()) ||
           width(cast.getIn().getType()) < width(value.getType());
  if (auto cast = value.getDefiningOp<arith::IndexCastOp>())
    return isKnownNonNegative(cast.getIn());
  return value.getDefiningOp<memref::DimOp>() != nullptr;
}

/// Recognises `while (i < ub) { ...; i = i + step; }` with ub and step
/// defined before the loop and every other loop value passed through the
/// condition unchanged.
std::optional<CountedLoop> matchCountedLoop(scf::WhileOp loop) {
  Block *before = loop.getBeforeBody();
  if (!llvm::hasSingleElement(before->without_terminator()))
    return std::nullopt;
  auto cmp = dyn_cast<arith::CmpIOp>(before->front());
  scf::ConditionOp condition = loop.getConditionOp();
  if (!cmp || !cmp->hasOneUse() || condition.getCondition() != cmp ||
      ValueRange(before->getArguments()) != condition.getArgs())
    return std::nullopt;

  // `i < ub` or `ub > i`.
  Value counterValue, upperBound;
  arith::CmpIPredicate predicate = cmp.getPredicate();
  bool isUnsigned = predicate == arith::CmpIPredicate::ult ||
                    predicate == arith::CmpIPredicate::ugt;
  if (predicate == arith::CmpIPredicate::slt ||
      predicate == arith::CmpIPredicate::ult) {
    counterValue = cmp.getLhs();
    upperBound = cmp.getRhs();
  } else if (predicate == arith::CmpIPredicate::sgt ||
             predicate == arith::CmpIPredicate::ugt) {
    counterValue = cmp.getRhs();
    upperBound = cmp.getLhs();
  } else {
    return std::nullopt;
  }
  auto counter = dyn_cast<BlockArgument>(counterValue);
  DominanceInfo dominance;
  if (!counter || counter.getOwner() != before ||
      !dominance.properlyDominates(upperBound, loop) ||
      !llvm::hasNItems(counter.getUses(), 2))
    return std::nullopt;

  unsigned position = counter.getArgNumber();
  Value next = loop.getYieldOp().getResults()[position];
  auto add = next.getDefiningOp<arith::AddIOp>();
  Value counterInBody = loop.getAfterBody()->getArgument(position);
  if (!add)
    return std::nullopt;
  Value step = add.getLhs() == counterInBody   ? add.getRhs()
               : add.getRhs() == counterInBody ? add.getLhs()
                                               : Value();
  if (!step || !dominance.properlyDominates(step, loop))
    return std::nullopt;
  Value lowerBound = loop.getInits()[position];
  if (isUnsigned && !isKnownNonNegative(lowerBound))
    return std::nullopt;
  return CountedLoop{position, lowerBound, upperBound, step};
}

/// lb < ub ? lb + ((ub - lb - 1) / step + 1) * step : lb, with the
/// difference divided as unsigned: it is positive wherever it is used, even
/// when lb and ub are far apart.
Value emitFinalCounter(OpBuilder &b, Location loc, const CountedLoop &parts) {
  Value lb = parts.lowerBound, ub = parts.upperBound, step = parts.step;
  Type type = lb.getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, type,
                                     b.getIntegerAttr(type, value));
  };
  Value one = constant(1);
  Value span =
      arith::SubIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb), one);
  Value trips = arith::AddIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, span, step), one);
  Value end = arith::AddIOp::create(b, loc, lb,
                                    arith::MulIOp::create(b, loc, trips, step));
  Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
  return arith::SelectOp::create(b, loc, runs, end, lb);
}

struct UpliftCountedLoop : OpRewritePattern<scf::WhileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::WhileOp loop,
                                PatternRewriter &rewriter) const override {
    // The bound's computation out of the condition, when it can be.
    Block *before = loop.getBeforeBody();
    bool hoisted = false;
    for (Operation &op :
         llvm::make_early_inc_range(before->without_terminator())) {
      bool invariant = llvm::all_of(op.getOperands(), [&](Value operand) {
        return !before->getParent()->isAncestor(operand.getParentRegion());
      });
      if (invariant && isPure(&op) && op.getNumRegions() == 0) {
        rewriter.modifyOpInPlace(&op, [&] { op.moveBefore(loop); });
        hoisted = true;
      }
    }
    std::optional<CountedLoop> parts = matchCountedLoop(loop);
    if (!parts && hoisted)
      return success(); // the loop changed; try again later
    if (!parts)
      return rewriter.notifyMatchFailure(loop, "not a counted loop");
    unsigned counter = parts->counter;
    Location loc = loop.getLoc();

    SmallVector<Value> inits;
    for (auto [i, init] : llvm::enumerate(loop.getInits()))
      if (i != counter)
        inits.push_back(init);
    auto forOp = scf::ForOp::create(
        rewriter, loc, parts->lowerBound, parts->upperBound, parts->step, inits,
        [](OpBuilder &, Location, Value, ValueRange) {});

    // The `after` block becomes the body: its counter argument is the
    // induction variable, the others are the iteration arguments.
    Block *body = forOp.getBody();
    SmallVector<Value> bodyValues(body->getArguments().drop_front());
    bodyValues.insert(bodyValues.begin() + counter, forOp.getInductionVar());
    rewriter.inlineBlockBefore(loop.getAfterBody(), body, body->end(),
                               bodyValues);
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    SmallVector<Value> yielded;
    for (auto [i, value] : llvm::enumerate(yield.getResults()))
      if (i != counter)
        yielded.push_back(value);
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yielded);

    rewriter.setInsertionPointAfter(forOp);
    SmallVector<Value> results(forOp.getResults());
    results.insert(results.begin() + counter,
                   emitFinalCounter(rewriter, loc, *parts));
    rewriter.replaceOp(loop, results);
    return success();
  }
};

} // namespace

void populateCountedLoopPatterns(RewritePatternSet &patterns) {
  patterns.add<UpliftCountedLoop>(patterns.getContext());
}

} // namespace cotangent::structure
