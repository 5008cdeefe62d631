//===- DifferentiableAttr.h - The [[ct::differentiable]] attribute -*- C++ -*-===//
//
// Clang does not know `[[ct::differentiable]]`; this parsed-attribute info
// teaches it, recording the attribute as an `annotate("ct::differentiable")`
// on the function. A tool or plugin registers it with
//   static clang::ParsedAttrInfoRegistry::Add<
//       cotangent::frontend::DifferentiableAttrInfo> X("ct-differentiable", "");
// in its own translation unit (a registration in a static library could be
// dropped by the linker).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_FRONTEND_DIFFERENTIABLEATTR_H
#define COTANGENT_FRONTEND_DIFFERENTIABLEATTR_H

#include "clang/Sema/ParsedAttr.h"

namespace clang {
class FunctionDecl;
} // namespace clang

namespace cotangent::frontend {

struct DifferentiableAttrInfo : public clang::ParsedAttrInfo {
  DifferentiableAttrInfo();
  bool diagAppertainsToDecl(clang::Sema &sema, const clang::ParsedAttr &attr,
                            const clang::Decl *decl) const override;
  AttrHandling handleDeclAttribute(clang::Sema &sema, clang::Decl *decl,
                                   const clang::ParsedAttr &attr) const override;
};

/// Whether `function` (or any of its redeclarations) is marked
/// [[ct::differentiable]].
bool isDifferentiable(const clang::FunctionDecl *function);

} // namespace cotangent::frontend

#endif // COTANGENT_FRONTEND_DIFFERENTIABLEATTR_H
