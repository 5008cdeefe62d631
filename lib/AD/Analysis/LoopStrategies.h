//===- LoopStrategies.h - How a pullback reverses each loop -----*- C++ -*-===//
//
// Internal to lib/AD. Reverse mode undoes a loop's iterations from the tape
// unless a cheaper strategy is safe for it in a combined pullback:
//  * eager: a loop whose results reach the return linearly (running sums)
//    has its iterations undone in the forward sweep, each right after it
//    ran, so nothing of it is taped;
//  * recomputed: a self-contained iteration is run again just before it is
//    undone, instead of taping what it computed.
// This analysis chooses them, for one function, from its memory
// (PullbackMemory); the emitter only follows the choice.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_LOOPSTRATEGIES_H
#define COTANGENT_LIB_AD_ANALYSIS_LOOPSTRATEGIES_H

#include "Analysis/PullbackMemory.h"
#include "llvm/ADT/MapVector.h"

namespace cotangent::ad {

class LoopStrategies {
public:
  /// Chooses no loop (the halves of a split callee).
  LoopStrategies() = default;
  /// Chooses the eager and recomputed loops of `function`, as enabled.
  /// `needsReverse` tells the ops whose reverse does something.
  LoopStrategies(mlir::func::FuncOp function, ActivityAnalysis &activity,
                 const PullbackMemory &memory, bool eager, bool recompute,
                 llvm::function_ref<bool(mlir::Operation &)> needsReverse);

  bool isEager(mlir::Operation *loop) const {
    return eagerLoops.contains(loop);
  }
  /// The ops that take an eager loop's results to the return, linearly.
  const llvm::SetVector<mlir::Operation *> &
  getLinearUses(mlir::Operation *loop) const {
    return eagerLoops.find(loop)->second;
  }
  bool isRecomputed(mlir::Operation *loop) const {
    return recomputedLoops.contains(loop);
  }
  /// The innermost eager or recomputed loop around `op`, if any: the reverse
  /// code of its iteration runs right after the iteration (ran again).
  mlir::Operation *getUndoneAfterRunning(mlir::Operation *op) const;

private:
  void
  selectEagerLoops(llvm::function_ref<bool(mlir::Operation &)> needsReverse);
  bool
  canReverseEagerly(mlir::scf::ForOp loop,
                    llvm::function_ref<bool(mlir::Value)> isKnown,
                    llvm::function_ref<bool(mlir::Operation &)> needsReverse);
  void selectRecomputedLoops();
  bool canRecomputeIterations(mlir::scf::ForOp loop);

  mlir::func::FuncOp function;
  ActivityAnalysis *activity = nullptr;
  const PullbackMemory *memory = nullptr;
  llvm::MapVector<mlir::Operation *, llvm::SetVector<mlir::Operation *>>
      eagerLoops;
  llvm::DenseSet<mlir::Operation *> recomputedLoops;
};

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_LOOPSTRATEGIES_H
