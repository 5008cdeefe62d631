//===- SCFReverse.cpp - Reverse mode of structured control flow -----------===//
//
// Loops run backwards over their trip count (scf.for) or the iteration
// count the forward sweep records (scf.while); branches branch again and
// reverse the region that ran. An scf.for's iterations are undone in one
// of three ways the emitter chooses (docs/AD.md): from the tape, by
// rerunning each iteration just before undoing it (recomputed loops), or
// in the forward sweep right after each has run (eager loops).
//
//===----------------------------------------------------------------------===//

#include "Analysis/IterationKills.h"
#include "Analysis/LinearResults.h"
#include "Checkpointing/Checkpoints.h"
#include "Checkpointing/OutlineCheckpoints.h"
#include "DerivativeRegistry.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Rules/SCF.h"
#include "Utils/IRBuilders.h"
#include "Utils/LoopMarks.h"
#include "Utils/Tapes.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

#define DEBUG_TYPE "ct-reverse"

namespace {
/// The trip count of a while loop, counted by its forward sweep.
struct WhileTripCount : ReverseEmitter::OpState {
  Value count;
};
} // namespace

//===----------------------------------------------------------------------===//
// scf.for
//===----------------------------------------------------------------------===//

/// Reverses the iteration of eager loop `op` that the forward code just
/// before `b` ran, given the adjoints of the loop's results.
static LogicalResult
reverseIterationInPlace(OpBuilder &b, scf::ForOp op,
                        const DenseMap<Value, Value> &adjoints,
                        ReverseEmitter &e) {
  Location loc = op.getLoc();
  Level &level = e.getLevel(op.getBody());
  level.anchor = arith::ConstantIndexOp::create(b, loc, 0);
  auto inPlace = e.undoInPlace(op);
  // Every iteration's running sum has the adjoint of the result.
  auto yielded = op.getYieldedValues();
  for (auto [i, arg] : llvm::enumerate(op.getRegionIterArgs()))
    if (Value adjoint = adjoints.lookup(op.getResult(i));
        adjoint && e.getActivity().isActive(arg))
      e.accumulate(b, loc, yielded[i], adjoint);
  if (failed(e.reverseBlock(b, *op.getBody())))
    return failure();
  // What reached the sum's block argument is the same adjoint again, which
  // the initial value received once; the slot is cleared for the next
  // iteration.
  for (BlockArgument arg : op.getRegionIterArgs())
    if (e.getActivity().isActive(arg))
      (void)e.readAndZero(b, loc, arg);
  return success(!e.hadFailure());
}

/// Whether `op` is reversed from snapshots (#pragma ct checkpoint); the
/// eager and recomputed strategies, which keep less, come first.
static bool isCheckpointed(scf::ForOp op, ReverseEmitter &e) {
  return !e.getLoopStrategies().isEager(op) &&
         !e.getLoopStrategies().isRecomputed(op) && getCheckpointedCall(op) &&
         canCheckpointHere(op, e);
}

