//===- LaneAccesses.h - Whole-lane accesses as element accesses -*- C++ -*-===//
//
// Vector mode reads and writes the lanes of an element of memory with lanes
// as one vector (vector.load and vector.store of one dimension). Some
// consumers need them element by element: the engine, to differentiate a
// vector-mode derivative again with the memory analyses of scalar code, and
// code generation, for lanes whose scalars are padded in memory (80-bit
// floats in 16 bytes, which an LLVM vector packs at 10).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_DIALECT_CT_IR_LANEACCESSES_H
#define COTANGENT_DIALECT_CT_IR_LANEACCESSES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace cotangent::ct {

/// Rewrites the whole-lane loads and stores inside `root` whose vector type
/// `which` accepts into loads and stores of each element and the vectors
/// made of or split into them.
void scalarizeLaneAccesses(
    mlir::Operation *root, llvm::function_ref<bool(mlir::VectorType)> which =
                               [](mlir::VectorType) { return true; });

} // namespace cotangent::ct

#endif // COTANGENT_DIALECT_CT_IR_LANEACCESSES_H
