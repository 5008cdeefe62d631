//===- DifferentiableAttr.h - The [[ct::differentiable]] attribute -*- C++
//-*-===//
//
// Clang does not know `[[ct::differentiable]]` (nor `[[ct::checkpoint]]`);
// these parsed-attribute infos teach it, recording the attribute as an
// `annotate("ct::differentiable")` on the function. A tool or plugin registers
// it with
//   static clang::ParsedAttrInfoRegistry::Add<
//       cotangent::frontend::DifferentiableAttrInfo> X("ct-differentiable",
//       "");
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
  AttrHandling
  handleDeclAttribute(clang::Sema &sema, clang::Decl *decl,
                      const clang::ParsedAttr &attr) const override;
};

/// Whether `function` (or any of its redeclarations) is marked
/// [[ct::differentiable]].
bool isDifferentiable(const clang::FunctionDecl *function);

/// `[[ct::checkpoint]]` on a function: reverse mode keeps what a call of it
/// needs to run again instead of what it computes, and reruns it in the
/// reverse sweep. Recorded as `annotate("ct::checkpoint")`; registered like
/// DifferentiableAttrInfo.
struct CheckpointAttrInfo : public clang::ParsedAttrInfo {
  CheckpointAttrInfo();
  bool diagAppertainsToDecl(clang::Sema &sema, const clang::ParsedAttr &attr,
                            const clang::Decl *decl) const override;
  AttrHandling
  handleDeclAttribute(clang::Sema &sema, clang::Decl *decl,
                      const clang::ParsedAttr &attr) const override;
};

/// Whether `function` (or any of its redeclarations) is marked
/// [[ct::checkpoint]].
bool isCheckpointed(const clang::FunctionDecl *function);

} // namespace cotangent::frontend

#endif // COTANGENT_FRONTEND_DIFFERENTIABLEATTR_H
