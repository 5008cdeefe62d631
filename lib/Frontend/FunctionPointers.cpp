//===- FunctionPointers.cpp - Function pointers as values -----------------===//
//
// A function pointer holds a function's address, and to the memory model
// it is that: a 64-bit integer (its layout is an integer part), kept in
// locals, arrays, struct fields and parameters as integers are, compared
// and tested for null as integers are. The address is the unit's own
// function (ct.function_address), so pointers the caller made and passes
// in compare equal to those differentiated code makes.
//
// A call through a pointer whose function the lowering cannot name where
// it is lowered compares the address with that of each function of the
// translation unit whose address the program takes and whose type is the
// call's, and calls the one that matches: a chain of branches, each
// lowering the call as a direct call of its candidate would be (its own
// function, its <cmath> op, or its body in place: C callbacks taking a
// `void *` context, lambdas), which the engine differentiates like any
// branch (as virtual calls are dispatched, VirtualCalls.cpp). A lambda
// without captures converted to a function pointer is C++'s static
// invoker for it, whose address the conversion gives. A function the unit
// never names by
// its address cannot be in a pointer the unit made; one from elsewhere (a
// pointer another file passes in) ends the program with a message rather
// than calling code without a derivative.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

/// The static invoker of the lambda `cast` converts to a function pointer
/// (what the pointer holds), if it is such a conversion.
static const clang::CXXMethodDecl *
lambdaStaticInvoker(const clang::CastExpr *cast) {
  if (cast->getCastKind() != clang::CK_UserDefinedConversion)
    return nullptr;
  const auto *conversion =
      dyn_cast_or_null<clang::CXXConversionDecl>(cast->getConversionFunction());
  if (!conversion || !conversion->getParent()->isLambda() ||
      conversion->getParent()->isGenericLambda())
    return nullptr;
  return conversion->getParent()->getLambdaStaticInvoker();
}

namespace {
/// The functions the unit's own code names other than to call them: those
/// a function pointer it makes can hold.
struct AddressTakenFunctions : clang::DynamicRecursiveASTVisitor {
  explicit AddressTakenFunctions(const clang::SourceManager &sources)
      : sources(sources) {
    ShouldVisitTemplateInstantiations = true;
    // (Also the semantic form of braced lists, where an overloaded name,
    // `{std::sin, std::cos}`, is resolved to the function it takes.)
    ShouldVisitImplicitCode = true;
  }
  // A function named as a template argument of Cotangent's own entry
  // points (`ct::gradient<f>`) is differentiated, not kept in a pointer;
  // nor do the entry points' bodies keep the functions they are given.
  bool TraverseNamespaceDecl(clang::NamespaceDecl *space) override {
    return isCotangent(space) ||
           clang::DynamicRecursiveASTVisitor::TraverseNamespaceDecl(space);
  }
  bool TraverseDeclRefExpr(clang::DeclRefExpr *ref) override {
    return isCotangent(ref->getDecl()) ||
           clang::DynamicRecursiveASTVisitor::TraverseDeclRefExpr(ref);
  }
  static bool isCotangent(const clang::Decl *decl) {
    const clang::DeclContext *context = decl->getDeclContext();
    if (const auto *space = dyn_cast<clang::NamespaceDecl>(decl))
      context = space;
    for (; context && !context->isTranslationUnit();
         context = context->getParent())
      if (const auto *space = dyn_cast<clang::NamespaceDecl>(context);
          space && space->getParent()->isTranslationUnit())
        return space->getName() == "ct";
    return false;
  }
  bool VisitCallExpr(clang::CallExpr *call) override {
    if (const auto *callee = dyn_cast<clang::DeclRefExpr>(
            call->getCallee()->IgnoreParenImpCasts()))
      called.insert(callee);
    return true;
  }
  // A lambda converted to a function pointer: the address is its static
  // invoker's.
  bool VisitCastExpr(clang::CastExpr *cast) override {
    if (const clang::CXXMethodDecl *invoker = lambdaStaticInvoker(cast))
      found.insert(invoker->getCanonicalDecl());
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    const auto *function = dyn_cast<clang::FunctionDecl>(ref->getDecl());
    if (!function || called.contains(ref) ||
        sources.isInSystemHeader(ref->getLocation()))
      return true;
    // (A member function's address is a pointer to member, not to a
    // function.)
    if (const auto *method = dyn_cast<clang::CXXMethodDecl>(function);
        method && method->isInstance()) {
      methods.insert(method->getCanonicalDecl());
      return true;
    }
    found.insert(function->getCanonicalDecl());
    return true;
  }
  const clang::SourceManager &sources;
  llvm::SmallPtrSet<const clang::DeclRefExpr *, 16> called;
  llvm::SetVector<const clang::FunctionDecl *> found;
  /// Member functions named other than to call them: `&C::f`.
  llvm::SetVector<const clang::CXXMethodDecl *> methods;
};
} // namespace

