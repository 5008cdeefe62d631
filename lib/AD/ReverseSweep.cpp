//===- ReverseSweep.cpp - The reverse sweep of reverse mode ---------------===//
//
// Walks every primal block backwards and propagates adjoints from results
// to operands: scalar rules, loads and stores, loops (reversed over their
// trip count, or rerun per iteration), branches, while loops and calls.
//
//===----------------------------------------------------------------------===//

#include "IterationKills.h"
#include "ReverseEmitter.h"

#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

/// Stores of a recomputed iteration into memory that nothing in the
/// reverse iteration reads again (the iteration's results, for later code
/// whose reverse has run already): the clean-up then drops what fed them.
static void eraseUnreadStores(ArrayRef<Operation *> recomputed,
                              Block *reverseBody) {
  DenseSet<Value> read;
  reverseBody->walk([&](memref::LoadOp load) {
    read.insert(getMemoryRoot(load.getMemRef()));
  });
  for (Operation *op : recomputed)
    op->walk([&](memref::StoreOp store) {
      if (!read.contains(getMemoryRoot(store.getMemRef())))
        store.erase();
    });
}

LogicalResult ReverseEmitter::recomputeIteration(OpBuilder &b, scf::ForOp op) {
  // The iteration's ops are cloned like the forward sweep's, with the
  // values from outside the loop as the reverse code sees them; nested
  // levels then push to (and pop from) the tape within this iteration.
  op.getBody()->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (!op->isAncestor(operand.getParentBlock()->getParentOp()))
        forwardValues.map(operand, primalInReverse(operand));
  });
  forwardValues.map(op.getInductionVar(),
                    levels[op.getBody()].values.lookup(op.getInductionVar()));
  return forwardBlock(b, *op.getBody());
}

bool ReverseEmitter::needsReverse(Operation &op) {
  if (llvm::any_of(op.getResults(),
                   [&](Value r) { return activity.isActive(r); }))
    return true;
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return activity.hasShadow(store.getMemRef());
  if (isa<memref::AllocOp>(op))
    return activity.hasShadow(op.getResult(0));
  if (auto call = dyn_cast<func::CallOp>(op))
    return llvm::any_of(getCallActivities(call, activity), [](ct::Activity a) {
      return a != ct::Activity::Constant;
    });
  if (isa<ct::TapePushOp, ct::TapePopOp>(op))
    return activity.hasShadow(op.getOperand(0));
  for (Region &region : op.getRegions())
    for (Operation &inner : region.getOps())
      if (needsReverse(inner))
        return true;
  return false;
}

LogicalResult ReverseEmitter::reverseBlock(OpBuilder &b, Block &block) {
  // Loops reversed in place, and eager calls, were undone in the forward
  // sweep.
  for (Operation &op : llvm::reverse(block.without_terminator()))
    if (needsReverse(op) && !eagerLoops.contains(&op) &&
        !eagerCalls.contains(&op) && failed(reverseOp(b, op)))
      return failure();
  return success(!hadError);
}

FailureOr<ReverseEmitter::ShadowElement>
ReverseEmitter::shadowElement(Operation &op, Value memref, ValueRange indices) {
  Value s = shadowInReverse(memref);
  if (!s) {
    if (!hadError)
      (void)fail(&op, "its memory has no derivative, but the value is active "
                      "(internal error)");
    return failure();
  }
  return ShadowElement{s, llvm::map_to_vector(indices, [&](Value v) {
                         return primalInReverse(v);
                       })};
}

