//===- ReverseMemory.cpp - What memory holds when reverse code runs -------===//
//
// A combined pullback may read memory again in its reverse sweep, rerun a
// loop's iteration there, or undo iterations in place, when what the memory
// holds at that point is known: these are the analyses that decide it, and
// the choice of loops.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"
#include "IterationKills.h"
#include "LinearResults.h"

#include "llvm/Support/Debug.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

#define DEBUG_TYPE "ct-reverse"

/// Says in the debug output (-debug-only=ct-reverse) why `loop` does not
/// take `strategy`; returns false.
static bool reject(scf::ForOp loop, StringRef strategy, StringRef why) {
  LLVM_DEBUG(llvm::dbgs() << "[ct-reverse] loop at " << loop.getLoc()
                          << ": not " << strategy << ": " << why << "\n");
  return false;
}

/// Whether `writer` may run after `load` has run within one execution of
/// `scope` (the function, or one iteration of a loop): again in a later
/// iteration of a loop around both, or after it in program order.
bool reverse::mayRunAfter(Operation *writer, Operation *load,
                        Operation *scope) {
  for (Operation *op = load->getParentOp(); op != scope;
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op) && op->isAncestor(writer))
      return true;
  // No loop around both: in the innermost block holding both, program
  // order decides, unless they are in different branches of one op.
  for (Operation *op = load; op != scope; op = op->getParentOp())
    if (Operation *other = op->getBlock()->findAncestorOpInBlock(*writer))
      return other != op && op->isBeforeInBlock(other);
  return true;
}

bool ReverseEmitter::keepsContentsAfter(Value memref, Operation *op) {
  Value root = getMemoryRoot(memref);
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    if (arg.getOwner() != &primal.getBody().front())
      return false;
    if (argumentsReadOnly)
      return true;
    // A `restrict` argument changes only through its own views.
    auto writers = noAliasWriters.find(root);
    return writers != noAliasWriters.end() &&
           llvm::none_of(writers->second, [&](Operation *writer) {
             return mayRunAfter(writer, op, primal);
           });
  }
  auto writers = localWriters.find(root);
  return writers != localWriters.end() &&
         llvm::none_of(writers->second, [&](Operation *writer) {
           return mayRunAfter(writer, op, primal);
         });
}

bool ReverseEmitter::isUnchangedAfterFunction(memref::LoadOp load) {
  return keepsContentsAfter(load.getMemRef(), load);
}

bool ReverseEmitter::isUnchangedAfter(memref::LoadOp load) {
  if (!registry.getStrategies().reloadMemory)
    return false;
  if (isUnchangedAfterFunction(load))
    return true;
  // The reverse code of a recomputed iteration runs right after the
  // iteration ran again: memory is as the iteration left it, so writers in
  // the loop matter only later in the same iteration; writers outside it
  // count as for the whole function.
  // The same holds in a loop reversed in place.
  Operation *loop = load->getParentOp();
  while (!isa<func::FuncOp>(loop) && !recomputedLoops.contains(loop) &&
         !eagerLoops.contains(loop))
    loop = loop->getParentOp();
  auto writers = localWriters.find(getMemoryRoot(load.getMemRef()));
  if (isa<func::FuncOp>(loop) || writers == localWriters.end())
    return false;
  return llvm::none_of(writers->second, [&](Operation *writer) {
    return mayRunAfter(writer, load, loop->isAncestor(writer) ? loop : primal);
  });
}

bool ReverseEmitter::onlyReadsFinalMemory(Operation *op) {
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return !isa<MemRefType>(operand.getType()) ||
           (!activity.mayWrite(op, operand) && keepsContentsAfter(operand, op));
  });
}

/// How many loops lie between `op` and `loop`'s body.
static unsigned loopDepthIn(Operation *op, scf::ForOp loop) {
  unsigned depth = 0;
  for (Operation *at = op->getParentOp(); at != loop; at = at->getParentOp())
    depth += isa<LoopLikeOpInterface>(at);
  return depth;
}

