//===- Lambdas.cpp - Lambdas defined and called in a function -------------===//
//
// A lambda that a differentiable function defines and calls itself needs
// no closure object: each call lowers the lambda's body in place, where
// the variables it captures by reference are the enclosing function's own
// places. A capture by copy is a snapshot taken where the lambda is
// defined (a local of the enclosing function, so a `mutable` lambda's
// changes persist from call to call, as in C++).
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;

namespace cotangent::frontend {

/// The lambda expression `expr` creates or copies, if it does.
static const clang::LambdaExpr *getLambda(const clang::Expr *expr) {
  while (expr) {
    expr = expr->IgnoreImplicit();
    if (const auto *lambda = dyn_cast<clang::LambdaExpr>(expr))
      return lambda;
    const auto *construct = dyn_cast<clang::CXXConstructExpr>(expr);
    if (!construct || construct->getNumArgs() != 1)
      return nullptr;
    expr = construct->getArg(0);
  }
  return nullptr;
}

bool FunctionLowering::defineLambda(const clang::VarDecl *var) {
  const auto *record = var->getType()->getAsCXXRecordDecl();
  if (!record || !record->isLambda())
    return false;
  const clang::LambdaExpr *lambda = getLambda(var->getInit());
  if (!lambda) {
    module.error(var->getSourceRange(),
                 "a lambda can be used only where it is defined; copy it "
                 "from its definition or call it there");
    invalid.insert(var);
    return true;
  }
  lambdas[var] = makeClosure(lambda);
  return true;
}

FunctionLowering::Closure
FunctionLowering::makeClosure(const clang::LambdaExpr *lambda) {
  Closure closure;
  closure.lambda = lambda;
  for (auto [capture, init] :
       llvm::zip(lambda->captures(), lambda->capture_inits())) {
    if (!capture.capturesVariable() ||
        capture.getCaptureKind() != clang::LCK_ByCopy)
      continue;
    const auto *captured = cast<clang::VarDecl>(capture.getCapturedVar());
    std::optional<Address> copy =
        allocate(captured->getType().getNonReferenceType(),
                 init->getSourceRange(), "this capture");
    if (!copy)
      continue;
    initialize(init, captured->getType().getNonReferenceType(), *copy);
    closure.copies[captured] = *copy;
  }
  return closure;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::callLambda(const clang::CallExpr *expr,
                             const clang::Expr *object,
                             const clang::CXXMethodDecl *callOperator,
                             ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  Closure closure;
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(object->IgnoreImplicit());
      ref && lambdas.count(ref->getDecl())) {
    closure = lambdas.lookup(ref->getDecl());
  } else if (const clang::LambdaExpr *lambda = getLambda(object)) {
    closure = makeClosure(lambda); // called where it is written
  } else {
    return unsupported<Result>(expr, "this lambda is not defined in the "
                                     "function that calls it; call a lambda "
                                     "where it is defined, or write a named "
                                     "function");
  }
  if (!callOperator->hasBody())
    return std::nullopt;
  clang::QualType returnType = callOperator->getReturnType();
  if (isAggregate(returnType))
    return unsupported<Result>(expr, "a lambda returning an array or a "
                                     "struct is not supported; return a "
                                     "scalar or write through a reference");

  // The arguments, bound as the body's parameters.
  SmallVector<std::pair<const clang::ValueDecl *, std::optional<Address>>>
      saved;
  auto bind = [&](const clang::ValueDecl *name, Address place) {
    auto known = places.find(name);
    saved.push_back({name, known == places.end()
                               ? std::nullopt
                               : std::optional<Address>(known->second)});
    places[name] = place;
  };
  Value zero = constantIndex(0, l);
  for (auto [arg, param] : llvm::zip_equal(args, callOperator->parameters())) {
    clang::QualType type = param->getType();
    if (type->isPointerType())
      return unsupported<Result>(arg, "lambda parameters that are pointers "
                                      "are not supported; pass a reference");
    Value operand = lowerArgument(arg, type);
    if (!operand)
      return std::nullopt;
    // (Parameters are the call operator's own: nothing to save.)
    bindParameter(param, operand, l);
  }
  for (auto [captured, copy] : closure.copies)
    bind(captured, copy);

  // The body, with its returns going to the code after the call.
  Block *current = b.getInsertionBlock();
  Block *continuation = newBlock();
  enter(current);
  if (!returnType->isVoidType()) {
    Type type = module.lowerType(returnType.getNonReferenceType(),
                                 expr->getSourceRange(),
                                 "this lambda's result");
    if (!type)
      return std::nullopt;
    if (returnType->isReferenceType() && type.isIntOrFloat())
      type = getPointerType(type);
    continuation->addArgument(type, l);
  }
  const clang::FunctionDecl *outerDecl = decl;
  Block *outerReturn = returnBlock;
  auto outerJumps = std::move(jumps);
  jumps.clear();
  size_t outerReturnCleanups = returnCleanupDepth;
  returnCleanupDepth = cleanups.size();
  decl = callOperator;
  returnBlock = continuation;
  lowerStmt(callOperator->getBody());
  returnCleanupDepth = outerReturnCleanups;
  // Falling off the end of a lambda that returns a value is undefined.
  SmallVector<Value> undefined;
  for (Type type : continuation->getArgumentTypes())
    undefined.push_back(ub::PoisonOp::create(b, l, type));
  branchTo(l, continuation, undefined);
  decl = outerDecl;
  returnBlock = outerReturn;
  jumps = std::move(outerJumps);
  for (auto &[name, place] : llvm::reverse(saved)) {
    if (place)
      places[name] = *place;
    else
      places.erase(name);
  }
  enter(continuation);
  if (returnType->isVoidType())
    return CallResult{};
  if (returnType->isReferenceType())
    return CallResult{nullptr, Address{continuation->getArgument(0), zero}};
  return CallResult{continuation->getArgument(0), {}};
}

} // namespace cotangent::frontend
