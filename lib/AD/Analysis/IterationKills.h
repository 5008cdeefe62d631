//===- IterationKills.h - Loads an iteration wrote first --------*- C++ -*-===//
//
// Whether every element a load reads in one iteration of a loop was stored
// earlier in that same iteration. Then the load's value depends only on the
// iteration, not on what earlier iterations left in memory, and the
// iteration can be run again in the reverse sweep to recompute it.
//
// Index expressions are compared symbolically as `value + constant`,
// following induction variables to their loops' bounds and looking through
// index casts and constant offsets; like the source, the analysis assumes
// that index arithmetic does not overflow.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_ITERATIONKILLS_H
#define COTANGENT_LIB_AD_ANALYSIS_ITERATIONKILLS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace cotangent::ad {

/// Whether `load`, nested in `loop`, reads only elements that its iteration
/// of `loop` stored before it: a store to the same memref either with the
/// same index in an enclosing block, earlier, or in a unit-stride scf.for
/// of an enclosing block, earlier, whose induction variable is the index
/// and whose range contains every index the load can read.
bool isWrittenEarlierInIteration(mlir::memref::LoadOp load,
                                 mlir::scf::ForOp loop);

/// Whether `writer`, in `loop`, is a store that runs before `load` in each
/// iteration and writes the same elements in every iteration (its indices
/// and the bounds of the loops around it in `loop` are the same in every
/// iteration, and no branch is around it). If every
/// write to the load's memory in the loop is such a store, each element the
/// load reads was written earlier in the iteration or by no iteration.
bool writesSameElementsBefore(mlir::Operation *writer,
                              mlir::memref::LoadOp load, mlir::scf::ForOp loop);

/// Whether no iteration of `loop` touches an element that another writes,
/// so that its iterations, and their reverses, commute: the body is
/// straight-line code of pure ops, loads and stores, and every memref it
/// stores to is a local buffer (which nothing else aliases), accessed only
/// as itself (no views) and at one index `iv + c`, the same c throughout.
bool hasIndependentIterations(mlir::scf::ForOp loop);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_ITERATIONKILLS_H
