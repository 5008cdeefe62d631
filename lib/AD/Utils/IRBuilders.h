//===- IRBuilders.h - IR helpers shared by the emitters ---------*- C++ -*-===//
//
// Small builders the emitters, the rules and the transforms share: typed
// constants and casts, adjoint sums, trip counts, zero fills, scratch
// shadows.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_UTILS_IRBUILDERS_H
#define COTANGENT_LIB_AD_UTILS_IRBUILDERS_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

namespace cotangent::ad {

/// Whether `view` is the null pointer kept in memory (a `ct.pointer_view`
/// of address 0): a view with no memory, its own derivative.
bool isNullPointerView(mlir::Value view);

/// Whether the views `primal` and `shadow` start in the same memory (an i1):
/// a shadow slot holding the primal address of memory without derivatives
/// (ActivityAnalysis::keepsConstantMemoryInShadows). The addresses it
/// compares are marked kOwnShadowTest (vector mode refuses such code).
inline constexpr llvm::StringLiteral kOwnShadowTest = "ct.own_shadow_test";
mlir::Value buildIsOwnShadow(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value primal, mlir::Value shadow);

/// A branch op like `op` (scf.if or scf.index_switch) on `selector`, with
/// results of `types` and one empty block per region; the builder's
/// insertion point is left after it.
mlir::Operation *buildBranchLike(mlir::OpBuilder &builder, mlir::Operation *op,
                                 mlir::Value selector, mlir::TypeRange types);

/// The op just before `builder`'s insertion point, null at the block's
/// start: where what the builder inserts next begins.
inline mlir::Operation *lastOpBefore(mlir::OpBuilder &builder) {
  mlir::Block::iterator point = builder.getInsertionPoint();
  return point == builder.getInsertionBlock()->begin() ? nullptr
                                                       : &*std::prev(point);
}

/// The yield of a branch region, or null for a missing else.
inline mlir::Operation *getBranchYield(mlir::Region &region) {
  return region.empty() ? nullptr : region.front().getTerminator();
}

/// The position of element `k` of a vector of `shape`, in row-major order.
inline llvm::SmallVector<int64_t> delinearize(int64_t k,
                                              llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> position(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    position[d] = k % shape[d];
    k /= shape[d];
  }
  return position;
}

/// The sum of the vector `value` over the dimensions it has in front of
/// `type`'s (all of them for a scalar): the transpose of a broadcast to
/// `type`, and the sum over outer lanes in lanes of lanes (Rules/Vector.cpp).
mlir::Value sumOverLeading(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value, mlir::Type type);

/// `value` as a constant of a float type, or of a vector of floats (every
/// lane).
mlir::Value buildFloatConstant(mlir::OpBuilder &builder, mlir::Location loc,
                               mlir::Type type, double value);
/// 0 of a float type, or of a vector of floats.
mlir::Value buildZero(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Type type);
/// `value` converted to the float type `type` (extension or truncation), of
/// vectors elementwise.
mlir::Value buildFloatCast(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value, mlir::Type type);
/// `old + adjoint`, for summing contributions to an adjoint. No source
/// order exists for them, so the sum may be reassociated (LLVM then
/// vectorises adjoint reductions like `dx[c] += L[r][c] * dy[r]` over r)
/// and fused with the products that feed it.
mlir::Value buildAdjointSum(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Value old, mlir::Value adjoint);
/// The trip count max(0, ceildiv(ub - lb, step)) of an scf.for with these
/// bounds, in their type.
mlir::Value buildTripCount(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value lb, mlir::Value ub, mlir::Value step);
/// `value` (an integer or index) as an index.
mlir::Value buildIndexCast(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value);
/// Stores 0 into every element of `memref`.
void buildZeroFill(mlir::OpBuilder &builder, mlir::Location loc,
                   mlir::Value memref);
/// A fresh zero-filled memref of `type` with `dynamicSizes`; where `type`
/// may view a C pointer and the size is a pointer's unknown extent, reserved
/// scratch memory (cotangent/scratch.h). Needs canBuildScratchBuffer.
mlir::Value buildScratchBuffer(mlir::OpBuilder &builder, mlir::Location loc,
                               mlir::MemRefType type,
                               mlir::ValueRange dynamicSizes);
/// Whether a plain buffer of `type`'s shape casts to `type`.
bool canBuildScratchBuffer(mlir::MemRefType type);
/// A fresh zero-filled memref with the shape of `like`, for a shadow that the
/// caller does not need (a rule's derivative of a constant argument). A view
/// of a C pointer, whose extent is unknown, gets reserved scratch memory
/// (cotangent/scratch.h) instead of a buffer of that extent.
mlir::Value buildScratchShadow(mlir::OpBuilder &builder, mlir::Location loc,
                               mlir::Value like);
/// Frees what buildScratchShadow made.
void buildScratchFree(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value scratch);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_UTILS_IRBUILDERS_H
