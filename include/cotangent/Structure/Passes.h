//===- Passes.h - Structuring the lowered C++ -------------------*- C++ -*-===//

#ifndef COTANGENT_STRUCTURE_PASSES_H
#define COTANGENT_STRUCTURE_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/Pass.h"

namespace cotangent::structure {

#define GEN_PASS_DECL
#include "cotangent/Structure/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cotangent/Structure/Passes.h.inc"

} // namespace cotangent::structure

#endif // COTANGENT_STRUCTURE_PASSES_H
