//===- LinearResults.cpp - Loops whose result adjoints are known early ----===//

#include "LinearResults.h"
#include "Derivatives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <optional>

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

/// How an op's result changes with one of its operands when it is linear
/// in it: times `factor` (1 when null), divided by it instead if `divide`,
/// negated if `negate`.
struct LinearTerm {
  Value factor;
  bool divide = false;
  bool negate = false;
};

std::optional<LinearTerm> getLinearTerm(Operation *op, unsigned index) {
  if (isa<arith::AddFOp>(op))
    return LinearTerm{};
  if (isa<arith::SubFOp>(op))
    return LinearTerm{nullptr, false, index == 1};
  if (isa<arith::NegFOp>(op))
    return LinearTerm{nullptr, false, true};
  if (isa<arith::MulFOp>(op))
    return LinearTerm{op->getOperand(1 - index)};
  if (isa<arith::DivFOp>(op) && index == 0)
    return LinearTerm{op->getOperand(1), true};
  return std::nullopt;
}

/// Whether `value` is computed before `loop` runs, in the loop's block.
bool isDefinedBefore(Value value, Operation *loop) {
  if (Operation *def = value.getDefiningOp())
    return def->getBlock() == loop->getBlock() && def->isBeforeInBlock(loop);
  return value.getParentBlock() == loop->getBlock();
}

} // namespace

bool ad::carriesOnlySums(scf::ForOp loop, const ActivityAnalysis &activity) {
  auto yielded = loop.getYieldedValues();
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!activity.isActive(arg) && !activity.isActive(loop.getResult(i)))
      continue;
    if (!arg.hasOneUse())
      return false;
    OpOperand &use = *arg.use_begin();
    Operation *sum = use.getOwner();
    bool adds = isa<arith::AddFOp>(sum) ||
                (isa<arith::SubFOp>(sum) && use.getOperandNumber() == 0);
    if (!adds || sum->getResult(0) != yielded[i] ||
        !sum->getResult(0).hasOneUse())
      return false;
  }
  return true;
}

FailureOr<llvm::SetVector<Operation *>>
ad::getLinearResultUses(scf::ForOp loop, const ActivityAnalysis &activity) {
  llvm::SetVector<Operation *> uses;
  SmallVector<Value> worklist;
  for (Value result : loop.getResults())
    if (activity.isActive(result))
      worklist.push_back(result);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<func::ReturnOp>(user))
        continue;
      std::optional<LinearTerm> term =
          getLinearTerm(user, use.getOperandNumber());
      if (user->getBlock() != loop->getBlock() || !term ||
          (term->factor && !isDefinedBefore(term->factor, loop)))
        return failure();
      if (uses.insert(user))
        worklist.push_back(user->getResult(0));
    }
  }
  return uses;
}

DenseMap<Value, Value>
ad::buildLinearAdjoints(OpBuilder &b, scf::ForOp loop,
                        const llvm::SetVector<Operation *> &uses,
                        ArrayRef<std::pair<unsigned, Value>> seeds,
                        llvm::function_ref<Value(Value)> primal) {
  Location loc = loop.getLoc();
  DenseMap<Value, Value> adjoints;
  auto add = [&](Value value, Value adjoint) {
    Value &sum = adjoints[value];
    sum = sum ? buildAdjointSum(b, loc, sum, adjoint) : adjoint;
  };
  Operation *ret = loop->getBlock()->getTerminator();
  for (auto [index, seed] : seeds)
    add(ret->getOperand(index), seed);
  // Users before their operands: the adjoint of an op's result is complete
  // when the op is reached.
  SmallVector<Operation *> ordered(uses.begin(), uses.end());
  llvm::sort(ordered,
             [](Operation *x, Operation *y) { return y->isBeforeInBlock(x); });
  for (Operation *op : ordered) {
    Value adjoint = adjoints.lookup(op->getResult(0));
    if (!adjoint)
      continue;
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      if (isDefinedBefore(operand, loop))
        continue;
      LinearTerm term = *getLinearTerm(op, index);
      Value contribution = adjoint;
      if (term.factor && term.divide)
        contribution =
            arith::DivFOp::create(b, loc, contribution, primal(term.factor));
      else if (term.factor)
        contribution = arith::MulFOp::create(b, loc, contribution,
                                             primal(term.factor));
      if (term.negate)
        contribution = arith::NegFOp::create(b, loc, contribution);
      add(operand, contribution);
    }
  }
  return adjoints;
}