static LogicalResult forwardFor(OpBuilder &b, scf::ForOp op,
                                ReverseEmitter &e) {
  if (isCheckpointed(op, e))
    return forwardCheckpointedLoop(b, op, e);
  Location loc = op.getLoc();
  bool eager = e.getLoopStrategies().isEager(op);
  DenseMap<Value, Value> resultAdjoints;
  if (eager)
    resultAdjoints = buildLinearAdjoints(
        b, op, e.getLoopStrategies().getLinearUses(op), e.getReturnSeeds(),
        [&](Value v) { return e.getForwardMapping().lookupOrNull(v); },
        [&](Value v) { return e.getKnownAdjoint(v); });
  auto loop = scf::ForOp::create(
      b, loc, e.getForwardMapping().lookup(op.getLowerBound()),
      e.getForwardMapping().lookup(op.getUpperBound()),
      e.getForwardMapping().lookup(op.getStep()),
      llvm::map_to_vector(op.getInitArgs(), [&](Value v) {
        return e.getForwardMapping().lookup(v);
      }));
  copyParallelMark(op, loop);
  if (eager)
    loop->setAttr(kIterationTape, b.getUnitAttr());
  Block *body = loop.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  e.getForwardMapping().map(op.getBody()->getArguments(), body->getArguments());
  Level &level = e.getLevel(op.getBody());
  level.forward = body;
  if (eager) {
    // The reverse code follows in the same block and uses forward values
    // directly; set before the forward code, which makes shadows of views.
    level.reverse = body;
    level.direct = true;
    // Calls in the body may need the running sums' adjoints (eager calls).
    for (auto [i, result] : llvm::enumerate(op.getResults()))
      if (Value adjoint = resultAdjoints.lookup(result))
        if (auto sums = getRunningSum(op, i))
          for (Value sum : *sums)
            e.setKnownAdjoint(sum, adjoint);
  }
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  if (failed(e.forwardBlock(inner, *op.getBody())))
    return failure();
  if (eager && failed(reverseIterationInPlace(inner, op, resultAdjoints, e)))
    return failure();
  inner.clone(*op.getBody()->getTerminator(), e.getForwardMapping());
  e.getForwardMapping().map(op.getResults(), loop.getResults());
  // A carried sum passes its adjoint on to its initial value unchanged.
  for (auto [init, result] : llvm::zip_equal(op.getInitArgs(), op.getResults()))
    if (Value adjoint = resultAdjoints.lookup(result);
        adjoint && e.getActivity().isActive(init))
      e.accumulate(b, loc, init, adjoint);
  return success();
}

/// Stores of a recomputed iteration into memory that nothing in the
/// reverse iteration reads again (the iteration's results, for later code
/// whose reverse has run already): the clean-up then drops what fed them.
static void eraseUnreadStores(ArrayRef<Operation *> recomputed,
                              Block *reverseBody) {
  DenseSet<Value> read;
  reverseBody->walk([&](memref::LoadOp load) {
    for (Value root : getMemoryRoots(load.getMemRef()))
      read.insert(root);
  });
  for (Operation *op : recomputed)
    op->walk([&](memref::StoreOp store) {
      if (llvm::none_of(getMemoryRoots(store.getMemRef()),
                        [&](Value root) { return read.contains(root); }))
        store.erase();
    });
}

/// Runs the primal iteration that the reverse iteration of `op` undoes,
/// so that its values can be used directly.
static LogicalResult recomputeIteration(OpBuilder &b, scf::ForOp op,
                                        ReverseEmitter &e) {
  // The iteration's ops are cloned like the forward sweep's, with the
  // values from outside the loop as the reverse code sees them; nested
  // levels then push to (and pop from) the tape within this iteration.
  op.getBody()->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (!op->isAncestor(operand.getParentBlock()->getParentOp()))
        e.getForwardMapping().map(operand, e.primalInReverse(operand));
  });
  e.getForwardMapping().map(
      op.getInductionVar(),
      e.getLevel(op.getBody()).values.lookup(op.getInductionVar()));
  return e.forwardBlock(b, *op.getBody());
}

/// Sizes the tape for a forward loop from its trip count: every iteration
/// pushes as many values as its body (nested loops reserve their own).
static void reserveTape(scf::ForOp op, ReverseEmitter &e) {
  Block *body = e.getLevel(op.getBody()).forward;
  int64_t pushes = 0;
  for (ct::TapePushOp push : body->getOps<ct::TapePushOp>())
    pushes += ct::getTapeSlots(push.getValue().getType());
  if (pushes == 0)
    return;
  auto loop = cast<scf::ForOp>(body->getParentOp());
  OpBuilder b(loop);
  Location loc = op.getLoc();
  Value count =
      buildIndexCast(b, loc,
                     buildTripCount(b, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep()));
  Value slots = arith::MulIOp::create(
      b, loc, count, arith::ConstantIndexOp::create(b, loc, pushes));
  ct::TapeReserveOp::create(b, loc, e.getForwardTape(loc), slots);
}

