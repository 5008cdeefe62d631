//===- IndexIntervals.cpp - Bounds of a loop's index expressions ----------===//

#include "cotangent/AD/Analysis/IndexIntervals.h"
#include "Utils/IRBuilders.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace cotangent::ad {

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
    if (auto counted = dyn_cast<scf::ForOp>(owner);
        counted && counted.getInductionVar() == arg) {
      lower = counted.getLowerBound();
      upper = counted.getUpperBound();
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
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    return Interval{lb->lo, arith::SubIOp::create(b, loc, ub->hi, one)};
  }
  Operation *def = value.getDefiningOp();
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    Value v = arith::ConstantIndexOp::create(b, loc, constant.getSExtValue());
    return Interval{v, v};
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return get(def->getOperand(0));
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
           arith::MaxSIOp, arith::MinSIOp>(def))
    return std::nullopt;
  std::optional<Interval> lhs = get(def->getOperand(0));
  std::optional<Interval> rhs = get(def->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return Interval{arith::AddIOp::create(b, loc, lhs->lo, rhs->lo),
                    arith::AddIOp::create(b, loc, lhs->hi, rhs->hi)};
  // max and min are monotonic in both operands.
  if (isa<arith::MaxSIOp>(def))
    return Interval{arith::MaxSIOp::create(b, loc, lhs->lo, rhs->lo),
                    arith::MaxSIOp::create(b, loc, lhs->hi, rhs->hi)};
  if (isa<arith::MinSIOp>(def))
    return Interval{arith::MinSIOp::create(b, loc, lhs->lo, rhs->lo),
                    arith::MinSIOp::create(b, loc, lhs->hi, rhs->hi)};
  if (isa<arith::SubIOp>(def))
    return Interval{arith::SubIOp::create(b, loc, lhs->lo, rhs->hi),
                    arith::SubIOp::create(b, loc, lhs->hi, rhs->lo)};
  if (isa<arith::MulIOp>(def)) {
    Value products[] = {arith::MulIOp::create(b, loc, lhs->lo, rhs->lo),
                        arith::MulIOp::create(b, loc, lhs->lo, rhs->hi),
                        arith::MulIOp::create(b, loc, lhs->hi, rhs->lo),
                        arith::MulIOp::create(b, loc, lhs->hi, rhs->hi)};
    Value lo = products[0], hi = products[0];
    for (Value p : ArrayRef(products).drop_front()) {
      lo = arith::MinSIOp::create(b, loc, lo, p);
      hi = arith::MaxSIOp::create(b, loc, hi, p);
    }
    return Interval{lo, hi};
  }
  // Division by a positive constant is monotonic.
  APInt divisor;
  if (!matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) ||
      !divisor.isStrictlyPositive())
    return std::nullopt;
  return Interval{arith::FloorDivSIOp::create(b, loc, lhs->lo, rhs->lo),
                  arith::CeilDivSIOp::create(b, loc, lhs->hi, rhs->lo)};
}

} // namespace cotangent::ad
