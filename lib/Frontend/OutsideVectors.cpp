//===- OutsideVectors.cpp - std::vector variables outside the function ----===//
//
// A std::vector defined outside the differentiable function (a global
// workspace, a static data member, a static local the function resizes)
// lives where C++ keeps it: three addresses, of its first element, its end
// and the end of its capacity. The function sees it as it sees a vector
// parameter it resizes: the object's slots, read and changed in place by
// the library's operations (VectorObjects.cpp). When the function changes
// it, each derivative call works on a copy of its own, made and written
// back by OutsideVariableCopies.cpp, so the engine sees ordinary memory of
// the call's with a shadow of its own.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/OutsideVariables.h"

using namespace mlir;

namespace cotangent::frontend {

std::optional<memref::GlobalOp>
ModuleLowering::getOutsideVector(const clang::VarDecl *var,
                                 clang::SourceRange use) {
  if (!isReachableByName(var, use))
    return std::nullopt;
  clang::QualType type = var->getType().getCanonicalType();
  clang::QualType element = getVectorElementType(type);
  std::optional<Layout> layout =
      isVectorObject(type) ? std::nullopt : tryGetLayout(element);
  if (!layout || !layout->indirect.empty()) {
    error(use, "'" + var->getQualifiedNameAsString() +
                   "' is a std::vector of '" +
                   element.getAsString(ast.getPrintingPolicy()) +
                   "' outside the function; differentiable functions use "
                   "vectors outside them only when their elements are "
                   "numbers or structs of numbers: pass it as a parameter");
    return std::nullopt;
  }
  std::optional<std::pair<int64_t, int64_t>> offsets =
      getVectorPointerOffsets(type, use);
  if (!offsets)
    return std::nullopt;
  OpBuilder b(getContext());
  memref::GlobalOp global = declareOutsideGlobal(
      var, MemRefType::get({3}, b.getF64Type()),
      (type.isConstQualified() || var->getType().isConstQualified()) &&
          !isGuardedStatic(var));
  int64_t first = offsets->first / 8, end = offsets->second / 8;
  global->setAttr(ct::kVectorSlotsAttr,
                  b.getDenseI64ArrayAttr({first, end, 3 - first - end}));
  global->setAttr(ct::kVectorScalarAttr, TypeAttr::get(layout->scalar));
  return global;
}

const clang::VarDecl *
FunctionLowering::outsideVectorOf(const clang::Expr *expr) {
  expr = expr->IgnoreParenImpCasts();
  const clang::ValueDecl *decl = nullptr;
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    decl = ref->getDecl();
  else if (const auto *member = dyn_cast<clang::MemberExpr>(expr))
    decl = member->getMemberDecl();
  const auto *var = dyn_cast_or_null<clang::VarDecl>(decl);
  if (!var || var->hasLocalStorage() || var->getType()->isReferenceType() ||
      ModuleLowering::getVectorElementType(var->getType().getCanonicalType())
          .isNull() ||
      module.isRecomputedStatic(var))
    return nullptr;
  return var;
}

std::optional<Address>
FunctionLowering::outsideVectorHolder(const clang::VarDecl *var,
                                      clang::SourceRange use) {
  if (invalid.count(var))
    return std::nullopt; // (its declaration's error said it all)
  std::optional<memref::GlobalOp> global = module.getOutsideVector(var, use);
  if (!global)
    return std::nullopt;
  Location l = module.getLoc(use.getBegin());
  Value memref = memref::GetGlobalOp::create(b, l, global->getType(),
                                             global->getSymName());
  Value holder =
      memref::CastOp::create(b, l, getPointerType(b.getF64Type()), memref);
  return Address{holder, constantIndex(0, l)};
}

std::optional<Address>
FunctionLowering::outsideVectorElements(const clang::VarDecl *var,
                                        const clang::Expr *use) {
  std::optional<Address> holder =
      outsideVectorHolder(var, use->getSourceRange());
  if (!holder)
    return std::nullopt;
  return viewVectorInMemory(*holder, var->getType(), use);
}

} // namespace cotangent::frontend
