//===- Checkpoints.h - Loops reversed from snapshots ------*- C++ -*-===//
//
// Internal to lib/AD. A loop under `#pragma ct checkpoint` reaches the
// reverse emitter as an scf.for whose body is one call of its outlined
// iteration (ct-outline-checkpoints). Reverse mode then records nothing per
// iteration: the forward sweep keeps snapshots of the loop's state, and the
// reverse sweep follows the binomial schedule of
// cotangent/checkpoint_schedule.h, rerunning iterations from snapshots on a
// working copy of the state and reversing each with the iteration's
// combined pullback (Checkpointing/CheckpointedLoops.cpp).
//
// A call of a `[[ct::checkpoint]]` function (func attribute ct.checkpoint)
// keeps the memory its callee needs on the tape and reruns the callee's
// combined pullback in the reverse sweep (Checkpointing/CheckpointedCalls.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_CHECKPOINTING_CHECKPOINTS_H
#define COTANGENT_LIB_AD_CHECKPOINTING_CHECKPOINTS_H

#include "Checkpointing/AccessBounds.h"
#include "Checkpointing/CheckpointMemory.h"
#include "ReverseMode/ReverseEmitter.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace cotangent::ad {

/// On the call of an outlined iteration: the snapshots the reverse sweep
/// may keep (0: about the square root of the trip count).
inline constexpr llvm::StringLiteral kCheckpointSnapshots =
    "ct.checkpoint_snapshots";

/// What the forward sweep of a checkpointed loop leaves to its reverse
/// (forward values, usable directly in the reverse sweep), kept by the
/// emitter for the loop.
struct CheckpointedLoopState : reverse::ReverseEmitter::OpState {
  /// The schedule's state (memref<?xi64>).
  mlir::Value schedule;
  /// The loop's lower bound and step, in the induction variable's type (for
  /// loops); the number of calls of the iteration (while loops).
  mlir::Value lowerBound, step, calls;
  /// Per carried value: its snapshots (memref<?xT>, one per snapshot) and
  /// the value handed over to the reverse sweep (memref<1xT>).
  llvm::SmallVector<mlir::Value> carriedSnapshots, carriedHandOver;
  /// Per buffer of the state: the outlined iteration's argument, the
  /// elements kept [first, first + count), the snapshots (count per
  /// snapshot), and the working copy: flat, and as the argument's type.
  struct Buffer {
    unsigned argument;
    mlir::Value first, count, snapshots, workingFlat, working;
  };
  llvm::SmallVector<Buffer> buffers;
};

/// Per call of a [[ct::checkpoint]] function: the memory operands whose
/// kept elements (first, count: forward values) the forward sweep pushed.
struct CheckpointedCallState : reverse::ReverseEmitter::OpState {
  llvm::SmallVector<KeptOperand> buffers;
};

/// Pushes to `tape` the `kept` elements of `rootNow` (a forward value).
void pushKeptElements(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value rootNow, KeptElements kept, mlir::Value tape);
/// In the reverse code of `block`: pops the elements the forward sweep
/// pushed for each of `kept` into a fresh copy and puts the copy in
/// `operands` (the call's operands as the reverse code sees them) in place
/// of its operand. Returns the copies, for the caller to free.
llvm::SmallVector<mlir::Value>
popKeptOperands(mlir::OpBuilder &b, mlir::Location loc, mlir::Block *block,
                llvm::ArrayRef<KeptOperand> kept,
                llvm::SmallVectorImpl<mlir::Value> &operands,
                reverse::ReverseEmitter &e);

/// `state`, made by the forward code of `block`, as the reverse code of
/// `block` sees it (passed out of the branches the loop sits in).
CheckpointedLoopState passToReverse(reverse::ReverseEmitter &e,
                                    mlir::Block *block,
                                    const CheckpointedLoopState &state);

/// What AccessBounds needs to bound the elements `call`, one iteration of a
/// for loop that starts at `lb` and runs `trips` times by `step`, touches
/// in `iteration`: the values (`valueNow`) of its scalar operands from
/// outside the loop, and the range of its induction variable (operand
/// `ivOperand`), [lb, lb + (trips - 1) step], built at `b`.
struct IterationFacts {
  mlir::IRMapping known;
  llvm::SmallVector<std::pair<mlir::Value, Interval>, 1> ranges;
};
IterationFacts
buildIterationFacts(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::func::CallOp call, mlir::func::FuncOp iteration,
                    unsigned ivOperand,
                    llvm::function_ref<bool(unsigned)> isFromOutside,
                    mlir::Value lb, mlir::Value step, mlir::Value trips,
                    llvm::function_ref<mlir::Value(mlir::Value)> valueNow);