LogicalResult ReverseEmitter::reverseOp(OpBuilder &b, Operation &op) {
  Location loc = op.getLoc();
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return reverseFor(b, forOp);
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
    return reverseBranch(b, &op);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return reverseWhile(b, whileOp);
  if (auto call = dyn_cast<func::CallOp>(op))
    return reverseCall(b, call);
  if (auto rule = dyn_cast<ScalarDerivativeOpInterface>(op))
    return reverseScalar(b, op, rule);
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    Value adjoint = readAndZero(b, loc, load.getResult());
    FailureOr<ShadowElement> element =
        shadowElement(op, load.getMemRef(), load.getIndices());
    if (failed(element))
      return failure();
    auto &[s, indices] = *element;
    Value old = memref::LoadOp::create(b, loc, s, indices);
    memref::StoreOp::create(b, loc, buildAdjointSum(b, loc, old, adjoint), s,
                            indices);
    return success(!hadError);
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    FailureOr<ShadowElement> element =
        shadowElement(op, store.getMemRef(), store.getIndices());
    if (failed(element))
      return failure();
    auto &[s, indices] = *element;
    // -0 like the slots: a load of the same element earlier in the primal
    // then adds its adjoint to -0, which folds away (+0 would not).
    Value adjoint = memref::LoadOp::create(b, loc, s, indices);
    memref::StoreOp::create(
        b, loc, buildAdjointZero(b, loc, adjoint.getType()), s, indices);
    if (activity.isActive(store.getValueToStore()))
      accumulate(b, loc, store.getValueToStore(), adjoint);
    return success(!hadError);
  }
  if (isa<memref::AllocOp>(op)) {
    if (sharedShadows.contains(op.getResult(0)))
      return success(); // freed when the pullback returns
    if (Value s = shadowInReverse(op.getResult(0)))
      memref::DeallocOp::create(b, loc, s);
    return success(!hadError);
  }
  if (auto pass = dyn_cast<ct::PassThroughOp>(op)) {
    accumulate(b, loc, pass.getInput(),
               readAndZero(b, loc, pass.getResult()));
    return success();
  }
  if (isa<ct::TapePushOp, ct::TapePopOp, ct::TapeInitOp>(op))
    return fail(&op, "reverse mode over reverse-mode code that keeps a tape "
                     "(loops or calls) is not supported yet; use forward over "
                     "reverse (ct.jvp of a gradient)");
  if (isa<memref::AllocaOp, memref::DeallocOp, ViewLikeOpInterface>(op))
    return success();
  return fail(&op, "no derivative rule; bind a custom rule to the enclosing "
                   "function or stop the gradient with ct::stop_gradient");
}

/// Erases the ops that computed `value` and nothing else (stand-ins stay).
static void eraseUnused(Value value) {
  // A set: an op listed twice would be erased the first time.
  llvm::SetVector<Operation *> worklist;
  if (Operation *def = value.getDefiningOp())
    worklist.insert(def);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (isa<UnrealizedConversionCastOp>(op) || !isPure(op) || !op->use_empty())
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.insert(def);
    op->erase();
  }
}

LogicalResult ReverseEmitter::reverseScalar(OpBuilder &b, Operation &op,
                                            ScalarDerivativeOpInterface rule) {
  Location loc = op.getLoc();
  Value adjoint = readAndZero(b, loc, op.getResult(0));
  // The rule builds every partial, but only those of active operands are
  // used. It gets stand-ins for the primal values, and only the stand-ins
  // that kept partials use are fetched: a primal value fetched in vain can
  // cost a tape entry (`h * k` with h constant needs h, not k).
  SmallVector<std::pair<Value, Value>> standIns; // (stand-in, primal)
  auto lookup = [&](Value primal) -> Value {
    for (auto [standIn, known] : standIns)
      if (known == primal)
        return standIn;
    Value standIn = UnrealizedConversionCastOp::create(
                        b, loc, primal.getType(), ValueRange{})
                        .getResult(0);
    standIns.push_back({standIn, primal});
    return standIn;
  };
  PrimalValues primals(&op, lookup);
  SmallVector<Value> partials = rule.buildPartials(b, primals);
  for (auto [operand, partial] : llvm::zip_equal(op.getOperands(), partials)) {
    if (!partial)
      continue;
    if (activity.isActive(operand))
      accumulate(b, loc, operand,
                 arith::MulFOp::create(b, loc, partial, adjoint,
                                       arith::FastMathFlags::contract));
    else
      eraseUnused(partial);
  }
  for (auto [standIn, primal] : standIns) {
    if (!standIn.use_empty())
      standIn.replaceAllUsesWith(primalInReverse(primal));
    standIn.getDefiningOp()->erase();
  }
  return success(!hadError);
}

