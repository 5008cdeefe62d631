//===- SpecialMembers.h - Which constructor makes an object ----*- C++ -*-===//
//
// The code that makes objects without a constructor call in the source
// (a vector's elements, `new T[n]()`) picks the class's constructor
// itself: the one that runs without arguments, or the copy or move one.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_FRONTEND_SPECIALMEMBERS_H
#define COTANGENT_LIB_FRONTEND_SPECIALMEMBERS_H

#include "clang/AST/DeclCXX.h"

namespace cotangent::frontend {

/// The constructor of `record` that runs without arguments (default
/// arguments may fill its parameters); null if none.
inline const clang::CXXConstructorDecl *
defaultConstructorOf(const clang::CXXRecordDecl *record) {
  for (const clang::CXXConstructorDecl *ctor : record->ctors())
    if (!ctor->isDeleted() && !ctor->isCopyOrMoveConstructor() &&
        ctor->getMinRequiredArguments() == 0)
      return ctor;
  return nullptr;
}

/// The constructor of `record` that moves an object (with `moves`, where
/// there is one) or copies it; null if none.
inline const clang::CXXConstructorDecl *
copyConstructorOf(const clang::CXXRecordDecl *record, bool moves) {
  const clang::CXXConstructorDecl *copy = nullptr;
  for (const clang::CXXConstructorDecl *ctor : record->ctors()) {
    if (ctor->isDeleted())
      continue;
    if (moves && ctor->isMoveConstructor())
      return ctor;
    if (!copy && ctor->isCopyConstructor())
      copy = ctor;
  }
  return copy;
}

} // namespace cotangent::frontend

#endif // COTANGENT_LIB_FRONTEND_SPECIALMEMBERS_H
