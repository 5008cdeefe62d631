//===- ReverseForward.cpp - The forward sweep of reverse mode -------------===//
//
// The forward sweep re-executes the primal; loops reversed in place undo
// each iteration right after it, and eager calls run the callee's pullback
// at once (docs/AD.md).
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"
#include "LinearResults.h"

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

//===----------------------------------------------------------------------===//
// Forward sweep
//===----------------------------------------------------------------------===//

LogicalResult ReverseEmitter::forwardBlock(OpBuilder &b, Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(forwardOp(b, op)))
      return failure();
  return success();
}

/// Shadows of local buffers and their views, made in the forward sweep where
/// the reverse sweep can use forward values directly.
void ReverseEmitter::forwardShadowOf(OpBuilder &b, Operation &op) {
  Level &level = levels[op.getBlock()];
  if (!level.direct || op.getNumResults() != 1 ||
      !isShadowedType(op.getResult(0).getType()) ||
      !activity.hasShadow(op.getResult(0)))
    return;
  Value result = op.getResult(0);
  if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
    // Cloning with `forwardValues` itself would remap the primal result.
    IRMapping mapping = forwardValues;
    Value s = b.clone(op, mapping)->getResult(0);
    buildZeroFill(b, op.getLoc(), s);
    level.shadows[result] = s;
  } else if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
    Value sourceShadow = shadowInReverse(view.getViewSource());
    if (!sourceShadow)
      return; // reported
    IRMapping mapping = forwardValues;
    mapping.map(view.getViewSource(), sourceShadow);
    level.shadows[result] = b.clone(op, mapping)->getResult(0);
  }
}

LogicalResult ReverseEmitter::forwardFor(OpBuilder &b, scf::ForOp op) {
  Location loc = op.getLoc();
  auto eager = eagerLoops.find(op);
  DenseMap<Value, Value> resultAdjoints;
  if (eager != eagerLoops.end())
    resultAdjoints = buildLinearAdjoints(
        b, op, eager->second, returnSeeds,
        [&](Value v) { return forwardValues.lookupOrNull(v); },
        [&](Value v) { return knownAdjoints.lookup(v); });
  auto loop = scf::ForOp::create(
      b, loc, forwardValues.lookup(op.getLowerBound()),
      forwardValues.lookup(op.getUpperBound()),
      forwardValues.lookup(op.getStep()),
      llvm::map_to_vector(op.getInitArgs(),
                          [&](Value v) { return forwardValues.lookup(v); }));
  Block *body = loop.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  forwardValues.map(op.getBody()->getArguments(), body->getArguments());
  Level &level = levels[op.getBody()];
  level.forward = body;
  if (eager != eagerLoops.end()) {
    // The reverse code follows in the same block and uses forward values
    // directly; set before the forward code, which makes shadows of views.
    level.reverse = body;
    level.direct = true;
    // Calls in the body may need the running sums' adjoints (eager calls).
    for (auto [i, result] : llvm::enumerate(op.getResults()))
      if (Value adjoint = resultAdjoints.lookup(result))
        if (auto sums = getRunningSum(op, i))
          for (Value sum : *sums)
            knownAdjoints[sum] = adjoint;
  }
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  if (failed(forwardBlock(inner, *op.getBody())))
    return failure();
  if (eager != eagerLoops.end() &&
      failed(reverseIterationInPlace(inner, op, resultAdjoints)))
    return failure();
  inner.clone(*op.getBody()->getTerminator(), forwardValues);
  forwardValues.map(op.getResults(), loop.getResults());
  // A carried sum passes its adjoint on to its initial value unchanged.
  for (auto [init, result] : llvm::zip_equal(op.getInitArgs(), op.getResults()))
    if (Value adjoint = resultAdjoints.lookup(result);
        adjoint && activity.isActive(init))
      accumulate(b, loc, init, adjoint);
  return success();
}

