//===- AccessBounds.cpp - Which elements of a buffer a function touches ---===//

#include "Checkpointing/AccessBounds.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace cotangent::ad;

namespace {

/// Interval arithmetic on index values, emitted at a builder.
class CalleeIntervals {
public:
  CalleeIntervals(OpBuilder &b, Location loc, const IRMapping &known,
                  ArrayRef<std::pair<Value, Interval>> seeds)
      : b(b), loc(loc), known(known) {
    for (auto [value, range] : seeds)
      ranges[value] = range;
  }

  /// The range of integer or index `value`, or none.
  std::optional<Interval> get(Value value, unsigned depth = 0) {
    if (auto it = ranges.find(value); it != ranges.end())
      return it->second;
    if (depth > kMaxDepth)
      return std::nullopt;
    std::optional<Interval> range = compute(value, depth + 1);
    if (range)
      ranges[value] = *range;
    return range;
  }

private:
  /// Index chains longer than this are not followed (a bound on the
  /// recursion, far above real index arithmetic).
  static constexpr unsigned kMaxDepth = 64;
  /// A carried value chosen among more values than this has no bound.
  static constexpr unsigned kMaxChoices = 16;

  Value toIndex(Value v) {
    if (v.getType().isIndex())
      return v;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }
  Interval point(Value v) {
    Value i = toIndex(v);
    return {i, i};
  }
  // Folded as built: bounds of constant loops are constants.
  Value max(Value x, Value y) {
    return b.createOrFold<arith::MaxSIOp>(loc, x, y);
  }
  Value add(Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value sub(Value x, Value y) {
    return b.createOrFold<arith::SubIOp>(loc, x, y);
  }
  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  /// A block argument: the counter of a loop with a positive constant
  /// step stays in [lb, ub - 1]; a while loop's, see whileCounter; a value
  /// an scf.for carries, see chosenAmong.
  std::optional<Interval> counterRange(BlockArgument arg, unsigned depth) {
    if (auto loop = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp()))
      return whileCounter(loop, arg, depth);
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop)
      return std::nullopt;
    if (arg != loop.getInductionVar())
      return chosenAmong(loop, arg.getArgNumber() - 1, depth);
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!step || *step <= 0)
      return std::nullopt;
    auto lb = get(loop.getLowerBound(), depth);
    auto ub = get(loop.getUpperBound(), depth);
    if (!lb || !ub)
      return std::nullopt;
    return buildCounterInterval(b, loc, *lb, *ub, *step);
  }

  /// The `i`th value `loop` carries, in its body or as its result, when
  /// each iteration passes on its initial value, itself, or values chosen
  /// among others (selects and branches: the index of a minimum found so
  /// far): the hull of those others. None if it is computed from itself
  /// any other way (a sum), or some choice has no bound.
  std::optional<Interval> chosenAmong(scf::ForOp loop, unsigned i,
                                      unsigned depth) {
    Value carried = loop.getRegionIterArg(i);
    if (!inProgress.insert(carried).second)
      return std::nullopt;
    SmallVector<Value> work = {loop.getYieldedValues()[i]},
                       choices = {loop.getInits()[i]};
    while (!work.empty() && choices.size() <= kMaxChoices) {
      Value v = work.pop_back_val();
      if (v == carried)
        continue;
      if (auto select = v.getDefiningOp<arith::SelectOp>()) {
        work.append({select.getTrueValue(), select.getFalseValue()});
      } else if (auto branch = v.getDefiningOp<scf::IfOp>()) {
        unsigned k = cast<OpResult>(v).getResultNumber();
        work.append({branch.thenYield().getOperand(k),
                     branch.elseYield().getOperand(k)});
      } else {
        choices.push_back(v);
      }
    }
    std::optional<Interval> hull;
    if (work.empty())
      for (Value choice : choices) {
        std::optional<Interval> range = get(choice, depth);
        if (!range) {
          hull.reset();
          break;
        }
        hull = hull ? Interval{b.createOrFold<arith::MinSIOp>(loc, hull->lo,
                                                              range->lo),
                               max(hull->hi, range->hi)}
                    : *range;
      }
    inProgress.erase(carried);
    return hull;
  }

  std::optional<Interval> compute(Value value, unsigned depth) {
    if (Value outside = known.lookupOrNull(value))
      return point(outside);
    if (auto arg = dyn_cast<BlockArgument>(value))
      return counterRange(arg, depth);
    if (auto loop = value.getDefiningOp<scf::ForOp>())
      return chosenAmong(loop, cast<OpResult>(value).getResultNumber(), depth);
    if (std::optional<int64_t> c = getConstantIntValue(value)) {
      Value v = constant(*c);
      return Interval{v, v};
    }
    return buildResultInterval(
        b, loc, value, [&](Value operand) { return get(operand, depth); });
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

  /// The test `counter + k < bound` (or <=, or != when it counts by 1,
  /// from below the bound) of `loop`'s condition, alone or one of the tests
  /// `&&` joins (`i < n && x[i] > 0`: the loop goes on only while it
  /// holds), with k; none if there is no such test of a bound computed
  /// before the loop.
  static std::optional<std::pair<arith::CmpIOp, int64_t>>
  countedCompare(scf::WhileOp loop, BlockArgument counter, int64_t step) {
    SmallVector<Value> tests = {loop.getConditionOp().getCondition()};
    while (!tests.empty()) {
      Value test = tests.pop_back_val();
      if (auto both = test.getDefiningOp<arith::AndIOp>()) {
        tests.append({both.getLhs(), both.getRhs()});
        continue;
      }
      // `a && b` as C++ evaluates it: b's test only where a holds.
      if (auto branch = test.getDefiningOp<scf::IfOp>();
          branch && branch->getNumResults() == 1 &&
          matchPattern(branch.elseYield().getOperand(0), m_Zero())) {
        tests.append({branch.getCondition(), branch.thenYield().getOperand(0)});
        continue;
      }
      auto compare = test.getDefiningOp<arith::CmpIOp>();
      if (!compare)
        continue;
      arith::CmpIPredicate predicate = compare.getPredicate();
      bool counts = predicate == arith::CmpIPredicate::slt ||
                    predicate == arith::CmpIPredicate::sle ||
                    (predicate == arith::CmpIPredicate::ne && step == 1);
      auto tested = asCounterPlus(loop, compare.getLhs());
      Value bound = compare.getRhs();
      if (counts && tested && tested->first == counter &&
          !loop->isAncestor(bound.getParentBlock()->getParentOp()))
        return std::make_pair(compare, tested->second);
    }
    return std::nullopt;
  }

  /// A counter of a while loop that counts up by a constant from its
  /// initial value while `counter + k < bound` (see countedCompare) holds: in
  /// the condition region (a `while`), or in a `do`/`while` whose body is that
  /// region and whose condition tests the next value.
  std::optional<Interval> whileCounter(scf::WhileOp loop, BlockArgument arg,
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
    auto found = countedCompare(loop, counter, step);
    if (!found)
      return std::nullopt;
    auto [compare, tested] = *found;
    Value bound = compare.getRhs();
    auto init = get(loop.getInits()[counter.getArgNumber()], depth);
    auto limit = get(bound, depth);
    if (!init || !limit)
      return std::nullopt;
    // The largest counter for which the loop goes on.
    bool strict = compare.getPredicate() != arith::CmpIPredicate::sle;
    int64_t below = tested + (strict ? 1 : 0);
    Value last = sub(limit->hi, constant(below));
    if (arg.getOwner() == loop.getAfterBody())
      return Interval{add(init->lo, constant(offset)),
                      add(last, constant(offset))};
    // The condition region also sees the value it stops at (or the
    // initial one, if the loop stops at once).
    return Interval{init->lo, max(init->hi, add(last, constant(step)))};
  }

  OpBuilder &b;
  Location loc;
  const IRMapping &known;
  llvm::DenseMap<Value, Interval> ranges;
  /// Carried values whose bound is being computed (one computed from
  /// itself has none).
  llvm::SmallPtrSet<Value, 4> inProgress;
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

/// The memory `use` passes on under another name, whose accesses are the
/// used memory's: a cast, a choice between it and other memory (a
/// reference chosen at run time), a branch's result. (The other memory's
/// accesses are its own.) Null for any other use.
static Value sameElements(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto castOp = dyn_cast<memref::CastOp>(user))
    return castOp.getResult();
  if (auto select = dyn_cast<arith::SelectOp>(user);
      select && use.getOperandNumber() != 0)
    return select.getResult();
  if (auto yield = dyn_cast<scf::YieldOp>(user);
      yield && isa<scf::IfOp>(yield->getParentOp()))
    return yield->getParentOp()->getResult(use.getOperandNumber());
  return nullptr;
}

