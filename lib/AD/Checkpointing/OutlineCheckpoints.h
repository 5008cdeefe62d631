//===- OutlineCheckpoints.h - Loop bodies as functions ------*- C++ -*-===//
//
// Internal to lib/AD/Checkpointing: what ct-outline-checkpoints does for one
// loop, and the reasons a loop's iterations cannot be rerun, shared with
// the automatic choice of checkpointing (AutoCheckpoints.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_CHECKPOINTING_OUTLINECHECKPOINTS_H
#define COTANGENT_LIB_AD_CHECKPOINTING_OUTLINECHECKPOINTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace cotangent::ad {

/// On the call of an outlined iteration: the loop was checkpointed by the
/// compiler's own choice (ct-auto-checkpoint), not by a pragma; where the
/// reverse emitter cannot checkpoint it, it records it without a warning.
inline constexpr llvm::StringLiteral kCheckpointAuto = "ct.checkpoint_auto";
/// On the scf.if ct-auto-checkpoint makes: its then branch runs the loop
/// checkpointed, its else branch (the loop alone) as written.
inline constexpr llvm::StringLiteral kAutoCheckpointChoice =
    "ct.auto_checkpoint_choice";

/// Moves the body of `loop` (which carries no memory) into a private
/// function next to `parent`, `(iv, iteration arguments..., values from
/// outside...) -> (yielded values...)`; the loop's body becomes one call of
/// it, never inlined, with `ct.checkpoint_snapshots` = `snapshots`, which
/// this returns.
mlir::func::CallOp outlineIterations(mlir::scf::ForOp loop, int64_t snapshots,
                                     mlir::func::FuncOp parent,
                                     mlir::SymbolTable &symbols);

/// Whether a result of `loop` may be memory one of its iterations made or
/// chose among different memory, which snapshots do not keep.
bool passesOutMemoryItChooses(mlir::Operation *loop);

/// The first op in `loop` that rerunning its iterations would repeat with
/// an effect outside the function (a write of a variable outside it, a call
/// of code compiled elsewhere), or null.
mlir::Operation *findRerunHazard(mlir::Operation *loop);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_CHECKPOINTING_OUTLINECHECKPOINTS_H