ArrayRef<const clang::FunctionDecl *>
ModuleLowering::getAddressTakenFunctions() {
  if (!addressTakenFunctions) {
    AddressTakenFunctions visitor(ast.getSourceManager());
    visitor.TraverseDecl(ast.getTranslationUnitDecl());
    addressTakenFunctions.emplace(visitor.found.begin(), visitor.found.end());
    addressTakenMethods.emplace(visitor.methods.begin(), visitor.methods.end());
  }
  return *addressTakenFunctions;
}

ArrayRef<const clang::CXXMethodDecl *>
ModuleLowering::getAddressTakenMethods() {
  // (One walk of the unit finds both.)
  (void)getAddressTakenFunctions();
  return *addressTakenMethods;
}

Value ModuleLowering::buildFunctionAddress(
    OpBuilder &builder, Location l, const clang::FunctionDecl *function) {
  auto address = ct::FunctionAddressOp::create(builder, l, mangle(function));
  // (Only code in the same object file can reach a `static` function.)
  if (!function->isExternallyVisible())
    address->setAttr(ct::kInternalLinkageAttr, builder.getUnitAttr());
  address->setAttr("ct.source_name",
                   builder.getStringAttr(function->getQualifiedNameAsString()));
  // (A lambda's static invoker: named by where the lambda is.)
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(function);
      method && method->isLambdaStaticInvoker())
    address->setAttr(
        "ct.lambda",
        builder.getStringAttr(method->getParent()->getLocation().printToString(
            ast.getSourceManager())));
  return address;
}

bool FunctionLowering::lowerFunctionPointerCast(const clang::CastExpr *cast,
                                                Value &address) {
  Location l = loc(cast);
  switch (cast->getCastKind()) {
  case clang::CK_NullToPointer:
    address = arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0));
    return true;
  case clang::CK_FunctionToPointerDecay:
  case clang::CK_NoOp:
  case clang::CK_BitCast: // (dropping `noexcept`)
    address = lowerFunctionPointer(cast->getSubExpr());
    return true;
  case clang::CK_LValueToRValue:
    // (A parameter of a call lowered in place given a function.)
    if (const auto *ref =
            dyn_cast<clang::DeclRefExpr>(cast->getSubExpr()->IgnoreParens());
        ref && functionParameters.count(ref->getDecl())) {
      address = lowerFunctionPointer(ref);
      return true;
    }
    return false;
  case clang::CK_UserDefinedConversion:
    if (const clang::CXXMethodDecl *invoker = lambdaStaticInvoker(cast)) {
      address = module.buildFunctionAddress(b, l, invoker);
      return true;
    }
    if (const auto *conversion = dyn_cast_or_null<clang::CXXMethodDecl>(
            cast->getConversionFunction());
        conversion && conversion->getParent()->isLambda()) {
      address = unsupported(cast, "a generic lambda converted to a function "
                                  "pointer cannot be followed by "
                                  "differentiable code yet; give its "
                                  "parameters types, or pass the lambda "
                                  "itself (to a template parameter)");
      return true;
    }
    return false;
  default:
    return false;
  }
}

