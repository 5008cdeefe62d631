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
#include "MemberCallParts.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

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

/// Whether `callee`'s body has one return, its last statement (so that a
/// pointer or reference it returns can be the place as it is).
static bool returnsOnceAtTheEnd(const clang::FunctionDecl *callee) {
  unsigned returns = 0;
  std::function<void(const clang::Stmt *)> count =
      [&](const clang::Stmt *stmt) {
        if (!stmt || isa<clang::LambdaExpr>(stmt))
          return;
        returns += isa<clang::ReturnStmt>(stmt);
        for (const clang::Stmt *child : stmt->children())
          count(child);
      };
  count(callee->getBody());
  const auto *compound = dyn_cast<clang::CompoundStmt>(callee->getBody());
  return returns == 1 && compound && !compound->body_empty() &&
         isa<clang::ReturnStmt>(compound->body_back());
}

/// The call `expr` is (copied or moved), if it returns a lambda by value:
/// a function making lambdas (`auto scaled(double w) { return [w](...)
/// {...}; }`).
static const clang::CallExpr *lambdaFactoryCall(const clang::Expr *expr) {
  while (expr) {
    expr = expr->IgnoreImplicit();
    if (const auto *call = dyn_cast<clang::CallExpr>(expr)) {
      const auto *record = call->getType()->getAsCXXRecordDecl();
      const clang::FunctionDecl *callee = call->getDirectCallee();
      bool byValue = callee && !callee->getReturnType()->isReferenceType();
      return record && record->isLambda() && byValue ? call : nullptr;
    }
    const auto *construct = dyn_cast<clang::CXXConstructExpr>(expr);
    if (!construct || construct->getNumArgs() != 1)
      return nullptr;
    expr = construct->getArg(0);
  }
  return nullptr;
}

bool isStdFunction(clang::QualType type) {
  const auto *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record && record->isInStdNamespace() && record->getIdentifier() &&
         record->getName() == "function";
}

bool FunctionLowering::defineLambda(const clang::VarDecl *var) {
  const auto *record = var->getType()->getAsCXXRecordDecl();
  // A std::function made from a lambda where it is declared is that
  // lambda: its calls are the lambda's (otherwise it is the library's).
  // (Or made from a named function: that function.)
  if (isStdFunction(var->getType()) && !var->getType()->isReferenceType())
    return bindStdFunction(var, var->getInit());
  if (!record || !record->isLambda())
    return false;
  const clang::LambdaExpr *lambda = getLambda(var->getInit());
  if (const clang::CallExpr *factory =
          lambda ? nullptr : lambdaFactoryCall(var->getInit())) {
    std::optional<Closure> closure = closureReturnedBy(factory);
    if (closure)
      lambdas[var] = std::move(*closure);
    else
      invalid.insert(var);
    return true;
  }
  // A reference to, or a copy of, a lambda kept in memory.
  unsigned errorsBefore = module.errorCount();
  if (std::optional<Closure> stored =
          lambda ? std::nullopt : closureOf(var->getInit())) {
    if (copiesClosure(var->getInit()) &&
        !copyClosureState(*stored, var->getInit()))
      invalid.insert(var);
    lambdas[var] = std::move(*stored);
    return true;
  }
  if (module.errorCount() != errorsBefore) {
    invalid.insert(var);
    return true;
  }
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
  // `this` is the object of the function that defines the lambda, wherever
  // it is called (a helper's member function, given the lambda, has
  // another).
  if (llvm::any_of(lambda->captures(), [](const clang::LambdaCapture &c) {
        return c.capturesThis();
      }))
    closure.self = self;
  for (auto [capture, init] :
       llvm::zip(lambda->captures(), lambda->capture_inits())) {
    if (!capture.capturesVariable() ||
        capture.getCaptureKind() != clang::LCK_ByCopy)
      continue;
    const auto *captured = cast<clang::VarDecl>(capture.getCapturedVar());
    if (lambdas.count(captured))
      continue; // another lambda: called by name, like a by-reference one
    if (captured->getType()->isPointerType()) {
      // A pointer by copy: where it points now (later moves of the
      // variable do not move the lambda's copy).
      if (std::optional<Address> pointer = lowerPointer(init))
        closure.pointerCopies[captured] = {
            pointer->memref, newIndexSlot(pointer->offset, loc(init))};
      continue;
    }
    if (isVector(captured->getType())) {
      // A vector by copy: a vector of the lambda's own, freed with the
      // scope that defines the lambda.
      if (std::optional<Address> copy =
              createVector(init, captured->getType(), init->getSourceRange()))
        closure.copies[captured] = *copy;
      continue;
    }
    std::optional<Address> copy =
        allocate(captured->getType().getNonReferenceType(),
                 init->getSourceRange(), "this capture");
    if (!copy)
      continue;
    // (An object that owns memory or counts owners, a std::shared_ptr:
    // destroyed with the scope that defines the lambda, as the closure.)
    if (initialize(init, captured->getType().getNonReferenceType(), *copy))
      destroyAtScopeEnd(captured->getType().getNonReferenceType(), *copy, init);
    closure.copies[captured] = *copy;
  }
  return closure;
}