/// `first && second`, either of which may be null (true).
static Value both(OpBuilder &b, Location loc, Value first, Value second) {
  if (!first || !second)
    return first ? first : second;
  return b.createOrFold<arith::AndIOp>(loc, first, second);
}

/// Whether the loops around `op` in its function may all run (null: they
/// may, as far as is known). An empty loop's counter interval is inverted,
/// and interval products of it are not: an index computed from it would
/// widen the range by elements nothing reads (a triangular solve of size 1
/// reading "row 1"). A loop may run if its lowest start lies below its
/// highest end.
static Value loopsMayRun(OpBuilder &b, Location loc, CalleeIntervals &ranges,
                         Operation *op) {
  Value guard;
  for (Operation *parent = op->getParentOp();
       parent && !isa<FunctionOpInterface>(parent);
       parent = parent->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (!loop)
      continue;
    std::optional<Interval> lb = ranges.get(loop.getLowerBound());
    std::optional<Interval> ub = ranges.get(loop.getUpperBound());
    if (!lb || !ub)
      continue;
    guard = both(b, loc, guard,
                 b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt,
                                               lb->lo, ub->hi));
  }
  return guard;
}

/// Widens `result` (an interval with lo > hi is empty) by `r` where `when`
/// holds (null: always).
static void widenRange(OpBuilder &b, Location loc,
                       std::optional<Interval> &result, Interval r,
                       Value when) {
  if (!result && !when) {
    result = r;
    return;
  }
  if (!result) {
    // Empty unless the access may happen.
    result = Interval{
        b.createOrFold<arith::SelectOp>(
            loc, when, r.lo, arith::ConstantIndexOp::create(b, loc, 0)),
        b.createOrFold<arith::SelectOp>(
            loc, when, r.hi, arith::ConstantIndexOp::create(b, loc, -1))};
    return;
  }
  Value lo = b.createOrFold<arith::MinSIOp>(loc, result->lo, r.lo);
  Value hi = b.createOrFold<arith::MaxSIOp>(loc, result->hi, r.hi);
  if (when) {
    // (An empty result so far takes r whole.)
    Value empty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt,
                                                result->lo, result->hi);
    lo = b.createOrFold<arith::SelectOp>(
        loc, when, b.createOrFold<arith::SelectOp>(loc, empty, r.lo, lo),
        result->lo);
    hi = b.createOrFold<arith::SelectOp>(
        loc, when, b.createOrFold<arith::SelectOp>(loc, empty, r.hi, hi),
        result->hi);
  }
  result = Interval{lo, hi};
}

