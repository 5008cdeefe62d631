//===- Passes.h - Cotangent code generation passes --------------*- C++ -*-===//
//
// The passes between differentiated MLIR and LLVM IR, declared in
// Passes.td: create<Name>() for each, registerCotangentCodeGenPasses() for
// all of them.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_CODEGEN_PASSES_H
#define COTANGENT_CODEGEN_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace cotangent::codegen {

#define GEN_PASS_DECL
#include "cotangent/CodeGen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cotangent/CodeGen/Passes.h.inc"

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_PASSES_H
