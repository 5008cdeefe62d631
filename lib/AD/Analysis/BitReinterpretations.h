//===- BitReinterpretations.h - Derivatives lost in bits --------*- C++ -*-===//
//
// Internal to lib/AD. A floating-point value read as an integer
// (ct.bit_cast) keeps its information but not its derivative: integers
// carry none. Where those bits become a floating-point value again that
// reaches an output, the derivative would silently be lost. Both modes
// refuse such values before emitting anything (the sign-bit tricks that
// have a derivative were rewritten into floating-point operations by
// canonicalization).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_BITREINTERPRETATIONS_H
#define COTANGENT_LIB_AD_ANALYSIS_BITREINTERPRETATIONS_H

#include "cotangent/AD/Analysis/Activity.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace cotangent::ad {

/// Reports each floating-point value of `function` made by ct.bit_cast
/// from bits that may be those of a varied floating-point value, when it
/// influences an output.
mlir::LogicalResult
refuseDerivativesThroughBits(mlir::func::FuncOp function,
                             const ActivityAnalysis &activity);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_BITREINTERPRETATIONS_H