std::optional<FunctionLowering::Closure>
FunctionLowering::closureOf(const clang::Expr *expr) {
  // Through copies and moves of the closure, to a lambda variable, a
  // closure parameter of a function being inlined, or the lambda itself.
  while (expr) {
    expr = expr->IgnoreImplicit();
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr)) {
      auto known = lambdas.find(ref->getDecl());
      if (known != lambdas.end())
        return known->second;
      // (A std::function variable given a lambda after its declaration.)
      std::optional<std::pair<Value, int64_t>> place =
          storedCallablePlace(expr);
      auto stored = place ? storedClosures.find(*place) : storedClosures.end();
      if (stored == storedClosures.end())
        return std::nullopt;
      return stored->second;
    }
    if (const auto *lambda = dyn_cast<clang::LambdaExpr>(expr))
      return makeClosure(lambda);
    if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(expr);
        construct && construct->getNumArgs() == 1)
      expr = construct->getArg(0);
    else if (const clang::Expr *moved = movedFrom(expr))
      expr = moved;
    else if (const clang::Expr *forwarded = castToReferenceArgument(expr))
      expr = forwarded; // std::forward, std::as_const
    else if (const clang::CallExpr *factory = lambdaFactoryCall(expr))
      return closureReturnedBy(factory);
    else if (expr->isGLValue() && ModuleLowering::isClosureClass(
                                      expr->getType()->getAsCXXRecordDecl()))
      return storedClosureOf(expr); // a field, a std::get of a tuple...
    else if (std::optional<std::pair<Value, int64_t>> place =
                 storedCallablePlace(expr)) {
      auto stored = storedClosures.find(*place); // a std::function field
      if (stored == storedClosures.end())
        return std::nullopt;
      return stored->second;
    } else
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<FunctionLowering::Closure>
FunctionLowering::closureReturnedBy(const clang::CallExpr *call) {
  using Result = std::optional<Closure>;
  const clang::FunctionDecl *callee = call->getDirectCallee();
  const clang::FunctionDecl *body = nullptr;
  if (!callee->hasBody(body))
    return unsupported<Result>(call, "'" + callee->getQualifiedNameAsString() +
                                         "' returns a lambda and has no "
                                         "visible body");
  // Which lambda it returns is known where it is compiled only if one
  // return, its last statement, gives it.
  if (!returnsOnceAtTheEnd(body))
    return unsupported<Result>(
        call, "'" + callee->getQualifiedNameAsString() +
                  "' returns a lambda from more than one return, or "
                  "from inside a branch or loop; return one lambda as "
                  "its last statement");
  SmallVector<const clang::Expr *> args(call->arguments());
  std::optional<Address> object;
  const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
  if (method && method->isInstance()) {
    MemberCallParts parts = splitMemberCall(call, args);
    object =
        parts.arrow ? lowerPointer(parts.object) : lowerLValue(parts.object);
    if (!object)
      return std::nullopt;
    args.assign(parts.rest.begin(), parts.rest.end());
  }
  std::optional<Closure> made;
  std::optional<Closure> *outer = std::exchange(returnedClosure, &made);
  unsigned outerDepth = std::exchange(returnedClosureDepth, inlineDepth + 1);
  std::optional<CallResult> done =
      inlineBody(call, callee, args, nullptr, {}, object);
  returnedClosure = outer;
  returnedClosureDepth = outerDepth;
  return done ? made : std::nullopt;
}

