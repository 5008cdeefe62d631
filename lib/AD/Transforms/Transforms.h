//===- Transforms.h - Transforms run on generated code ----------*- C++ -*-===//
//
// The pre-differentiation transforms that the registry also runs on code
// forward mode generated, before reverse mode differentiates it.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_TRANSFORMS_TRANSFORMS_H
#define COTANGENT_LIB_AD_TRANSFORMS_TRANSFORMS_H

#include "mlir/IR/Operation.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace cotangent::ad {

/// Lets the inliner inline functions holding the LLVM dialect ops the
/// frontend writes (null pointers, pointer casts, output calls).
void registerLLVMOpsInlining(mlir::DialectRegistry &registry);

/// Moves loop-invariant loads out of the scf.for loops under `root`
/// (the ct-hoist-invariant-loads pass; also run on code that forward mode
/// generated, before reverse mode differentiates it).
void hoistInvariantLoads(mlir::Operation *root);

/// Replaces loads of elements just stored or loaded in the same block by
/// their value (the ct-forward-stores pass; also run on code that forward
/// mode generated).
void forwardStores(mlir::Operation *root);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_TRANSFORMS_TRANSFORMS_H
