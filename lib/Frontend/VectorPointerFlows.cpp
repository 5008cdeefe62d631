//===- VectorPointerFlows.cpp - Pointers to vectors that exchange values --===//

#include "VectorPointerFlows.h"
#include "FunctionLowering.h"
#include "ModuleLowering.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace cotangent::frontend {

/// Whether `var` is a pointer variable to std::vectors of the memref model.
static bool pointsToMemrefVectors(const clang::ValueDecl *var) {
  return var->getType()->isPointerType() &&
         ModuleLowering::isMemrefVector(
             var->getType()->getPointeeType().getCanonicalType());
}

namespace {
/// What a value given to a pointer variable to std::vectors designates.
enum class VectorPlace {
  Null,     // nullptr
  InMemory, // a vector kept in memory as C++ lays it out (its addresses)
  Memref,   // a variable that is a vector of the memref model
  Other,    // anything else (a choice, a call's result)
};
} // namespace

static bool
keepsVectorAddress(const clang::VarDecl *var,
                   llvm::SmallPtrSetImpl<const clang::VarDecl *> &visiting,
                   bool *viewsMemref);

/// The pointer variable `expr` reads, if any.
static const clang::VarDecl *readPointerVariable(const clang::Expr *expr) {
  const auto *ref =
      llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  const auto *var =
      ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->getType()->isPointerType() ? var : nullptr;
}

/// Whether `type` is a std::array of std::vectors (whose elements are
/// rows, as a built-in array's are).
static bool isArrayOfVectors(clang::QualType type) {
  const auto *specialization =
      llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
          type->getAsCXXRecordDecl());
  if (!specialization || specialization->getName() != "array" ||
      !specialization->isInStdNamespace() ||
      specialization->getTemplateArgs().size() < 1 ||
      specialization->getTemplateArgs()[0].getKind() !=
          clang::TemplateArgument::Type)
    return false;
  return !ModuleLowering::getVectorElementType(
              specialization->getTemplateArgs()[0].getAsType())
              .isNull();
}

/// Whether `expr`, a std::vector, lives in memory as C++ lays it out: a
/// field kept so, an element of a vector kept so (a row of a vector of
/// vectors), or `*p` of a pointer that keeps such addresses.
static bool
isVectorInMemory(const clang::Expr *expr,
                 llvm::SmallPtrSetImpl<const clang::VarDecl *> &visiting) {
  expr = expr->IgnoreParenImpCasts();
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(expr))
    return ModuleLowering::keepsVectorInMemory(
        llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl()));
  // An element of an array of vectors is a row (docs/Memory.md, item 12).
  if (const auto *element = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr))
    return element->getBase()->IgnoreParenImpCasts()->getType()->isArrayType();
  const clang::Expr *object = nullptr;
  if (const auto *call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr))
    object = call->getImplicitObjectArgument();
  else if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(expr);
           op && op->getOperator() == clang::OO_Subscript)
    object = op->getArg(0);
  if (object) {
    clang::QualType type = object->getType().getNonReferenceType();
    if (type->isPointerType())
      type = type->getPointeeType();
    return ModuleLowering::isVectorObject(type.getCanonicalType()) ||
           isArrayOfVectors(type.getCanonicalType());
  }
  const auto *deref = llvm::dyn_cast<clang::UnaryOperator>(expr);
  const clang::VarDecl *pointer = deref && deref->getOpcode() == clang::UO_Deref
                                      ? readPointerVariable(deref->getSubExpr())
                                      : nullptr;
  return pointer && keepsVectorAddress(pointer, visiting, nullptr);
}

