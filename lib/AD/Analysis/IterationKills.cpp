//===- IterationKills.cpp - Loads an iteration wrote first ----------------===//

#include "Analysis/IterationKills.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

/// `base + offset`, with a null base for a constant.
struct Affine {
  Value base;
  int64_t offset = 0;

  Affine plus(int64_t c) const { return {base, offset + c}; }
  /// Whether this is provably at most `other` (same base or both constant).
  bool isAtMost(const Affine &other) const {
    return base == other.base && offset <= other.offset;
  }
};

enum class Side { Exact, Lowest, Highest };

std::optional<int64_t> constantOf(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

/// The loop whose induction variable `v` is, if it steps up by a constant.
scf::ForOp unitLoopOf(Value v, bool requireUnitStep) {
  auto loop = scf::getForInductionVarOwner(v);
  if (!loop)
    return nullptr;
  std::optional<int64_t> step = constantOf(loop.getStep());
  if (!step || *step <= 0 || (requireUnitStep && *step != 1))
    return nullptr;
  return loop;
}

/// `v` as `base + offset`: exactly, or a bound on every value it takes.
Affine bound(Value v, Side side) {
  if (std::optional<int64_t> c = constantOf(v))
    return {Value(), *c};
  Operation *def = v.getDefiningOp();
  if (auto cast = dyn_cast_or_null<arith::IndexCastOp>(def))
    return bound(cast.getIn(), side);
  if (auto add = dyn_cast_or_null<arith::AddIOp>(def)) {
    if (std::optional<int64_t> c = constantOf(add.getRhs()))
      return bound(add.getLhs(), side).plus(*c);
    if (std::optional<int64_t> c = constantOf(add.getLhs()))
      return bound(add.getRhs(), side).plus(*c);
  }
  if (auto sub = dyn_cast_or_null<arith::SubIOp>(def))
    if (std::optional<int64_t> c = constantOf(sub.getRhs()))
      return bound(sub.getLhs(), side).plus(-*c);
  if (side != Side::Exact)
    if (scf::ForOp loop = unitLoopOf(v, /*requireUnitStep=*/false))
      return side == Side::Lowest ? bound(loop.getLowerBound(), side)
                                  : bound(loop.getUpperBound(), side).plus(-1);
  return {v, 0};
}

/// Whether `store`, in a block enclosing `load`, ran before it in the same
/// execution of that block and wrote every element the load may read.
bool coversLoad(memref::StoreOp store, memref::LoadOp load) {
  if (store.getMemRef() != load.getMemRef() || load.getIndices().size() != 1)
    return false;
  Value index = load.getIndices()[0];
  auto before = [&](Operation *op) {
    Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*load);
    return ancestor && ancestor != op && op->isBeforeInBlock(ancestor);
  };
  // The same element, stored earlier in an enclosing block.
  if (before(store))
    return store.getIndices()[0] == index;
  // A unit-stride loop storing at its induction variable covers its range.
  auto loop = dyn_cast<scf::ForOp>(store->getParentOp());
  if (!loop || !before(loop) || store->getBlock() != loop.getBody() ||
      !unitLoopOf(loop.getInductionVar(), /*requireUnitStep=*/true))
    return false;
  Affine stored = bound(store.getIndices()[0], Side::Exact);
  if (stored.base != loop.getInductionVar() || stored.offset != 0)
    return false;
  Affine first = bound(loop.getLowerBound(), Side::Exact);
  Affine last = bound(loop.getUpperBound(), Side::Exact).plus(-1);
  return first.isAtMost(bound(index, Side::Lowest)) &&
         bound(index, Side::Highest).isAtMost(last);
}

/// How deep isIterationInvariant follows operands: index expressions of
/// real code are a few ops deep; deeper ones count as varying, which only
/// forgoes an optimisation, and the bound keeps the search cheap.
constexpr unsigned kInvariantSearchDepth = 8;

/// Whether `v` takes the same values in every iteration of `loop`: defined
/// outside it, an induction variable of a nested loop with such bounds, or
/// pure arithmetic of such values.
bool isIterationInvariant(Value v, scf::ForOp loop,
                          unsigned depth = kInvariantSearchDepth) {
  if (!loop->isAncestor(v.getParentBlock()->getParentOp()))
    return true;
  if (depth == 0)
    return false;
  auto invariant = [&](Value operand) {
    return isIterationInvariant(operand, loop, depth - 1);
  };
  if (scf::ForOp inner = scf::getForInductionVarOwner(v))
    return inner != loop && invariant(inner.getLowerBound()) &&
           invariant(inner.getUpperBound()) && invariant(inner.getStep());
  Operation *def = v.getDefiningOp();
  return def && isPure(def) && def->getNumRegions() == 0 &&
         llvm::all_of(def->getOperands(), invariant);
}

} // namespace

bool ad::writesSameElementsBefore(Operation *writer, memref::LoadOp load,
                                  scf::ForOp loop) {
  auto store = dyn_cast<memref::StoreOp>(writer);
  if (!store || !isIterationInvariant(store.getMemRef(), loop) ||
      !llvm::all_of(store.getIndices(), [&](Value index) {
        return isIterationInvariant(index, loop);
      }))
    return false;
  // It must run alike too: inside loops with invariant bounds only, not
  // under a branch (an iteration that skips it reads what an earlier one
  // wrote).
  for (Operation *op = writer->getParentOp(); op != loop;
       op = op->getParentOp()) {
    auto inner = dyn_cast<scf::ForOp>(op);
    if (!inner || !isIterationInvariant(inner.getLowerBound(), loop) ||
        !isIterationInvariant(inner.getUpperBound(), loop) ||
        !isIterationInvariant(inner.getStep(), loop))
      return false;
  }
  // The first ancestor of the store beside one of the load: a sibling
  // before it, or the same op (a loop or branch around both).
  for (Operation *op = writer; op != loop; op = op->getParentOp())
    if (Operation *other = op->getBlock()->findAncestorOpInBlock(*load))
      return other != op && op->isBeforeInBlock(other);
  return false;
}

bool ad::isWrittenEarlierInIteration(memref::LoadOp load, scf::ForOp loop) {
  bool covered = false;
  loop.getBody()->walk([&](memref::StoreOp store) {
    covered = coversLoad(store, load);
    return covered ? WalkResult::interrupt() : WalkResult::advance();
  });
  return covered;
}

bool ad::hasIndependentIterations(scf::ForOp loop) {
  // Straight-line loads, stores and pure ops; stores only into local
  // buffers made outside the loop.
  llvm::SmallDenseMap<Value, std::optional<int64_t>> written; // -> offset
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      Operation *buffer = store.getMemRef().getDefiningOp();
      if (!isa_and_nonnull<memref::AllocaOp, memref::AllocOp>(buffer) ||
          loop->isAncestor(buffer))
        return false;
      written[store.getMemRef()];
    } else if (!isa<memref::LoadOp>(op) &&
               (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)) {
      return false;
    }
  }
  // Each written buffer is accessed at iv + c, one c per buffer.
  for (Operation &op : loop.getBody()->without_terminator()) {
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef(), indices = load.getIndices();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      memref = store.getMemRef(), indices = store.getIndices();
    else
      continue;
    Value root = getMemoryRoot(memref);
    if (root != memref && written.count(root))
      return false; // a view of a written buffer
    auto it = written.find(memref);
    if (it == written.end())
      continue;
    if (indices.size() != 1)
      return false;
    Affine at = bound(indices[0], Side::Exact);
    if (at.base != loop.getInductionVar() ||
        (it->second && *it->second != at.offset))
      return false;
    it->second = at.offset;
  }
  return true;
}
