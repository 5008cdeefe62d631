//===- VectorPointerFlows.cpp - Pointers to vectors that exchange values --===//

#include "VectorPointerFlows.h"
#include "FunctionLowering.h"
#include "ModuleLowering.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace cotangent::frontend {

bool isVectorPointer(const clang::ValueDecl *var) {
  return var->getType()->isPointerType() &&
         ModuleLowering::isMemrefVector(
             var->getType()->getPointeeType().getCanonicalType());
}

/// Whether pointers `a` and `b` designate vectors of one type (`const` or
/// not).
static bool designateAlike(const clang::VarDecl *a, const clang::VarDecl *b) {
  auto vector = [](const clang::VarDecl *var) {
    return var->getType()
        ->getPointeeType()
        .getCanonicalType()
        .getUnqualifiedType();
  };
  return vector(a) == vector(b);
}

void VectorPointerFlows::noteFlow(const clang::VarDecl *to,
                                  const clang::Stmt *from) {
  // Any pointer to vectors of the same type the value names may be what
  // flows (`c ? p : q`, `helper(p)`): more than flows, never less.
  if (!from)
    return;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(from))
    if (const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
        var && var != to && isVectorPointer(var) && designateAlike(var, to))
      flows.unionSets(to, var);
  for (const clang::Stmt *child : from->children())
    noteFlow(to, child);
}

/// The variable `expr` names as a place, if it is one.
static const clang::VarDecl *namedVariable(const clang::Expr *expr) {
  const auto *ref =
      llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

void VectorPointerFlows::scan(const clang::Stmt *body) {
  if (!body || !scanned.insert(body).second)
    return;
  auto note = [&](const clang::VarDecl *to, const clang::Stmt *from) {
    if (to && isVectorPointer(to))
      noteFlow(to, from);
  };
  if (const auto *assign = llvm::dyn_cast<clang::BinaryOperator>(body);
      assign && assign->getOpcode() == clang::BO_Assign)
    note(namedVariable(assign->getLHS()), assign->getRHS());
  if (const auto *declStmt = llvm::dyn_cast<clang::DeclStmt>(body))
    for (const clang::Decl *d : declStmt->decls())
      if (const auto *var = llvm::dyn_cast<clang::VarDecl>(d))
        note(var, var->getInit());
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(body)) {
    // `std::swap(p, q)` and any call taking pointers by reference: each
    // may receive the other's value.
    const clang::VarDecl *first = nullptr;
    for (const clang::Expr *arg : call->arguments())
      if (const clang::VarDecl *var = namedVariable(arg);
          var && isVectorPointer(var)) {
        if (first && designateAlike(first, var))
          flows.unionSets(first, var);
        first = first ? first : var;
      }
    if (const clang::FunctionDecl *callee = call->getDirectCallee()) {
      forEachBoundArgument(call, callee,
                           [&](const clang::ParmVarDecl *param,
                               const clang::Expr *arg) { note(param, arg); });
      scan(callee->getBody());
    }
  }
  for (const clang::Stmt *child : body->children())
    scan(child);
}

const clang::VarDecl *VectorPointerFlows::getGroup(const clang::VarDecl *var) {
  flows.insert(var);
  for (auto member = flows.findLeader(var); member != flows.member_end();
       ++member)
    if (auto known = groups.find(*member); known != groups.end())
      return groups[var] = known->second;
  return groups[var] = var;
}

} // namespace cotangent::frontend