/// The primal iteration that reverse iteration `k` undoes, in the set-up
/// code of the reverse body so that recomputed values can use it:
/// lb + (count - 1 - k) * step lies in [lb, ub). Like the trip count, it
/// assumes that ub - lb fits the type, so no step overflows, which `nsw`
/// tells LLVM (it then widens the counter and folds the index casts, as for
/// the forward loop).
static Value buildReversedIv(OpBuilder setup, Location loc, Value lb,
                             Value step, Value count, Value k) {
  auto nsw = arith::IntegerOverflowFlags::nsw;
  Value one = arith::ConstantOp::create(setup, loc, lb.getType(),
                                        setup.getIntegerAttr(lb.getType(), 1));
  Value last = arith::SubIOp::create(setup, loc, count, one, nsw);
  Value offset = arith::MulIOp::create(
      setup, loc, arith::SubIOp::create(setup, loc, last, k, nsw), step, nsw);
  return arith::AddIOp::create(setup, loc, lb, offset, nsw);
}

/// Iterations that touch no element another one writes have reverses that
/// commute (they only add into shared adjoints, and adjoint sums may be
/// reassociated): they run in the primal's order, which LLVM vectorises
/// without reversing vectors. The tape is a stack, though: a loop that only
/// pops is turned around by ct-tape-blocks once its pops are reads by
/// position (getOnlyTapeOps is that pass's own test).
static void runInPrimalOrder(scf::ForOp loop, Value reversedIv, Value lb,
                             Value step) {
  bool tape = loop.getBody()
                  ->walk([](Operation *inner) {
                    return usesTape(inner) ? WalkResult::interrupt()
                                           : WalkResult::advance();
                  })
                  .wasInterrupted();
  if (!tape) {
    OpBuilder at(reversedIv.getDefiningOp());
    Location loc = loop.getLoc();
    auto nsw = arith::IntegerOverflowFlags::nsw;
    reversedIv.replaceAllUsesWith(arith::AddIOp::create(
        at, loc, lb,
        arith::MulIOp::create(at, loc, loop.getInductionVar(), step, nsw),
        nsw));
  } else if (getOnlyTapeOps<ct::TapePopOp>(loop)) {
    loop->setAttr(kCommutingIterations, UnitAttr::get(loop.getContext()));
  }
}