static VectorPlace
placeGiven(const clang::Expr *value,
           llvm::SmallPtrSetImpl<const clang::VarDecl *> &visiting,
           clang::ASTContext &ast) {
  if (isNullPointer(value, ast))
    return VectorPlace::Null;
  value = value->IgnoreParenImpCasts();
  if (const auto *made = llvm::dyn_cast<clang::CXXNewExpr>(value))
    return made->isArray() ? VectorPlace::Other : VectorPlace::InMemory;
  if (const clang::VarDecl *other = readPointerVariable(value))
    return keepsVectorAddress(other, visiting, nullptr) ? VectorPlace::InMemory
                                                        : VectorPlace::Other;
  const auto *address = llvm::dyn_cast<clang::UnaryOperator>(value);
  if (!address || address->getOpcode() != clang::UO_AddrOf)
    return VectorPlace::Other;
  if (isVectorInMemory(address->getSubExpr(), visiting))
    return VectorPlace::InMemory;
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(
      address->getSubExpr()->IgnoreParenImpCasts());
  return ref && llvm::isa<clang::VarDecl>(ref->getDecl()) ? VectorPlace::Memref
                                                          : VectorPlace::Other;
}

/// Every value `stmt` assigns to `var` (`var = value`); null for a value
/// given by a call (`std::swap(p, q)`, a pointer's reference given away:
/// those keep the list of vectors).
static void collectGiven(const clang::Stmt *stmt, const clang::VarDecl *var,
                         llvm::SmallVectorImpl<const clang::Expr *> &values) {
  if (!stmt)
    return;
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(stmt))
    for (const clang::Expr *arg : call->arguments())
      if (readPointerVariable(arg) == var && arg->isGLValue() &&
          !llvm::isa<clang::ImplicitCastExpr>(arg))
        values.push_back(nullptr);
  if (const auto *assign = llvm::dyn_cast<clang::BinaryOperator>(stmt);
      assign && assign->getOpcode() == clang::BO_Assign &&
      readPointerVariable(assign->getLHS()) == var)
    values.push_back(assign->getRHS());
  for (const clang::Stmt *child : stmt->children())
    collectGiven(child, var, values);
}

static bool
keepsVectorAddress(const clang::VarDecl *var,
                   llvm::SmallPtrSetImpl<const clang::VarDecl *> &visiting,
                   bool *viewsMemref) {
  // (A helper's parameter is bound to what its caller gives.)
  if (!pointsToMemrefVectors(var) || llvm::isa<clang::ParmVarDecl>(var) ||
      !visiting.insert(var).second)
    return false;
  const auto *function = llvm::dyn_cast_or_null<clang::FunctionDecl>(
      var->getParentFunctionOrMethod());
  llvm::SmallVector<const clang::Expr *, 4> values;
  if (var->getInit())
    values.push_back(var->getInit());
  collectGiven(function ? function->getBody() : nullptr, var, values);
  bool inMemory = false, memref = false, other = false;
  for (const clang::Expr *value : values)
    switch (value ? placeGiven(value, visiting, var->getASTContext())
                  : VectorPlace::Other) {
    case VectorPlace::Null:
      break;
    case VectorPlace::InMemory:
      inMemory = true;
      break;
    case VectorPlace::Memref:
      memref = true;
      break;
    case VectorPlace::Other:
      other = true;
      break;
    }
  visiting.erase(var);
  if (viewsMemref)
    *viewsMemref = memref;
  return inMemory && !other;
}

bool keepsVectorAddress(const clang::ValueDecl *var) {
  const auto *local = llvm::dyn_cast<clang::VarDecl>(var);
  llvm::SmallPtrSet<const clang::VarDecl *, 4> visiting;
  return local && keepsVectorAddress(local, visiting, nullptr);
}

bool viewsMemrefVectors(const clang::ValueDecl *var) {
  const auto *local = llvm::dyn_cast<clang::VarDecl>(var);
  llvm::SmallPtrSet<const clang::VarDecl *, 4> visiting;
  bool views = false;
  return local && keepsVectorAddress(local, visiting, &views) && views;
}

bool readsVectorAddressHolder(const clang::Expr *expr) {
  const auto *ref =
      llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  return ref && keepsVectorAddress(ref->getDecl());
}

bool isVectorPointer(const clang::ValueDecl *var) {
  return pointsToMemrefVectors(var) && !keepsVectorAddress(var);
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