void FunctionLowering::keepReturnedClosure(const clang::ReturnStmt *stmt) {
  const clang::Expr *value = stmt->getRetValue();
  size_t made = cleanups.size();
  std::optional<Closure> closure = closureOf(value);
  if (!closure)
    return (void)unsupported(value, "this function returns a lambda that "
                                    "it neither defines nor is given; "
                                    "return a lambda written here");
  // What its copies own lives as long as the caller's scope: those made
  // here are the caller's to free; those of a lambda the body defined
  // earlier are freed where the body's scopes end.
  for (const auto &[captured, copy] : closure->copies)
    if (llvm::is_contained(ArrayRef(cleanups).slice(returnCleanupDepth,
                                                    made - returnCleanupDepth),
                           copy.memref))
      return (void)unsupported(
          value, "this lambda owns a copy of '" + captured->getNameAsString() +
                     "', made where the lambda is defined, which is freed "
                     "when this function returns; return the lambda "
                     "expression itself");
  resultCleanups.append(cleanups.begin() + made, cleanups.end());
  cleanups.truncate(made);
  for (const clang::LambdaCapture &capture : closure->lambda->captures()) {
    if (capture.capturesThis()) {
      if (capture.getCaptureKind() == clang::LCK_StarThis)
        return (void)unsupported(value, "a lambda capturing '*this' cannot "
                                        "be returned from differentiable "
                                        "code; capture 'this'");
      closure->self = self;
      continue;
    }
    if (!capture.capturesVariable())
      continue;
    const clang::ValueDecl *captured = capture.getCapturedVar();
    if (pinCapture(*closure, captured))
      continue;
    return (void)unsupported(
        value, "this lambda is returned from the function that defines it, "
               "and it captures '" +
                   captured->getNameAsString() +
                   "' by reference, which differentiable code supports for "
                   "numbers, arrays and structs of them only; capture it by "
                   "copy");
  }
  *returnedClosure = std::move(*closure);
}

bool FunctionLowering::pinCapture(Closure &closure,
                                  const clang::ValueDecl *captured) {
  if (closure.copies.count(captured) || closure.pointerCopies.count(captured))
    return true;
  if (auto known = lambdas.find(captured); known != lambdas.end()) {
    closure.closures[captured] = std::make_shared<Closure>(known->second);
    return true;
  }
  // A variable captured by reference: its place, if that is all of it.
  clang::QualType type = captured->getType().getNonReferenceType();
  auto place = places.find(captured);
  if (place == places.end() || type->isPointerType() || isVector(type) ||
      isIterator(type) || holdsIndirectFields(type))
    return false;
  closure.copies[captured] = place->second;
  return true;
}

bool FunctionLowering::takesClosure(const clang::FunctionDecl *function) {
  return llvm::any_of(function->parameters(), [](const auto *param) {
    const auto *record =
        param->getType().getNonReferenceType()->getAsCXXRecordDecl();
    return record && (record->isLambda() || isStdFunction(param->getType()));
  });
}

std::optional<FunctionLowering::CallResult> FunctionLowering::callLambda(
    const clang::CallExpr *expr, const clang::Expr *object,
    const clang::CXXMethodDecl *callOperator,
    ArrayRef<const clang::Expr *> args, std::optional<Address> dest) {
  using Result = std::optional<CallResult>;
  unsigned errorsBefore = module.errorCount();
  std::optional<Closure> closure = closureOf(object);
  // A lambda without captures kept in an object (Eigen's unaryExpr keeps
  // its functor): its body, which needs nothing of the object.
  if (!closure && callOperator->getParent()->capture_size() == 0)
    return inlineBody(expr, callOperator, args, nullptr, {}, std::nullopt,
                      dest);
  // (A lambda factory's call, or a variable it initialized, that failed
  // has been reported.)
  const auto *var = dyn_cast<clang::DeclRefExpr>(object->IgnoreImplicit());
  if (!closure &&
      (lambdaFactoryCall(object) || (var && invalid.contains(var->getDecl())) ||
       module.errorCount() != errorsBefore))
    return std::nullopt;
  if (!closure)
    return unsupported<Result>(expr, "this lambda is not defined in the "
                                     "function that calls it; call a lambda "
                                     "where it is defined, or write a named "
                                     "function");
  return inlineBody(expr, callOperator, args, &*closure, {}, std::nullopt,
                    dest);
}

bool isFunctionPointer(clang::QualType type) {
  type = type.getNonReferenceType();
  return type->isFunctionType() || type->isFunctionPointerType();
}

