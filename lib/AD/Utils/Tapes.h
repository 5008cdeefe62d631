//===- Tapes.h - Questions about tape ops -----------------------*- C++ -*-===//
//
// Which ops use a tape, and the tape ops of a loop body that ct-tape-blocks
// turns into one block.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_UTILS_TAPES_H
#define COTANGENT_LIB_AD_UTILS_TAPES_H

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/TapeSlots.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace cotangent::ad {

/// Whether `op` takes or makes a tape.
inline bool usesTape(mlir::Operation *op) {
  return llvm::any_of(op->getOperandTypes(), llvm::IsaPred<ct::TapeType>) ||
         llvm::any_of(op->getResultTypes(), llvm::IsaPred<ct::TapeType>);
}

/// The tape ops of kind OpT in `loop`'s body block, in order, if they are
/// the only ops anywhere in the loop that use a tape, all the same one, each
/// of one slot: the loops ct-tape-blocks turns into blocks.
template <typename OpT>
std::optional<llvm::SmallVector<OpT>> getOnlyTapeOps(mlir::scf::ForOp loop) {
  llvm::SmallVector<OpT> found;
  mlir::Value tape;
  mlir::WalkResult walk = loop.getBody()->walk([&](mlir::Operation *op) {
    if (!usesTape(op))
      return mlir::WalkResult::advance();
    auto typed = llvm::dyn_cast<OpT>(op);
    if (!typed || op->getBlock() != loop.getBody() ||
        (tape && typed.getTape() != tape) ||
        llvm::any_of(op->getOperandTypes(),
                     [](mlir::Type t) { return ct::getTapeSlots(t) != 1; }) ||
        llvm::any_of(op->getResultTypes(),
                     [](mlir::Type t) { return ct::getTapeSlots(t) != 1; }))
      return mlir::WalkResult::interrupt();
    tape = typed.getTape();
    found.push_back(typed);
    return mlir::WalkResult::advance();
  });
  if (walk.wasInterrupted() || found.empty())
    return std::nullopt;
  return found;
}

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_UTILS_TAPES_H
