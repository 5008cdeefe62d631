//===- IndexIntervals.cpp - Bounds of a loop's index expressions ----------===//

#include "cotangent/AD/Analysis/IndexIntervals.h"
#include "Utils/IRBuilders.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace cotangent::ad {

/// Division or remainder of `x` by the positive constant `divisor`, signed
/// or unsigned: division is monotone over non-negative dividends (and over
/// any, signed); a signed remainder has the dividend's sign and is smaller
/// than the divisor, an unsigned one is in [0, divisor - 1]; dividends
/// already in [0, divisor - 1] are their own remainders.
static std::optional<Interval> divisionInterval(OpBuilder &b, Location loc,
                                                Operation *op, Interval x,
                                                int64_t divisor) {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto compare = [&](arith::CmpIPredicate predicate, Value u, Value v) {
    return b.createOrFold<arith::CmpIOp>(loc, predicate, u, v);
  };
  auto select = [&](Value condition, Value u, Value v) {
    return b.createOrFold<arith::SelectOp>(loc, condition, u, v);
  };
  Value c = constant(divisor);
  bool isUnsigned = isa<arith::DivUIOp, arith::RemUIOp>(op);
  if (isa<arith::DivSIOp, arith::DivUIOp>(op)) {
    // (An unsigned dividend below zero as a signed bound has no bound.)
    if (isUnsigned && getConstantIntValue(x.lo).value_or(-1) < 0)
      return std::nullopt;
    return Interval{b.createOrFold<arith::DivSIOp>(loc, x.lo, c),
                    b.createOrFold<arith::DivSIOp>(loc, x.hi, c)};
  }
  Value zero = constant(0);
  Value nonNegative = compare(arith::CmpIPredicate::sge, x.lo, zero);
  Value own = b.createOrFold<arith::AndIOp>(
      loc, nonNegative, compare(arith::CmpIPredicate::slt, x.hi, c));
  Value lo =
      isUnsigned ? zero : select(nonNegative, zero, constant(1 - divisor));
  Value hi = isUnsigned ? constant(divisor - 1)
                        : select(compare(arith::CmpIPredicate::sgt, x.hi, zero),
                                 constant(divisor - 1), zero);
  return Interval{select(own, x.lo, lo), select(own, x.hi, hi)};
}

std::optional<Interval>
buildResultInterval(OpBuilder &b, Location loc, Value result,
                    function_ref<std::optional<Interval>(Value)> operand) {
  Operation *op = result.getDefiningOp();
  if (!op)
    return std::nullopt;
  auto min = [&](Value x, Value y) {
    return b.createOrFold<arith::MinSIOp>(loc, x, y);
  };
  auto max = [&](Value x, Value y) {
    return b.createOrFold<arith::MaxSIOp>(loc, x, y);
  };
  // One of two values: the hull of theirs.
  auto either = [&](Value u, Value v) -> std::optional<Interval> {
    auto x = operand(u);
    auto y = operand(v);
    if (!x || !y)
      return std::nullopt;
    return Interval{min(x->lo, y->lo), max(x->hi, y->hi)};
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(op)) {
    if (std::optional<Interval> x = operand(op->getOperand(0)))
      return x;
    // A narrow integer widened (a comparison's i1 as 0 or 1, which an
    // unrolled search for a minimum's index selects by): its type's range.
    unsigned width = op->getOperand(0).getType().getIntOrFloatBitWidth();
    if (!isa<arith::ExtSIOp, arith::ExtUIOp>(op) || width > 8)
      return std::nullopt;
    bool isSigned = isa<arith::ExtSIOp>(op);
    int64_t lo = isSigned ? -(int64_t(1) << (width - 1)) : 0;
    int64_t hi =
        isSigned ? (int64_t(1) << (width - 1)) - 1 : (int64_t(1) << width) - 1;
    return Interval{arith::ConstantIndexOp::create(b, loc, lo),
                    arith::ConstantIndexOp::create(b, loc, hi)};
  }
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return either(select.getTrueValue(), select.getFalseValue());
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    unsigned i = cast<OpResult>(result).getResultNumber();
    return either(branch.thenYield().getOperand(i),
                  branch.elseYield().getOperand(i));
  }
  if (isa<arith::DivSIOp, arith::RemSIOp, arith::DivUIOp, arith::RemUIOp>(op)) {
    std::optional<int64_t> d = getConstantIntValue(op->getOperand(1));
    auto x = operand(op->getOperand(0));
    if (!d || *d <= 0 || !x)
      return std::nullopt;
    return divisionInterval(b, loc, op, *x, *d);
  }
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::MinSIOp,
           arith::MaxSIOp>(op))
    return std::nullopt;
  auto x = operand(op->getOperand(0));
  auto y = operand(op->getOperand(1));
  if (!x || !y)
    return std::nullopt;
  if (isa<arith::AddIOp>(op))
    return Interval{b.createOrFold<arith::AddIOp>(loc, x->lo, y->lo),
                    b.createOrFold<arith::AddIOp>(loc, x->hi, y->hi)};
  if (isa<arith::SubIOp>(op))
    return Interval{b.createOrFold<arith::SubIOp>(loc, x->lo, y->hi),
                    b.createOrFold<arith::SubIOp>(loc, x->hi, y->lo)};
  if (isa<arith::MulIOp>(op)) {
    auto mul = [&](Value u, Value v) {
      return b.createOrFold<arith::MulIOp>(loc, u, v);
    };
    Value p[] = {mul(x->lo, y->lo), mul(x->lo, y->hi), mul(x->hi, y->lo),
                 mul(x->hi, y->hi)};
    return Interval{min(min(p[0], p[1]), min(p[2], p[3])),
                    max(max(p[0], p[1]), max(p[2], p[3]))};
  }
  // Signed min and max are monotone in both operands.
  if (isa<arith::MinSIOp>(op))
    return Interval{min(x->lo, y->lo), min(x->hi, y->hi)};
  return Interval{max(x->lo, y->lo), max(x->hi, y->hi)};
}