static LogicalResult reverseFor(OpBuilder &b, scf::ForOp op,
                                ReverseEmitter &e) {
  if (e.lookupOpState<CheckpointedLoopState>(op))
    return reverseCheckpointedLoop(b, op, e);
  Location loc = op.getLoc();
  Value lb = e.primalInReverse(op.getLowerBound());
  Value ub = e.primalInReverse(op.getUpperBound());
  Value step = e.primalInReverse(op.getStep());
  Type type = lb.getType();
  auto constant = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantOp::create(at, loc, type, at.getIntegerAttr(type, v));
  };
  Value count = buildTripCount(b, loc, lb, ub, step);
  SmallVector<std::pair<Value, Value>> carried; // (iter_arg, result)
  for (auto [arg, result] :
       llvm::zip_equal(op.getRegionIterArgs(), op.getResults()))
    if (e.getActivity().isActive(arg))
      carried.push_back({arg, result});

  auto loop = scf::ForOp::create(b, loc, constant(b, 0), count, constant(b, 1));
  copyParallelMark(op, loop);
  Block *body = loop.getBody();
  OpBuilder inner = OpBuilder::atBlockBegin(body);
  bool recompute = e.getLoopStrategies().isRecomputed(op);
  if (recompute)
    loop->setAttr(kIterationTape, b.getUnitAttr());
  Level &level =
      e.openLevel(*op.getBody(), e.getLevel(op.getBody()).forward, body,
                  /*direct=*/recompute);
  level.rerun = recompute;
  Value k = loop.getInductionVar();
  Value reversedIv =
      buildReversedIv(OpBuilder(level.anchor), loc, lb, step, count, k);
  level.values[op.getInductionVar()] = reversedIv;
  inner.setInsertionPointAfter(level.anchor);
  IRMapping forwardSweepValues;
  SmallVector<Operation *> recomputed;
  if (recompute) {
    forwardSweepValues = e.getForwardMapping();
    if (failed(recomputeIteration(inner, op, e)))
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
    e.accumulate(inner, loc, yielded[i], e.readAndZero(inner, loc, result));
  }
  if (failed(e.reverseBlock(inner, *op.getBody())))
    return failure();
  for (auto [arg, result] : carried)
    memref::StoreOp::create(inner, loc, e.readAndZero(inner, loc, arg),
                            e.slot(result));
  bool commuting = !recompute && carried.empty() &&
                   e.getRegistry().getStrategies().commutingIterations &&
                   hasIndependentIterations(op);
  LLVM_DEBUG(
      llvm::dbgs() << "[ct-reverse] loop at " << loc << ": reversed "
                   << (recompute ? "rerunning each iteration" : "from the tape")
                   << (commuting ? ", in the primal's order "
                                   "(iterations commute)"
                                 : "")
                   << "\n");
  if (commuting)
    runInPrimalOrder(loop, reversedIv, lb, step);
  b.setInsertionPointAfter(loop);
  if (recompute) {
    e.getForwardMapping() = std::move(forwardSweepValues);
    eraseUnreadStores(recomputed, body);
  } else {
    reserveTape(op, e);
  }
  for (auto [arg, result] : carried) {
    unsigned i = cast<BlockArgument>(arg).getArgNumber() - 1;
    e.accumulate(b, loc, op.getInitArgs()[i], e.readAndZero(b, loc, result));
  }
  return success(!e.hadFailure());
}

//===----------------------------------------------------------------------===//
// scf.if, scf.index_switch
//===----------------------------------------------------------------------===//

/// Whether `op` is a choice ct-auto-checkpoint made (its then branch runs
/// the loop checkpointed, its else branch as written) that this pullback
/// need not make: it reverses the loop as written without a tape (eagerly,
/// or rerunning its iterations), or not at all. The checkpointed branch is
/// then never taken, nor differentiated.
static bool isMootChoice(Operation &op, ReverseEmitter &e) {
  auto branch = dyn_cast<scf::IfOp>(op);
  if (!branch || !branch->hasAttr(kAutoCheckpointChoice) || !branch.elseBlock())
    return false;
  Operation &loop = branch.elseBlock()->front();
  return !e.needsReverse(loop) || e.getLoopStrategies().isEager(&loop) ||
         e.getLoopStrategies().isRecomputed(&loop);
}

/// The branch's condition as the sweeps test it: false for a moot choice.
static Value getCondition(OpBuilder &b, Operation &op, Value condition,
                          ReverseEmitter &e) {
  if (!isMootChoice(op, e))
    return condition;
  return arith::ConstantOp::create(b, op.getLoc(), b.getBoolAttr(false));
}