Value FunctionLowering::lowerFunctionPointer(const clang::Expr *expr) {
  Location l = loc(expr);
  const clang::Expr *stripped = expr->IgnoreParens();
  if (const auto *cast = dyn_cast<clang::CastExpr>(stripped))
    if (Value address; lowerFunctionPointerCast(cast, address))
      return address;
  if (const auto *address = dyn_cast<clang::UnaryOperator>(stripped)) {
    // `&f`, `+[]` (a lambda converted), and `*p` of a function pointer (a
    // function designator, decaying back to `p`); `*pp` of memory of
    // pointers is a place.
    if (address->getOpcode() == clang::UO_AddrOf ||
        address->getOpcode() == clang::UO_Plus ||
        (address->getOpcode() == clang::UO_Deref &&
         address->getSubExpr()->getType()->isFunctionPointerType()))
      return lowerFunctionPointer(address->getSubExpr());
  }
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(stripped)) {
    // A function, or a function pointer parameter of a call lowered in
    // place that was given one.
    const clang::FunctionDecl *function =
        dyn_cast<clang::FunctionDecl>(ref->getDecl());
    if (!function)
      function = functionParameters.lookup(ref->getDecl());
    // (A lambda given to a function pointer parameter: its invoker.)
    if (const auto *method = dyn_cast_or_null<clang::CXXMethodDecl>(function);
        method && method->getParent()->isLambda()) {
      if (method->getParent()->isGenericLambda())
        return unsupported(expr, "a generic lambda converted to a function "
                                 "pointer can be called where it is passed, "
                                 "but not kept; give its parameters types");
      function = method->getParent()->getLambdaStaticInvoker();
    }
    if (function)
      return module.buildFunctionAddress(b, l, function);
  }
  const char *unknown =
      "differentiable code follows a function pointer made from a "
      "function, or kept in a variable, field, element or parameter; this "
      "one is made otherwise (from an integer, or by a cast), so the "
      "functions it may call are not known; assign the function itself";
  if (!expr->getType()->isFunctionPointerType() &&
      !expr->getType()->isFunctionType())
    return unsupported(expr, unknown);
  if (const auto *conditional =
          dyn_cast<clang::ConditionalOperator>(stripped)) {
    // (Of functions, `c ? f : g`, or of pointers: an address either way.)
    Block *merge = emitConditional(
        conditional, b.getI64Type(),
        [&](const clang::Expr *arm, SmallVectorImpl<Value> &passed) {
          Value address = lowerFunctionPointer(arm);
          if (address)
            passed.push_back(address);
          return address != nullptr;
        });
    return merge ? merge->getArgument(0) : nullptr;
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(stripped))
    return lowerCallValue(call);
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(stripped);
      binary && binary->getOpcode() == clang::BO_Comma) {
    lowerDiscarded(binary->getLHS());
    return lowerFunctionPointer(binary->getRHS());
  }
  // A variable, field or element holding an address.
  const clang::Expr *place = stripped;
  if (const auto *read = dyn_cast<clang::ImplicitCastExpr>(stripped);
      read && read->getCastKind() == clang::CK_LValueToRValue)
    place = read->getSubExpr();
  if (!place->isGLValue() || !place->getType()->isFunctionPointerType())
    return unsupported(expr, unknown);
  std::optional<Address> slot = lowerLValue(place);
  return slot ? load(*slot, l) : nullptr;
}

Value FunctionLowering::compareFunctionPointers(
    const clang::BinaryOperator *expr) {
  Location l = loc(expr);
  // (Pointers to members are numbers too: MemberPointers.cpp.)
  auto lower = [&](const clang::Expr *side) {
    return side->getType()->isMemberPointerType() ? lowerMemberPointer(side)
                                                  : lowerFunctionPointer(side);
  };
  Value lhs = lower(expr->getLHS());
  Value rhs = lower(expr->getRHS());
  if (!lhs || !rhs)
    return nullptr;
  if (expr->getOpcode() != clang::BO_EQ && expr->getOpcode() != clang::BO_NE)
    return unsupported(expr, "function pointers can only be compared for "
                             "equality");
  return arith::CmpIOp::create(b, l,
                               expr->getOpcode() == clang::BO_EQ
                                   ? arith::CmpIPredicate::eq
                                   : arith::CmpIPredicate::ne,
                               lhs, rhs);
}

/// The functions a call through a pointer of type `pointerType` may reach:
/// those whose address the unit takes, of the pointed-to function type.
static SmallVector<const clang::FunctionDecl *>
callTargets(ModuleLowering &module, clang::QualType pointerType) {
  clang::ASTContext &ast = module.getAST();
  clang::QualType functionType = pointerType->getPointeeType();
  SmallVector<const clang::FunctionDecl *> targets;
  for (const clang::FunctionDecl *function : module.getAddressTakenFunctions())
    if (ast.hasSameFunctionTypeIgnoringExceptionSpec(function->getType(),
                                                     functionType))
      targets.push_back(function);
  return targets;
}

