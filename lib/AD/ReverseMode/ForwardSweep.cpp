//===- ForwardSweep.cpp - The forward sweep of reverse mode ---------------===//
//
// The forward sweep re-executes the primal: each op's model says what runs
// in its place (lib/AD/Rules). Eager calls run the callee's pullback at
// once (docs/AD.md).
//
//===----------------------------------------------------------------------===//

#include "Analysis/CallActivity.h"
#include "Analysis/LinearResults.h"
#include "DerivativeRegistry.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Utils/ControlFlow.h"
#include "Utils/IRBuilders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

#define DEBUG_TYPE "ct-reverse"

//===----------------------------------------------------------------------===//
// Forward sweep
//===----------------------------------------------------------------------===//

LogicalResult ReverseEmitter::forwardBlock(OpBuilder &b, Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(forwardOp(b, op)))
      return failure();
  return success();
}

LogicalResult ReverseEmitter::forwardOp(OpBuilder &b, Operation &op) {
  if (auto model = dyn_cast<ReverseModeOpInterface>(op))
    return model.emitForwardSweep(b, *this);
  if (op.getNumRegions() != 0)
    return fail(&op, "no derivative rule for this operation with regions");
  b.clone(op, forwardValues);
  return success();
}

Value ReverseEmitter::getForwardTape(Location loc) {
  if (!forwardTape) {
    OpBuilder entry = OpBuilder::atBlockBegin(reverseEntry);
    localTape = ct::TapeInitOp::create(entry, loc);
    forwardTape = reverseTape = localTape;
  }
  return forwardTape;
}

//===----------------------------------------------------------------------===//
// Eager calls
//===----------------------------------------------------------------------===//

bool ReverseEmitter::tryEagerCall(OpBuilder &b, func::CallOp call) {
  if (!registry.getStrategies().eagerCalls)
    return false;
  Value seed = buildEagerSeed(b, call);
  bool eager = seed && forwardEagerCall(b, call, seed);
  LLVM_DEBUG(llvm::dbgs() << "[ct-reverse] call of " << call.getCallee()
                          << " at " << call.getLoc() << ": "
                          << (eager ? "eager (pullback in the forward sweep)"
                                    : "split into fwd/rev halves")
                          << "\n");
  return eager;
}

Value ReverseEmitter::buildEagerSeed(OpBuilder &b, func::CallOp call) {
  // Like the iterations of an eager loop: when the result's
  // adjoint is known before the call (it reaches the return or a running
  // sum linearly, with factors computed before), the callee's combined
  // pullback can run right away, with no fwd/rev halves and no tape.
  func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
  if (call.getNumResults() != 1 || !activity.isActive(call.getResult(0)) ||
      !callee || callee.isExternal() || registry.getReverseRule(callee))
    return nullptr;
  // Its pullback adds to the shadows of what the callee reads now: that
  // memory must keep its contents to the end, and the callee writes none.
  if (!memory.onlyReadsFinalMemory(call))
    return nullptr;
  std::optional<LinearPath> path =
      getLinearPath(call.getResult(0), call,
                    [&](Value v) { return knownAdjoints.count(v) != 0; });
  if (!path)
    return nullptr;
  Value end = path->known ? knownAdjoints.lookup(path->known) : Value();
  if (!path->known)
    for (auto [index, seed] : returnSeeds)
      if (index == path->returnIndex)
        end = end ? buildAdjointSum(b, call.getLoc(), end, seed) : seed;
  if (!end)
    return nullptr;
  return buildPathAdjoint(b, call.getLoc(), *path, end, [&](Value v) {
    return forwardValues.lookupOrNull(v);
  });
}

Value ReverseEmitter::shadowInForward(OpBuilder &b, Value value,
                                      bool ownWhereNone) {
  if (!activity.hasShadow(value))
    return nullptr;
  if (Value known = levels[value.getParentBlock()].shadows.lookup(value))
    return known;
  if (Value known = forwardShadows.lookup(value))
    return known;
  // A choice between two places: the same choice between their shadows.
  if (auto select = value.getDefiningOp<arith::SelectOp>()) {
    auto armShadow = [&](Value place) {
      if (ownWhereNone && !activity.hasShadow(place))
        return forwardValues.lookupOrNull(place);
      return shadowInForward(b, place, ownWhereNone);
    };
    Value onTrue = armShadow(select.getTrueValue());
    Value onFalse = armShadow(select.getFalseValue());
    Value condition = forwardValues.lookupOrNull(select.getCondition());
    if (!onTrue || !onFalse || !condition)
      return nullptr;
    return arith::SelectOp::create(b, select.getLoc(), condition, onTrue,
                                   onFalse);
  }
  auto view = value.getDefiningOp<ViewLikeOpInterface>();
  if (!view)
    return nullptr;
  Value source = shadowInForward(b, view.getViewSource(), ownWhereNone);
  if (!source)
    return nullptr;
  IRMapping mapping;
  for (Value operand : view->getOperands())
    mapping.map(operand, operand == view.getViewSource()
                             ? source
                             : forwardValues.lookup(operand));
  return b.clone(*view, mapping)->getResult(0);
}

void ReverseEmitter::passShadowOut(Value value) {
  while (auto cast = value.getDefiningOp<memref::CastOp>())
    value = cast.getSource();
  auto result = dyn_cast<OpResult>(value);
  if (!result || !isBranch(result.getOwner()) ||
      !shadowsPassedOut.insert(value).second)
    return;
  for (Region &region : result.getOwner()->getRegions())
    if (Operation *yield = getBranchYield(region))
      passShadowOut(yield->getOperand(result.getResultNumber()));
}

void ReverseEmitter::setShadowInForward(Value value, Value shadow) {
  forwardShadowValues.insert(shadow);
  Level &level = levels[value.getParentBlock()];
  if (level.direct)
    level.shadows[value] = shadow;
  else
    forwardShadows[value] = shadow;
}

bool ReverseEmitter::forwardEagerCall(OpBuilder &b, func::CallOp call,
                                      Value seed) {
  Location loc = call.getLoc();
  SmallVector<ct::Activity> callActivities = getCallActivities(call, activity);
  SmallVector<Value> operands = llvm::map_to_vector(
      call.getOperands(), [&](Value v) { return forwardValues.lookup(v); });
  operands.push_back(seed);
  for (auto [operand, a] : llvm::zip_equal(call.getOperands(), callActivities))
    if (a == ct::Activity::Duplicated) {
      Value s = shadowInForward(b, operand);
      if (!s)
        return false;
      operands.push_back(s);
    }
  func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
  func::FuncOp pullback =
      registry.get(callee, DerivativeKind::Pullback, callActivities);
  auto eager = func::CallOp::create(b, loc, pullback, operands);
  forwardValues.map(call.getResult(0), eager.getResult(0));
  accumulateCallAdjoints(b, loc, call.getOperands(), callActivities,
                         eager.getResults().drop_front());
  eagerCalls.insert(call);
  return true;
}
