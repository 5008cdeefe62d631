//===- DifferentiableAttr.cpp - The [[ct::differentiable]] attribute ------===//

#include "cotangent/Frontend/DifferentiableAttr.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace cotangent::frontend {

static constexpr llvm::StringLiteral kAnnotation = "ct::differentiable";

DifferentiableAttrInfo::DifferentiableAttrInfo() {
  static constexpr Spelling spellings[] = {
      {ParsedAttr::AS_CXX11, "ct::differentiable"},
      {ParsedAttr::AS_GNU, "ct_differentiable"}};
  Spellings = spellings;
  OptArgs = 0;
  NumArgs = 0;
}

bool DifferentiableAttrInfo::diagAppertainsToDecl(Sema &sema,
                                                  const ParsedAttr &attr,
                                                  const Decl *decl) const {
  if (isa<FunctionDecl>(decl))
    return true;
  unsigned id = sema.getDiagnostics().getCustomDiagID(
      DiagnosticsEngine::Error,
      "'ct::differentiable' applies to functions only");
  sema.Diag(attr.getLoc(), id) << attr.getRange();
  return false;
}

ParsedAttrInfo::AttrHandling
DifferentiableAttrInfo::handleDeclAttribute(Sema &sema, Decl *decl,
                                            const ParsedAttr &attr) const {
  decl->addAttr(AnnotateAttr::Create(sema.Context, kAnnotation, nullptr, 0,
                                     attr.getRange()));
  return AttributeApplied;
}

bool isDifferentiable(const FunctionDecl *function) {
  for (const FunctionDecl *redecl : function->redecls())
    for (const auto *annotate : redecl->specific_attrs<AnnotateAttr>())
      if (annotate->getAnnotation() == kAnnotation)
        return true;
  return false;
}

} // namespace cotangent::frontend
