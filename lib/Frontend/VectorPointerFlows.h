//===- VectorPointerFlows.h - Pointers to vectors that exchange values ----===//
//
// Pointer variables to std::vectors are selections among the vectors they
// are given (MovingPointers.cpp); pointers that copy each other's values
// (`p = q`, `T *t = p`, `std::swap(p, q)`, a helper's parameter given `p`)
// must index one list of vectors, so that a copy is a copy of the index.
// Pointers that never exchange values need not share a list: sharing one
// would make each see vectors it never designates, made where its reads
// cannot select them (two pairs of buffers swapped in one loop). This
// analysis groups the variables by the values that flow between them,
// over the bodies of the function and of the helpers it calls.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_FRONTEND_VECTORPOINTERFLOWS_H
#define COTANGENT_FRONTEND_VECTORPOINTERFLOWS_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <cstdint>

namespace clang {
class Expr;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace cotangent::frontend {

/// Whether `var` is a pointer to a std::vector of the memref model (a
/// selection among the vectors it is given).
bool isVectorPointer(const clang::ValueDecl *var);

/// Whether `var` is a pointer variable to std::vectors that keeps the
/// address of the vector it designates: one given vectors kept in memory as
/// C++ lays them out (made by `new`, rows of a vector of vectors, fields
/// kept in memory), and perhaps nullptr and vectors of the memref model
/// (which it designates through a view of them laid out so), nothing else.
bool keepsVectorAddress(const clang::ValueDecl *var);

/// Whether `var` keepsVectorAddress and is given a vector of the memref
/// model, whose size no view of its addresses can change.
bool viewsMemrefVectors(const clang::ValueDecl *var);

/// Whether `expr` reads a variable that keepsVectorAddress.
bool readsVectorAddressHolder(const clang::Expr *expr);

/// The index a pointer to vectors holds while it is null: no vector of its
/// list, so that null tests compare with it.
inline constexpr int64_t kNullVectorIndex = -1;

class VectorPointerFlows {
public:
  /// Notes the flows in `body` and in the bodies of the functions it calls
  /// (each body once).
  void scan(const clang::Stmt *body);
  /// The variable naming the group of `var`: the same for every variable
  /// values may flow to or from, first asked of that group.
  const clang::VarDecl *getGroup(const clang::VarDecl *var);

private:
  void noteFlow(const clang::VarDecl *to, const clang::Stmt *from);

  llvm::EquivalenceClasses<const clang::VarDecl *> flows;
  llvm::DenseSet<const clang::Stmt *> scanned;
  llvm::DenseMap<const clang::VarDecl *, const clang::VarDecl *> groups;
};

} // namespace cotangent::frontend

#endif // COTANGENT_FRONTEND_VECTORPOINTERFLOWS_H
