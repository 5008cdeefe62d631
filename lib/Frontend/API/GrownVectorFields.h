//===- GrownVectorFields.h - Vector fields a function grows -----*- C++ -*-===//
//
// Reverse mode of a function that grows a std::vector field of a parameter's
// object (`s.history.push_back(v)` with `State &s`): as for a std::vector
// parameter it resizes, the derivative object's field holds the seeds of
// the field's final contents when the pullback is called and the
// cotangents of its initial contents when it returns. The entry point
// takes the seeds out and differentiates a copy of the function in which
// that growth is allowed (EntryPoints.cpp); these are the questions it asks
// of the lowered function.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_FRONTEND_API_GROWNVECTORFIELDS_H
#define COTANGENT_FRONTEND_API_GROWNVECTORFIELDS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "clang/AST/ASTContext.h"

#include <string>

namespace cotangent::frontend {

/// A std::vector field of the object parameter `param` designates, that the
/// function grows: its three addresses are stored there, in the function
/// itself (not in a function it calls, lowered on its own), with memory it
/// allocates.
struct GrownVectorField {
  unsigned param;
  /// Bytes from the start of the parameter's object to the vector's.
  int64_t offset;
  clang::QualType vector;
  /// How the user names it: the parameter's name, then the fields'.
  std::string name;
};

/// The fields of `objects[i]` (the object parameter i designates, or null)
/// whose vectors `function` grows (fields of fields too).
llvm::SmallVector<GrownVectorField> findGrownVectorFields(
    mlir::func::FuncOp function, llvm::ArrayRef<clang::QualType> objects,
    llvm::ArrayRef<std::string> parameterNames, const clang::ASTContext &ast);

/// A private copy of `function`, named `name`, for callers that take the
/// seeds of `fields` out: its growth of them is allowed in reverse mode, and
/// the stores of their new addresses are not a re-seating of the caller's
/// memory (ReseatedMemory.cpp), since the seeds describe the final contents.
mlir::func::FuncOp copyWithSeedsTaken(mlir::func::FuncOp function,
                                      llvm::ArrayRef<GrownVectorField> fields,
                                      llvm::StringRef name);

} // namespace cotangent::frontend

#endif // COTANGENT_FRONTEND_API_GROWNVECTORFIELDS_H