/// The forward clone of a branch; its regions' clones are the forward
/// blocks of their levels.
static LogicalResult forwardBranch(OpBuilder &b, Operation &op,
                                   ReverseEmitter &e) {
  Location loc = op.getLoc();
  // Memory the branch makes and chooses, whose address the forward sweep
  // keeps in memory (a pointer returned early by a function lowered in
  // place, null or memory made there, stored in an object's field), has
  // the shadow the branch taken yields: extra results. (A choice among
  // places from outside is the same choice among their shadows:
  // shadowOfChosenPlace; memory made and not kept takes one shadow after
  // the branch: sharesChosenShadow.)
  // (Or memory made there whose address is kept, or read there through a
  // kept address: a first derivative's shadow buffers, passed out for its
  // reverse sweep; or memory a loop passes on, made there or chosen there
  // among places: isLoopCarriedBuffer, passesShadowOut.) Whether a region
  // makes what it yields as `result` (also by a branch or loop nested in
  // the region), and it is kept:
  auto keptInside = [&](OpResult result) {
    return llvm::any_of(op.getRegions(), [&](Region &region) {
      Operation *yield = getBranchYield(region);
      return yield &&
             llvm::any_of(
                 getMemoryRoots(yield->getOperand(result.getResultNumber())),
                 [&](Value root) {
                   return region.isAncestor(root.getParentRegion()) &&
                          (isAddressStored(result) || isAddressStored(root) ||
                           root.getDefiningOp<ct::LoadAddressOp>() ||
                           isLoopCarriedBuffer(root) ||
                           isChosenBesideLoopCarried(root));
                 });
    });
  };
  SmallVector<unsigned> shadowed;
  SmallVector<Type> types(op.getResultTypes());
  for (OpResult result : op.getResults())
    if (isa<MemRefType>(result.getType()) && e.hasShadow(result) &&
        (keptInside(result) || e.passesShadowOut(result))) {
      shadowed.push_back(result.getResultNumber());
      types.push_back(result.getType());
    }
  Operation *branch = buildBranchLike(
      b, &op,
      getCondition(b, op, e.getForwardMapping().lookup(op.getOperand(0)), e),
      types);
  bool moot = isMootChoice(op, e);
  for (auto [from, to] :
       llvm::zip_equal(op.getRegions(), branch->getRegions())) {
    OpBuilder inner = OpBuilder::atBlockEnd(&to.front());
    if (from.empty()) {
      scf::YieldOp::create(inner, loc);
      continue;
    }
    if (moot && &from == &op.getRegion(0)) {
      SmallVector<Value> never = llvm::map_to_vector(types, [&](Type type) {
        return Value(ub::PoisonOp::create(inner, loc, type));
      });
      scf::YieldOp::create(inner, loc, never);
      continue;
    }
    e.getLevel(&from.front()).forward = &to.front();
    if (failed(e.forwardBlock(inner, from.front())))
      return failure();
    Operation *primalYield = from.front().getTerminator();
    SmallVector<Value> shadows;
    for (unsigned i : shadowed) {
      // (The null pointer is its own shadow: no derivative is there; so is
      // memory no path made.)
      Value yielded = primalYield->getOperand(i);
      Value shadow =
          isNullPointerView(yielded) || yielded.getDefiningOp<ub::PoisonOp>()
              ? e.getForwardMapping().lookup(yielded)
              : e.shadowInForward(inner, yielded);
      if (!shadow)
        return e.failWith(&op, "cannot differentiate in reverse mode: the "
                               "derivative of memory a branch chooses is "
                               "unavailable");
      if (shadow.getType() != types[i])
        shadow = memref::CastOp::create(inner, loc, types[i], shadow);
      shadows.push_back(shadow);
    }
    Operation *yield = inner.clone(*primalYield, e.getForwardMapping());
    yield->insertOperands(yield->getNumOperands(), shadows);
  }
  unsigned count = op.getNumResults();
  e.getForwardMapping().map(op.getResults(),
                            branch->getResults().take_front(count));
  for (auto [k, i] : llvm::enumerate(shadowed))
    e.setShadowInForward(op.getResult(i), branch->getResult(count + k));
  return success();
}

