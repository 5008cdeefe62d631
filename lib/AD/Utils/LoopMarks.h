//===- LoopMarks.h - Marks on loops -----------------------------*- C++ -*-===//
//
// Attributes the engine leaves on loops for the passes that run after it:
// parallel loops, loops whose iterations commute, iteration tapes.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_UTILS_LOOPMARKS_H
#define COTANGENT_LIB_AD_UTILS_LOOPMARKS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

namespace cotangent::ad {

/// Marks a reversed loop (counting k = 0 .. trips - 1) whose iterations
/// commute but pop the tape: ct-tape-blocks, which turns its pops into reads
/// by position, then runs it in the primal's order.
inline constexpr llvm::StringLiteral kCommutingIterations =
    "ct.commuting_iterations";

/// Marks an scf.for that was an scf.parallel (ct-serialize-parallel-loops)
/// and the loops derivatives make of it; ct-parallelize-loops turns those
/// whose iterations it proves independent back into scf.parallel.
inline constexpr llvm::StringLiteral kParallelLoop = "ct.parallel";
/// The value of kParallelLoop on loops the user asked to run on a GPU
/// (others have a unit attribute).
inline constexpr llvm::StringLiteral kDeviceMark = "device";
/// Whether `loop` is marked parallel for a GPU.
inline bool isDeviceLoop(mlir::Operation *loop) {
  auto mark = loop->getAttrOfType<mlir::StringAttr>(kParallelLoop);
  return mark && mark.getValue() == kDeviceMark;
}
/// Marks a loop each of whose iterations takes back every tape entry it
/// makes (an eager loop's forward sweep, a recomputed loop's reverse): an
/// iteration running in parallel with others may use a tape of its own.
inline constexpr llvm::StringLiteral kIterationTape = "ct.iteration_tape";
/// Gives `derived`, a loop made from `loop`, the mark of a parallel loop if
/// `loop` has it.
inline void copyParallelMark(mlir::Operation *loop, mlir::Operation *derived) {
  if (mlir::Attribute mark = loop->getAttr(kParallelLoop))
    derived->setAttr(kParallelLoop, mark);
}

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_UTILS_LOOPMARKS_H