const clang::FunctionDecl *
FunctionLowering::knownFunction(const clang::Expr *callee) {
  callee = callee->IgnoreParenImpCasts();
  if (const auto *address = dyn_cast<clang::UnaryOperator>(callee);
      address && (address->getOpcode() == clang::UO_AddrOf ||
                  address->getOpcode() == clang::UO_Plus))
    callee = address->getSubExpr()->IgnoreParenImpCasts();
  // A lambda without captures converted to a function pointer (`+[]...`,
  // or given to a parameter of that type): its call operator, whose body
  // needs nothing of the closure.
  if (const auto *conversion = dyn_cast<clang::CXXMemberCallExpr>(callee))
    if (const auto *decl = dyn_cast_or_null<clang::CXXConversionDecl>(
            conversion->getMethodDecl());
        decl && decl->getParent()->isLambda() &&
        !decl->getParent()->isGenericLambda())
      return decl->getParent()->getLambdaCallOperator();
  // (`std::forward<F>(f)` of a reference bound to a function: std::invoke.)
  if (const clang::Expr *forwarded = castToReferenceArgument(callee))
    return knownFunction(forwarded);
  const auto *ref = dyn_cast<clang::DeclRefExpr>(callee);
  if (!ref)
    return nullptr;
  if (const auto *function = dyn_cast<clang::FunctionDecl>(ref->getDecl()))
    return function;
  return functionParameters.lookup(ref->getDecl());
}

const clang::FunctionDecl *
FunctionLowering::functionHeldBy(const clang::Expr *object) {
  if (!object)
    return nullptr;
  object = object->IgnoreImplicit();
  // `std::function<...> f = g;`, `f(g)`: the function given its
  // constructor; a std::function variable or parameter bound to one.
  if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(object);
      construct && construct->getNumArgs() == 1 &&
      isStdFunction(construct->getType()) &&
      isFunctionPointer(construct->getArg(0)->IgnoreImplicit()->getType()))
    return knownFunction(construct->getArg(0));
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(object);
      ref && isStdFunction(ref->getType()))
    if (const clang::FunctionDecl *bound =
            functionParameters.lookup(ref->getDecl()))
      return bound;
  // A std::function kept in memory, made from a named function.
  if (std::optional<std::pair<Value, int64_t>> place =
          storedCallablePlace(object))
    return storedFunctions.lookup(*place);
  return nullptr;
}

std::optional<FunctionLowering::Closure>
FunctionLowering::concreteClosureOf(const clang::Expr *expr) {
  std::optional<Closure> closure = closureOf(expr);
  // (A generic lambda's call operator is a template: which instance a
  // std::function calls is not looked up.)
  if (closure && closure->lambda->getLambdaClass()->isGenericLambda())
    return std::nullopt;
  return closure;
}

bool FunctionLowering::bindStdFunction(const clang::ValueDecl *decl,
                                       const clang::Expr *init) {
  if (const clang::FunctionDecl *function = functionHeldBy(init)) {
    functionParameters[decl] = function;
    return true;
  }
  std::optional<Closure> closure = concreteClosureOf(init);
  if (!closure)
    return false;
  lambdas[decl] = *closure;
  return true;
}

bool FunctionLowering::bindClosureArgument(const clang::ParmVarDecl *param,
                                           const clang::Expr *arg,
                                           const clang::CXXRecordDecl *record) {
  // (A std::function given a lambda or a named function the caller knows:
  // that lambda or function.)
  if (isStdFunction(param->getType()))
    return bindStdFunction(param, arg) ||
           unsupported<bool>(arg, "this std::function is not made from a "
                                  "lambda or a named function of the "
                                  "differentiable function; pass the lambda "
                                  "or the function itself");
  unsigned errorsBefore = module.errorCount();
  std::optional<Closure> closure = closureOf(arg);
  // (A lambda without captures kept in an object: nothing to bind, its
  // calls need nothing of it.)
  if (!closure && record->capture_size() == 0)
    return true;
  if (!closure)
    return module.errorCount() == errorsBefore &&
           unsupported<bool>(arg, "this lambda is not defined in the "
                                  "differentiable function; define it there");
  // (A mutable lambda passed by value: the callee's copy has its own state.)
  if (!param->getType()->isReferenceType() && copiesClosure(arg) &&
      !copyClosureState(*closure, arg))
    return false;
  lambdas[param] = *closure;
  return true;
}

bool FunctionLowering::bindFunctionPointerArgument(
    const clang::ParmVarDecl *param, const clang::Expr *arg, Location l) {
  // A pointer known where it is passed is its function; another one, an
  // address the body's calls compare (FunctionPointers.cpp).
  if (const clang::FunctionDecl *function = knownFunction(arg)) {
    functionParameters[param] = function;
    return true;
  }
  if (param->getType()->isReferenceType())
    return unsupported<bool>(arg, "this function is not known where it is "
                                  "passed; pass the function itself");
  Value address = lowerFunctionPointer(arg);
  if (!address)
    return false;
  bindParameter(param, address, l);
  return true;
}