static LogicalResult reverseBranch(OpBuilder &b, Operation *op,
                                   ReverseEmitter &e) {
  Location loc = op->getLoc();
  SmallVector<std::pair<unsigned, Value>> adjoints;
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    if (e.getActivity().isActive(result))
      adjoints.push_back({i, e.readAndZero(b, loc, result)});
  Operation *branch = buildBranchLike(
      b, op, getCondition(b, *op, e.primalInReverse(op->getOperand(0)), e),
      TypeRange{});
  bool moot = isMootChoice(*op, e);
  for (auto [from, to] :
       llvm::zip_equal(op->getRegions(), branch->getRegions())) {
    OpBuilder inner = OpBuilder::atBlockEnd(&to.front());
    auto yield = scf::YieldOp::create(inner, loc);
    if (from.empty() || (moot && &from == &op->getRegion(0)))
      continue;
    Block &block = from.front();
    e.openLevel(block, e.getLevel(&block).forward, &to.front(), false);
    inner.setInsertionPoint(yield);
    Operation *primalYield = block.getTerminator();
    for (auto [i, adjoint] : adjoints)
      if (e.getActivity().isActive(primalYield->getOperand(i)))
        e.accumulate(inner, loc, primalYield->getOperand(i), adjoint);
    if (failed(e.reverseBlock(inner, block)))
      return failure();
  }
  b.setInsertionPointAfter(branch);
  return success(!e.hadFailure());
}

//===----------------------------------------------------------------------===//
// scf.while
//===----------------------------------------------------------------------===//

/// The results of `whileOp` that are memory with shadows it chooses in its
/// iterations among buffers they made (isLoopCarriedBuffer) and memory
/// from outside: the forward loop passes their shadows out. (One memory
/// from outside on every path is its own shadow's: getWholeMemoryPassedOn.)
static SmallVector<unsigned> getShadowsPassedOut(scf::WhileOp whileOp,
                                                 ReverseEmitter &e) {
  SmallVector<unsigned> shadowed;
  for (OpResult result : whileOp->getResults()) {
    if (!isa<MemRefType>(result.getType()) || !e.hasShadow(result) ||
        getWholeMemoryPassedOn(result))
      continue;
    SmallVector<Value, 2> roots = getMemoryRoots(result);
    auto madeInside = [&](Value root) {
      return whileOp->isAncestor(root.getParentRegion()->getParentOp());
    };
    if (llvm::all_of(roots,
                     [&](Value root) {
                       return !madeInside(root) || isLoopCarriedBuffer(root);
                     }) &&
        (roots.size() > 1 || llvm::any_of(roots, madeInside)))
      shadowed.push_back(result.getResultNumber());
  }
  return shadowed;
}

/// The shadow the forward sweep made for `passed`, memory an iteration
/// made or poison where the iteration made none (nothing reads that
/// shadow).
static Value shadowPassedOut(OpBuilder &b, Value passed, ReverseEmitter &e) {
  if (passed.getDefiningOp<ub::PoisonOp>())
    return e.getForwardMapping().lookup(passed);
  return e.shadowInForward(b, passed);
}

