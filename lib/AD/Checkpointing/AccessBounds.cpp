//===- AccessBounds.cpp - Which elements of a buffer a function touches ---===//

#include "Checkpointing/AccessBounds.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace cotangent::ad;

namespace {

/// Interval arithmetic on index values, emitted at a builder.
class RangeBuilder {
public:
  RangeBuilder(OpBuilder &b, Location loc, const IRMapping &known,
               ArrayRef<std::pair<Value, IndexRange>> seeds)
      : b(b), loc(loc), known(known) {
    for (auto [value, range] : seeds)
      ranges[value] = range;
  }

  /// The range of integer or index `value`, or none.
  std::optional<IndexRange> get(Value value, unsigned depth = 0) {
    if (auto it = ranges.find(value); it != ranges.end())
      return it->second;
    if (depth > kMaxDepth)
      return std::nullopt;
    std::optional<IndexRange> range = compute(value, depth + 1);
    if (range)
      ranges[value] = *range;
    return range;
  }

private:
  /// Index chains longer than this are not followed (a bound on the
  /// recursion, far above real index arithmetic).
  static constexpr unsigned kMaxDepth = 64;

  Value toIndex(Value v) {
    if (v.getType().isIndex())
      return v;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }
  IndexRange point(Value v) {
    Value i = toIndex(v);
    return {i, i};
  }
  // Folded as built: bounds of constant loops are constants.
  Value min(Value x, Value y) {
    return b.createOrFold<arith::MinSIOp>(loc, x, y);
  }
  Value max(Value x, Value y) {
    return b.createOrFold<arith::MaxSIOp>(loc, x, y);
  }
  Value add(Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value sub(Value x, Value y) {
    return b.createOrFold<arith::SubIOp>(loc, x, y);
  }
  Value mul(Value x, Value y) {
    return b.createOrFold<arith::MulIOp>(loc, x, y);
  }
  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  /// A block argument: the counter of a loop with a positive constant
  /// step stays in [lb, ub - 1]; a while loop's, see whileCounter.
  std::optional<IndexRange> counterRange(BlockArgument arg, unsigned depth) {
    if (auto loop = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp()))
      return whileCounter(loop, arg, depth);
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return std::nullopt;
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!step || *step <= 0)
      return std::nullopt;
    auto lb = get(loop.getLowerBound(), depth);
    auto ub = get(loop.getUpperBound(), depth);
    if (!lb || !ub)
      return std::nullopt;
    return IndexRange{lb->lo, sub(ub->hi, constant(1))};
  }

