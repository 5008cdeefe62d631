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

/// Whether a redeclaration of `function` carries annotation `annotation`.
static bool isAnnotated(const FunctionDecl *function,
                        llvm::StringRef annotation) {
  for (const FunctionDecl *redecl : function->redecls())
    for (const auto *annotate : redecl->specific_attrs<AnnotateAttr>())
      if (annotate->getAnnotation() == annotation)
        return true;
  return false;
}

bool isDifferentiable(const FunctionDecl *function) {
  return isAnnotated(function, kAnnotation);
}

static constexpr llvm::StringLiteral kCheckpointAnnotation = "ct::checkpoint";

CheckpointAttrInfo::CheckpointAttrInfo() {
  static constexpr Spelling spellings[] = {
      {ParsedAttr::AS_CXX11, "ct::checkpoint"},
      {ParsedAttr::AS_GNU, "ct_checkpoint"}};
  Spellings = spellings;
  OptArgs = 0;
  NumArgs = 0;
}

bool CheckpointAttrInfo::diagAppertainsToDecl(Sema &sema,
                                              const ParsedAttr &attr,
                                              const Decl *decl) const {
  if (isa<FunctionDecl>(decl))
    return true;
  unsigned id = sema.getDiagnostics().getCustomDiagID(
      DiagnosticsEngine::Error,
      "'ct::checkpoint' applies to functions only; for a loop, write "
      "'#pragma ct checkpoint' before it");
  sema.Diag(attr.getLoc(), id) << attr.getRange();
  return false;
}

ParsedAttrInfo::AttrHandling
CheckpointAttrInfo::handleDeclAttribute(Sema &sema, Decl *decl,
                                        const ParsedAttr &attr) const {
  decl->addAttr(AnnotateAttr::Create(sema.Context, kCheckpointAnnotation,
                                     nullptr, 0, attr.getRange()));
  return AttributeApplied;
}

bool isCheckpointed(const FunctionDecl *function) {
  return isAnnotated(function, kCheckpointAnnotation);
}

} // namespace cotangent::frontend