Interval buildCounterInterval(OpBuilder &b, Location loc, Interval lb,
                              Interval ub, int64_t step) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value hi = b.createOrFold<arith::SubIOp>(loc, ub.hi, one);
  if (step <= 1 || lb.lo != lb.hi)
    return Interval{lb.lo, hi};
  // (Where the loop runs not at all, the division rounds towards lb: the
  // minimum keeps the bound at ub - 1, below lb.)
  Value steps = b.createOrFold<arith::DivSIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, hi, lb.lo),
      arith::ConstantIndexOp::create(b, loc, step));
  Value last = b.createOrFold<arith::AddIOp>(
      loc, lb.lo,
      b.createOrFold<arith::MulIOp>(
          loc, steps, arith::ConstantIndexOp::create(b, loc, step)));
  return Interval{lb.lo, b.createOrFold<arith::MinSIOp>(loc, hi, last)};
}

std::optional<Interval> IntervalBuilder::get(Value value) {
  if (auto it = cache.find(value); it != cache.end())
    return it->second;
  std::optional<Interval> result = compute(value);
  if (result)
    cache[value] = *result;
  return result;
}

/// `value` computed before the loop, if the loop computes it by pure ops
/// from values defined outside it (a nested loop's trip count).
Value IntervalBuilder::hoist(Value value, unsigned depth) {
  if (!loop->isAncestor(value.getParentBlock()->getParentOp()))
    return value;
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0 || !isPure(def) || def->getNumRegions() != 0 ||
      def->getNumResults() != 1)
    return nullptr;
  IRMapping mapping;
  for (Value operand : def->getOperands()) {
    Value outside = hoist(operand, depth - 1);
    if (!outside)
      return nullptr;
    mapping.map(operand, outside);
  }
  return b.clone(*def, mapping)->getResult(0);
}

std::optional<Interval> IntervalBuilder::compute(Value value) {
  Location loc = loop->getLoc();
  if (Value outside = hoist(value)) {
    Value v = buildIndexCast(b, loop->getLoc(), outside);
    return Interval{v, v};
  }
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    Value lower, upper;
    int64_t step = 1;
    if (auto counted = dyn_cast<scf::ForOp>(owner);
        counted && counted.getInductionVar() == arg) {
      lower = counted.getLowerBound();
      upper = counted.getUpperBound();
      step = getConstantIntValue(counted.getStep()).value_or(1);
    } else if (auto parallel = dyn_cast<scf::ParallelOp>(owner);
               parallel && arg.getArgNumber() < parallel.getNumLoops()) {
      lower = parallel.getLowerBound()[arg.getArgNumber()];
      upper = parallel.getUpperBound()[arg.getArgNumber()];
    } else {
      return std::nullopt;
    }
    std::optional<Interval> lb = get(lower);
    std::optional<Interval> ub = get(upper);
    if (!lb || !ub)
      return std::nullopt;
    return buildCounterInterval(b, loc, *lb, *ub, step);
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    Value v = arith::ConstantIndexOp::create(b, loc, constant.getSExtValue());
    return Interval{v, v};
  }
  return buildResultInterval(b, loc, value,
                             [&](Value operand) { return get(operand); });
}

} // namespace cotangent::ad