bool FunctionLowering::bindInlinedArguments(const clang::FunctionDecl *callee,
                                            ArrayRef<const clang::Expr *> args,
                                            ArrayRef<Value> operands,
                                            Location l) {
  for (auto [i, param] : llvm::enumerate(callee->parameters())) {
    clang::QualType type = param->getType();
    if (!operands.empty()) {
      // Already lowered by the caller (StdAlgorithms.cpp).
      bindParameter(param, operands[i], l);
      continue;
    }
    const clang::Expr *arg = args[i];
    if (!arg)
      continue; // bound by the caller (std::make_shared's memory)
    const auto *record = type.getNonReferenceType()->getAsCXXRecordDecl();
    if (record && (record->isLambda() || isStdFunction(type))) {
      if (!bindClosureArgument(param, arg, record))
        return false;
      continue;
    }
    if (bindVectorReference(param, arg) || bindGrowingReference(param, arg))
      continue;
    if (isFunctionPointer(type)) {
      if (!bindFunctionPointerArgument(param, arg, l))
        return false;
      continue;
    }
    // (A std::shared_ptr by value: an owner of the callee's, let go when
    // the call returns.)
    bool sharedByValue = !type->isReferenceType() &&
                         !ModuleLowering::getSharedPointee(type).isNull();
    if (!ModuleLowering::getUniquePointee(type).isNull() || sharedByValue) {
      if (!(sharedByValue ? bindSharedArgument(param, arg)
                          : bindUniquePointerParameter(param, arg)))
        return false;
      continue;
    }
    if (std::optional<bool> bound = bindPointerReference(param, arg, l)) {
      if (!*bound)
        return false;
      continue;
    }
    if (type->isReferenceType() && !holdsIndirectFields(type) &&
        !isVector(type.getNonReferenceType()) &&
        !type.getNonReferenceType()->isArithmeticType() &&
        !type.getNonReferenceType()->isEnumeralType()) {
      // An object by reference: the caller's place itself (memory and
      // offset), as for pointers below; an object of one integer packed
      // among wider slots (a std::tuple's element) stays packed.
      std::optional<Address> place = lowerLValue(arg);
      if (!place)
        return false;
      places[param] = *place;
      continue;
    }
    if ((type->isPointerType() || isIterator(type)) &&
        !holdsIndirectFields(type)) {
      // A pointer parameter moves within the caller's memory, not a view
      // of it, so that it compares and binds like the caller's pointers.
      std::optional<Address> pointer = unpacked(lowerPointer(arg), arg);
      if (!pointer)
        return false;
      // Re-seated in the body (`if (!temp) temp = own.data();`), it
      // moves among arrays as any pointer variable does.
      declarePointerVariable(param, *pointer, l);
      if (invalid.count(param))
        return false;
      continue;
    }
    if (holdsIndirectFields(type)) {
      // The caller's object itself, so that its fields stay known.
      std::optional<Address> place =
          type->isReferenceType() ? unpacked(lowerLValue(arg), arg)
          : type->isPointerType() ? lowerPointer(arg)
                                  : materializeTemporary(arg);
      if (!place)
        return false;
      (type->isPointerType() ? fixedPointers : places)[param] = *place;
      continue;
    }
    // A vector by value whose memory the body changes (reassigned in a
    // loop): a growing vector, as a local would be (GrowingVectors.cpp).
    if (isVector(type) && declareGrowingVector(param, arg))
      continue;
    Value operand = lowerArgument(arg, type);
    if (!operand)
      return false;
    // (Parameters are the callee's own: nothing to save.)
    bindParameter(param, operand, l);
  }
  return true;
}

/// Puts back `decl`'s entry in `map` as it is now (bound or not).
template <typename Map>
static void saveEntry(Map &map, const clang::ValueDecl *decl,
                      SmallVectorImpl<std::function<void()>> &undo) {
  if (auto it = map.find(decl); it != map.end())
    undo.push_back([&map, decl, value = it->second] { map[decl] = value; });
  else
    undo.push_back([&map, decl] { map.erase(decl); });
}

static void saveMember(llvm::DenseSet<const clang::ValueDecl *> &set,
                       const clang::ValueDecl *decl,
                       SmallVectorImpl<std::function<void()>> &undo) {
  if (set.contains(decl))
    undo.push_back([&set, decl] { set.insert(decl); });
  else
    undo.push_back([&set, decl] { set.erase(decl); });
}