/// Whether the reverse code may need the value itself, not only its
/// adjoint: any use but sums, differences, negations and stores.
static bool isValueNeededByReverse(Value value) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    if (isa<arith::AddFOp, arith::SubFOp, arith::NegFOp>(user))
      return false;
    auto store = dyn_cast<memref::StoreOp>(user);
    return !store || store.getMemRef() == value;
  });
}

bool ReverseEmitter::isSelfContained(scf::ForOp loop, unsigned &killDepth,
                                     bool allowCalls) {
  bool selfContained = true;
  killDepth = 0;
  loop.getBody()->walk([&](Operation *op) {
    bool harmlessCall = allowCalls && isa<func::CallOp>(op) &&
                        onlyReadsFinalMemory(op);
    if ((isa<CallOpInterface>(op) && !harmlessCall) ||
        isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op)) {
      selfContained = false;
      return WalkResult::interrupt();
    }
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      // Memory from outside must be reachable from the reverse code: an
      // argument's or a local buffer's (not one made in an outer loop).
      Value root = getMemoryRoot(operand);
      bool outside = !loop->isAncestor(operand.getParentBlock()->getParentOp());
      bool local = localWriters.count(root);
      auto arg = dyn_cast<BlockArgument>(root);
      bool argument = arg && arg.getOwner() == &primal.getBody().front();
      if ((outside && !local && !argument) ||
          (activity.mayWrite(op, operand) && !local)) {
        selfContained = false;
        return WalkResult::interrupt();
      }
    }
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load || isUnchangedAfterFunction(load))
      return WalkResult::advance();
    if (!readsOwnWrites(load, loop)) {
      selfContained = false;
      return WalkResult::interrupt();
    }
    if (isValueNeededByReverse(load))
      killDepth = std::max(killDepth, loopDepthIn(load, loop));
    return WalkResult::advance();
  });
  return selfContained;
}

bool ReverseEmitter::readsOwnWrites(memref::LoadOp load, scf::ForOp loop) {
  if (isWrittenEarlierInIteration(load, loop))
    return true;
  auto writers = localWriters.find(getMemoryRoot(load.getMemRef()));
  return writers != localWriters.end() &&
         llvm::all_of(writers->second, [&](Operation *writer) {
           return loop->isAncestor(writer)
                      ? writesSameElementsBefore(writer, load, loop)
                      : !mayRunAfter(writer, load, primal);
         });
}