/// The forward clone of a while loop, which also counts the executions of
/// its after region for the reverse sweep.
static LogicalResult forwardWhile(OpBuilder &b, scf::WhileOp whileOp,
                                  ReverseEmitter &e) {
  if (getCheckpointedCall(whileOp) && canCheckpointHere(whileOp, e))
    return forwardCheckpointedLoop(b, whileOp, e);
  Location loc = whileOp.getLoc();
  Type index = b.getIndexType();
  SmallVector<Value> inits =
      llvm::map_to_vector(whileOp.getInits(), [&](Value v) {
        return e.getForwardMapping().lookup(v);
      });
  inits.push_back(arith::ConstantIndexOp::create(b, loc, 0));
  SmallVector<Type> afterTypes(whileOp.getResultTypes());
  // Buffers an iteration made and the loop passes out (an object an early
  // `return` reads) pass their shadows out too.
  SmallVector<unsigned> shadowed = getShadowsPassedOut(whileOp, e);
  for (unsigned i : shadowed) {
    afterTypes.push_back(whileOp.getResult(i).getType());
    e.passShadowOut(whileOp.getConditionOp().getArgs()[i]);
  }
  afterTypes.push_back(index);
  auto loop = scf::WhileOp::create(b, loc, afterTypes, inits);
  SmallVector<Type> beforeTypes = llvm::to_vector(ValueRange(inits).getTypes());
  Block *before = b.createBlock(&loop.getBefore(), {}, beforeTypes,
                                SmallVector<Location>(inits.size(), loc));
  e.getForwardMapping().map(whileOp.getBeforeArguments(),
                            before->getArguments().drop_back());
  e.getLevel(&whileOp.getBefore().front()).forward = before;
  OpBuilder inner = OpBuilder::atBlockEnd(before);
  if (failed(e.forwardBlock(inner, whileOp.getBefore().front())))
    return failure();
  auto condition = whileOp.getConditionOp();
  SmallVector<Value> passed =
      llvm::map_to_vector(condition.getArgs(), [&](Value v) {
        return e.getForwardMapping().lookup(v);
      });
  for (unsigned i : shadowed) {
    Value shadow = shadowPassedOut(inner, condition.getArgs()[i], e);
    if (!shadow)
      return e.failWith(
          whileOp, "cannot differentiate in reverse mode: a reference or "
                   "pointer chosen inside this loop, between different arrays "
                   "or variables, is used after the loop; choose it after the "
                   "loop, or use forward mode (ct::jvp)");
    Type type = whileOp.getResult(i).getType();
    if (shadow.getType() != type)
      shadow = memref::CastOp::create(inner, loc, type, shadow);
    passed.push_back(shadow);
  }
  passed.push_back(before->getArguments().back());
  scf::ConditionOp::create(
      inner, loc, e.getForwardMapping().lookup(condition.getCondition()),
      passed);
  Block *after = b.createBlock(&loop.getAfter(), {}, afterTypes,
                               SmallVector<Location>(afterTypes.size(), loc));
  e.getForwardMapping().map(
      whileOp.getAfterArguments(),
      after->getArguments().take_front(whileOp.getNumResults()));
  e.getLevel(&whileOp.getAfter().front()).forward = after;
  inner.setInsertionPointToEnd(after);
  if (failed(e.forwardBlock(inner, whileOp.getAfter().front())))
    return failure();
  SmallVector<Value> yielded =
      llvm::map_to_vector(whileOp.getYieldOp().getOperands(), [&](Value v) {
        return e.getForwardMapping().lookup(v);
      });
  Value one = arith::ConstantIndexOp::create(inner, loc, 1);
  yielded.push_back(
      arith::AddIOp::create(inner, loc, after->getArguments().back(), one));
  scf::YieldOp::create(inner, loc, yielded);
  b.setInsertionPointAfter(loop);
  unsigned count = whileOp.getNumResults();
  e.getForwardMapping().map(whileOp.getResults(),
                            loop.getResults().take_front(count));
  for (auto [k, i] : llvm::enumerate(shadowed))
    e.setShadowInForward(whileOp.getResult(i), loop.getResult(count + k));
  e.getOpState<WhileTripCount>(whileOp).count = loop.getResults().back();
  return success();
}

