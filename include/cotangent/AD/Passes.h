//===- Passes.h - Cotangent AD passes ---------------------------*- C++ -*-===//

#ifndef COTANGENT_AD_PASSES_H
#define COTANGENT_AD_PASSES_H

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/Pass.h"

namespace cotangent::ad {

#define GEN_PASS_DECL
#include "cotangent/AD/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cotangent/AD/Passes.h.inc"

/// canonicalize, cse, ct-differentiate, mem2reg, canonicalize, cse: the
/// passes every user of the engine runs around it.
void buildAutodiffPipeline(mlir::OpPassManager &pm);
void buildAutodiffPipeline(mlir::OpPassManager &pm,
                           const DifferentiateOptions &options);
/// Registers that pipeline as `ct-autodiff`.
void registerAutodiffPipeline();

} // namespace cotangent::ad

#endif // COTANGENT_AD_PASSES_H