void FunctionLowering::saveBindings(const clang::ValueDecl *decl,
                                    SavedBindings &saved) {
  saveEntry(places, decl, saved.undo);
  saveEntry(lambdas, decl, saved.undo);
  saveEntry(functionParameters, decl, saved.undo);
  saveEntry(pointers, decl, saved.undo);
  saveEntry(fixedPointers, decl, saved.undo);
  saveEntry(movingPointers, decl, saved.undo);
  saveEntry(vectorObjectReferences, decl, saved.undo);
  saveEntry(growingVectors, decl, saved.undo);
  saveEntry(vectorSizes, decl, saved.undo);
  saveEntry(vectorBlocks, decl, saved.undo);
  saveEntry(pinnedGrowingViews, decl, saved.undo);
  saveMember(pinnedVectors, decl, saved.undo);
  saveMember(invalid, decl, saved.undo);
}

void FunctionLowering::restoreBindings(SavedBindings &saved) {
  for (std::function<void()> &undo : llvm::reverse(saved.undo))
    undo();
  saved.undo.clear();
}

void FunctionLowering::bindCaptures(const Closure &closure,
                                    SavedBindings &saved) {
  for (auto [captured, copy] : closure.copies) {
    saveBindings(captured, saved);
    places[captured] = copy;
  }
  for (auto [captured, pointer] : closure.pointerCopies) {
    saveBindings(captured, saved);
    pointers[captured] = {pointer.first, pointer.second};
  }
  for (const auto &[captured, nested] : closure.closures) {
    saveBindings(captured, saved);
    lambdas[captured] = *nested;
  }
  // (A closure its maker returned: `this` is the maker's object.)
  if (closure.self) {
    saved.undo.push_back([this, outer = self] { self = outer; });
    self = closure.self;
  }
}

void FunctionLowering::lowerInlinedStatements(const clang::Expr *expr,
                                              const clang::FunctionDecl *callee,
                                              Block *continuation,
                                              std::optional<Address> object,
                                              std::optional<Address> result,
                                              std::optional<Address> *place) {
  Location l = loc(expr);
  const clang::FunctionDecl *outerDecl = decl;
  Block *outerReturn = returnBlock;
  auto outerJumps = std::move(jumps);
  jumps.clear();
  size_t outerReturnCleanups = returnCleanupDepth;
  returnCleanupDepth = cleanups.size();
  std::optional<Address> outerSelf = self, outerResult = resultAddress;
  SmallVector<Value> outerResultCleanups = std::exchange(resultCleanups, {});
  std::optional<Address> *outerPlace = returnedPlace;
  returnedPlace = place;
  if (object)
    self = object;
  resultAddress = result;
  decl = callee;
  returnBlock = continuation;
  ++inlineDepth;
  inlinedCallees.push_back(callee->getCanonicalDecl());
  module.enter(callee, expr->getBeginLoc());
  if (const auto *ctor = dyn_cast<clang::CXXConstructorDecl>(callee))
    lowerConstructorInitializers(ctor);
  lowerStmt(callee->getBody());
  module.leave();
  inlinedCallees.pop_back();
  --inlineDepth;
  self = outerSelf;
  resultAddress = outerResult;
  returnedPlace = outerPlace;
  returnCleanupDepth = outerReturnCleanups;
  // The memory of the result's fields lives in the caller's scope.
  cleanups.append(std::exchange(resultCleanups, outerResultCleanups));
  // Falling off the end of a function that returns a value is undefined.
  SmallVector<Value> undefined;
  for (Type type : continuation->getArgumentTypes())
    undefined.push_back(ub::PoisonOp::create(b, l, type));
  branchTo(l, continuation, undefined);
  decl = outerDecl;
  returnBlock = outerReturn;
  jumps = std::move(outerJumps);
}