LogicalResult ReverseEmitter::reverseIterationInPlace(
    OpBuilder &b, scf::ForOp op, const DenseMap<Value, Value> &adjoints) {
  Location loc = op.getLoc();
  Level &level = levels[op.getBody()];
  level.anchor = arith::ConstantIndexOp::create(b, loc, 0);
  llvm::SaveAndRestore<Operation *> inPlace(inPlaceLoop, op);
  // Every iteration's running sum has the adjoint of the result.
  auto yielded = op.getYieldedValues();
  for (auto [i, arg] : llvm::enumerate(op.getRegionIterArgs()))
    if (Value adjoint = adjoints.lookup(op.getResult(i));
        adjoint && activity.isActive(arg))
      accumulate(b, loc, yielded[i], adjoint);
  if (failed(reverseBlock(b, *op.getBody())))
    return failure();
  // What reached the sum's block argument is the same adjoint again, which
  // the initial value received once; the slot is cleared for the next
  // iteration.
  for (BlockArgument arg : op.getRegionIterArgs())
    if (activity.isActive(arg))
      (void)readAndZero(b, loc, arg);
  return success(!hadError);
}

LogicalResult ReverseEmitter::forwardOp(OpBuilder &b, Operation &op) {
  Location loc = op.getLoc();
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return forwardFor(b, forOp);
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
    Operation *branch = buildBranchLike(
        b, &op, forwardValues.lookup(op.getOperand(0)), op.getResultTypes());
    for (auto [from, to] : llvm::zip_equal(op.getRegions(),
                                           branch->getRegions())) {
      OpBuilder inner = OpBuilder::atBlockEnd(&to.front());
      if (from.empty()) {
        scf::YieldOp::create(inner, loc);
        continue;
      }
      levels[&from.front()].forward = &to.front();
      if (failed(forwardBlock(inner, from.front())))
        return failure();
      inner.clone(*from.front().getTerminator(), forwardValues);
    }
    forwardValues.map(op.getResults(), branch->getResults());
    return success();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    // Counts the executions of the after region for the reverse sweep.
    Type index = b.getIndexType();
    SmallVector<Value> inits = llvm::map_to_vector(
        whileOp.getInits(), [&](Value v) { return forwardValues.lookup(v); });
    inits.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    SmallVector<Type> afterTypes(whileOp.getResultTypes());
    afterTypes.push_back(index);
    auto loop = scf::WhileOp::create(b, loc, afterTypes, inits);
    SmallVector<Type> beforeTypes = llvm::to_vector(ValueRange(inits).getTypes());
    Block *before = b.createBlock(&loop.getBefore(), {}, beforeTypes,
                                  SmallVector<Location>(inits.size(), loc));
    forwardValues.map(whileOp.getBeforeArguments(),
                      before->getArguments().drop_back());
    levels[&whileOp.getBefore().front()].forward = before;
    OpBuilder inner = OpBuilder::atBlockEnd(before);
    if (failed(forwardBlock(inner, whileOp.getBefore().front())))
      return failure();
    auto condition = whileOp.getConditionOp();
    SmallVector<Value> passed = llvm::map_to_vector(
        condition.getArgs(), [&](Value v) { return forwardValues.lookup(v); });
    passed.push_back(before->getArguments().back());
    scf::ConditionOp::create(inner, loc,
                             forwardValues.lookup(condition.getCondition()),
                             passed);
    Block *after = b.createBlock(&loop.getAfter(), {}, afterTypes,
                                 SmallVector<Location>(afterTypes.size(), loc));
    forwardValues.map(whileOp.getAfterArguments(),
                      after->getArguments().drop_back());
    levels[&whileOp.getAfter().front()].forward = after;
    inner.setInsertionPointToEnd(after);
    if (failed(forwardBlock(inner, whileOp.getAfter().front())))
      return failure();
    SmallVector<Value> yielded = llvm::map_to_vector(
        whileOp.getYieldOp().getOperands(),
        [&](Value v) { return forwardValues.lookup(v); });
    Value one = arith::ConstantIndexOp::create(inner, loc, 1);
    yielded.push_back(
        arith::AddIOp::create(inner, loc, after->getArguments().back(), one));
    scf::YieldOp::create(inner, loc, yielded);
    b.setInsertionPointAfter(loop);
    forwardValues.map(whileOp.getResults(), loop.getResults().drop_back());
    whileCounts[whileOp] = loop.getResults().back();
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    if (needsReverse(op))
      if (Value seed = buildEagerSeed(b, call);
          seed && forwardEagerCall(b, call, seed))
        return success();
    func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
    Operation *rule = callee ? registry.getReverseRule(callee) : nullptr;
    if (auto vjp = dyn_cast_or_null<ct::CustomVjpOp>(rule);
        vjp && needsReverse(op)) {
      // The rule's forward half returns the results, then residuals that
      // its backward half needs.
      func::FuncOp forward = registry.lookupFunction(vjp.getForwardAttr());
      auto fwdCall = func::CallOp::create(
          b, loc, forward,
          llvm::map_to_vector(call.getOperands(), [&](Value v) {
            return forwardValues.lookup(v);
          }));
      unsigned numResults = call.getNumResults();
      forwardValues.map(call.getResults(),
                        fwdCall.getResults().take_front(numResults));
      residuals[call] = llvm::to_vector(
          ValueRange(fwdCall.getResults().drop_front(numResults)));
      return success();
    }
    if (needsReverse(op) && callee && !rule) {
      func::FuncOp forward = registry.get(callee, DerivativeKind::Forward,
                                          getCallActivities(call, activity));
      SmallVector<Value> operands = llvm::map_to_vector(
          call.getOperands(), [&](Value v) { return forwardValues.lookup(v); });
      if (!forwardTape) {
        OpBuilder entry = OpBuilder::atBlockBegin(reverseEntry);
        localTape = ct::TapeInitOp::create(entry, loc);
        forwardTape = reverseTape = localTape;
      }
      operands.push_back(forwardTape);
      auto fwdCall = func::CallOp::create(b, loc, forward, operands);
      forwardValues.map(call.getResults(), fwdCall.getResults());
      return success();
    }
  }
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op);
      dealloc && deferredFrees.contains(getMemoryRoot(dealloc.getMemref())))
    return success(); // freed when the pullback returns
  if (op.getNumRegions() != 0)
    return fail(&op, "operations with regions other than scf.for, scf.while, "
                     "scf.if and scf.index_switch are not supported");
  b.clone(op, forwardValues);
  forwardShadowOf(b, op);
  return success();
}

