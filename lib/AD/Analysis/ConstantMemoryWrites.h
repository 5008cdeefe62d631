//===- ConstantMemoryWrites.h - Derivatives stored where none is kept -*- C++
//-*-===//
//
// Internal to lib/AD. Memory the caller declares constant (a parameter
// ct::wrt leaves out, or one without floating-point data) has no shadow:
// a derivative stored into it, directly or as the address of memory that
// carries derivatives, would be lost to whatever reads it back. Both modes
// refuse such stores before emitting anything.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_CONSTANTMEMORYWRITES_H
#define COTANGENT_LIB_AD_ANALYSIS_CONSTANTMEMORYWRITES_H

#include "cotangent/AD/Analysis/Activity.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace cotangent::ad {

/// Reports each store in `function` whose derivative would be lost: a value
/// that carries a derivative, or the address of memory that does, stored
/// into memory without a shadow from where it is read back usefully.
mlir::LogicalResult
refuseDerivativesInConstantMemory(mlir::func::FuncOp function,
                                  const ActivityAnalysis &activity);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_CONSTANTMEMORYWRITES_H
