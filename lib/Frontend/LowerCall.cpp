//===- LowerCall.cpp - Calls, constructors, members and operators ---------===//
//
// Every call becomes a func.call with the signature ModuleLowering gives
// the callee: the object's address first for member functions (and
// constructors), then one operand per parameter (scalars by value; the
// address of memory for pointers, references and aggregates, which the
// caller copies when passed by value), then the address an aggregate result
// is built at. <cmath> functions become math ops; the ct:: markers ct ops.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "MemberCallParts.h"
#include "NodeResults.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Frontend/DifferentiableAttr.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

using namespace mlir;

namespace cotangent::frontend {

/// Whether `method` is a copy or move assignment the compiler writes as a
/// plain copy of the object.
static bool isTrivialAssignment(const clang::FunctionDecl *function) {
  const auto *method = dyn_cast<clang::CXXMethodDecl>(function);
  return method && method->isTrivial() &&
         (method->isCopyAssignmentOperator() ||
          method->isMoveAssignmentOperator());
}

/// The function a call through a constant function pointer calls: a
/// `constexpr` variable initialized with a function's address, as the
/// entry points `ct::gradient<f>` and friends are.
static const clang::FunctionDecl *
getConstantCallee(const clang::CallExpr *expr) {
  const auto *ref =
      dyn_cast<clang::DeclRefExpr>(expr->getCallee()->IgnoreParenImpCasts());
  const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || !var->isConstexpr())
    return nullptr;
  const clang::APValue *value = var->evaluateValue();
  if (!value || !value->isLValue() || !value->getLValueOffset().isZero())
    return nullptr;
  const auto *base =
      value->getLValueBase().dyn_cast<const clang::ValueDecl *>();
  return dyn_cast_or_null<clang::FunctionDecl>(base);
}

