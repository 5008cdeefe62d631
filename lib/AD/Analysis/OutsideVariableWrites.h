//===- OutsideVariableWrites.h - Derivatives out of globals -*- C++ -*-===//
//
// Differentiable code may write variables outside the function (a counter,
// a running total, the last value seen), as long as what it writes carries
// no derivative: the analyses see each function alone, so a derivative
// stored into such a variable would be lost to whatever reads it later.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_OUTSIDEVARIABLEWRITES_H
#define COTANGENT_LIB_AD_ANALYSIS_OUTSIDEVARIABLEWRITES_H

#include "cotangent/AD/Analysis/Activity.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace cotangent::ad {

/// Reports each variable outside the function into which `function`, or a
/// function it calls, writes a value that depends on a differentiated input
/// (as `activity` says for `function`; for a callee, as its call passes
/// varied values on), at the variable's use, with a note at each call on
/// the way. Callees for which `hasRule` holds are not looked into: their
/// rule gives their derivative. Values that carry no derivative are
/// written as the code says.
mlir::LogicalResult refuseDerivativesInOutsideVariables(
    mlir::func::FuncOp function, const ActivityAnalysis &activity,
    llvm::function_ref<bool(mlir::func::FuncOp)> hasRule);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_OUTSIDEVARIABLEWRITES_H
