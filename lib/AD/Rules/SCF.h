//===- SCF.h - Differentiating structured control flow ----------*- C++ -*-===//

#ifndef COTANGENT_LIB_AD_RULES_SCF_H
#define COTANGENT_LIB_AD_RULES_SCF_H

#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "mlir/IR/MLIRContext.h"

namespace cotangent::ad {

/// Attaches reverse mode of scf.for, scf.if, scf.index_switch and scf.while
/// (SCFReverse.cpp).
void attachSCFReverseModels(mlir::MLIRContext *context);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_RULES_SCF_H