  /// A division or remainder by a positive constant: division is monotone;
  /// a remainder has the dividend's sign and is smaller than the divisor.
  std::optional<IndexRange> divisionRange(Operation *def, unsigned depth) {
    std::optional<int64_t> d = getConstantIntValue(def->getOperand(1));
    auto x = get(def->getOperand(0), depth);
    if (!d || *d <= 0 || !x)
      return std::nullopt;
    Value c = constant(*d);
    if (isa<arith::DivSIOp>(def))
      return IndexRange{arith::DivSIOp::create(b, loc, x->lo, c),
                        arith::DivSIOp::create(b, loc, x->hi, c)};
    // Non-negative dividends (counters) have non-negative remainders.
    Value zero = constant(0);
    Value nonNegative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, x->lo, zero);
    Value positive =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x->hi, zero);
    return IndexRange{
        b.createOrFold<arith::SelectOp>(loc, nonNegative, zero,
                                        constant(1 - *d)),
        b.createOrFold<arith::SelectOp>(loc, positive, constant(*d - 1), zero)};
  }

  std::optional<IndexRange> compute(Value value, unsigned depth) {
    if (Value outside = known.lookupOrNull(value))
      return point(outside);
    if (auto arg = dyn_cast<BlockArgument>(value))
      return counterRange(arg, depth);
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (std::optional<int64_t> c = getConstantIntValue(value)) {
      Value v = constant(*c);
      return IndexRange{v, v};
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(def))
      return get(def->getOperand(0), depth);
    auto binary = [&]() -> std::optional<std::pair<IndexRange, IndexRange>> {
      auto x = get(def->getOperand(0), depth);
      auto y = get(def->getOperand(1), depth);
      if (!x || !y)
        return std::nullopt;
      return std::make_pair(*x, *y);
    };
    if (isa<arith::AddIOp>(def)) {
      auto xy = binary();
      if (!xy)
        return std::nullopt;
      return IndexRange{add(xy->first.lo, xy->second.lo),
                        add(xy->first.hi, xy->second.hi)};
    }
    if (isa<arith::SubIOp>(def)) {
      auto xy = binary();
      if (!xy)
        return std::nullopt;
      return IndexRange{sub(xy->first.lo, xy->second.hi),
                        sub(xy->first.hi, xy->second.lo)};
    }
    if (isa<arith::MulIOp>(def)) {
      auto xy = binary();
      if (!xy)
        return std::nullopt;
      auto [x, y] = *xy;
      Value p[] = {mul(x.lo, y.lo), mul(x.lo, y.hi), mul(x.hi, y.lo),
                   mul(x.hi, y.hi)};
      return IndexRange{min(min(p[0], p[1]), min(p[2], p[3])),
                        max(max(p[0], p[1]), max(p[2], p[3]))};
    }
    if (isa<arith::MinSIOp, arith::MaxSIOp>(def)) {
      auto xy = binary();
      if (!xy)
        return std::nullopt;
      auto [x, y] = *xy;
      if (isa<arith::MinSIOp>(def))
        return IndexRange{min(x.lo, y.lo), min(x.hi, y.hi)};
      return IndexRange{max(x.lo, y.lo), max(x.hi, y.hi)};
    }
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      auto x = get(select.getTrueValue(), depth);
      auto y = get(select.getFalseValue(), depth);
      if (!x || !y)
        return std::nullopt;
      return IndexRange{min(x->lo, y->lo), max(x->hi, y->hi)};
    }
    if (isa<arith::DivSIOp, arith::RemSIOp>(def))
      return divisionRange(def, depth);
    return std::nullopt;
  }

  /// `value` as a before-region argument of `loop` plus a constant: through
  /// additions of constants, and from the after region's arguments to what
  /// the condition passes on.
  static std::optional<std::pair<BlockArgument, int64_t>>
  asCounterPlus(scf::WhileOp loop, Value value) {
    int64_t offset = 0;
    for (unsigned hops = 0; hops < kMaxDepth; ++hops) {
      auto [base, added] = splitConstantOffset(value);
      offset += added;
      auto arg = dyn_cast<BlockArgument>(base);
      if (arg && arg.getOwner() == loop.getBeforeBody())
        return std::make_pair(arg, offset);
      if (!arg || arg.getOwner() != loop.getAfterBody())
        return std::nullopt;
      value = loop.getConditionOp().getArgs()[arg.getArgNumber()];
    }
    return std::nullopt;
  }

  /// A counter of a while loop that counts up by a constant from its
  /// initial value while `counter + k < bound` (or <=) holds: in the
  /// condition region (a `while`), or in a `do`/`while` whose body is that
  /// region and whose condition tests the next value.
  std::optional<IndexRange> whileCounter(scf::WhileOp loop, BlockArgument arg,
                                         unsigned depth) {
    auto condition = loop.getConditionOp();
    auto counted = asCounterPlus(loop, arg);
    if (!counted)
      return std::nullopt;
    auto [counter, offset] = *counted;
    // Counts up: the value it starts the next iteration with is
    // counter + step, step > 0.
    auto yield = cast<scf::YieldOp>(loop.getAfterBody()->getTerminator());
    auto next = asCounterPlus(loop, yield.getOperand(counter.getArgNumber()));
    if (!next || next->first != counter || next->second <= 0)
      return std::nullopt;
    int64_t step = next->second;
    // Goes on while `counter + k < bound`.
    auto compare = condition.getCondition().getDefiningOp<arith::CmpIOp>();
    if (!compare || !llvm::is_contained(
                        {arith::CmpIPredicate::slt, arith::CmpIPredicate::sle},
                        compare.getPredicate()))
      return std::nullopt;
    auto tested = asCounterPlus(loop, compare.getLhs());
    Value bound = compare.getRhs();
    if (!tested || tested->first != counter ||
        loop->isAncestor(bound.getParentBlock()->getParentOp()))
      return std::nullopt;
    auto init = get(loop.getInits()[counter.getArgNumber()], depth);
    auto limit = get(bound, depth);
    if (!init || !limit)
      return std::nullopt;
    // The largest counter for which the loop goes on.
    bool strict = compare.getPredicate() == arith::CmpIPredicate::slt;
    int64_t below = tested->second + (strict ? 1 : 0);
    Value last = sub(limit->hi, constant(below));
    if (arg.getOwner() == loop.getAfterBody())
      return IndexRange{add(init->lo, constant(offset)),
                        add(last, constant(offset))};
    // The condition region also sees the value it stops at (or the
    // initial one, if the loop stops at once).
    return IndexRange{init->lo, max(init->hi, add(last, constant(step)))};
  }

  OpBuilder &b;
  Location loc;
  const IRMapping &known;
  llvm::DenseMap<Value, IndexRange> ranges;
};

} // namespace

