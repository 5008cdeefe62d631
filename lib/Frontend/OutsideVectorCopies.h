//===- OutsideVectorCopies.h - Per-call copies of outside vectors -*- C++
//-*-===//
//
// A std::vector outside the function that differentiable code changes (a
// memref.global of its three address slots, OutsideVectors.cpp) gets, per
// derivative call, a vector of its own: fresh memory holding a copy of its
// elements, whose addresses a fresh three-slot object keeps. The engine
// shadows that memory like any the function makes; the final contents go
// back into the variable's own memory, without derivative.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_FRONTEND_OUTSIDEVECTORCOPIES_H
#define COTANGENT_FRONTEND_OUTSIDEVECTORCOPIES_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace cotangent::frontend {

/// Copies `count` scalars from `from` to `to`; the copies carry no
/// derivative where `cut` (ct.stop_gradient).
void copyScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value from,
                 mlir::Value to, mlir::Value count, bool cut);

class OutsideVector {
public:
  /// The vector `global` is, or nullopt for a variable of numbers.
  static std::optional<OutsideVector> of(mlir::memref::GlobalOp global);

  /// Makes `copy` (three fresh slots) a vector of its own holding copies of
  /// the elements of the one at `variable`.
  void copyIn(mlir::OpBuilder &b, mlir::Location loc, mlir::Value variable,
              mlir::Value copy) const;
  /// Gives the vector at `variable` the size and elements of the one at
  /// `copy` (its own memory grown if too small), then frees `copy`'s.
  void copyBack(mlir::OpBuilder &b, mlir::Location loc, mlir::Value copy,
                mlir::Value variable) const;

  /// The scalar type of the elements' memory.
  mlir::Type getScalar() const { return scalar; }
  /// The addresses of the first element and of the end of the vector at
  /// `holder`, as indices.
  mlir::Value getStart(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value holder) const;
  mlir::Value getEnd(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value holder) const;

private:
  OutsideVector(int64_t first, int64_t end, int64_t capacity, mlir::Type scalar)
      : first(first), end(end), capacity(capacity), scalar(scalar) {}
  /// The address slot `slot` of `holder` holds, as an index.
  mlir::Value addressIn(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value holder, int64_t slot) const;
  /// The number of scalars between the first element and slot `slot`.
  mlir::Value scalarsUpTo(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value holder, int64_t slot) const;
  /// A view of the elements of the vector at `holder`.
  mlir::Value elements(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value holder) const;
  /// Stores into slot `slot` of `holder` the address `count` scalars past
  /// the start of `memory`.
  void storeAddress(mlir::OpBuilder &b, mlir::Location loc, mlir::Value memory,
                    mlir::Value count, mlir::Value holder, int64_t slot) const;

  int64_t first, end, capacity;
  mlir::Type scalar;
};

} // namespace cotangent::frontend

#endif // COTANGENT_FRONTEND_OUTSIDEVECTORCOPIES_H
