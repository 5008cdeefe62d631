//===- MemberCallParts.h - A member call's object and arguments -*- C++ -*-===//
//
// A call of a member function names its object in one of two ways: a member
// call (`v.size()`, `p->f(x)`) has an implicit object argument reached by
// `.` or `->`; a member operator (`a + b`, `f(x)` of a functor) has its
// object as its first operand. Every lowering of an instance call needs the
// same three parts.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_FRONTEND_MEMBERCALLPARTS_H
#define COTANGENT_LIB_FRONTEND_MEMBERCALLPARTS_H

#include "FunctionLowering.h"

namespace cotangent::frontend {

struct MemberCallParts {
  /// The object's expression: a pointer to it when `arrow`, else the object.
  const clang::Expr *object = nullptr;
  bool arrow = false;
  /// The arguments after the object.
  llvm::ArrayRef<const clang::Expr *> rest;
};

/// The parts of the instance call `expr`, whose arguments (a member
/// operator's operands) are `args`.
inline MemberCallParts
splitMemberCall(const clang::CallExpr *expr,
                llvm::ArrayRef<const clang::Expr *> args) {
  if (const auto *member = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr)) {
    const auto *access =
        llvm::dyn_cast<clang::MemberExpr>(strip(member->getCallee()));
    return {member->getImplicitObjectArgument(), access && access->isArrow(),
            args};
  }
  if (args.empty())
    return {};
  return {args.front(), false, args.drop_front()};
}

} // namespace cotangent::frontend

#endif // COTANGENT_LIB_FRONTEND_MEMBERCALLPARTS_H