/// Widens `result` by the indices accessed through `view` (whose first
/// element is at [base.lo, base.hi] of the memory) in `ranges`' function,
/// where the accesses may happen (`guard`, null if always); false if some
/// index has no bound. An interval with lo > hi is empty.
static bool includeAccesses(OpBuilder &b, Location loc, CalleeIntervals &ranges,
                            Value view, Interval base,
                            std::optional<Interval> &result, unsigned callDepth,
                            Value guard) {
  auto shifted = [&](Interval x, Interval y) {
    return Interval{b.createOrFold<arith::AddIOp>(loc, x.lo, y.lo),
                    b.createOrFold<arith::AddIOp>(loc, x.hi, y.hi)};
  };
  auto include = [&](Interval r, Value when) {
    widenRange(b, loc, result, r, when);
  };
  for (OpOperand &use : view.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::DimOp>(user))
      continue;
    Value when = both(b, loc, guard, loopsMayRun(b, loc, ranges, user));
    auto access = [&](ValueRange indices) -> bool {
      if (indices.size() != 1)
        return false;
      std::optional<Interval> index = ranges.get(indices[0]);
      if (!index)
        return false;
      include(shifted(base, *index), when);
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
      std::optional<Interval> shift;
      if (auto c = getConstantIntValue(offset)) {
        Value v = arith::ConstantIndexOp::create(b, loc, *c);
        shift = Interval{v, v};
      } else {
        shift = ranges.get(cast<Value>(offset));
      }
      if (!shift ||
          !includeAccesses(b, loc, ranges, subview.getResult(),
                           shifted(base, *shift), result, callDepth, when))
        return false;
      continue;
    }
    if (Value same = sameElements(use)) {
      if (!includeAccesses(b, loc, ranges, same, base, result, callDepth, when))
        return false;
      continue;
    }
    if (auto call = dyn_cast<func::CallOp>(user)) {
      // Into the callee, with the ranges of its scalar arguments here.
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || callee.isExternal() || callDepth >= kMaxCallDepth)
        return false;
      SmallVector<std::pair<Value, Interval>> seeds;
      for (auto [operand, arg] :
           llvm::zip(call.getOperands(), callee.getArguments())) {
        if (!operand.getType().isIntOrIndex())
          continue;
        if (std::optional<Interval> r = ranges.get(operand))
          seeds.push_back({arg, *r});
      }
      IRMapping none;
      CalleeIntervals inner(b, loc, none, seeds);
      if (!includeAccesses(b, loc, inner,
                           callee.getArgument(use.getOperandNumber()), base,
                           result, callDepth + 1, when))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

std::optional<Interval> cotangent::ad::buildAccessRange(
    OpBuilder &b, Location loc, func::FuncOp function, unsigned argument,
    const IRMapping &known, ArrayRef<std::pair<Value, Interval>> seeds) {
  CalleeIntervals ranges(b, loc, known, seeds);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  std::optional<Interval> result;
  if (!includeAccesses(b, loc, ranges, function.getArgument(argument),
                       {zero, zero}, result, 0, /*guard=*/nullptr))
    return std::nullopt;
  if (!result)
    return Interval{zero, arith::ConstantIndexOp::create(b, loc, -1)};
  return result;
}