/// Shared by the loops' emitters (Checkpointing/CheckpointedLoops.cpp): the
/// snapshots and working copies of the buffers of the state of `loop`,
/// whose outlined `iteration` `call` calls with values from outside the
/// loop at the operands `fromOutside` says (AccessBounds' `known` and
/// `ranges` for C pointers' memory); fails after reporting.
mlir::LogicalResult buildStateBuffers(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *loop,
    mlir::func::CallOp call, mlir::func::FuncOp iteration,
    llvm::function_ref<bool(unsigned)> fromOutside, mlir::Value snapshots,
    const mlir::IRMapping &known,
    llvm::ArrayRef<std::pair<mlir::Value, Interval>> ranges,
    reverse::ReverseEmitter &e,
    llvm::SmallVectorImpl<CheckpointedLoopState::Buffer> &buffers);
/// The shadows `call`'s duplicated operands take in the reverse sweep
/// (scratch ones, to free after the call, where they have none).
llvm::SmallVector<mlir::Value> buildCallShadows(
    mlir::OpBuilder &b, mlir::Location loc, mlir::func::CallOp call,
    llvm::ArrayRef<ct::Activity> activities, reverse::ReverseEmitter &e,
    llvm::SmallVectorImpl<mlir::Value> &scratch);
/// The reverse sweep of a checkpointed loop, after the pullback of one
/// iteration (or call) returned `returned`, the adjoints of `call`'s active
/// operands: the adjoints `next` passes on to the previous reversal (its
/// `numCarried` values on) start from zero; each returned adjoint of a
/// carried operand goes there (`carriedSlot(i)` is true for a carried
/// operand and sets the slot of its adjoint, none to drop it); the others
/// accumulate into the operand.
void passOnIterationAdjoints(
    mlir::OpBuilder &in, mlir::Location loc, mlir::func::CallOp call,
    llvm::ArrayRef<ct::Activity> activities, mlir::ValueRange returned,
    llvm::function_ref<bool(unsigned, std::optional<unsigned> &)> carriedSlot,
    llvm::MutableArrayRef<mlir::Value> next, unsigned numCarried,
    reverse::ReverseEmitter &e);

/// The end of a checkpointed loop's reverse sweep: the adjoints the first
/// iteration passed on (`adjoints`, of the loop's initial values at
/// `positions` of `inits`) accumulate into them; the scratch shadows and
/// the forward sweep's state are freed.
mlir::LogicalResult finishCheckpointedReversal(
    mlir::OpBuilder &b, mlir::Location loc, mlir::OperandRange inits,
    llvm::ArrayRef<unsigned> positions, mlir::ValueRange adjoints,
    llvm::ArrayRef<mlir::Value> scratch, const CheckpointedLoopState &state,
    reverse::ReverseEmitter &e);

/// Frees what the forward sweep allocated.
void freeCheckpointedLoopState(mlir::OpBuilder &b, mlir::Location loc,
                               const CheckpointedLoopState &state);

/// The call of the outlined iteration that is the whole body of `loop`, if
/// `loop` is checkpointed.
mlir::func::CallOp getCheckpointedCall(mlir::scf::ForOp loop);

/// Whether the reverse emitter can checkpoint `loop` where it is: the
/// buffers it keeps must be usable from the reverse sweep. Warns (once per
/// loop) and answers false otherwise; the loop is then recorded as usual.
bool canCheckpointHere(mlir::Operation *loop, reverse::ReverseEmitter &e);

/// The forward sweep of a checkpointed loop: the loop, taking snapshots.
mlir::LogicalResult forwardCheckpointedLoop(mlir::OpBuilder &b,
                                            mlir::scf::ForOp loop,
                                            reverse::ReverseEmitter &e);
/// Its reverse: the rest of the schedule.
mlir::LogicalResult reverseCheckpointedLoop(mlir::OpBuilder &b,
                                            mlir::scf::ForOp loop,
                                            reverse::ReverseEmitter &e);

/// The call of the outlined iteration that a while loop's condition region
/// is made of (ct-outline-checkpoints), if `loop` is checkpointed.
mlir::func::CallOp getCheckpointedCall(mlir::scf::WhileOp loop);
/// The forward and reverse sweeps of a checkpointed while loop (its trip
/// count known only when it ends: the online schedule).
mlir::LogicalResult forwardCheckpointedLoop(mlir::OpBuilder &b,
                                            mlir::scf::WhileOp loop,
                                            reverse::ReverseEmitter &e);
mlir::LogicalResult reverseCheckpointedLoop(mlir::OpBuilder &b,
                                            mlir::scf::WhileOp loop,
                                            reverse::ReverseEmitter &e);

/// The forward sweep of a call of a [[ct::checkpoint]] function `callee`:
/// the memory to keep onto the tape, then the call.
mlir::LogicalResult forwardCheckpointedCall(mlir::OpBuilder &b,
                                            mlir::func::CallOp call,
                                            mlir::func::FuncOp callee,
                                            reverse::ReverseEmitter &e);
/// Its reverse: copies from the tape, and the callee's combined pullback.
mlir::LogicalResult reverseCheckpointedCall(mlir::OpBuilder &b,
                                            mlir::func::CallOp call,
                                            mlir::func::FuncOp callee,
                                            reverse::ReverseEmitter &e);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_CHECKPOINTING_CHECKPOINTS_H