std::optional<bool>
FunctionLowering::bindPointerReference(const clang::ParmVarDecl *param,
                                       const clang::Expr *arg, Location l) {
  clang::QualType type = param->getType();
  clang::QualType referenced = type.getNonReferenceType();
  if (!type->isReferenceType() ||
      !(referenced->isPointerType() || isIterator(referenced)) ||
      holdsIndirectFields(referenced))
    return std::nullopt;
  // A const reference (the library's `__iterator_category(const _Iter&)`),
  // or one bound to a temporary (`std::make_pair(v.begin(), v.end())`):
  // the caller cannot change it while the body runs, nor see what the
  // body does to it, so its value is the same.
  auto byValue = [&]() -> std::optional<bool> {
    std::optional<Address> pointer = unpacked(lowerPointer(arg), arg);
    if (!pointer)
      return false;
    declarePointerVariable(param, *pointer, l);
    return !invalid.count(param);
  };
  if (referenced.isConstQualified())
    return byValue();
  // A non-const one to a pointer variable of the caller's
  // (`std::advance(it, k)`, `std::forward<It>(it)` passed on): the same
  // variable, so that what the body does to it the caller sees. (One
  // moving among arrays, or keeping its address in a slot, is left to the
  // rest.)
  const clang::Expr *source = strip(arg)->IgnoreImpCasts();
  if (const clang::Expr *moved = castToReferenceArgument(source))
    source = strip(moved)->IgnoreImpCasts();
  const auto *ref = dyn_cast<clang::DeclRefExpr>(source);
  const clang::ValueDecl *var = ref ? ref->getDecl() : nullptr;
  auto pointer = var ? pointers.find(var) : pointers.end();
  if (pointer == pointers.end() && source->isPRValue())
    return byValue();
  bool aliases = pointer != pointers.end() && !pointer->second.addressSlot &&
                 !movingPointers.count(var);
  // One the body only reads (`std::make_pair(first, last)`, whose
  // forwarding references bind iterators the caller moves between
  // containers): its value.
  if (!aliases && !mayChangeReferenceParameter(param))
    return byValue();
  if (!aliases)
    return std::nullopt;
  pointers[param] = pointer->second;
  return true;
}

Address FunctionLowering::placeReturned(Block *continuation) {
  Value memory = commonReturnedMemory(continuation);
  return Address{memory ? memory : continuation->getArgument(0),
                 continuation->getArgument(1)};
}

Value FunctionLowering::commonReturnedMemory(Block *continuation) {
  // The memory every return passes, as it was before the cast to the
  // pointer type (poison from an end the body cannot reach is no return).
  Value common;
  for (Block *from : continuation->getPredecessors()) {
    auto branch = dyn_cast<BranchOpInterface>(from->getTerminator());
    if (!branch)
      return nullptr;
    for (unsigned k = 0; k < branch->getNumSuccessors(); ++k) {
      if (branch->getSuccessor(k) != continuation)
        continue;
      Value memory =
          branch.getSuccessorOperands(k).getForwardedOperands().front();
      if (memory.getDefiningOp<ub::PoisonOp>())
        continue;
      if (auto cast = memory.getDefiningOp<memref::CastOp>())
        memory = cast.getSource();
      if (common && memory != common)
        return nullptr;
      common = memory;
    }
  }
  // It dominates the code after the call if it was made before the body
  // (whose only entry is the block the call began in): in a block created
  // before the continuation.
  Block *defining = common ? common.getParentBlock() : nullptr;
  if (!defining || defining->getParent() != continuation->getParent())
    return nullptr;
  for (Block &block : *continuation->getParent()) {
    if (&block == defining)
      return common;
    if (&block == continuation)
      return nullptr;
  }
  return nullptr;
}

bool FunctionLowering::canLowerInPlace(const clang::Expr *expr,
                                       const clang::FunctionDecl *callee) {
  // Recursion through calls lowered in place would unfold without end (and
  // two recursive calls, exponentially before the depth limit).
  if (isBeingInlined(callee)) {
    unsupported(expr, "'" + callee->getNameAsString() +
                          "' calls itself, and it is lowered in place (it "
                          "passes lambdas or objects holding pointers, or "
                          "returns pointers or references): such recursion "
                          "is not supported; write it as a loop, or pass "
                          "indices");
    return false;
  }
  if (inlineDepth >= kMaxInlineDepth) {
    unsupported(expr, "calls that pass lambdas or objects holding pointers, "
                      "or return pointers or references, are lowered in "
                      "place, and these nest too deeply (recursion?); return "
                      "an index instead");
    return false;
  }
  return true;
}

bool FunctionLowering::addResultArguments(Block *continuation,
                                          clang::QualType returnType,
                                          clang::QualType owned,
                                          bool splitsPlace,
                                          const clang::Expr *expr) {
  Type type = module.lowerType(owned.isNull() ? returnType.getNonReferenceType()
                                              : owned,
                               expr->getSourceRange(), "this call's result");
  if (!type)
    return false;
  if (returnType->isReferenceType() && type.isIntOrFloat())
    type = getPointerType(type);
  continuation->addArgument(type, loc(expr));
  if (splitsPlace)
    continuation->addArgument(b.getIndexType(), loc(expr));
  return true;
}

