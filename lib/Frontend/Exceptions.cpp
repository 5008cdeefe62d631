//===- Exceptions.cpp - try, catch and throw in derivatives ---------------===//
//
// Derivatives do not unwind. A `throw` whose handler is known where it is
// lowered (an enclosing `try` of the function, or of a caller whose body it
// is lowered in) is a jump: the destructors of the scopes it leaves, then a
// branch to the first handler that catches the thrown type, which C++
// decides from static types here because the exception object's type is the
// operand's. A `throw` that no enclosing handler catches prints what was
// thrown and aborts. A handler no `throw` reaches is not lowered; calls of
// code compiled elsewhere that may throw what a handler catches (a library
// exception, under `catch (...)` or `catch (const std::exception &)`) are
// refused inside a `try`, since their exception would pass its handlers.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace mlir;

namespace cotangent::frontend {

static SmallVector<const clang::CXXCatchStmt *>
handlersOf(const clang::CXXTryStmt *stmt) {
  SmallVector<const clang::CXXCatchStmt *> handlers;
  for (unsigned k = 0; k < stmt->getNumHandlers(); ++k)
    handlers.push_back(stmt->getHandler(k));
  return handlers;
}

/// The type of the exception object `throw operand` makes: the operand's,
/// arrays and functions decayed to pointers, without cv-qualifiers.
static clang::QualType thrownType(clang::ASTContext &ast,
                                  const clang::Expr *operand) {
  clang::QualType type = operand->getType();
  if (type->isArrayType())
    type = ast.getArrayDecayedType(type);
  else if (type->isFunctionType())
    type = ast.getPointerType(type);
  return type.getCanonicalType().getUnqualifiedType();
}

static bool derivesFrom(clang::QualType derived, clang::QualType base) {
  const auto *derivedClass = derived->getAsCXXRecordDecl();
  const auto *baseClass = base->getAsCXXRecordDecl();
  return derivedClass && baseClass && derivedClass->hasDefinition() &&
         derivedClass->isDerivedFrom(baseClass);
}

/// Whether the handler `caught` (`catch (...)` when null) catches an
/// exception object of type `thrown`: the same type, a base class of it,
/// or a pointer it converts to by adding qualifiers, to a base, or to
/// `void *` (C++'s [except.handle]).
static bool catches(const clang::VarDecl *caught, clang::QualType thrown) {
  if (!caught)
    return true;
  clang::QualType type = caught->getType()
                             .getNonReferenceType()
                             .getCanonicalType()
                             .getUnqualifiedType();
  if (type == thrown || derivesFrom(thrown, type))
    return true;
  if (!type->isPointerType())
    return false;
  if (thrown->isNullPtrType())
    return true;
  if (!thrown->isPointerType())
    return false;
  clang::QualType to = type->getPointeeType();
  clang::QualType from = thrown->getPointeeType();
  if (from.getCVRQualifiers() & ~to.getCVRQualifiers())
    return false;
  to = to.getUnqualifiedType();
  from = from.getUnqualifiedType();
  return to == from || derivesFrom(from, to) ||
         (to->isVoidType() && !from->isFunctionType());
}

/// The type of a handler's exception variable when the handler uses it
/// and it is a number (what the handler's block takes); null otherwise.
static clang::QualType usedNumber(const clang::CXXCatchStmt *handler) {
  const clang::VarDecl *var = handler->getExceptionDecl();
  if (!var || !var->isReferenced())
    return {};
  clang::QualType type = var->getType().getNonReferenceType();
  if (!type->isArithmeticType() && !type->isEnumeralType())
    return {};
  return type.getUnqualifiedType();
}

void FunctionLowering::lowerTry(const clang::CXXTryStmt *stmt) {
  Location l = loc(stmt);
  Block *current = b.getInsertionBlock();
  TryScope scope{stmt, {}, {}, cleanups.size()};
  for (const clang::CXXCatchStmt *handler : handlersOf(stmt)) {
    Block *block = newBlock();
    if (clang::QualType number = usedNumber(handler); !number.isNull())
      if (Type type = module.lowerType(number, handler->getSourceRange(),
                                       "the exception"))
        block->addArgument(type, l);
    scope.handlers.push_back(block);
    scope.reached.push_back(false);
  }
  enter(current);
  tries.push_back(scope);
  lowerStmt(stmt->getTryBlock());
  scope = tries.pop_back_val();
  Block *bodyEnd = b.getInsertionBlock();
  Block *after = newBlock();
  enter(bodyEnd);
  branchTo(l, after);
  for (auto [handler, block, reached] :
       llvm::zip_equal(handlersOf(stmt), scope.handlers, scope.reached)) {
    if (!reached) {
      block->erase();
      continue;
    }
    enter(block);
    size_t depth = cleanups.size();
    if (const clang::VarDecl *var = handler->getExceptionDecl();
        var && var->isReferenced()) {
      if (block->getNumArguments() == 0)
        return module.error(var->getSourceRange(),
                            "a derivative can only use an exception that is "
                            "a number; catch it outside the differentiable "
                            "function, or leave the exception unnamed here");
      std::optional<Address> place =
          allocate(usedNumber(handler), var->getSourceRange(),
                   "exception '" + var->getName() + "'");
      if (!place)
        return;
      store(block->getArgument(0), *place, l);
      places[var] = *place;
    }
    lowerStmt(handler->getHandlerBlock());
    emitCleanups(depth, l);
    cleanups.truncate(depth);
    branchTo(l, after);
  }
  enter(after);
}

void FunctionLowering::lowerThrow(const clang::CXXThrowExpr *expr) {
  Location l = loc(expr);
  const clang::Expr *operand = expr->getSubExpr();
  clang::QualType thrown =
      operand ? thrownType(ast, operand) : clang::QualType();
  // (Handlers are blocks of the function's body: a throw lowered in a
  // nested region cannot branch to one.)
  bool canBranch = b.getInsertionBlock()->getParent() == &function.getBody();
  for (TryScope &scope : llvm::reverse(tries)) {
    if (!operand || !canBranch)
      break;
    for (auto [k, handler] : llvm::enumerate(handlersOf(scope.stmt))) {
      if (!catches(handler->getExceptionDecl(), thrown))
        continue;
      SmallVector<Value> passed;
      Block *target = scope.handlers[k];
      if (target->getNumArguments() == 1) {
        Value value = lowerRValue(operand);
        if (!value)
          return;
        passed.push_back(value);
      } else if (operand->getType()->isScalarType() &&
                 !operand->getType()->isPointerType()) {
        // Evaluated for what it changes; an object (std::runtime_error's
        // message) is not made, since nothing can see it.
        lowerDiscarded(operand);
      }
      scope.reached[k] = true;
      emitCleanups(scope.cleanupDepth, l);
      branchTo(l, target, passed);
      enter(newBlock());
      return;
    }
  }
  // Nothing here catches it: say what was thrown and abort. The exception
  // object is not made (nothing that follows could see it).
  std::string what = operand ? "an exception of type '" +
                                   operand->getType().getAsString() + "'"
                             : std::string("an exception (rethrown)");
  ct::AbortOp::create(b, l,
                      sourcePosition(expr) + ": " + what +
                          " was thrown in a derivative, which does not "
                          "unwind to a caller; aborting");
}

bool FunctionLowering::lowerThrowingArm(const clang::ConditionalOperator *expr,
                                        const clang::Expr *&other) {
  const auto *onTrue =
      dyn_cast<clang::CXXThrowExpr>(strip(expr->getTrueExpr()));
  const auto *onFalse =
      dyn_cast<clang::CXXThrowExpr>(strip(expr->getFalseExpr()));
  if (!onTrue && !onFalse)
    return false;
  other = nullptr;
  Location l = loc(expr);
  Value cond = lowerRValue(expr->getCond());
  if (!cond)
    return true;
  cond = toBool(cond, expr->getCond()->getType(), l);
  Block *current = b.getInsertionBlock();
  Block *throwing = newBlock();
  Block *rest = newBlock();
  enter(current);
  cf::CondBranchOp::create(b, l, cond, onTrue ? throwing : rest,
                           onTrue ? rest : throwing);
  enter(throwing);
  lowerThrow(onTrue ? onTrue : onFalse);
  branchTo(l, rest);
  enter(rest);
  other = onTrue ? expr->getFalseExpr() : expr->getTrueExpr();
  return true;
}

/// Whether `stmt` holds a `throw`, or calls a function with a body that
/// does (`depth` calls deep at most).
static bool holdsThrow(const clang::Stmt *stmt, unsigned depth) {
  if (!stmt)
    return false;
  if (isa<clang::CXXThrowExpr>(stmt))
    return true;
  if (const auto *call = dyn_cast<clang::CallExpr>(stmt))
    if (const clang::FunctionDecl *callee = call->getDirectCallee()) {
      const clang::FunctionDecl *definition = nullptr;
      if (depth > 0 && callee->hasBody(definition) &&
          holdsThrow(definition->getBody(), depth - 1))
        return true;
    }
  return llvm::any_of(stmt->children(), [&](const clang::Stmt *child) {
    return holdsThrow(child, depth);
  });
}

bool FunctionLowering::throwsToEnclosingTry(const clang::FunctionDecl *callee) {
  const clang::FunctionDecl *definition = nullptr;
  if (tries.empty() || !callee->hasBody(definition) ||
      isBeingInlined(definition) || callsItself(definition))
    return false;
  constexpr unsigned kCallsDeep = 3;
  return holdsThrow(definition->getBody(), kCallsDeep);
}

/// Whether a handler of `scope` catches exceptions libraries throw:
/// `catch (...)`, or a class of the standard library or one derived from it.
static bool catchesLibraryExceptions(const clang::CXXTryStmt *stmt) {
  for (const clang::CXXCatchStmt *handler : handlersOf(stmt)) {
    const clang::VarDecl *var = handler->getExceptionDecl();
    if (!var)
      return true;
    const clang::CXXRecordDecl *record =
        var->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (!record || !record->hasDefinition())
      continue;
    if (record->isInStdNamespace() ||
        !record->forallBases([](const clang::CXXRecordDecl *base) {
          return !base->isInStdNamespace();
        }))
      return true;
  }
  return false;
}

bool FunctionLowering::checkCompiledCallInTry(
    const clang::Expr *call, const clang::FunctionDecl *callee) {
  const auto *prototype = callee->getType()->getAs<clang::FunctionProtoType>();
  if (tries.empty() || (prototype && prototype->isNothrow()))
    return true;
  for (const TryScope &scope : tries)
    if (catchesLibraryExceptions(scope.stmt))
      return unsupported<bool>(
          call, "'" + callee->getQualifiedNameAsString() +
                    "' runs as compiled elsewhere and may throw, but an "
                    "exception does not reach a 'catch' in a derivative; "
                    "test for the failure before the call (`find` rather "
                    "than `at`), or move the 'try' outside the "
                    "differentiable function");
  return true;
}

} // namespace cotangent::frontend
