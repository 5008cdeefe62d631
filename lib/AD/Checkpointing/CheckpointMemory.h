//===- CheckpointMemory.h - Copies of the memory a checkpoint keeps -*- C++
//-*-===//
//
// Internal to lib/AD. Checkpointed loops and calls are rerun in the reverse
// sweep on copies of the memory they change: these helpers decide which
// memory that is, which of its elements to copy (a C pointer's memory has
// no extent: AccessBounds finds the elements the code touches), and build
// the copies.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_CHECKPOINTING_CHECKPOINTMEMORY_H
#define COTANGENT_LIB_AD_CHECKPOINTING_CHECKPOINTMEMORY_H

#include "Analysis/MemoryWrites.h"
#include "Checkpointing/AccessBounds.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <string>

namespace cotangent::ad {

/// How a message names memory (through its views): the C++ parameter's
/// name, or "a buffer".
std::string describeMemory(mlir::Value memory);
/// How a message names `function`: its C++ name, or its symbol.
std::string describeFunction(mlir::func::FuncOp function);

/// The elements [first, first + count) of a buffer that a copy keeps.
struct KeptElements {
  mlir::Value first, count;
};

/// The elements of `rootNow` (the forward value of `root`) that
/// `function`, given it as argument `argument`, may touch: all of a buffer
/// whose extent is known, else those AccessBounds bounds (with `known` and
/// `ranges` as there). Reports at `at` and fails if neither is possible or
/// the buffer's shape cannot be copied: "`problem`: ...", suggesting `undo`
/// (how to do without the copy); `verb` says what the code does to the
/// memory it copies.
mlir::FailureOr<KeptElements>
buildKeptElements(mlir::OpBuilder &b, mlir::Location loc,
                  mlir::func::FuncOp function, unsigned argument,
                  mlir::Value root, mlir::Value rootNow,
                  const mlir::IRMapping &known,
                  llvm::ArrayRef<std::pair<mlir::Value, Interval>> ranges,
                  mlir::Operation *at, llvm::StringRef problem,
                  llvm::StringRef undo, llvm::StringRef verb = "changes");

/// The kept elements of a call's memory operand (forward values).
struct KeptOperand {
  unsigned operand;
  mlir::Value first, count;
};

/// A fresh buffer for the kept elements of memory of type `type` (as
/// `rootNow`'s): `flat` holds element first + k at k; `view` has `type` and
/// holds element i at i.
struct WorkingCopy {
  mlir::Value flat, view;
};
WorkingCopy buildWorkingCopy(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value rootNow, KeptElements kept);

/// `memref` as 1-D: itself, or collapsed (a static identity layout).
mlir::Value flatten(mlir::OpBuilder &b, mlir::Location loc, mlir::Value memref);

/// Copies `count` elements of 1-D `from` starting at `fromStart` to 1-D
/// `to` starting at `toStart`.
void copyElements(mlir::OpBuilder &b, mlir::Location loc, mlir::Value from,
                  mlir::Value fromStart, mlir::Value to, mlir::Value toStart,
                  mlir::Value count);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_CHECKPOINTING_CHECKPOINTMEMORY_H
