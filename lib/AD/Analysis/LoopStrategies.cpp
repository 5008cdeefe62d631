//===- LoopStrategies.cpp - How a pullback reverses each loop -------------===//

#include "Analysis/LoopStrategies.h"
#include "Analysis/LinearResults.h"
#include "Utils/ControlFlow.h"
#include "llvm/Support/Debug.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

#define DEBUG_TYPE "ct-reverse"

/// Says in the debug output (-debug-only=ct-reverse) why `loop` does not
/// take `strategy`; returns false.
static bool reject(scf::ForOp loop, StringRef strategy, StringRef why) {
  LLVM_DEBUG(llvm::dbgs() << "[ct-reverse] loop at " << loop.getLoc()
                          << ": not " << strategy << ": " << why << "\n");
  return false;
}

LoopStrategies::LoopStrategies(
    func::FuncOp function, ActivityAnalysis &activity,
    const PullbackMemory &memory, bool eager, bool recompute,
    llvm::function_ref<bool(Operation &)> needsReverse)
    : function(function), activity(&activity), memory(&memory) {
  if (eager)
    selectEagerLoops(needsReverse);
  if (recompute)
    selectRecomputedLoops();
}

Operation *LoopStrategies::getUndoneAfterRunning(Operation *op) const {
  for (Operation *loop = op->getParentOp(); !isa<func::FuncOp>(loop);
       loop = loop->getParentOp())
    if (recomputedLoops.contains(loop) || eagerLoops.contains(loop))
      return loop;
  return nullptr;
}

bool LoopStrategies::canRecomputeIterations(scf::ForOp loop) {
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
  if (!memory->isSelfContained(loop, killDepth))
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

bool LoopStrategies::canReverseEagerly(
    scf::ForOp loop, llvm::function_ref<bool(Value)> isKnown,
    llvm::function_ref<bool(Operation &)> needsReverse) {
  // In an eager loop, an iteration is undone before later iterations and
  // the code after the loop have run, let alone been undone. So their
  // reverse must not be needed first: the adjoints of the results must be
  // known before the loop (linear uses, sums carried); each iteration must
  // read nothing that they change, except what it wrote first; and
  // nothing after the loop may read what the loop writes.
  constexpr StringLiteral strategy = "eager";
  if (!needsReverse(*loop.getOperation()))
    return false;
  if (!carriesOnlySums(loop, *activity))
    return reject(loop, strategy, "it carries values other than sums");
  unsigned killDepth = 0;
  if (!memory->isSelfContained(loop, killDepth, /*allowCalls=*/true))
    return reject(loop, strategy, "its iterations are not self-contained");
  FailureOr<llvm::SetVector<Operation *>> uses =
      getLinearResultUses(loop, *activity, isKnown);
  if (failed(uses))
    return reject(loop, strategy,
                  "its results do not reach the return linearly");
  DenseSet<Value> written;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) && activity->mayWrite(op, operand))
        for (Value root : getMemoryRoots(operand))
          written.insert(root);
  });
  for (Operation *at = loop; at != function; at = at->getParentOp())
    for (Operation *op = at->getNextNode(); op; op = op->getNextNode()) {
      WalkResult read = op->walk([&](Operation *inner) {
        if (isa<memref::DeallocOp>(inner))
          return WalkResult::advance();
        for (Value operand : inner->getOperands())
          if (isa<MemRefType>(operand.getType()) &&
              llvm::any_of(getMemoryRoots(operand),
                           [&](Value root) { return written.contains(root); }))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (read.wasInterrupted())
        return reject(loop, strategy, "later code reads memory it writes");
    }
  // Inside a branch, the memory it uses must come from the top block or the
  // body of an eager loop around it, whose shadows the forward
  // sweep has.
  Block *top = &function.getBody().front();
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

void LoopStrategies::selectEagerLoops(
    llvm::function_ref<bool(Operation &)> needsReverse) {
  // Loops of the top block, or of branches in it (a function with an early
  // return has its body in one), and loops in the body of an eager loop
  // whose results reach its running sums linearly: their adjoint
  // is that sum's, known before each iteration (pair sums).
  DenseSet<Value> eagerSums;
  auto isEagerSum = [&](Value value) { return eagerSums.contains(value); };
  std::function<void(Block &, bool)> select = [&](Block &block,
                                                  bool inEagerLoop) {
    for (Operation &op : block.without_terminator()) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        if (!canReverseEagerly(loop, isEagerSum, needsReverse))
          continue;
        for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
          if (auto sums = getRunningSum(loop, i))
            eagerSums.insert(sums->begin(), sums->end());
        select(*loop.getBody(), /*inEagerLoop=*/true);
      } else if (!inEagerLoop && isBranch(&op)) {
        for (Region &region : op.getRegions())
          if (!region.empty())
            select(region.front(), /*inEagerLoop=*/false);
      }
    }
  };
  select(function.getBody().front(), /*inEagerLoop=*/false);
}

void LoopStrategies::selectRecomputedLoops() {
  // Innermost first: a loop around a recomputed one is not recomputed too,
  // which would repeat the inner iterations once more.
  // Iterations of eager loops tape only within themselves: rerunning
  // their nested loops would only cost time.
  function.walk([&](scf::ForOp loop) {
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
