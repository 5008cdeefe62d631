//===- PullbackMemory.h - What memory holds when reverse code runs -*- C++
//-*-===//
//
// Internal to lib/AD. In a combined pullback nothing runs between the
// forward and the reverse sweep, so memory that no later op writes still
// holds, when the reverse code runs, what the forward code read from it:
// the reverse sweep may read it again instead of taping it, rerun a loop's
// iteration, or undo iterations in place. This analysis answers which
// memory that is, for one function; it knows nothing of the emitter.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_PULLBACKMEMORY_H
#define COTANGENT_LIB_AD_ANALYSIS_PULLBACKMEMORY_H

#include "cotangent/AD/Analysis/Activity.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace cotangent::ad {

/// Whether `writer` may run after `load` has run within one execution of
/// `scope` (the function, or one iteration of a loop): again in a later
/// iteration of a loop around both, or after it in program order.
bool mayRunAfter(mlir::Operation *writer, mlir::Operation *load,
                 mlir::Operation *scope);

/// How many loops lie between `op` and `loop`'s body.
unsigned loopDepthIn(mlir::Operation *op, mlir::scf::ForOp loop);

class PullbackMemory {
public:
  /// Knows nothing: every query answers no (the halves of a split callee,
  /// between which the caller may write anything).
  PullbackMemory() = default;
  /// The memory of `function` differentiated into one combined pullback.
  /// With `deferFrees`, the heap buffers of the body that it frees are freed
  /// when the pullback returns instead, so that they keep their contents.
  PullbackMemory(mlir::func::FuncOp function, ActivityAnalysis &activity,
                 bool deferFrees);

  /// Whether nothing writes the memory `memref` refers to after `op` (an
  /// argument only if the function writes none, or it is `restrict`).
  bool keepsContentsAfter(mlir::Value memref, mlir::Operation *op) const;
  /// keepsContentsAfter of one memory root.
  bool rootKeepsContentsAfter(mlir::Value root, mlir::Operation *op) const;
  /// Whether `load` reads memory that keeps its contents after it.
  bool isUnchangedAfterFunction(mlir::memref::LoadOp load) const {
    return keepsContentsAfter(load.getMemRef(), load);
  }
  /// Whether `load`, in `scope` (a loop whose iteration the reverse code
  /// undoes right after it ran), reads a local buffer that nothing writes
  /// later in the iteration, nor after the loop.
  bool isUnchangedWithin(mlir::memref::LoadOp load,
                         mlir::Operation *scope) const;
  /// Whether `op` writes none of the memory it is given, and that memory
  /// keeps its contents to the end of the function.
  bool onlyReadsFinalMemory(mlir::Operation *op) const;
  /// Whether every iteration of `loop` reads only memory that keeps its
  /// contents to the end of the function or elements the iteration wrote
  /// first, writes only local buffers, and neither allocates nor calls
  /// (calls that only read final memory, with `allowCalls`). `killDepth` is
  /// the deepest loop nesting, counted from the body, at which an
  /// iteration reads what it wrote and the reverse code needs the value
  /// (0: none in a nested loop).
  bool isSelfContained(mlir::scf::ForOp loop, unsigned &killDepth,
                       bool allowCalls = false) const;
  /// Whether each element `load` reads in an iteration of `loop` was
  /// written earlier in the iteration, or by no iteration and by nothing
  /// after the load.
  bool readsOwnWrites(mlir::memref::LoadOp load, mlir::scf::ForOp loop) const;

  /// Whether `root` is a local buffer of the function body.
  bool isLocalBuffer(mlir::Value root) const {
    return localWriters.count(root) != 0;
  }
  /// The heap buffers whose frees move to the pullback's return.
  const llvm::SetVector<mlir::Value> &getDeferredFrees() const {
    return deferredFrees;
  }
  bool isFreeDeferred(mlir::Value root) const {
    return deferredFrees.contains(root);
  }

private:
  /// Whether a writer of `writers` may run after `op` in `scope`.
  static bool anyRunsAfter(llvm::ArrayRef<mlir::Operation *> writers,
                           mlir::Operation *op, mlir::Operation *scope);

  // Op handles are mutable by design; queries do not change the function.
  mutable mlir::func::FuncOp function;
  ActivityAnalysis *activity = nullptr;
  /// Set when the function writes no memory argument: then its memory
  /// arguments keep their contents to the end.
  bool argumentsReadOnly = false;
  /// Whether memory root `root` may be another root whose address was
  /// stored (a ct.load_address result): a write there may write those.
  static bool mayBeKeptMemory(mlir::Value root);
  /// Records `op`, which writes memory an address read back designates, as
  /// a writer of every buffer and argument whose address is stored.
  void notePossibleWriter(mlir::Operation *op);
  /// The ops that may write each local buffer of the function body.
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Operation *>>
      localWriters;
  /// The same for the function's ct.noalias (`restrict`) memory arguments.
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Operation *>>
      noAliasWriters;
  /// The writer lists of the buffers and arguments whose address is stored,
  /// found at the first possible writer: each is a walk over the uses of the
  /// memory, once rather than once per writer.
  std::optional<llvm::SmallVector<llvm::SmallVector<mlir::Operation *> *>>
      keptMemoryWriters;
  llvm::SetVector<mlir::Value> deferredFrees;
};

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_PULLBACKMEMORY_H
