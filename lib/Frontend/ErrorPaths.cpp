//===- ErrorPaths.cpp - Checks, assertions and calls that do not return ---===//
//
// Code that touches no active value must never block differentiation:
// `assert`, the checks of the standard library's headers, `abort()`. Their
// builtins are folded the way a run-time evaluation sees them, and a call
// of a function without a body that does not return becomes `ct.abort`
// with the message the call would have printed.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

/// The text of a string literal or `__func__`-style argument, if it is one.
static std::optional<std::string> stringArgument(const clang::Expr *arg) {
  arg = arg->IgnoreParenImpCasts();
  if (const auto *literal = dyn_cast<clang::StringLiteral>(arg))
    return literal->getString().str();
  if (const auto *predefined = dyn_cast<clang::PredefinedExpr>(arg))
    if (const clang::StringLiteral *name = predefined->getFunctionName())
      return name->getString().str();
  return std::nullopt;
}

/// glibc's `__assert_fail(expression, file, line, function)` message, when
/// the arguments are the literals `assert` passes.
static std::optional<std::string> assertionMessage(const clang::CallExpr *expr,
                                                   clang::ASTContext &ast) {
  if (expr->getNumArgs() != 4)
    return std::nullopt;
  std::optional<std::string> expression = stringArgument(expr->getArg(0));
  std::optional<std::string> file = stringArgument(expr->getArg(1));
  std::optional<std::string> function = stringArgument(expr->getArg(3));
  clang::Expr::EvalResult line;
  if (!expression || !file || !function ||
      !expr->getArg(2)->EvaluateAsInt(line, ast))
    return std::nullopt;
  return *file + ":" + std::to_string(line.Val.getInt().getExtValue()) + ": " +
         *function + ": Assertion `" + *expression + "' failed.";
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerCheckCall(const clang::CallExpr *expr,
                                 const clang::FunctionDecl *callee) {
  Location l = loc(expr);
  if (isGlobalOperatorDelete(expr) || isEigenHandmadeFree(callee)) {
    lowerFree(expr);
    return CallResult{};
  }
  switch (callee->getBuiltinID()) {
  case clang::Builtin::BI__builtin_is_constant_evaluated:
    // Derivatives run at run time.
    return CallResult{
        arith::ConstantOp::create(b, l, b.getI1Type(), b.getBoolAttr(false)),
        {}};
  case clang::Builtin::BI__builtin_expect:
  case clang::Builtin::BI__builtin_expect_with_probability:
    if (Value value = lowerRValue(expr->getArg(0)))
      return CallResult{value, {}};
    return std::nullopt;
  case clang::Builtin::BI__builtin_assume:
    return CallResult{};
  case clang::Builtin::BIfree:
  case clang::Builtin::BI__builtin_free:
    // Memory a C allocation function made (HeapMemory.cpp).
    // (An error is reported: the call has no value either way.)
    lowerFree(expr);
    return CallResult{};
  case clang::Builtin::BI__builtin_memcpy:
  case clang::Builtin::BI__builtin_memmove:
  case clang::Builtin::BImemcpy:
  case clang::Builtin::BImemmove:
    // std::copy of trivially copyable elements comes down to these.
    return lowerMemoryCopy(expr);
  case clang::Builtin::BI__builtin_memset:
  case clang::Builtin::BImemset:
    return lowerMemorySet(expr);
  case clang::Builtin::BIaddressof:
  case clang::Builtin::BI__addressof:
  case clang::Builtin::BI__builtin_addressof:
    // `&x` whatever operator& says: the place itself.
    if (std::optional<Address> place = lowerLValue(expr->getArg(0)))
      return CallResult{nullptr, place};
    return CallResult{};
  default:
    break;
  }
  // std::move, std::forward, ...: casts of their argument to a reference,
  // the same place.
  if (const clang::Expr *arg = castToReferenceArgument(expr)) {
    clang::QualType type = arg->getType();
    std::optional<Address> place = type->isPointerType() || isIterator(type)
                                       ? lowerPointer(arg)
                                       : lowerLValue(arg);
    if (!place)
      return CallResult{};
    return CallResult{nullptr, place};
  }
  const clang::FunctionDecl *definition = nullptr;
  if (!callee->isNoReturn() || callee->hasBody(definition))
    return std::nullopt;
  // A call that ends the program: what it would print, then abort. Its
  // arguments are not evaluated (nothing that follows could see them).
  std::optional<std::string> message;
  if (callee->getName() == "__assert_fail")
    message = assertionMessage(expr, ast);
  if (!message)
    message = sourcePosition(expr) + ": '" +
              callee->getQualifiedNameAsString() +
              "' was called in a derivative; aborting";
  ct::AbortOp::create(b, l, *message);
  return CallResult{};
}

std::string FunctionLowering::sourcePosition(const clang::Stmt *where) {
  clang::PresumedLoc at =
      ast.getSourceManager().getPresumedLoc(where->getBeginLoc());
  return std::string(at.isValid() ? at.getFilename() : "<unknown>") + ":" +
         std::to_string(at.isValid() ? at.getLine() : 0);
}

void FunctionLowering::abortIf(Value condition, const clang::Stmt *where,
                               const Twine &message) {
  Location l = loc(where);
  scf::IfOp check = scf::IfOp::create(b, l, condition);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(check.thenBlock()->getTerminator());
  ct::AbortOp::create(b, l, (sourcePosition(where) + ": " + message).str());
}

} // namespace cotangent::frontend
