//===- LinearResults.cpp - Loops whose result adjoints are known early ----===//

#include "Analysis/LinearResults.h"
#include "Analysis/MemoryWrites.h"
#include "Utils/ControlFlow.h"
#include "Utils/IRBuilders.h"
#include "cotangent/AD/Interfaces/ScalarDerivativeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <optional>

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

/// How `op`'s result scales with operand `index`, if its rule says it is
/// linear in it.
std::optional<LinearTerm> getLinearTerm(Operation *op, unsigned index) {
  auto rule = dyn_cast<ScalarDerivativeOpInterface>(op);
  return rule ? rule.getLinearTerm(index) : std::nullopt;
}

} // namespace

bool ad::isComputedBefore(Value value, Operation *op) {
  // Defined by an op before `op` in a block around it, or an argument of
  // such a block (fixed while the block runs).
  for (Operation *at = op; at; at = at->getParentOp()) {
    Block *block = at->getBlock();
    if (!block)
      return false;
    if (Operation *def = value.getDefiningOp()) {
      if (def->getBlock() == block)
        return def->isBeforeInBlock(at);
    } else if (value.getParentBlock() == block) {
      return true;
    }
  }
  return false;
}

namespace {

/// Whether `factor` is known when `op` starts: computed before it, or read
/// after it in the same block, at indices computed before it, from memory
/// that nothing from `op` to the load may change (`return p[0] * sum`).
bool isKnownBefore(Value factor, Operation *op) {
  if (isComputedBefore(factor, op))
    return true;
  auto load = factor.getDefiningOp<memref::LoadOp>();
  if (!load || load->getBlock() != op->getBlock() ||
      !op->isBeforeInBlock(load) ||
      !llvm::all_of(load->getOperands(),
                    [&](Value v) { return isComputedBefore(v, op); }))
    return false;
  for (Operation *at = op; at != load; at = at->getNextNode())
    if (MemoryWrites(at).mayChange(load.getMemRef()))
      return false;
  return true;
}

/// `factor` (isKnownBefore) as the code at `b` has it: a load after that
/// point is read there instead.
Value getFactorBefore(OpBuilder &b, Location loc, Value factor,
                      llvm::function_ref<Value(Value)> primal) {
  if (Value known = primal(factor))
    return known;
  auto load = factor.getDefiningOp<memref::LoadOp>();
  return memref::LoadOp::create(b, loc, primal(load.getMemRef()),
                                llvm::map_to_vector(load.getIndices(), primal));
}

/// The adjoint of operand `index` of linear op `op`, given its result's.
Value buildOperandAdjoint(OpBuilder &b, Location loc, Operation *op,
                          unsigned index, Value adjoint,
                          llvm::function_ref<Value(Value)> primal) {
  LinearTerm term = *getLinearTerm(op, index);
  if (term.factor)
    term.factor = getFactorBefore(b, loc, term.factor, primal);
  if (term.factor && term.divide)
    adjoint = arith::DivFOp::create(b, loc, adjoint, term.factor);
  else if (term.factor)
    adjoint = arith::MulFOp::create(b, loc, adjoint, term.factor);
  if (term.negate)
    adjoint = arith::NegFOp::create(b, loc, adjoint);
  return adjoint;
}

/// Whether `op` adds operand `index` to its result unchanged (`s + x`,
/// `x + s`, `s - x`): a step of a running sum.
bool isSumStep(Operation *op, unsigned index) {
  std::optional<LinearTerm> term = getLinearTerm(op, index);
  return term && !term->factor && !term->negate && op->getNumOperands() == 2;
}

/// The branch op whose region yields through `op`, if it is such a yield.
Operation *getYieldingBranch(Operation *op) {
  if (!isa<scf::YieldOp>(op))
    return nullptr;
  Operation *parent = op->getParentOp();
  return isBranch(parent) ? parent : nullptr;
}

} // namespace

std::optional<DenseSet<Value>> ad::getRunningSum(scf::ForOp loop,
                                                 unsigned index) {
  // The values that hold the sum so far: the block argument, `sum + x`,
  // `sum - x`, and results of branches that yield the sum in every region.
  // Each flows on once: one use, or one use in each region of one branch.
  Operation *loopYield = loop.getBody()->getTerminator();
  DenseSet<Value> sums;
  SmallVector<Value> worklist{loop.getRegionIterArg(index)};
  sums.insert(worklist.front());
  while (!worklist.empty()) {
    Value sum = worklist.pop_back_val();
    Operation *branch = nullptr;
    DenseSet<Region *> regions;
    for (OpOperand &use : sum.getUses()) {
      Operation *user = use.getOwner();
      if (!sum.hasOneUse()) {
        Operation *around = sum.getParentBlock()->findAncestorOpInBlock(*user);
        if (!around || !isBranch(around) || (branch && around != branch) ||
            !regions.insert(user->getParentRegion()).second ||
            user->getParentRegion()->getParentOp() != around)
          return std::nullopt;
        branch = around;
      }
      Value next;
      if (user == loopYield) {
        if (use.getOperandNumber() != index)
          return std::nullopt;
        continue;
      }
      if (isSumStep(user, use.getOperandNumber())) {
        // Adding the sum to itself doubles it: no longer a sum of terms.
        for (OpOperand &other : user->getOpOperands())
          if (other.getOperandNumber() != use.getOperandNumber() &&
              sums.contains(other.get()))
            return std::nullopt;
        next = user->getResult(0);
      } else if (Operation *yielding = getYieldingBranch(user)) {
        next = yielding->getResult(use.getOperandNumber());
      } else if (auto nested = dyn_cast<scf::ForOp>(user);
                 nested &&
                 use.getOperandNumber() >= nested.getNumControlOperands()) {
        // Through a nested loop that adds to it in turn: every value the
        // nested loop carries it as has the same adjoint.
        unsigned position =
            use.getOperandNumber() - nested.getNumControlOperands();
        if (!getRunningSum(nested, position))
          return std::nullopt;
        next = nested.getResult(position);
      } else {
        return std::nullopt;
      }
      if (sums.insert(next).second)
        worklist.push_back(next);
    }
  }
  // A branch result is the sum only if every region yields it.
  for (Value sum : sums) {
    Operation *def = sum.getDefiningOp();
    if (!def || !isBranch(def))
      continue;
    unsigned position = cast<OpResult>(sum).getResultNumber();
    for (Region &region : def->getRegions())
      if (region.empty() ||
          !sums.contains(region.front().getTerminator()->getOperand(position)))
        return std::nullopt;
  }
  if (!sums.contains(loop.getYieldedValues()[index]))
    return std::nullopt;
  return sums;
}