LogicalResult ReverseEmitter::reverseFor(OpBuilder &b, scf::ForOp op) {
  Location loc = op.getLoc();
  Value lb = primalInReverse(op.getLowerBound());
  Value ub = primalInReverse(op.getUpperBound());
  Value step = primalInReverse(op.getStep());
  Type type = lb.getType();
  auto constant = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantOp::create(at, loc, type, at.getIntegerAttr(type, v));
  };
  Value count = buildTripCount(b, loc, lb, ub, step);
  SmallVector<std::pair<Value, Value>> carried; // (iter_arg, result)
  for (auto [arg, result] :
       llvm::zip_equal(op.getRegionIterArgs(), op.getResults()))
    if (activity.isActive(arg))
      carried.push_back({arg, result});

  auto loop =
      scf::ForOp::create(b, loc, constant(b, 0), count, constant(b, 1));
  Block *body = loop.getBody();
  OpBuilder inner = OpBuilder::atBlockBegin(body);
  bool recompute = recomputedLoops.contains(op);
  Level &level = openLevel(*op.getBody(), levels[op.getBody()].forward, body,
                           /*direct=*/recompute);
  level.rerun = recompute;
  // The primal iteration this reverse iteration undoes, computed in the
  // set-up code so that recomputed values can use it. lb + (count - 1 - k) *
  // step lies in [lb, ub); like the trip count, it assumes that ub - lb fits
  // the type, so no step overflows, which `nsw` tells LLVM (it then widens
  // the counter and folds the index casts, as for the forward loop).
  OpBuilder setup(level.anchor);
  Value k = loop.getInductionVar();
  auto nsw = arith::IntegerOverflowFlags::nsw;
  Value last =
      arith::SubIOp::create(setup, loc, count, constant(setup, 1), nsw);
  Value offset = arith::MulIOp::create(
      setup, loc, arith::SubIOp::create(setup, loc, last, k, nsw), step, nsw);
  Value reversedIv = arith::AddIOp::create(setup, loc, lb, offset, nsw);
  level.values[op.getInductionVar()] = reversedIv;
  inner.setInsertionPointAfter(level.anchor);
  IRMapping forwardSweepValues;
  SmallVector<Operation *> recomputed;
  if (recompute) {
    forwardSweepValues = forwardValues;
    if (failed(recomputeIteration(inner, op)))
      return failure();
    for (Operation *at = level.anchor->getNextNode();
         at && at != &*inner.getInsertionPoint(); at = at->getNextNode())
      recomputed.push_back(at);
  }

  // The adjoint of the carried value flows from the result slot (which
  // holds the adjoint of what this iteration yielded) to the yielded value,
  // and back from the iteration's block argument to the result slot.
  auto yielded = op.getYieldedValues();
  for (auto [arg, result] : carried) {
    unsigned i = cast<BlockArgument>(arg).getArgNumber() - 1;
    accumulate(inner, loc, yielded[i], readAndZero(inner, loc, result));
  }
  if (failed(reverseBlock(inner, *op.getBody())))
    return failure();
  for (auto [arg, result] : carried)
    memref::StoreOp::create(inner, loc, readAndZero(inner, loc, arg),
                            slot(result));
  // Iterations that touch no element another one writes have reverses that
  // commute (they only add into shared adjoints, and adjoint sums may be
  // reassociated): they run in the primal's order, which LLVM vectorises
  // without reversing vectors. The tape is a stack, though: a loop that only
  // pops is turned around by ct-tape-blocks once its pops are reads by
  // position (getOnlyTapeOps is that pass's own test).
  if (!recompute && carried.empty() && hasIndependentIterations(op)) {
    if (!body->walk([](Operation *inner) {
               return usesTape(inner) ? WalkResult::interrupt()
                                      : WalkResult::advance();
             })
             .wasInterrupted()) {
      OpBuilder at(reversedIv.getDefiningOp());
      reversedIv.replaceAllUsesWith(arith::AddIOp::create(
          at, loc, lb, arith::MulIOp::create(at, loc, k, step, nsw), nsw));
    } else if (getOnlyTapeOps<ct::TapePopOp>(loop)) {
      loop->setAttr(kCommutingIterations, b.getUnitAttr());
    }
  }
  b.setInsertionPointAfter(loop);
  if (recompute) {
    forwardValues = std::move(forwardSweepValues);
    eraseUnreadStores(recomputed, body);
  } else {
    reserveTape(op);
  }
  for (auto [arg, result] : carried) {
    unsigned i = cast<BlockArgument>(arg).getArgNumber() - 1;
    accumulate(b, loc, op.getInitArgs()[i], readAndZero(b, loc, result));
  }
  return success(!hadError);
}

