//===- ExternalCalls.cpp - Calls of code compiled elsewhere ---------------===//
//
// A function without a visible body (another translation unit, a library:
// a lookup, a random number generator, a timer, MPI_Comm_rank) is called as
// it is. The frontend declares it as a private func.func marked
// `ct.external`, with `ct.readonly` on the arguments that point to const
// memory and `ct.extend` where the C ABI widens a narrow integer; the AD
// engine keeps such calls where no derivative flows through them and
// reports the ones a derivative would have to cross; code generation calls
// the function by its own (mangled) name with the C ABI.
//
// The memory model passes pointers and references as memrefs whose first
// element is the pointee, so only signatures whose C form is a number or a
// plain pointer qualify: numbers, enums, and pointers or references to
// numbers and to structs of numbers. Objects by value, pointer or reference
// results, and classes the model keeps apart from their C++ layout
// (std::vector, iterators, structs with pointer fields) are refused here.
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "cotangent/Frontend/DifferentiableAttr.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/Builtins.h"

using namespace mlir;

namespace cotangent::frontend {

bool isExternalFunction(ModuleLowering &module,
                        const clang::FunctionDecl *function) {
  const clang::FunctionDecl *definition = nullptr;
  return !function->hasBody(definition) && !isDifferentiable(function) &&
         !module.hasCustomRule(function) && !isEntryCall(function);
}

/// Whether `type` is a number the C ABI passes as the memory model does.
static bool isPlainNumber(clang::QualType type) {
  type = type.getCanonicalType();
  if (type->isEnumeralType() || type->isIntegerType())
    return true;
  if (const auto *builtin = type->getAs<clang::BuiltinType>())
    return builtin->getKind() == clang::BuiltinType::Float ||
           builtin->getKind() == clang::BuiltinType::Double;
  return false;
}

/// Whether a pointer to `pointee` is, in the memory model, a memref whose
/// first element is at the pointee's address.
static bool isPlainPointee(ModuleLowering &module, clang::QualType pointee) {
  pointee = pointee.getCanonicalType().getUnqualifiedType();
  if (isPlainNumber(pointee))
    return true;
  if (!isAggregate(pointee) ||
      !ModuleLowering::getVectorElementType(pointee).isNull() ||
      !module.getIteratorElementType(pointee).isNull())
    return false;
  std::optional<Layout> layout = module.tryGetLayout(pointee);
  return layout && layout->indirect.empty();
}

std::string whyNotCallable(ModuleLowering &module,
                           const clang::FunctionDecl *function) {
  clang::ASTContext &ast = module.getAST();
  // (Library functions Clang knows, `lround` or `__builtin_lround`, are
  // the C library's: callable. Other builtins have no symbol to call.)
  if (unsigned id = function->getBuiltinID();
      id && !ast.BuiltinInfo.isLibFunction(id) &&
      !ast.BuiltinInfo.isPredefinedLibFunction(id))
    return "is a compiler builtin";
  if (isa<clang::CXXConstructorDecl, clang::CXXDestructorDecl>(function))
    return "constructs or destroys an object of a class compiled elsewhere";
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(function);
      method && method->isInstance() &&
      !isPlainPointee(module, ast.getCanonicalTagType(method->getParent())))
    return "is a member of '" + method->getParent()->getNameAsString() +
           "', whose objects Cotangent does not lay out as C++ does";
  for (const clang::ParmVarDecl *param : function->parameters()) {
    clang::QualType type = param->getType().getCanonicalType();
    bool ok = isPlainNumber(type) ||
              ((type->isPointerType() || type->isReferenceType()) &&
               isPlainPointee(module, type->getPointeeType()));
    if (!ok)
      return "takes '" + param->getType().getAsString() + "'" +
             (param->getName().empty()
                  ? std::string()
                  : " (parameter '" + param->getName().str() + "')");
  }
  clang::QualType result = function->getReturnType().getCanonicalType();
  if (!result->isVoidType() && !isPlainNumber(result))
    return "returns '" + function->getReturnType().getAsString() + "'";
  return "";
}

/// "zext" or "sext" for an integer the C ABI widens to 32 bits, else null.
static StringAttr getExtension(OpBuilder &b, clang::ASTContext &ast,
                               clang::QualType type) {
  type = type.getCanonicalType();
  if (!(type->isIntegerType() || type->isEnumeralType()) ||
      ast.getTypeSize(type) >= 32)
    return nullptr;
  return b.getStringAttr(type->isSignedIntegerOrEnumerationType() ? "sext"
                                                                  : "zext");
}

void markExternal(ModuleLowering &module, const clang::FunctionDecl *decl,
                  func::FuncOp function) {
  clang::ASTContext &ast = module.getAST();
  OpBuilder b(function);
  function->setAttr(ct::kExternalAttr, b.getUnitAttr());
  const auto *method = dyn_cast<clang::CXXMethodDecl>(decl);
  unsigned first = method && method->isInstance() ? 1 : 0;
  if (first && method->isConst())
    function.setArgAttr(0, ct::kReadOnlyAttr, b.getUnitAttr());
  for (auto [i, param] : llvm::enumerate(decl->parameters())) {
    clang::QualType type = param->getType().getCanonicalType();
    if ((type->isPointerType() || type->isReferenceType()) &&
        type->getPointeeType().isConstQualified())
      function.setArgAttr(first + i, ct::kReadOnlyAttr, b.getUnitAttr());
    if (StringAttr extension = getExtension(b, ast, type))
      function.setArgAttr(first + i, ct::kExtendAttr, extension);
  }
  if (StringAttr extension = getExtension(b, ast, decl->getReturnType()))
    function.setResultAttr(0, ct::kExtendAttr, extension);
}

} // namespace cotangent::frontend
