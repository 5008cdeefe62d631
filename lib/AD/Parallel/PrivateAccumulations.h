//===- PrivateAccumulations.h - Sums into private copies ----*- C++ -*-===//
//
// Internal to lib/AD: what ct-parallelize-loops (ParallelizeLoops.cpp) uses
// from PrivateAccumulations.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_PARALLEL_PRIVATEACCUMULATIONS_H
#define COTANGENT_LIB_AD_PARALLEL_PRIVATEACCUMULATIONS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace cotangent::ad {

/// Splits `loop` into chunks that add into private copies of the buffers
/// it only adds into, in loops nested in its iterations, when the elements
/// it adds into can be bounded; the copies are added into the buffers
/// atomically at the end of each chunk. The chunk loop replaces `loop` and
/// keeps its marks. Returns whether it did.
bool privatizeAccumulations(mlir::scf::ForOp loop);

/// Whether `memref` is `root`, or a view of it whose elements have the
/// root's indices (a subview from 0 with unit strides: the extent a GPU
/// loop's map clause gives a pointer).
bool indexesLikeRoot(mlir::Value memref, mlir::Value root);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_PARALLEL_PRIVATEACCUMULATIONS_H