/// Sizes the tape for a forward loop from its trip count: every iteration
/// pushes as many values as its body (nested loops reserve their own).
void ReverseEmitter::reserveTape(scf::ForOp op) {
  Block *body = levels[op.getBody()].forward;
  auto pushes = static_cast<int64_t>(
      llvm::range_size(body->getOps<ct::TapePushOp>()));
  if (pushes == 0)
    return;
  auto loop = cast<scf::ForOp>(body->getParentOp());
  OpBuilder b(loop);
  Location loc = op.getLoc();
  Value count = buildIndexCast(
      b, loc,
      buildTripCount(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                     loop.getStep()));
  Value slots = arith::MulIOp::create(
      b, loc, count, arith::ConstantIndexOp::create(b, loc, pushes));
  ct::TapeReserveOp::create(b, loc, forwardTape, slots);
}

LogicalResult ReverseEmitter::reverseBranch(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  SmallVector<std::pair<unsigned, Value>> adjoints;
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    if (activity.isActive(result))
      adjoints.push_back({i, readAndZero(b, loc, result)});
  Operation *branch = buildBranchLike(
      b, op, primalInReverse(op->getOperand(0)), TypeRange{});
  for (auto [from, to] : llvm::zip_equal(op->getRegions(),
                                         branch->getRegions())) {
    OpBuilder inner = OpBuilder::atBlockEnd(&to.front());
    auto yield = scf::YieldOp::create(inner, loc);
    if (from.empty())
      continue;
    Block &block = from.front();
    openLevel(block, levels[&block].forward, &to.front(), false);
    inner.setInsertionPoint(yield);
    Operation *primalYield = block.getTerminator();
    for (auto [i, adjoint] : adjoints)
      if (activity.isActive(primalYield->getOperand(i)))
        accumulate(inner, loc, primalYield->getOperand(i), adjoint);
    if (failed(reverseBlock(inner, block)))
      return failure();
  }
  b.setInsertionPointAfter(branch);
  return success(!hadError);
}