bool ad::carriesOnlySums(scf::ForOp loop, const ActivityAnalysis &activity) {
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if ((activity.isActive(arg) || activity.isActive(loop.getResult(i))) &&
        !getRunningSum(loop, i))
      return false;
  return true;
}

FailureOr<llvm::SetVector<Operation *>>
ad::getLinearResultUses(scf::ForOp loop, const ActivityAnalysis &activity,
                        llvm::function_ref<bool(Value)> isKnown) {
  // Through ops linear in the value with factors known before the loop, and
  // out of the branches around the loop, to the return or a value whose
  // adjoint is known.
  llvm::SetVector<Operation *> uses;
  SmallVector<Value> worklist;
  for (Value result : loop.getResults())
    if (activity.isActive(result))
      worklist.push_back(result);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (isKnown && isKnown(value))
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<func::ReturnOp>(user))
        continue;
      Value next;
      if (Operation *branch = getYieldingBranch(user)) {
        // Only out of a branch around the loop, which ran since the loop
        // did: a branch after it passes the value on in one region only,
        // so its result's adjoint is the value's only when that region
        // runs.
        if (!branch->isAncestor(loop))
          return failure();
        next = branch->getResult(use.getOperandNumber());
      } else {
        std::optional<LinearTerm> term =
            getLinearTerm(user, use.getOperandNumber());
        if (!term || (term->factor && !isKnownBefore(term->factor, loop)))
          return failure();
        next = user->getResult(0);
      }
      if (uses.insert(user))
        worklist.push_back(next);
    }
  }
  return uses;
}

DenseMap<Value, Value>
ad::buildLinearAdjoints(OpBuilder &b, scf::ForOp loop,
                        const llvm::SetVector<Operation *> &uses,
                        ArrayRef<std::pair<unsigned, Value>> seeds,
                        llvm::function_ref<Value(Value)> primal,
                        llvm::function_ref<Value(Value)> knownAdjoint) {
  Location loc = loop.getLoc();
  DenseMap<Value, Value> adjoints;
  // The adjoint of a value: known already, or what each of its uses passes
  // back. Null when no use reaches a seeded return.
  std::function<Value(Value)> adjointOf = [&](Value value) -> Value {
    if (auto known = adjoints.find(value); known != adjoints.end())
      return known->second;
    if (knownAdjoint)
      if (Value known = knownAdjoint(value))
        return adjoints[value] = known;
    Value sum;
    auto add = [&](Value adjoint) {
      if (adjoint)
        sum = sum ? buildAdjointSum(b, loc, sum, adjoint) : adjoint;
    };
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<func::ReturnOp>(user)) {
        for (auto [index, seed] : seeds)
          if (index == use.getOperandNumber())
            add(seed);
        continue;
      }
      if (!uses.contains(user))
        continue;
      if (Operation *branch = getYieldingBranch(user)) {
        add(adjointOf(branch->getResult(use.getOperandNumber())));
        continue;
      }
      if (Value adjoint = adjointOf(user->getResult(0)))
        add(buildOperandAdjoint(b, loc, user, use.getOperandNumber(), adjoint,
                                primal));
    }
    adjoints[value] = sum;
    return sum;
  };
  for (Value result : loop.getResults())
    (void)adjointOf(result);
  return adjoints;
}

std::optional<LinearPath>
ad::getLinearPath(Value value, Operation *before,
                  llvm::function_ref<bool(Value)> isKnown) {
  LinearPath path;
  for (Value at = value;;) {
    if (isKnown(at)) {
      path.known = at;
      return path;
    }
    if (!at.hasOneUse())
      return std::nullopt;
    OpOperand &use = *at.use_begin();
    Operation *user = use.getOwner();
    if (isa<func::ReturnOp>(user)) {
      path.returnIndex = use.getOperandNumber();
      return path;
    }
    if (Operation *branch = getYieldingBranch(user)) {
      if (!branch->isAncestor(before))
        return std::nullopt; // a branch after it (see getLinearResultUses)
      at = branch->getResult(use.getOperandNumber());
      continue;
    }
    std::optional<LinearTerm> term =
        getLinearTerm(user, use.getOperandNumber());
    if (!term || (term->factor && !isKnownBefore(term->factor, before)))
      return std::nullopt;
    path.steps.push_back({user, use.getOperandNumber()});
    at = user->getResult(0);
  }
}

Value ad::buildPathAdjoint(OpBuilder &b, Location loc, const LinearPath &path,
                           Value endAdjoint,
                           llvm::function_ref<Value(Value)> primal) {
  Value adjoint = endAdjoint;
  for (auto [op, operand] : llvm::reverse(path.steps))
    adjoint = buildOperandAdjoint(b, loc, op, operand, adjoint, primal);
  return adjoint;
}