static LogicalResult reverseWhile(OpBuilder &b, scf::WhileOp op,
                                  ReverseEmitter &e) {
  if (e.lookupOpState<CheckpointedLoopState>(op))
    return reverseCheckpointedLoop(b, op, e);
  // Forward: B0 A0 B1 A1 ... BN, with N counted by the forward sweep.
  // Reverse iteration k = 0..N undoes B(N-k), then A(N-k-1) if k < N; this
  // pops each half's tape entries in exactly the reverse order of pushing.
  Location loc = op.getLoc();
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  auto condition = op.getConditionOp();
  Value forwardCount = e.getOpState<WhileTripCount>(op).count;
  Value n = e.fromForward(op->getBlock(), forwardCount, forwardCount);
  // The final B passes its condition arguments to the results.
  for (auto [passed, result] :
       llvm::zip_equal(condition.getArgs(), op.getResults()))
    if (e.getActivity().isActive(result) && e.getActivity().isActive(passed))
      e.accumulate(b, loc, passed, e.readAndZero(b, loc, result));
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value iterations = arith::AddIOp::create(b, loc, n, c1);
  auto loop = scf::ForOp::create(b, loc, c0, iterations, c1);
  Level &beforeLevel =
      e.openLevel(before, e.getLevel(&before).forward, loop.getBody(), false);
  OpBuilder inner(loop.getBody()->getTerminator());
  (void)beforeLevel;
  if (failed(e.reverseBlock(inner, before)))
    return failure();
  // A(N-k-1) runs only while k < N.
  Value more = arith::CmpIOp::create(inner, loc, arith::CmpIPredicate::ult,
                                     loop.getInductionVar(), n);
  auto branch = scf::IfOp::create(inner, loc, TypeRange{}, more,
                                  /*withElseRegion=*/false);
  e.openLevel(after, e.getLevel(&after).forward,
              &branch.getThenRegion().front(), false);
  OpBuilder body(branch.getThenRegion().front().getTerminator());
  // A's yield feeds the before arguments of the B undone just now.
  for (auto [yielded, arg] :
       llvm::zip_equal(op.getYieldOp().getOperands(), op.getBeforeArguments()))
    if (e.getActivity().isActive(arg)) {
      Value adjoint = e.readAndZero(body, loc, arg);
      if (e.getActivity().isActive(yielded))
        e.accumulate(body, loc, yielded, adjoint);
    }
  if (failed(e.reverseBlock(body, after)))
    return failure();
  // A's arguments came from the condition of the B undone next.
  for (auto [passed, arg] :
       llvm::zip_equal(condition.getArgs(), op.getAfterArguments()))
    if (e.getActivity().isActive(arg)) {
      Value adjoint = e.readAndZero(body, loc, arg);
      if (e.getActivity().isActive(passed))
        e.accumulate(body, loc, passed, adjoint);
    }
  b.setInsertionPointAfter(loop);
  for (auto [init, arg] :
       llvm::zip_equal(op.getInits(), op.getBeforeArguments()))
    if (e.getActivity().isActive(arg)) {
      Value adjoint = e.readAndZero(b, loc, arg);
      if (e.getActivity().isActive(init))
        e.accumulate(b, loc, init, adjoint);
    }
  return success(!e.hadFailure());
}

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

namespace {

struct ForReverse
    : public ReverseModeOpInterface::ExternalModel<ForReverse, scf::ForOp> {
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &e) const {
    return forwardFor(b, cast<scf::ForOp>(op), e);
  }
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &e) const {
    return reverseFor(b, cast<scf::ForOp>(op), e);
  }
};

template <typename Op>
struct BranchReverse
    : public ReverseModeOpInterface::ExternalModel<BranchReverse<Op>, Op> {
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &e) const {
    return forwardBranch(b, *op, e);
  }
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &e) const {
    return reverseBranch(b, op, e);
  }
};

struct WhileReverse
    : public ReverseModeOpInterface::ExternalModel<WhileReverse, scf::WhileOp> {
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &e) const {
    return forwardWhile(b, cast<scf::WhileOp>(op), e);
  }
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &e) const {
    return reverseWhile(b, cast<scf::WhileOp>(op), e);
  }
};

} // namespace

void ad::attachSCFReverseModels(MLIRContext *context) {
  scf::ForOp::attachInterface<ForReverse>(*context);
  scf::IfOp::attachInterface<BranchReverse<scf::IfOp>>(*context);
  scf::IndexSwitchOp::attachInterface<BranchReverse<scf::IndexSwitchOp>>(
      *context);
  scf::WhileOp::attachInterface<WhileReverse>(*context);
}
