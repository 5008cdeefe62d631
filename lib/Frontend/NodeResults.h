//===- NodeResults.h - Recursion that returns linked nodes -----*- C++ -*-===//
//
// A function that builds linked nodes recursively and returns them (a
// tree's `Node *build(lo, hi)`) cannot be lowered in place: its recursion
// would unfold without end. Lowered on its own, it returns the node's
// address through a slot its caller passes after the parameters (as an
// aggregate result's address is passed), so that the address is one the
// engine keeps in memory like any other (ct.store_address in the callee,
// ct.load_address in the caller): its shadow travels beside it.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_FRONTEND_NODERESULTS_H
#define COTANGENT_LIB_FRONTEND_NODERESULTS_H

#include "ModuleLowering.h"

namespace cotangent::frontend {

/// Whether `function` returns a pointer to linked nodes.
inline bool returnsLinkedNode(const clang::FunctionDecl *function) {
  clang::QualType result = function->getReturnType().getCanonicalType();
  const clang::RecordDecl *pointee =
      result->isPointerType() ? result->getPointeeType()->getAsRecordDecl()
                              : nullptr;
  return pointee && ModuleLowering::isLinked(pointee);
}

/// Whether `stmt` calls `function` (directly, by name).
inline bool callsDirectly(const clang::Stmt *stmt,
                          const clang::FunctionDecl *function) {
  if (!stmt)
    return false;
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(stmt))
    if (const clang::FunctionDecl *callee = call->getDirectCallee();
        callee && callee->getCanonicalDecl() == function->getCanonicalDecl())
      return true;
  return llvm::any_of(stmt->children(), [&](const clang::Stmt *child) {
    return callsDirectly(child, function);
  });
}

/// Whether `function` returns linked nodes it builds by calling itself:
/// then it returns them through the slot its caller passes (decided from
/// its source alone, so that its signature, its body and every call
/// agree), and even its outermost call is a call (lowered in place, the node
/// would be the choice its branches make, which `delete` cannot free).
/// (Builders calling each other stay lowered in place, an error at the
/// recursion: their derivatives do not come out of the engine yet.)
inline bool buildsNodesRecursively(const clang::FunctionDecl *function) {
  const clang::FunctionDecl *definition = nullptr;
  return returnsLinkedNode(function) && function->hasBody(definition) &&
         callsDirectly(definition->getBody(), function);
}

} // namespace cotangent::frontend

#endif // COTANGENT_LIB_FRONTEND_NODERESULTS_H