/// Whether `callee` is a plain function (not a constructor or destructor)
/// returning nothing whose body is empty.
static bool doesNothing(const clang::FunctionDecl *callee) {
  const clang::FunctionDecl *definition = nullptr;
  if (!callee->hasBody(definition) || !callee->getReturnType()->isVoidType() ||
      isa<clang::CXXConstructorDecl, clang::CXXDestructorDecl>(callee))
    return false;
  const auto *body = dyn_cast<clang::CompoundStmt>(definition->getBody());
  return body && body->body_empty();
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerTrivialAssignment(const clang::Expr *expr,
                                         const clang::Expr *lhs,
                                         const clang::Expr *rhs) {
  // C++17: the right operand of an assignment is evaluated first.
  std::optional<Address> source = lowerLValue(rhs);
  std::optional<Address> target = lowerLValue(lhs);
  std::optional<Layout> layout = layoutOf(lhs->getType(), expr);
  if (!source || !target || !layout)
    return std::nullopt;
  if (!copyObject(*target, *source, *layout, expr))
    return std::nullopt;
  return CallResult{nullptr, target};
}

bool FunctionLowering::isModelledStdClass(clang::QualType type) {
  return !getUniquePointee(type).isNull() ||
         ModuleLowering::isSharedPointerClass(type->getAsCXXRecordDecl()) ||
         ModuleLowering::isVectorObject(type) || isVector(type);
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerModelledStdCall(const clang::CallExpr *expr,
                                       const clang::CXXMethodDecl *method,
                                       ArrayRef<const clang::Expr *> args) {
  auto [self, arrow, rest] = splitMemberCall(expr, args);
  clang::QualType parent = ast.getCanonicalTagType(method->getParent());
  if (!getUniquePointee(parent).isNull())
    return lowerUniquePointerCall(expr, method, self, rest);
  if (ModuleLowering::isSharedPointerClass(method->getParent()))
    return lowerSharedPointerCall(expr, method, self, rest);
  if (ModuleLowering::isVectorObject(parent) ||
      (self && !arrow && isVectorObjectExpr(self)) ||
      (self && arrow &&
       (isOwnedVectorAccess(self, clang::OO_Arrow) ||
        readsVectorAddressHolder(self))))
    return lowerVectorObjectCall(expr, method, self, arrow, rest);
  return lowerVectorCall(expr, method, self, arrow, rest);
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerCall(const clang::CallExpr *expr,
                            std::optional<Address> dest) {
  // `p[i].~T()` of a number (a template destroying its elements): only the
  // object's expression, for its effects.
  if (const auto *destroy = dyn_cast<clang::CXXPseudoDestructorExpr>(
          expr->getCallee()->IgnoreParens())) {
    lowerDiscarded(destroy->getBase());
    return CallResult{};
  }
  if (const auto *member = dyn_cast<clang::CXXMemberCallExpr>(expr))
    if (const auto *access = dyn_cast<clang::BinaryOperator>(
            member->getCallee()->IgnoreParens());
        access && access->isPtrMemOp())
      return lowerMemberFunctionPointerCall(member, access, dest);
  const clang::FunctionDecl *callee = expr->getDirectCallee();
  if (!callee)
    callee = getConstantCallee(expr);
  if (!callee)
    return lowerCallThroughPointer(expr, dest);
  return lowerCallOf(expr, callee, dest);
}

bool FunctionLowering::lowerStdFunctionCall(const clang::CallExpr *expr,
                                            std::optional<Address> dest,
                                            std::optional<CallResult> &result) {
  // A std::function holding a lambda or a function of the function: the
  // lambda's or the function's call.
  const auto *call = dyn_cast<clang::CXXOperatorCallExpr>(expr);
  if (!call || !isStdFunction(call->getArg(0)->getType()))
    return false;
  const clang::Expr *object = call->getArg(0);
  std::optional<Closure> closure = concreteClosureOf(object);
  const clang::FunctionDecl *held = closure ? nullptr : functionHeldBy(object);
  // An empty one given a lambda or a function (a field, a variable declared
  // first): kept beside its place, as if it had been made from it.
  if (!closure && !held && call->getOperator() == clang::OO_Equal) {
    std::optional<Address> place = lowerLValue(object);
    std::optional<bool> stored =
        place ? storeStdFunction(call->getArg(1), object->getType(), *place)
              : std::nullopt;
    if (!stored)
      return false;
    result = *stored ? std::optional<CallResult>(CallResult{nullptr, place})
                     : std::nullopt;
    return true;
  }
  if (!closure && !held)
    return false; // the library's
  if (call->getOperator() != clang::OO_Call) {
    result = unsupported<std::optional<CallResult>>(
        expr, "this std::function is the lambda or function it was made "
              "from, and cannot be changed; declare another std::function");
    return true;
  }
  ArrayRef<const clang::Expr *> rest =
      ArrayRef<const clang::Expr *>(call->getArgs(), call->getNumArgs())
          .drop_front();
  result = closure ? callLambda(expr, object,
                                closure->lambda->getCallOperator(), rest, dest)
                   : emitCall(expr, held, std::nullopt, rest, dest);
  return true;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerCallOf(const clang::CallExpr *expr,
                              const clang::FunctionDecl *callee,
                              std::optional<Address> dest) {
  using Result = std::optional<CallResult>;
  if (std::optional<CallResult> check = lowerCheckCall(expr, callee))
    return check;
  // A function that does nothing with arguments that do nothing (Eigen's
  // `ignore_unused_variable(x)`, taking anything by reference), or a hint
  // to the processor (`__builtin_prefetch`): nothing.
  if ((doesNothing(callee) ||
       callee->getBuiltinID() == clang::Builtin::BI__builtin_prefetch) &&
      llvm::none_of(expr->arguments(), [&](const clang::Expr *arg) {
        return arg->HasSideEffects(ast);
      }))
    return CallResult{};
  if (std::optional<CallResult> output = lowerOutputCall(expr, callee))
    return output;
  if (std::optional<CallResult> lane; lowerScalarElementwise(expr, lane))
    return lane;
  if (std::optional<CallResult> bits; lowerX86ScalarBuiltin(expr, bits))
    return bits;
  if (std::optional<CallResult> held; lowerStdFunctionCall(expr, dest, held))
    return held;
  if (std::optional<CallResult> kernel;
      lowerEigenKernelCall(expr, callee, kernel))
    return kernel;
  if (std::optional<CallResult> lanes;
      lowerEigenPacketMathCall(expr, callee, dest, lanes))
    return lanes;
  if (const clang::CXXRecordDecl *library = getLibraryObjectClass(expr, callee))
    return lowerLibraryObjectCall(expr, callee, library, dest);
  SmallVector<const clang::Expr *> args(expr->arguments());
  std::optional<Address> object;
  const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
  bool isInstance = method && method->isInstance();
  bool isVirtual = false;
  if (isModelledAlgorithm(expr))
    return lowerAlgorithm(expr);
  if (isVectorPointerSwap(expr))
    return lowerVectorPointerSwap(expr);
  if (isComplexBuiltin(callee))
    return lowerComplexBuiltin(expr, callee, dest);
  // A function given a lambda (the user's own templates): its body, in
  // place, where the lambda is known.
  if (!isInstance && takesClosure(callee))
    return inlineBody(expr, callee, args, nullptr, {}, std::nullopt, dest);
  if (isInstance &&
      isModelledStdClass(ast.getCanonicalTagType(method->getParent())))
    return lowerModelledStdCall(expr, method, args);
  if (const auto *member = dyn_cast<clang::CXXMemberCallExpr>(expr);
      member && isIterator(member->getImplicitObjectArgument()->getType())) {
    // `it.base()`: the pointer the iterator wraps.
    if (method->getIdentifier() && method->getName() == "base")
      if (std::optional<Address> pointer =
              lowerPointer(member->getImplicitObjectArgument()))
        return CallResult{nullptr, pointer};
    return unsupported<Result>(expr, "this iterator member function cannot "
                                     "be differentiated");
  }
  if (const auto *member = dyn_cast<clang::CXXMemberCallExpr>(expr)) {
    const auto *memberExpr =
        dyn_cast<clang::MemberExpr>(strip(member->getCallee()));
    if (!memberExpr)
      return unsupported<Result>(expr, "this member call cannot be "
                                       "differentiated");
    isVirtual = !memberExpr->hasQualifier() &&
                isVirtualCall(method, member->getImplicitObjectArgument());
    if (isInstance) {
      const clang::Expr *base = member->getImplicitObjectArgument();
      object = memberExpr->isArrow() ? lowerPointer(base) : lowerLValue(base);
      if (!object)
        return std::nullopt;
    }
  } else if (const auto *opCall = dyn_cast<clang::CXXOperatorCallExpr>(expr);
             opCall &&
             (isIterator(args[0]->getType()) ||
              // (A member operator of another class, a comparison object's
              // `()` given iterators, is that class's.)
              (!isInstance && llvm::any_of(args, [&](const clang::Expr *arg) {
                return isIterator(arg->getType());
              })))) {
    return lowerIteratorOperator(expr, opCall->getOperator(), args);
  } else if (isa<clang::CXXOperatorCallExpr>(expr) && isInstance &&
             method->getParent()->isLambda()) {
    return callLambda(expr, args[0], method,
                      ArrayRef<const clang::Expr *>(args).drop_front(), dest);
  } else if (isa<clang::CXXOperatorCallExpr>(expr) && isInstance) {
    // The object of a member operator is its first operand.
    if (isTrivialAssignment(callee))
      return lowerTrivialAssignment(expr, args[0], args[1]);
    isVirtual = isVirtualCall(method, args[0]);
    object = lowerLValue(args[0]);
    if (!object)
      return std::nullopt;
    args.erase(args.begin());
  }
  return emitCall(expr, callee, object, args, dest, isVirtual);
}

Value FunctionLowering::lowerArgument(const clang::Expr *arg,
                                      clang::QualType paramType,
                                      std::optional<Address> *place) {
  Location l = loc(arg);
  paramType = paramType.getCanonicalType();
  std::optional<Address> address;
  if (paramType->isReferenceType())
    address = lowerLValue(arg);
  else if (isObjectPointer(paramType) || isIterator(paramType))
    address = lowerPointer(arg);
  else if (isVector(paramType))
    address = createVector(arg, paramType, arg->getSourceRange());
  else if (const auto *list =
               dyn_cast<clang::CXXStdInitializerListExpr>(strip(arg)))
    // (Only the library's compiled code takes a list as its own object.)
    address = lowerListForLibrary(list, paramType);
  else if (isAggregate(paramType))
    // By value: the callee gets a copy of its own.
    address = materializeTemporary(arg);
  else
    return lowerRValue(arg);
  address = unpacked(address, arg);
  if (place)
    *place = address;
  // (`nullptr` as the address 0, so that a callee testing it sees null.)
  if (address && paramType->isPointerType())
    return materializeAddress(*address, l);
  return address ? materialize(*address, l) : nullptr;
}

/// `ct::pass_through<g>(x)`: the `g` it names.
static const clang::FunctionDecl *
passThroughTarget(const clang::FunctionDecl *callee) {
  if (callee->getQualifiedNameAsString() != "ct::pass_through")
    return nullptr;
  const clang::TemplateArgumentList *templateArgs =
      callee->getTemplateSpecializationArgs();
  if (!templateArgs || templateArgs->size() < 1 ||
      templateArgs->get(0).getKind() != clang::TemplateArgument::Declaration)
    return nullptr;
  return dyn_cast<clang::FunctionDecl>(templateArgs->get(0).getAsDecl());
}

bool FunctionLowering::lowerScalarBuiltin(const clang::Expr *expr,
                                          const clang::FunctionDecl *callee,
                                          ArrayRef<Value> operands,
                                          std::optional<CallResult> &result) {
  Location l = loc(expr);
  clang::QualType returnType = callee->getReturnType().getCanonicalType();
  if (callee->getQualifiedNameAsString() == "ct::stop_gradient" &&
      operands.size() == 1 && isa<FloatType>(operands[0].getType())) {
    result = CallResult{ct::StopGradientOp::create(b, l, operands[0]), {}};
    return true;
  }
  if (const clang::FunctionDecl *target = passThroughTarget(callee)) {
    result = lowerPassThrough(expr, target, operands);
    return true;
  }
  // (`sincos` returns its values through pointers.)
  if (returnType->isVoidType())
    return lowerMathLibraryCall(expr, callee, operands, Type(), result);
  Type type = module.lowerType(returnType, expr->getSourceRange(),
                               "this call's result");
  Value math =
      type ? buildMathFunction(b, l, callee, operands, type, module.getModule())
           : nullptr;
  if (!math)
    return lowerMathLibraryCall(expr, callee, operands, type, result);
  result = CallResult{math, {}};
  return true;
}

bool FunctionLowering::lowerScalarElementwise(
    const clang::CallExpr *call, std::optional<CallResult> &result) {
  // Clang's elementwise builtins of scalars (`__builtin_elementwise_sqrt(x)`
  // in x86's `_mm_sqrt_ss`), declared variadic.
  const clang::FunctionDecl *callee = call->getDirectCallee();
  StringRef name =
      callee && callee->getIdentifier() ? callee->getName() : StringRef();
  if (!name.consume_front("__builtin_elementwise_") || !call->getNumArgs() ||
      !llvm::all_of(call->arguments(), [](const clang::Expr *arg) {
        return arg->getType()->isArithmeticType();
      }))
    return false;
  SmallVector<Value> operands;
  for (const clang::Expr *arg : call->arguments()) {
    Value operand = lowerRValue(arg);
    if (!operand) {
      result = std::nullopt;
      return true;
    }
    operands.push_back(operand);
  }
  Value lane = buildElementwiseBuiltin(b, loc(call), name, operands,
                                       call->getType()->isSignedIntegerType());
  result = lane ? std::optional(CallResult{lane, {}})
                : unsupported<std::optional<CallResult>>(
                      call, "the builtin '" + callee->getName().str() +
                                "' cannot be differentiated yet");
  return true;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerPassThrough(const clang::Expr *expr,
                                   const clang::FunctionDecl *target,
                                   ArrayRef<Value> operands) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  if (operands.size() != 1 || !isa<FloatType>(operands[0].getType()))
    return unsupported<Result>(expr, "ct::pass_through takes one "
                                     "floating-point value");
  Value value = buildMathFunction(b, l, target, operands, operands[0].getType(),
                                  module.getModule());
  if (!value) {
    func::FuncOp function = module.getFunction(target);
    if (!function)
      return std::nullopt;
    value = func::CallOp::create(b, l, function, operands).getResult(0);
  }
  return CallResult{ct::PassThroughOp::create(b, l, value, operands[0]), {}};
}

bool FunctionLowering::refusesResizedArguments(
    const clang::FunctionDecl *callee, ArrayRef<const clang::Expr *> args) {
  // A vector the callee resizes is one the caller can let grow: a local
  // vector, or a vector kept in memory (both lowered in place).
  for (auto [arg, param] : llvm::zip_equal(args, callee->parameters()))
    if (ModuleLowering::keepsVectorParameterInMemory(param)) {
      module.error(arg->getSourceRange(),
                   "'" + callee->getQualifiedNameAsString() +
                       "' changes the size of this std::vector, which a "
                       "reference or pointer of this function still "
                       "designates (or that is not a variable of its own); "
                       "pass a local std::vector that no reference or "
                       "pointer designates");
      return true;
    }
  return false;
}

/// A `void *` parameter is the memory its argument points at, of that
/// memory's type, which only the caller knows: such functions (Eigen's
/// aligned_free, a C library's callbacks) are lowered in place. So are
/// those taking pointers to types only declared (a library's optional
/// argument, null), which have no type in a signature.
static bool takesVoidPointers(const clang::FunctionDecl *callee) {
  return llvm::any_of(callee->parameters(), [](const clang::ParmVarDecl *p) {
    return p->getType()->isVoidPointerType() ||
           (p->getType()->isPointerType() &&
            p->getType()->getPointeeType()->isIncompleteType());
  });
}

/// A function pointer parameter is the function its argument names, which
/// only the caller knows: lowered in place, calls through it are calls of
/// that function.
static bool takesFunctionPointers(const clang::FunctionDecl *callee) {
  return llvm::any_of(callee->parameters(), [](const clang::ParmVarDecl *p) {
    return isFunctionPointer(p->getType());
  });
}

bool FunctionLowering::passesCallersPlaces(const clang::FunctionDecl *callee,
                                           ArrayRef<const clang::Expr *> args) {
  // Functions returning a pointer or reference into their arguments
  // (std::end, accessors): the place they return is then the caller's own
  // (memory and offset), which also keeps a pointer one past the end of an
  // array of known size valid (materialize). Memory only the caller knows
  // the type of, or that it frees, vectors kept in memory or growing, and
  // std::unique_ptrs, the same.
  clang::QualType resultType = callee->getReturnType().getCanonicalType();
  const clang::FunctionDecl *body = nullptr;
  // (So is a reference to an iterator, or a const one to a pointer: the
  // caller's pointer, bindInlinedArguments; a pointer variable given to a
  // non-const one keeps its address in a slot, which a call can take.)
  bool takesPointerReferences =
      llvm::any_of(callee->parameters(), [&](const clang::ParmVarDecl *param) {
        clang::QualType type = param->getType();
        clang::QualType referenced = type.getNonReferenceType();
        return (type->isLValueReferenceType() &&
                referenced.isConstQualified() && referenced->isPointerType()) ||
               (type->isReferenceType() && isIterator(referenced));
      });
  return ((takesEmptyClassObjects(callee) || takesPointerReferences) &&
          callee->hasBody(body) && !callsItself(callee)) ||
         ((takesVoidPointers(callee) || takesFunctionPointers(callee) ||
           module.freesParameter(callee)) &&
          callee->hasBody(body) && !callsItself(callee)) ||
         passesVectorsInMemory(callee, args) ||
         passesGrowingVectors(callee, args) ||
         ModuleLowering::passesUniquePointers(callee) ||
         ((isObjectPointer(resultType) || resultType->isReferenceType() ||
           isIterator(resultType)) &&
          !isVector(resultType.getNonReferenceType()) &&
          !buildsNodesRecursively(callee) && callee->hasBody(body) &&
          !module.hasCustomRule(callee) && !isDifferentiable(callee) &&
          !callee->isVariadic());
}

bool FunctionLowering::callsItselfByAddress(const clang::FunctionDecl *callee,
                                            std::optional<Address> object,
                                            bool passesCallersPlaces) {
  // Recursion over linked structures (a tree's `eval(n->l)`): lowered in
  // place it would unfold without end, but where every pointer field of
  // what it takes keeps its address in the object (the criterion of
  // virtual dispatch), the callee is a function of its own like any
  // other. A function calling itself directly is recursion too: inlined
  // into its own body one level, it would be lowered twice.
  bool recursion = callsItself(callee) || buildsNodesRecursively(callee);
  clang::QualType resultType = callee->getReturnType().getCanonicalType();
  if (!recursion || passesCallersPlaces || (object && object->packedType) ||
      takesArgumentFields(callee) ||
      (resultType->isPointerType() && !returnsLinkedNode(callee)) ||
      resultType->isReferenceType() || isIterator(resultType))
    return false;
  module.markRecursionOverNodes(callee);
  return true;
}

bool FunctionLowering::needsDispatchInPlace(const clang::FunctionDecl *callee,
                                            bool passesCallersPlaces) {
  // The dispatch calls functions: their objects' pointer fields must keep
  // addresses, and what they return cannot be a place in them.
  clang::QualType resultType = callee->getReturnType().getCanonicalType();
  return passesCallersPlaces || takesArgumentFields(callee) ||
         resultType->isPointerType() || resultType->isReferenceType() ||
         isIterator(resultType);
}

std::optional<Address>
FunctionLowering::resultPlaceFor(const clang::Expr *call,
                                 clang::QualType returnType,
                                 std::optional<Address> dest) {
  if (dest)
    return dest;
  return allocate(returnType, call->getSourceRange(), "this call's result");
}

static constexpr const char *kVariadicCall =
    "variadic functions cannot be differentiated; move the call (I/O, "
    "logging) outside the differentiable function";

/// The error for a call of `callee`, compiled elsewhere, that
/// differentiable code cannot make; empty if it can (ExternalCalls.cpp).
static std::string uncallableExternal(ModuleLowering &module,
                                      const clang::FunctionDecl *callee) {
  std::string why = whyNotCallable(module, callee);
  if (why.empty())
    return why;
  return "'" + callee->getQualifiedNameAsString() +
         "' has no visible body and " + why +
         "; differentiable code calls a function compiled elsewhere only "
         "with numbers, and pointers or references to numbers and structs "
         "of numbers. Define it in this file, mark it [[ct::differentiable]] "
         "where it is defined, or give it a custom derivative rule";
}

bool FunctionLowering::lowersInPlace(const clang::FunctionDecl *callee,
                                     std::optional<Address> object,
                                     bool passesCallersPlaces,
                                     bool recursesWithFields) {
  return (passesCallersPlaces || takesIndirectFields(callee) ||
          (object && object->packedType) || throwsToEnclosingTry(callee)) &&
         !recursesWithFields &&
         !callsItselfByAddress(callee, object, passesCallersPlaces);
}

bool FunctionLowering::lowerArguments(
    ArrayRef<const clang::Expr *> args, const clang::FunctionDecl *callee,
    SmallVectorImpl<Value> &operands,
    SmallVectorImpl<std::optional<Address>> *places) {
  for (auto [k, arg, param] : llvm::enumerate(args, callee->parameters())) {
    Value operand =
        lowerArgument(arg, param->getType(), places ? &(*places)[k] : nullptr);
    if (!operand)
      return false;
    operands.push_back(operand);
  }
  return true;
}

bool FunctionLowering::givesCallablesToLibrary(
    const clang::Expr *expr, ArrayRef<const clang::Expr *> args) {
  // A lambda with captures has no bytes of its own in differentiable code,
  // and a std::function holding its callable beside its place is empty, to
  // the library, which calls them as compiled.
  if (llvm::none_of(args, [&](const clang::Expr *arg) {
        return ModuleLowering::isClosureClass(
                   arg->getType()->getAsCXXRecordDecl()) ||
               storedCallablePlace(arg->IgnoreImplicit()).has_value();
      }))
    return false;
  return !unsupported<bool>(
      expr, "a lambda with captures, or a std::function made from one or "
            "from a function of the differentiable function, is given to "
            "library code here, which cannot call it; call it in the "
            "function");
}

func::FuncOp FunctionLowering::callTarget(const clang::Expr *expr,
                                          const clang::FunctionDecl *callee,
                                          bool isVirtual) {
  module.noteCall(callee, expr->getBeginLoc());
  // (An error in the callee's signature is noted at this call.)
  module.enter(callee, expr->getBeginLoc());
  func::FuncOp target =
      isVirtual ? module.getVirtualDispatch(cast<clang::CXXMethodDecl>(callee),
                                            expr->getSourceRange())
                : module.getFunction(callee);
  module.leave();
  return target;
}

std::optional<FunctionLowering::CallResult> FunctionLowering::emitCall(
    const clang::Expr *expr, const clang::FunctionDecl *callee,
    std::optional<Address> object, ArrayRef<const clang::Expr *> args,
    std::optional<Address> dest, bool isVirtual) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  if (callee->isVariadic() || args.size() != callee->getNumParams())
    return unsupported<Result>(expr, kVariadicCall);
  bool libraryCode = module.isCalledOnLibraryObject(callee);
  if (libraryCode && givesCallablesToLibrary(expr, args))
    return std::nullopt;
  bool otherwiseInPlace = !libraryCode && passesCallersPlaces(callee, args);
  bool recursesWithFields =
      !libraryCode && !isVirtual &&
      callsItselfWithFieldMemory(callee, object, otherwiseInPlace);
  if (isVirtual) {
    // (Its object is a view of its own scalars, from which the dispatch
    // reads the class.)
    object = unpacked(object, expr);
    if (!libraryCode && object &&
        needsDispatchInPlace(callee, otherwiseInPlace))
      return dispatchInPlace(expr, cast<clang::CXXMethodDecl>(callee), *object,
                             args, dest);
  } else if (!libraryCode && lowersInPlace(callee, object, otherwiseInPlace,
                                           recursesWithFields)) {
    // Objects holding pointers are known to the caller only, and so is
    // an object of one integer packed among wider slots, which has no
    // address of its own: the callee's body, in place.
    return inlineBody(expr, callee, args, nullptr, {}, object, dest);
  }
  if (!libraryCode && refusesResizedArguments(callee, args))
    return std::nullopt;
  SmallVector<Value> operands;
  if (object)
    operands.push_back(materialize(*object, l));
  // (The objects whose fields' memory a recursive call passes beside them.)
  SmallVector<std::optional<Address>> places(args.size());
  if (!lowerArguments(args, callee, operands,
                      recursesWithFields ? &places : nullptr))
    return std::nullopt;
  clang::QualType returnType = callee->getReturnType().getCanonicalType();
  // The ct:: markers and <cmath>, on scalars.
  if (!object && (returnType->isArithmeticType() || returnType->isVoidType()) &&
      !libraryCode)
    if (Result builtin; lowerScalarBuiltin(expr, callee, operands, builtin))
      return builtin;
  libraryCode = libraryCode || runsAsLibraryCompiledIt(callee, args);

  // Code compiled elsewhere is called as it is (ExternalCalls.cpp): the
  // engine reports the call if a derivative must cross it.
  if (!libraryCode && !isVirtual && isExternalFunction(module, callee))
    if (std::string error = uncallableExternal(module, callee); !error.empty())
      return unsupported<Result>(expr, error);
  if ((libraryCode || isExternalFunction(module, callee)) &&
      !checkCompiledCallInTry(expr, callee))
    return std::nullopt;
  func::FuncOp target = callTarget(expr, callee, isVirtual);
  if (!target)
    return std::nullopt;
  std::optional<Address> resultPlace;
  if (isAggregate(returnType) && !isIterator(returnType) &&
      !isVector(returnType)) {
    resultPlace = resultPlaceFor(expr, returnType, dest);
    if (!resultPlace)
      return std::nullopt;
    operands.push_back(materialize(*resultPlace, l));
  }
  // (A node built by recursion comes back through a slot: NodeResults.h.)
  Value nodeSlot = !isVirtual && buildsNodesRecursively(callee)
                       ? newAddressSlot(l)
                       : Value();
  if (nodeSlot)
    operands.push_back(memref::CastOp::create(
        b, l, target.getFunctionType().getInputs()[operands.size()], nodeSlot));
  if (recursesWithFields &&
      !appendFieldOperands(expr, callee, places, target, operands))
    return std::nullopt;
  auto call = func::CallOp::create(b, l, target, operands);
  if (nodeSlot) {
    std::optional<Address> node =
        loadAddress(Address{nodeSlot, constantIndex(0, l)}, returnType, expr);
    return node ? std::optional(CallResult{nullptr, node}) : std::nullopt;
  }
  // (A vector returned by value: its memory is the caller's, freed with
  // the enclosing scope.)
  if (isVector(returnType))
    cleanups.push_back(call.getResult(0));
  if (isVector(returnType) || returnType->isReferenceType() ||
      isObjectPointer(returnType) || isIterator(returnType))
    return CallResult{nullptr, Address{call.getResult(0), constantIndex(0, l)}};
  if (resultPlace)
    return CallResult{nullptr, resultPlace};
  return CallResult{call.getNumResults() ? call.getResult(0) : nullptr, {}};
}

bool FunctionLowering::lowerConstruct(const clang::CXXConstructExpr *expr,
                                      Address dest) {
  Location l = loc(expr);
  const clang::CXXConstructorDecl *ctor = expr->getConstructor();
  std::optional<Layout> layout = layoutOf(expr->getType(), expr);
  if (!layout)
    return false;
  if (ModuleLowering::isVectorObject(expr->getType().getCanonicalType()))
    return constructVectorObject(expr, dest);
  // An array of vectors (`std::vector<double> rows[3];`).
  if (!ModuleLowering::getVectorElementType(
           ast.getBaseElementType(expr->getType()).getCanonicalType())
           .isNull())
    return emptyVectorArray(dest, expr->getType(), expr);
  // A std::unique_ptr or an array of them (`std::unique_ptr<T> parts[2];`):
  // what each owns, null unless given (`std::unique_ptr<T>(new T)`).
  clang::QualType owner = ast.getBaseElementType(expr->getType());
  if (!ModuleLowering::getSharedPointee(owner).isNull()) {
    if (!expr->getType()->isArrayType())
      return initializeShared(expr, owner, dest);
    return emptyShared(owner, dest, layout->size / 2, expr);
  }
  if (!ModuleLowering::getUniquePointee(owner).isNull()) {
    if (!expr->getType()->isArrayType())
      return initialize(expr, owner, dest, nullptr);
    std::optional<Address> null = nullOwned(owner, expr);
    if (!null)
      return false;
    for (int64_t slot = 0; slot < layout->size; ++slot)
      keepAddress(*null, offsetBy(dest, slot, l), l);
    return true;
  }
  // An empty class (a base of the object at `dest`, often) has no data to
  // copy or zero: its constructor's body, if it has one, is all.
  bool empty = isEmptyClass(expr->getType());
  if (empty && ctor->isTrivial())
    return true;
  if (ctor->isTrivial() && ctor->isCopyOrMoveConstructor()) {
    std::optional<Address> source = lowerLValue(expr->getArg(0));
    if (!source)
      return false;
    return copyObject(dest, *source, *layout, expr);
  }
  if (expr->requiresZeroInitialization() && !empty)
    fillZero(dest, *layout, l);
  if (ctor->isTrivial())
    return true;
  if (ModuleLowering::isKeptAsCompiled(ctor->getParent()) &&
      !callsLibraryCode(ctor, ctor->getParent(), expr))
    return false;
  SmallVector<const clang::Expr *> args(expr->arguments());
  // A constructor inherited by `using Base::Base;` (std::optional's
  // payload) constructs that base with the same arguments; the class adds
  // nothing to construct (no fields, no other non-empty bases).
  while (ctor->isInheritingConstructor()) {
    const clang::CXXConstructorDecl *inherited =
        ctor->getInheritedConstructor().getConstructor();
    const clang::CXXRecordDecl *target = inherited->getParent();
    // Down the chain of classes inheriting it, each adding nothing.
    for (const clang::CXXRecordDecl *derived = ctor->getParent();
         derived != target;) {
      const clang::CXXRecordDecl *next = nullptr;
      bool addsParts = !derived->field_empty();
      for (const clang::CXXBaseSpecifier &base : derived->bases()) {
        const clang::CXXRecordDecl *decl = base.getType()->getAsCXXRecordDecl();
        if (!next && (decl == target || decl->isDerivedFrom(target)))
          next = decl;
        else
          addsParts |= !decl->isEmpty();
      }
      if (!next || addsParts)
        return unsupported<bool>(expr, "this inherited constructor's class "
                                       "adds parts of its own, which "
                                       "differentiable code does not "
                                       "construct; write its constructor");
      dest = basePart(dest, derived, ast.getCanonicalTagType(next), l);
      derived = next;
    }
    ctor = inherited;
  }
  // An array of objects runs the constructor on each element.
  std::optional<Layout> element =
      layoutOf(ast.getBaseElementType(expr->getType()), expr);
  if (!element)
    return false;
  for (int64_t offset = 0; offset < layout->size; offset += element->size)
    if (!emitCall(expr, ctor, offsetBy(dest, offset, l), args, std::nullopt))
      return false;
  return true;
}

} // namespace cotangent::frontend
