//===- CTOps.h - The ct dialect: attributes and operations ------*- C++ -*-===//

#ifndef COTANGENT_DIALECT_CT_IR_CTOPS_H
#define COTANGENT_DIALECT_CT_IR_CTOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "cotangent/Dialect/CT/IR/CTOpsDialect.h.inc"
#include "cotangent/Dialect/CT/IR/CTOpsEnums.h.inc"

namespace cotangent::ct {
/// The side-effect resource of tape operations.
struct TapeResource : public mlir::SideEffects::Resource::Base<TapeResource> {
  llvm::StringRef getName() final { return "<Tape>"; }
};
/// The side-effect resource of `ct.abort`: the process, which it ends.
/// Ordered against other such effects but not against memory accesses.
struct ProcessResource
    : public mlir::SideEffects::Resource::Base<ProcessResource> {
  llvm::StringRef getName() final { return "<Process>"; }
};
/// The side-effect resource of `ct.checkpoint_loop`, which touches nothing
/// but must stay where it is until ct-outline-checkpoints reads it.
struct CheckpointResource
    : public mlir::SideEffects::Resource::Base<CheckpointResource> {
  llvm::StringRef getName() final { return "<Checkpoint>"; }
};
/// Marks a `memref.alloca` whose contents live for one iteration of the
/// parallel loop it is used in (a C++ variable declared in the loop's body,
/// its shadow, the adjoint slot of a value the body computes): each
/// iteration may have its own (ct-parallelize-loops moves it into the
/// loop).
inline constexpr llvm::StringLiteral kIterationLocal = "ct.iteration_local";
/// Marks an `scf.parallel` that the user asked to run on a GPU
/// (`#pragma omp target ... parallel for`); ct-offload-loops makes kernels of
/// those it can when compiling for a GPU.
inline constexpr llvm::StringLiteral kDeviceLoop = "ct.device";
/// A derivative loop for a GPU (`ct.device_twin` = id) and its twin for CPU
/// threads right after it (`ct.host_twin` = id), the same loop differently
/// parallelized (ct-parallelize-loops): ct-offload-loops runs the first on
/// the GPU, the second when no GPU answers or the first cannot be a kernel.
inline constexpr llvm::StringLiteral kDeviceTwin = "ct.device_twin";
inline constexpr llvm::StringLiteral kHostTwin = "ct.host_twin";

/// "file:line:col" of the first source position in `loc` (a loop and the
/// derivative loops made of it share it), or its printed form without one:
/// to say something about a source construct once.
std::string getSourcePosition(mlir::Location loc);

/// Whether `memory` is the caller's: an argument of its function (through
/// views), or memory reached through addresses read from one
/// (`ct.load_address`, to any depth).
bool isCallerMemory(mlir::Value memory);

/// The side-effect resource of `ct.parallel_loop`, which touches nothing
/// but must stay where it is until ct-structure reads it.
struct ParallelLoopResource
    : public mlir::SideEffects::Resource::Base<ParallelLoopResource> {
  llvm::StringRef getName() final { return "<ParallelLoop>"; }
};
} // namespace cotangent::ct

#define GET_TYPEDEF_CLASSES
#include "cotangent/Dialect/CT/IR/CTOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "cotangent/Dialect/CT/IR/CTOpsAttributes.h.inc"

#define GET_OP_CLASSES
#include "cotangent/Dialect/CT/IR/CTOps.h.inc"

#endif // COTANGENT_DIALECT_CT_IR_CTOPS_H
