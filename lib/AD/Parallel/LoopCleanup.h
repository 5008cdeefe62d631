//===- LoopCleanup.h - Marked loops simplified before the check -*- C++ -*-===//
//
// Internal to lib/AD: the rewrites ct-parallelize-loops runs on marked loops
// before it checks them, so that what an iteration passes to the next
// through memory, and stores that change nothing, do not hide that the
// iterations are independent.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_PARALLEL_LOOPCLEANUP_H
#define COTANGENT_LIB_AD_PARALLEL_LOOPCLEANUP_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace cotangent::ad {

/// Carries in registers, as iteration arguments, the rank-0 slots (adjoint
/// slots of reverse mode) that `loop`'s body block reads and writes, when
/// nothing else of the slot is used in the loop and the slot does not
/// escape: what an iteration passes to the next through memory becomes a
/// value, which the clean-up folds when it does not change (the adjoint of a
/// sum reduction is every iteration's).
void promoteLoopCarriedSlots(mlir::scf::ForOp loop);

/// Makes every value carried by a loop of `loops` (marked loops and those
/// nested in them) that nothing uses pass through unchanged, so that the
/// clean-up drops it: a carried value is unused when its result is unused
/// (or only carried on by an enclosing loop at an unused position) and its
/// argument only feeds its own next value (or starts an unused position of
/// a nested loop). Adjoint slots promoted in a nest leave such chains.
void passThroughUnusedCarriedValues(llvm::ArrayRef<mlir::scf::ForOp> loops);

/// Erases, in `block`, a store that a later store to the same element
/// overwrites before any op that may read memory, and a store of the
/// value a load of the same element read with nothing written between.
void eraseRedundantStores(mlir::Block &block);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_PARALLEL_LOOPCLEANUP_H
