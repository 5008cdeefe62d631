//===- DenseKernels.h - Matrix kernels with matrix-level rules --*- C++ -*-===//
//
// The dense linear-algebra kernels that libraries' products and triangular
// solves reach (Eigen's general_matrix_matrix_product, its rank updates and
// its triangular solvers), as functions of the module with reverse-mode rules
// (ct.custom_vjp) written at the level of matrices: the adjoint of a product
// is two products, that of a triangular solve one transposed solve and one
// product. Differentiated element by element instead, a blocked product or
// factorization records every partial sum it overwrites (a tape of O(n^3)
// numbers); with these rules it records copies of its operands (O(n^2)).
// Forward mode differentiates the kernels' own loops.
//
// A matrix operand is four arguments: the memory it lies in (a pointer
// memref), the offset of its element (0, 0) and its row and column strides in
// elements, so a transposed or row-major matrix is the same kernel with its
// strides swapped.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_FRONTEND_DENSEKERNELS_H
#define COTANGENT_FRONTEND_DENSEKERNELS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace cotangent::frontend {

/// A matrix operand: element (i, j) of `data` (a pointer memref) at
/// offset + i * rowStride + j * colStride.
struct DenseMatrix {
  mlir::Value data, offset, rowStride, colStride;

  DenseMatrix transposed() const {
    return {data, offset, colStride, rowStride};
  }
  mlir::Value position(mlir::OpBuilder &b, mlir::Location l, mlir::Value i,
                       mlir::Value j) const;
  mlir::Value load(mlir::OpBuilder &b, mlir::Location l, mlir::Value i,
                   mlir::Value j) const;
  void store(mlir::OpBuilder &b, mlir::Location l, mlir::Value value,
             mlir::Value i, mlir::Value j) const;
};

/// The entries of a result a kernel updates, by row i and column j.
enum class Triangle { All, Lower, Upper, StrictLower, StrictUpper };

/// A new rows x cols matrix, stored by columns, holding `region` of `from`
/// and zeros elsewhere, with ones on its diagonal if `unitDiagonal`: the
/// matrix a product with a triangular view of `from` multiplies.
DenseMatrix buildTriangleCopy(mlir::OpBuilder &b, mlir::Location l,
                              DenseMatrix from, mlir::Value rows,
                              mlir::Value cols, Triangle region,
                              bool unitDiagonal);

/// A new size x size matrix, stored by columns, equal to the symmetric
/// matrix whose lower triangle `lower` holds: the matrix a product with a
/// self-adjoint view multiplies.
DenseMatrix buildSymmetricCopy(mlir::OpBuilder &b, mlir::Location l,
                               DenseMatrix lower, mlir::Value size);

/// `C(i, j) += alpha * sum_p A(i, p) * B(p, j)` over `region` of C, with
/// arguments (A, B, C as four each, rows, cols, depth, alpha); created in
/// `module` with its rule on first use, located at `where` (the first call,
/// where diagnostics about it point).
mlir::func::FuncOp getDenseProduct(mlir::ModuleOp module,
                                   mlir::FloatType element, Triangle region,
                                   mlir::Location where);

/// `X = T^-1 X` in place for a lower or upper triangular T (its diagonal
/// taken as ones if `unitDiagonal`), with arguments (T, X as four each, size,
/// cols); created in `module` with its rule on first use, at `where`.
mlir::func::FuncOp getDenseTriangularSolve(mlir::ModuleOp module,
                                           mlir::FloatType element, bool lower,
                                           bool unitDiagonal,
                                           mlir::Location where);

} // namespace cotangent::frontend

#endif // COTANGENT_FRONTEND_DENSEKERNELS_H