LogicalResult ReverseEmitter::reverseWhile(OpBuilder &b, scf::WhileOp op) {
  // Forward: B0 A0 B1 A1 ... BN, with N counted by the forward sweep.
  // Reverse iteration k = 0..N undoes B(N-k), then A(N-k-1) if k < N; this
  // pops each half's tape entries in exactly the reverse order of pushing.
  Location loc = op.getLoc();
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  auto condition = op.getConditionOp();
  Value forwardCount = whileCounts.lookup(op);
  Value n = fromForward(op->getBlock(), forwardCount, forwardCount);
  // The final B passes its condition arguments to the results.
  for (auto [passed, result] :
       llvm::zip_equal(condition.getArgs(), op.getResults()))
    if (activity.isActive(result) && activity.isActive(passed))
      accumulate(b, loc, passed, readAndZero(b, loc, result));
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value iterations = arith::AddIOp::create(b, loc, n, c1);
  auto loop = scf::ForOp::create(b, loc, c0, iterations, c1);
  Level &beforeLevel =
      openLevel(before, levels[&before].forward, loop.getBody(), false);
  OpBuilder inner(loop.getBody()->getTerminator());
  (void)beforeLevel;
  if (failed(reverseBlock(inner, before)))
    return failure();
  // A(N-k-1) runs only while k < N.
  Value more = arith::CmpIOp::create(inner, loc, arith::CmpIPredicate::ult,
                                     loop.getInductionVar(), n);
  auto branch = scf::IfOp::create(inner, loc, TypeRange{}, more,
                                  /*withElseRegion=*/false);
  openLevel(after, levels[&after].forward, &branch.getThenRegion().front(),
            false);
  OpBuilder body(branch.getThenRegion().front().getTerminator());
  // A's yield feeds the before arguments of the B undone just now.
  for (auto [yielded, arg] : llvm::zip_equal(op.getYieldOp().getOperands(),
                                             op.getBeforeArguments()))
    if (activity.isActive(arg)) {
      Value adjoint = readAndZero(body, loc, arg);
      if (activity.isActive(yielded))
        accumulate(body, loc, yielded, adjoint);
    }
  if (failed(reverseBlock(body, after)))
    return failure();
  // A's arguments came from the condition of the B undone next.
  for (auto [passed, arg] :
       llvm::zip_equal(condition.getArgs(), op.getAfterArguments()))
    if (activity.isActive(arg)) {
      Value adjoint = readAndZero(body, loc, arg);
      if (activity.isActive(passed))
        accumulate(body, loc, passed, adjoint);
    }
  b.setInsertionPointAfter(loop);
  for (auto [init, arg] :
       llvm::zip_equal(op.getInits(), op.getBeforeArguments()))
    if (activity.isActive(arg)) {
      Value adjoint = readAndZero(b, loc, arg);
      if (activity.isActive(init))
        accumulate(b, loc, init, adjoint);
    }
  return success(!hadError);
}

LogicalResult ReverseEmitter::reverseCall(OpBuilder &b, func::CallOp op) {
  Location loc = op.getLoc();
  func::FuncOp callee = registry.lookupFunction(op.getCalleeAttr());
  if (!callee)
    return fail(op, "the callee is not a func.func in this module");
  SmallVector<ct::Activity> callActivities = getCallActivities(op, activity);
  // A rule takes every argument with its default activity.
  Operation *rule = registry.getReverseRule(callee);
  if (rule)
    callActivities = ct::getDefaultActivities(callee.getFunctionType());

  SmallVector<Value> operands;
  if (isa_and_nonnull<ct::CustomVjpOp>(rule)) {
    for (Value residual : residuals.lookup(op))
      operands.push_back(fromForward(op->getBlock(), residual, residual));
  } else {
    operands = llvm::map_to_vector(
        op.getOperands(), [&](Value v) { return primalInReverse(v); });
    if (!rule)
      operands.push_back(reverseTape);
  }
  for (Value result : op.getResults())
    if (ct::isDifferentiableScalar(result.getType()))
      operands.push_back(activity.isActive(result)
                             ? readAndZero(b, loc, result)
                             : buildZero(b, loc, result.getType()));
  SmallVector<Value> scratch;
  for (auto [operand, a] : llvm::zip_equal(op.getOperands(), callActivities)) {
    if (a != ct::Activity::Duplicated)
      continue;
    Value s = shadowInReverse(operand);
    if (!s) {
      s = buildScratchShadow(b, loc, primalInReverse(operand));
      scratch.push_back(s);
    }
    operands.push_back(s);
  }
  SmallVector<Type> adjointTypes;
  for (auto [operand, a] : llvm::zip_equal(op.getOperands(), callActivities))
    if (a == ct::Activity::Active)
      adjointTypes.push_back(operand.getType());
  FlatSymbolRefAttr target;
  if (auto gradient = dyn_cast_or_null<ct::CustomGradientOp>(rule))
    target = gradient.getPullbackAttr();
  else if (auto vjp = dyn_cast_or_null<ct::CustomVjpOp>(rule))
    target = vjp.getBackwardAttr();
  else
    target = FlatSymbolRefAttr::get(
        registry.get(callee, DerivativeKind::Reverse, callActivities)
            .getSymNameAttr());
  auto call = func::CallOp::create(b, loc, target, adjointTypes, operands);
  for (Value s : scratch)
    memref::DeallocOp::create(b, loc, s);
  accumulateCallAdjoints(b, loc, op.getOperands(), callActivities,
                         call.getResults());
  return success(!hadError);
}