bool ReverseEmitter::canRecomputeIterations(scf::ForOp loop) {
  // The iteration must be repeatable from what the reverse code has: no
  // carried values, and self-contained (isSelfContained; local buffers are
  // seen by no one after the function). Worth it only if some nested loop
  // would otherwise tape loads, and only if the arithmetic run again is
  // nested no deeper than those loads: rerunning a loop nest deeper than
  // what it saves taping costs a trip count more than the tape (Q x in GMM
  // is d^2 work to save d values).
  constexpr StringLiteral strategy = "recomputed";
  unsigned killDepth = 0;
  if (loop.getNumRegionIterArgs() != 0)
    return reject(loop, strategy, "it carries values");
  if (!isSelfContained(loop, killDepth))
    return reject(loop, strategy, "its iterations are not self-contained");
  if (killDepth == 0)
    return reject(loop, strategy, "no nested loop would tape loads");
  WalkResult deeperWork = loop.getBody()->walk([&](Operation *op) {
    bool arithmetic = op->getNumResults() == 1 &&
                      isa<FloatType>(op->getResult(0).getType()) &&
                      !isa<memref::LoadOp>(op);
    return arithmetic && loopDepthIn(op, loop) > killDepth
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (deeperWork.wasInterrupted())
    return reject(loop, strategy,
                  "it would rerun arithmetic nested deeper than the loads "
                  "it saves taping");
  return true;
}

bool ReverseEmitter::canReverseEagerly(
    scf::ForOp loop, llvm::function_ref<bool(Value)> isKnown) {
  // Reversed in place, an iteration is undone before later iterations and
  // the code after the loop have run, let alone been undone. So their
  // reverse must not be needed first: the adjoints of the results must be
  // known before the loop (linear uses, sums carried); each iteration must
  // read nothing that they change, except what it wrote first; and
  // nothing after the loop may read what the loop writes.
  constexpr StringLiteral strategy = "eager";
  if (!needsReverse(*loop.getOperation()))
    return false;
  if (!carriesOnlySums(loop, activity))
    return reject(loop, strategy, "it carries values other than sums");
  unsigned killDepth = 0;
  if (!isSelfContained(loop, killDepth, /*allowCalls=*/true))
    return reject(loop, strategy, "its iterations are not self-contained");
  FailureOr<llvm::SetVector<Operation *>> uses =
      getLinearResultUses(loop, activity, isKnown);
  if (failed(uses))
    return reject(loop, strategy,
                  "its results do not reach the return linearly");
  DenseSet<Value> written;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) && activity.mayWrite(op, operand))
        written.insert(getMemoryRoot(operand));
  });
  for (Operation *at = loop; at != primal; at = at->getParentOp())
    for (Operation *op = at->getNextNode(); op; op = op->getNextNode()) {
      WalkResult read = op->walk([&](Operation *inner) {
        if (isa<memref::DeallocOp>(inner))
          return WalkResult::advance();
        for (Value operand : inner->getOperands())
          if (isa<MemRefType>(operand.getType()) &&
              written.contains(getMemoryRoot(operand)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (read.wasInterrupted())
        return reject(loop, strategy, "later code reads memory it writes");
    }
  // Inside a branch, the memory it uses must come from the top block or the
  // body of a loop reversed in place around it, whose shadows the forward
  // sweep has.
  Block *top = &primal.getBody().front();
  WalkResult fromBranch = loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      Block *from = operand.getParentBlock();
      if (!loop->isAncestor(from->getParentOp()) && from != top &&
          !eagerLoops.contains(from->getParentOp()))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (fromBranch.wasInterrupted())
    return reject(loop, strategy,
                  "it uses memory whose shadow the forward sweep lacks");
  LLVM_DEBUG(llvm::dbgs() << "[ct-reverse] loop at " << loop.getLoc()
                          << ": eager (iterations undone in the forward "
                             "sweep)\n");
  eagerLoops[loop] = std::move(*uses);
  return true;
}

void ReverseEmitter::selectEagerLoops() {
  // Loops of the top block, or of branches in it (a function with an early
  // return has its body in one), and loops in the body of a loop reversed
  // in place whose results reach its running sums linearly: their adjoint
  // is that sum's, known before each iteration (pair sums).
  DenseSet<Value> eagerSums;
  auto isEagerSum = [&](Value value) { return eagerSums.contains(value); };
  std::function<void(Block &, bool)> select = [&](Block &block,
                                                  bool inEagerLoop) {
    for (Operation &op : block.without_terminator()) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        if (!canReverseEagerly(loop, isEagerSum))
          continue;
        for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
          if (auto sums = getRunningSum(loop, i))
            eagerSums.insert(sums->begin(), sums->end());
        select(*loop.getBody(), /*inEagerLoop=*/true);
      } else if (!inEagerLoop && isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
        for (Region &region : op.getRegions())
          if (!region.empty())
            select(region.front(), /*inEagerLoop=*/false);
      }
    }
  };
  select(primal.getBody().front(), /*inEagerLoop=*/false);
}

void ReverseEmitter::selectRecomputedLoops() {
  // Innermost first: a loop around a recomputed one is not recomputed too,
  // which would repeat the inner iterations once more.
  // Iterations reversed in place tape only within themselves: rerunning
  // their nested loops would only cost time.
  primal.walk([&](scf::ForOp loop) {
    if (llvm::any_of(eagerLoops, [&](auto &eager) {
          return eager.first->isAncestor(loop);
        }))
      return;
    bool holdsRecomputed = false;
    loop.getBody()->walk([&](scf::ForOp inner) {
      holdsRecomputed |= recomputedLoops.contains(inner);
    });
    if (holdsRecomputed || !canRecomputeIterations(loop))
      return;
    LLVM_DEBUG(llvm::dbgs() << "[ct-reverse] loop at " << loop.getLoc()
                            << ": recomputed (each iteration rerun before "
                               "it is undone)\n");
    recomputedLoops.insert(loop);
  });
}
