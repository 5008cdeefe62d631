//===- OutsideVariables.h - Variables outside a function --------*- C++ -*-===//
//
// A C++ variable defined outside the function that differentiable code
// reads or writes (not constant: at namespace scope, a static data member,
// a static local) is a memref.global that is not constant, named by its
// linkage name, with its C++ name in `ct.source_name`. The frontend,
// ct-structure and the AD engine ask the same questions about them here.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_DIALECT_CT_IR_OUTSIDEVARIABLES_H
#define COTANGENT_DIALECT_CT_IR_OUTSIDEVARIABLES_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <string>

namespace cotangent::ct {

/// On such a variable of floating-point data that differentiable code
/// writes but that keeps no copy of its own per call (the frontend's
/// OutsideVariableCopies.cpp): why, for the error where a derivative
/// would be written to it.
inline constexpr llvm::StringLiteral kKeptInPlaceAttr = "ct.kept_in_place";

/// On such a variable that is a std::vector (a memref<3xf64> of its three
/// addresses, as C++ lays it out): the slots of its first element, its end
/// and the end of its capacity (DenseI64ArrayAttr), and the scalar type of
/// its elements' memory (`ct.vector_scalar`, a TypeAttr).
inline constexpr llvm::StringLiteral kVectorSlotsAttr = "ct.vector_slots";
inline constexpr llvm::StringLiteral kVectorScalarAttr = "ct.vector_scalar";
/// On a memref.alloc: new memory for the elements of such a vector, which
/// holds no derivative (made where a call's copy goes back into it).
inline constexpr llvm::StringLiteral kOutsideMemoryAttr = "ct.outside_memory";

/// The variable outside the function that `memory` (or the memory it is a
/// view of) is, or null.
mlir::memref::GlobalOp getOutsideVariable(mlir::Value memory);

/// The variable outside the function `op` writes (a store into one), or
/// null.
mlir::memref::GlobalOp getWrittenOutsideVariable(mlir::Operation *op);

/// The first store under `root` into a variable outside the function, or
/// null.
mlir::Operation *findWriteOfOutsideVariable(mlir::Operation *root);

/// A variable's C++ name, for diagnostics.
std::string getVariableName(mlir::memref::GlobalOp global);

} // namespace cotangent::ct

#endif // COTANGENT_DIALECT_CT_IR_OUTSIDEVARIABLES_H