bool FunctionLowering::canCallThroughPointer(
    const clang::CallExpr *expr, const clang::FunctionDecl *target) {
  // Each branch of the dispatch calls its target as a direct call would;
  // what the branches give must meet: a value or the caller's result
  // place, not a place each target chooses.
  clang::QualType result = target->getReturnType().getCanonicalType();
  if (target->isVariadic() || result->isPointerType() ||
      result->isReferenceType() || isVector(result) ||
      ModuleLowering::needsDestruction(result))
    return unsupported<bool>(
        expr, "this call through a function pointer may call '" +
                  target->getQualifiedNameAsString() +
                  "', which differentiable code calls only where it knows "
                  "the function (it returns a pointer, a reference or an "
                  "object owning memory, or is variadic); call it by name");
  if (isExternalFunction(module, target) &&
      !(target->getBuiltinID() && result->isArithmeticType()))
    if (std::string why = whyNotCallable(module, target); !why.empty())
      return unsupported<bool>(
          expr, "this call through a function pointer may call '" +
                    target->getQualifiedNameAsString() +
                    "', which has no visible body and " + why +
                    "; define it in this file, or call it by name");
  return true;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerCallThroughPointer(const clang::CallExpr *expr,
                                          std::optional<Address> dest) {
  const clang::FunctionDecl *callee = knownFunction(expr->getCallee());
  if (callee)
    return callDispatchTarget(expr, callee, dest);
  return lowerIndirectCall(expr, dest);
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::callDispatchTarget(const clang::CallExpr *expr,
                                     const clang::FunctionDecl *target,
                                     std::optional<Address> dest) {
  // A lambda converted to a function pointer is its static invoker, which
  // calls the call operator: its body, in place (it captures nothing).
  const auto *method = dyn_cast<clang::CXXMethodDecl>(target);
  if (method && method->isLambdaStaticInvoker())
    method = method->getParent()->getLambdaCallOperator();
  if (method && method->getParent()->isLambda())
    return inlineBody(expr, method,
                      SmallVector<const clang::Expr *>(expr->arguments()),
                      nullptr, {}, std::nullopt, dest);
  return lowerCallOf(expr, target, dest);
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerIndirectCall(const clang::CallExpr *expr,
                                    std::optional<Address> dest) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  const clang::Expr *callee = expr->getCallee();
  clang::QualType pointerType = callee->getType();
  if (!pointerType->isFunctionPointerType())
    return unsupported<Result>(expr, "this call cannot be differentiated: "
                                     "it does not call a function");
  SmallVector<const clang::FunctionDecl *> targets =
      callTargets(module, pointerType);
  if (targets.empty())
    return unsupported<Result>(
        expr, "no function of this file of type '" +
                  pointerType->getPointeeType().getAsString() +
                  "' has its address taken, so this call through a function "
                  "pointer cannot be differentiated; call the function by "
                  "name, or take its address in this file");
  for (const clang::FunctionDecl *target : targets)
    if (!canCallThroughPointer(expr, target))
      return std::nullopt;
  // C++17: the callee is evaluated before the arguments.
  Value address = lowerFunctionPointer(callee);
  if (!address)
    return std::nullopt;
  return callThroughAddress(expr, address, targets, std::nullopt, dest);
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::callThroughAddress(
    const clang::CallExpr *expr, Value address,
    ArrayRef<const clang::FunctionDecl *> targets,
    std::optional<Address> object, std::optional<Address> dest) {
  Location l = loc(expr);
  clang::QualType returnType = expr->getCallReturnType(ast).getCanonicalType();
  std::optional<Address> resultPlace;
  Type resultType;
  if (isAggregate(returnType)) {
    resultPlace = resultPlaceFor(expr, returnType, dest);
    if (!resultPlace)
      return std::nullopt;
  } else if (!returnType->isVoidType()) {
    resultType = typeOf(expr);
    if (!resultType)
      return std::nullopt;
  }
  Block *current = b.getInsertionBlock();
  Block *merge = newBlock();
  if (resultType)
    merge->addArgument(resultType, l);
  enter(current);
  if (!dispatchThroughPointer(expr, address, targets, resultPlace, merge,
                              object))
    return std::nullopt;
  enter(merge);
  if (resultPlace)
    return CallResult{nullptr, resultPlace};
  return CallResult{resultType ? merge->getArgument(0) : nullptr, {}};
}

bool FunctionLowering::dispatchThroughPointer(
    const clang::CallExpr *expr, Value address,
    ArrayRef<const clang::FunctionDecl *> targets,
    std::optional<Address> resultPlace, Block *merge,
    std::optional<Address> object) {
  Location l = loc(expr);
  // if (p == &f0) f0(...) else if (p == &f1) f1(...) ... else abort; each
  // call lowered as a direct call of its function would be (its arguments
  // too, in its branch), so a target lowered in place (taking the
  // caller's objects, a `void *` context, a lambda's body) is inlined in
  // its branch.
  // (In a branch, as emitIf says: what a target binds there is not bound
  // on every path.)
  for (const clang::FunctionDecl *target : targets) {
    Value matches =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, address,
                              module.buildFunctionAddress(b, l, target));
    bool called = false;
    emitIf(l, matches, [&] {
      size_t depth = cleanups.size();
      std::optional<CallResult> result =
          object ? emitCall(expr, target, object,
                            SmallVector<const clang::Expr *>(expr->arguments()),
                            resultPlace)
                 : callDispatchTarget(expr, target, resultPlace);
      if (!result)
        return;
      SmallVector<Value> passed;
      if (merge->getNumArguments()) {
        if (!result->scalar) {
          unsupported(expr, "this call through a function pointer gives no "
                            "value here");
          return;
        }
        passed.push_back(result->scalar);
      }
      emitCleanups(depth, l);
      cleanups.truncate(depth);
      branchTo(l, merge, passed);
      called = true;
    });
    if (!called)
      return false;
  }
  SmallVector<Value> poison = buildAbort(
      b, l,
      sourcePosition(expr) +
          ": a call through a function pointer in a derivative found a "
          "function whose address its file does not take; aborting",
      merge->getArgumentTypes());
  branchTo(l, merge, poison);
  return true;
}

} // namespace cotangent::frontend
