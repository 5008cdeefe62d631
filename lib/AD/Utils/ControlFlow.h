//===- ControlFlow.h - What the engine asks of ops with regions -*- C++ -*-===//
//
// The engine treats ops with regions by what their interfaces say, not by
// their class: a branch is whatever RegionBranchOpInterface says runs one
// of its regions and continues after itself.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_UTILS_CONTROLFLOW_H
#define COTANGENT_LIB_AD_UTILS_CONTROLFLOW_H

#include "mlir/IR/Operation.h"

namespace cotangent::ad {

/// Whether `op` is a branch: a RegionBranchOpInterface op each of whose
/// regions is one block that goes only back to the op (scf.if,
/// scf.index_switch), so one run of the op runs at most one region, once.
/// Loops, whose regions go to themselves or to each other, are not.
bool isBranch(mlir::Operation *op);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_UTILS_CONTROLFLOW_H