//===----------------------------------------------------------------------===//
// Eager calls
//===----------------------------------------------------------------------===//

Value ReverseEmitter::buildEagerSeed(OpBuilder &b, func::CallOp call) {
  // Like the iterations of a loop reversed in place: when the result's
  // adjoint is known before the call (it reaches the return or a running
  // sum linearly, with factors computed before), the callee's combined
  // pullback can run right away, with no fwd/rev halves and no tape.
  func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
  if (call.getNumResults() != 1 || !activity.isActive(call.getResult(0)) ||
      !callee || callee.isExternal() || registry.getReverseRule(callee))
    return nullptr;
  // Its pullback adds to the shadows of what the callee reads now: that
  // memory must keep its contents to the end, and the callee writes none.
  if (!onlyReadsFinalMemory(call))
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

Value ReverseEmitter::shadowInForward(OpBuilder &b, Value value) {
  if (!activity.hasShadow(value))
    return nullptr;
  if (Value known = levels[value.getParentBlock()].shadows.lookup(value))
    return known;
  auto view = value.getDefiningOp<ViewLikeOpInterface>();
  if (!view)
    return nullptr;
  Value source = shadowInForward(b, view.getViewSource());
  if (!source)
    return nullptr;
  IRMapping mapping;
  for (Value operand : view->getOperands())
    mapping.map(operand, operand == view.getViewSource()
                             ? source
                             : forwardValues.lookup(operand));
  return b.clone(*view, mapping)->getResult(0);
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