std::optional<FunctionLowering::CallResult> FunctionLowering::inlineBody(
    const clang::Expr *expr, const clang::FunctionDecl *callee,
    ArrayRef<const clang::Expr *> args, const Closure *closure,
    ArrayRef<Value> operands, std::optional<Address> object,
    std::optional<Address> dest) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  const clang::FunctionDecl *body = nullptr;
  if (!callee->hasBody(body))
    return unsupported<Result>(expr, "'" + callee->getQualifiedNameAsString() +
                                         "' has no visible body");
  callee = body;
  if (!canLowerInPlace(expr, callee))
    return std::nullopt;
  clang::QualType returnType = callee->getReturnType();
  // A function returning the closure it was given (std::for_each): the
  // closure has no value to the caller here.
  const auto *returnedRecord =
      returnType.getNonReferenceType()->getAsCXXRecordDecl();
  bool returnsClosure = returnedRecord && returnedRecord->isLambda();
  // A std::unique_ptr result is the address of what it owns, as a pointer.
  clang::QualType owned = ModuleLowering::getOwnedPointerType(returnType);
  bool returnsAddress = returnType->isReferenceType() ||
                        returnType->isPointerType() || isIterator(returnType) ||
                        !owned.isNull();
  // An aggregate result is built where the caller wants it.
  std::optional<Address> result;
  if (isAggregate(returnType) && !returnsClosure && !isIterator(returnType) &&
      !isVector(returnType) && owned.isNull()) {
    result = dest ? dest
                  : allocate(returnType, expr->getSourceRange(),
                             "this call's result");
    if (!result)
      return std::nullopt;
    // A temporary of a class that owns memory, destroyed where the
    // statement (or the declaration's block) ends.
    if (!dest)
      destroyAtScopeEnd(returnType, *result, expr);
  }

  // The arguments, bound as the body's parameters; closures by name. What
  // the names were bound to comes back after the body: the arguments of a
  // call may call the same function (`f(f(a, b), c)`), rebinding the
  // parameters already bound.
  Value zero = constantIndex(0, l);
  SavedBindings saved;
  for (const clang::ParmVarDecl *param : callee->parameters())
    saveBindings(param, saved);
  size_t firstSharedArgument = sharedArguments.size();
  if (!bindInlinedArguments(callee, args, operands, l))
    return std::nullopt;
  if (closure)
    bindCaptures(*closure, saved);

  // The body, with its returns going to the code after the call.
  Block *current = b.getInsertionBlock();
  Block *continuation = newBlock();
  enter(current);
  // A pointer or reference returned by the body's one return, its last
  // statement: the place as it is (see returnedPlace).
  std::optional<Address> place;
  bool returnsPlace = returnsAddress &&
                      !isVector(returnType.getNonReferenceType()) &&
                      returnsOnceAtTheEnd(callee);
  // A pointer or reference returned by several returns: each passes the
  // memory it points into and its offset there (see commonReturnedMemory).
  bool splitsPlace = returnsAddress && !returnsPlace && owned.isNull() &&
                     !isVector(returnType.getNonReferenceType());
  if (!returnType->isVoidType() && !returnsClosure && !result &&
      !returnsPlace &&
      !addResultArguments(continuation, returnType, owned, splitsPlace, expr))
    return std::nullopt;
  bool outerSplits = std::exchange(returnsMemoryAndOffset, splitsPlace);
  lowerInlinedStatements(expr, callee, continuation, object, result,
                         returnsPlace ? &place : nullptr);
  returnsMemoryAndOffset = outerSplits;
  restoreBindings(saved);
  enter(continuation);
  releaseSharedArguments(firstSharedArgument);
  if (result)
    return CallResult{nullptr, result};
  if (returnsPlace)
    return place ? std::optional<CallResult>(CallResult{nullptr, place})
                 : std::nullopt;
  if (splitsPlace && continuation->getNumArguments() == 2)
    return CallResult{nullptr, placeReturned(continuation)};
  if (continuation->getNumArguments() == 0)
    return CallResult{};
  if (isVector(returnType)) {
    // A vector returned by value: its memory is the caller's, freed with
    // the enclosing scope (as for a call that is not lowered in place).
    cleanups.push_back(continuation->getArgument(0));
    return CallResult{nullptr, Address{continuation->getArgument(0), zero}};
  }
  if (returnsAddress)
    return CallResult{nullptr, Address{continuation->getArgument(0), zero}};
  return CallResult{continuation->getArgument(0), {}};
}

} // namespace cotangent::frontend