std::pair<Value, int64_t> cotangent::ad::splitConstantOffset(Value value) {
  int64_t offset = 0;
  while (auto add = value.getDefiningOp<arith::AddIOp>()) {
    std::optional<int64_t> c = getConstantIntValue(add.getRhs());
    if (!c)
      break;
    offset += *c;
    value = add.getLhs();
  }
  return {value, offset};
}

/// Calls are followed this deep (recursion stops there: no bound).
constexpr unsigned kMaxCallDepth = 8;

/// Widens `result` by the indices accessed through `view` (whose first
/// element is at [base.lo, base.hi] of the memory) in `ranges`' function;
/// false if some index has no bound.
static bool includeAccesses(OpBuilder &b, Location loc, RangeBuilder &ranges,
                            Value view, IndexRange base,
                            std::optional<IndexRange> &result,
                            unsigned callDepth) {
  auto shifted = [&](IndexRange x, IndexRange y) {
    return IndexRange{b.createOrFold<arith::AddIOp>(loc, x.lo, y.lo),
                      b.createOrFold<arith::AddIOp>(loc, x.hi, y.hi)};
  };
  auto include = [&](IndexRange r) {
    if (!result) {
      result = r;
      return;
    }
    result->lo = b.createOrFold<arith::MinSIOp>(loc, result->lo, r.lo);
    result->hi = b.createOrFold<arith::MaxSIOp>(loc, result->hi, r.hi);
  };
  for (OpOperand &use : view.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::DimOp>(user))
      continue;
    auto access = [&](ValueRange indices) -> bool {
      if (indices.size() != 1)
        return false;
      std::optional<IndexRange> index = ranges.get(indices[0]);
      if (!index)
        return false;
      include(shifted(base, *index));
      return true;
    };
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      if (!access(load.getIndices()))
        return false;
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(user)) {
      if (store.getMemRef() != view || !access(store.getIndices()))
        return false;
      continue;
    }
    if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      // A 1-D view with unit stride starting at `offset`.
      if (subview.getType().getRank() != 1 ||
          subview.getMixedOffsets().size() != 1 ||
          getConstantIntValue(subview.getMixedStrides()[0]) != 1)
        return false;
      OpFoldResult offset = subview.getMixedOffsets()[0];
      std::optional<IndexRange> shift;
      if (auto c = getConstantIntValue(offset)) {
        Value v = arith::ConstantIndexOp::create(b, loc, *c);
        shift = IndexRange{v, v};
      } else {
        shift = ranges.get(cast<Value>(offset));
      }
      if (!shift || !includeAccesses(b, loc, ranges, subview.getResult(),
                                     shifted(base, *shift), result, callDepth))
        return false;
      continue;
    }
    if (auto castOp = dyn_cast<memref::CastOp>(user)) {
      if (!includeAccesses(b, loc, ranges, castOp.getResult(), base, result,
                           callDepth))
        return false;
      continue;
    }
    if (auto call = dyn_cast<func::CallOp>(user)) {
      // Into the callee, with the ranges of its scalar arguments here.
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || callee.isExternal() || callDepth >= kMaxCallDepth)
        return false;
      SmallVector<std::pair<Value, IndexRange>> seeds;
      for (auto [operand, arg] :
           llvm::zip(call.getOperands(), callee.getArguments())) {
        if (!operand.getType().isIntOrIndex())
          continue;
        if (std::optional<IndexRange> r = ranges.get(operand))
          seeds.push_back({arg, *r});
      }
      IRMapping none;
      RangeBuilder inner(b, loc, none, seeds);
      if (!includeAccesses(b, loc, inner,
                           callee.getArgument(use.getOperandNumber()), base,
                           result, callDepth + 1))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

std::optional<IndexRange> cotangent::ad::buildAccessRange(
    OpBuilder &b, Location loc, func::FuncOp function, unsigned argument,
    const IRMapping &known, ArrayRef<std::pair<Value, IndexRange>> seeds) {
  RangeBuilder ranges(b, loc, known, seeds);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  std::optional<IndexRange> result;
  if (!includeAccesses(b, loc, ranges, function.getArgument(argument),
                       {zero, zero}, result, 0))
    return std::nullopt;
  if (!result)
    return IndexRange{zero, arith::ConstantIndexOp::create(b, loc, -1)};
  return result;
}
