//===- LowerExpr.cpp - Scalar expressions ---------------------------------===//

#include "FunctionLowering.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "clang/AST/DeclCXX.h"

using namespace mlir;

namespace cotangent::frontend {

/// Scalar constants of namespace scope (constexpr, or const with a constant
/// initializer) are values, not memory: null for anything else.
Value FunctionLowering::lowerGlobalConstant(const clang::Expr *expr) {
  const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(expr));
  const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || !var->hasGlobalStorage() || !var->getType()->isArithmeticType() ||
      !var->isUsableInConstantExpressions(ast))
    return nullptr;
  const clang::APValue *value = var->evaluateValue();
  Type type = typeOf(expr);
  if (!value || !type)
    return nullptr;
  Location l = loc(expr);
  if (value->isInt())
    return arith::ConstantOp::create(b, l, type,
                                     b.getIntegerAttr(type, value->getInt()));
  if (value->isFloat())
    return arith::ConstantOp::create(
        b, l, type, b.getFloatAttr(type, value->getFloat().convertToDouble()));
  return nullptr;
}

std::optional<Value>
FunctionLowering::lowerConstantValue(const clang::Expr *expr) {
  Location l = loc(expr);
  // A constant of the expression's type, or a null value after typeOf
  // reported the type (a `long double` literal).
  auto constant = [&](function_ref<Attribute(Type)> value) -> Value {
    Type type = typeOf(expr);
    if (!type)
      return nullptr;
    auto attr = dyn_cast_or_null<TypedAttr>(value(type));
    if (!attr) {
      module.error(expr->getSourceRange(),
                   "this value has no constant form in differentiable code");
      return nullptr;
    }
    return arith::ConstantOp::create(b, l, type, attr);
  };
  if (const auto *literal = dyn_cast<clang::IntegerLiteral>(expr))
    return constant(
        [&](Type type) { return b.getIntegerAttr(type, literal->getValue()); });
  if (const auto *literal = dyn_cast<clang::FloatingLiteral>(expr))
    return constant([&](Type type) {
      return b.getFloatAttr(type, literal->getValue().convertToDouble());
    });
  if (const auto *literal = dyn_cast<clang::CXXBoolLiteralExpr>(expr))
    return Value(arith::ConstantOp::create(b, l, b.getI1Type(),
                                           b.getBoolAttr(literal->getValue())));
  if (const auto *literal = dyn_cast<clang::CharacterLiteral>(expr))
    return constant(
        [&](Type type) { return b.getIntegerAttr(type, literal->getValue()); });
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    if (const auto *enumerator =
            dyn_cast<clang::EnumConstantDecl>(ref->getDecl()))
      return constant([&](Type type) {
        return b.getIntegerAttr(type, enumerator->getInitVal());
      });
  if (Value constant = lowerGlobalConstant(expr))
    return constant;
  // Braces around a scalar (`double s{x + y};`, `int n{}`) are its value.
  if (const auto *list = dyn_cast<clang::InitListExpr>(expr);
      list && expr->getType()->isArithmeticType() && list->getNumInits() == 1)
    return lowerRValue(list->getInit(0));
  if (isa<clang::ImplicitValueInitExpr, clang::CXXScalarValueInitExpr>(expr) ||
      (isa<clang::InitListExpr>(expr) && expr->getType()->isArithmeticType() &&
       cast<clang::InitListExpr>(expr)->getNumInits() == 0)) {
    return constant([&](Type type) { return b.getZeroAttr(type); });
  }
  // sizeof, alignof, type traits (`__is_pod(T)` in a library's
  // algorithm) and other integer constants Clang can evaluate.
  if (isa<clang::UnaryExprOrTypeTraitExpr, clang::TypeTraitExpr,
          clang::ArrayTypeTraitExpr, clang::ExpressionTraitExpr>(expr)) {
    clang::Expr::EvalResult result;
    Type type = typeOf(expr);
    if (type && expr->EvaluateAsInt(result, ast))
      return Value(arith::ConstantOp::create(
          b, l, type, b.getIntegerAttr(type, result.Val.getInt())));
  }
  return std::nullopt;
}

Value FunctionLowering::lowerCallValue(const clang::CallExpr *call) {
  Location l = loc(call);
  // A call the compiler evaluates (INFINITY, HUGE_VAL,
  // std::numeric_limits<T>::max(), constexpr helpers of constants) is
  // its value, with derivative zero.
  clang::Expr::EvalResult folded;
  if (call->getType()->isArithmeticType() &&
      call->EvaluateAsRValue(folded, ast) && !folded.HasSideEffects) {
    Type type = typeOf(call);
    if (type && folded.Val.isFloat())
      return arith::ConstantOp::create(
          b, l, type,
          b.getFloatAttr(type, folded.Val.getFloat().convertToDouble()));
    if (type && folded.Val.isInt())
      return arith::ConstantOp::create(
          b, l, type, b.getIntegerAttr(type, folded.Val.getInt()));
  }
  if (Value chosen = lowerMinMaxValue(call))
    return chosen;
  std::optional<CallResult> result = lowerCall(call, std::nullopt);
  if (!result)
    return nullptr;
  if (result->scalar)
    return result->scalar;
  if (result->address)
    return load(*result->address, l);
  return unsupported(call, "this call has no value");
}

Value FunctionLowering::lowerRValue(const clang::Expr *expr) {
  if (Value relation = lowerRewrittenIteratorRelation(expr))
    return relation;
  expr = strip(expr);
  Location l = loc(expr);
  if (std::optional<Value> constant = lowerConstantValue(expr))
    return *constant;
  if (isa<clang::CXXThrowExpr>(expr))
    return unsupported(expr, "a 'throw' inside an expression cannot be "
                             "differentiated, except as an arm of '?:'; "
                             "throw in a statement of its own (`if (...) "
                             "throw ...;`)");
  if (isa<clang::CXXNewExpr, clang::CXXDeleteExpr>(expr))
    return unsupported(expr, "'new' and 'delete' can initialize a pointer "
                             "variable and free it, but are not values");
  if (expr->getType()->isFunctionPointerType())
    return lowerFunctionPointer(expr);
  if (expr->getType()->isMemberPointerType())
    return lowerMemberPointer(expr);
  if (expr->getType()->isPointerType() || isAggregate(expr->getType()))
    return unsupported(expr, "this expression is used as a number, but it "
                             "is a pointer or an object; differentiable "
                             "code uses pointers only to address memory");
  if (const auto *cast = dyn_cast<clang::CastExpr>(expr))
    return lowerCast(cast);
  if (const auto *statements = dyn_cast<clang::StmtExpr>(expr))
    return lowerStatementExpression(statements);
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    if (binary->isAssignmentOp()) {
      std::optional<Address> place = lowerLValue(binary);
      return place ? load(*place, l) : nullptr;
    }
    return lowerBinary(binary);
  }
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr))
    return lowerUnary(unary);
  if (const auto *conditional = dyn_cast<clang::ConditionalOperator>(expr))
    return lowerConditional(conditional);
  if (const auto *call = dyn_cast<clang::CallExpr>(expr))
    return lowerCallValue(call);
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return lowerRValue(temporary->getSubExpr());
  if (const auto *defaultArg = dyn_cast<clang::CXXDefaultArgExpr>(expr))
    return lowerRValue(defaultArg->getExpr());
  if (const auto *defaultInit = dyn_cast<clang::CXXDefaultInitExpr>(expr))
    return lowerRValue(defaultInit->getExpr());
  if (expr->isGLValue())
    if (std::optional<Address> place = lowerLValue(expr))
      return load(*place, l);
  if (expr->isGLValue())
    return nullptr; // lowerLValue reported it.
  return unsupported(expr, "this expression (of type '" +
                               expr->getType().getAsString() +
                               "') cannot be differentiated; compute it "
                               "outside the differentiable function or "
                               "rewrite it with plain arithmetic");
}

Value FunctionLowering::index(Value value, clang::QualType from, Location l) {
  if (from->isUnsignedIntegerOrEnumerationType())
    return arith::IndexCastUIOp::create(b, l, b.getIndexType(), value);
  return arith::IndexCastOp::create(b, l, b.getIndexType(), value);
}

Value FunctionLowering::toBool(Value value, clang::QualType from, Location l) {
  if (value.getType().isInteger(1))
    return value;
  if (isa<FloatType>(value.getType()))
    return arith::CmpFOp::create(
        b, l, arith::CmpFPredicate::UNE, value,
        arith::ConstantOp::create(b, l, value.getType(),
                                  b.getZeroAttr(value.getType())));
  return arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::ne, value,
      arith::ConstantOp::create(b, l, value.getType(),
                                b.getZeroAttr(value.getType())));
}

Value FunctionLowering::convert(Value value, clang::QualType from,
                                clang::QualType to, Location l) {
  Type target =
      module.lowerType(to,
                       currentStatement ? currentStatement->getSourceRange()
                                        : clang::SourceRange(),
                       "a conversion here");
  if (!target || value.getType() == target)
    return value;
  if (to->isBooleanType())
    return toBool(value, from, l);
  bool fromFloat = isa<FloatType>(value.getType());
  bool toFloat = isa<FloatType>(target);
  bool fromSigned = from->isSignedIntegerOrEnumerationType();
  if (fromFloat && toFloat) {
    if (value.getType().getIntOrFloatBitWidth() <
        target.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, l, target, value);
    return arith::TruncFOp::create(b, l, target, value);
  }
  if (!fromFloat && toFloat)
    return fromSigned
               ? arith::SIToFPOp::create(b, l, target, value).getResult()
               : arith::UIToFPOp::create(b, l, target, value).getResult();
  if (fromFloat && !toFloat)
    return to->isSignedIntegerOrEnumerationType()
               ? arith::FPToSIOp::create(b, l, target, value).getResult()
               : arith::FPToUIOp::create(b, l, target, value).getResult();
  unsigned fromWidth = value.getType().getIntOrFloatBitWidth();
  unsigned toWidth = target.getIntOrFloatBitWidth();
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, l, target, value);
  if (fromSigned)
    return arith::ExtSIOp::create(b, l, target, value);
  return arith::ExtUIOp::create(b, l, target, value);
}

Value FunctionLowering::lowerCast(const clang::CastExpr *expr) {
  Location l = loc(expr);
  const clang::Expr *sub = expr->getSubExpr();
  switch (expr->getCastKind()) {
  case clang::CK_FloatingComplexToReal:
    return lowerComplexPartValue(sub, /*imaginary=*/false);
  case clang::CK_LValueToRValue: {
    if (Value constant = lowerGlobalConstant(sub))
      return constant;
    // `c ? x : y` read as a value: each arm is read in its own branch, so
    // no place has to be chosen (`return x > y ? x : y;`).
    if (const auto *conditional =
            dyn_cast<clang::ConditionalOperator>(strip(sub)))
      return lowerConditional(conditional);
    // Likewise `std::max(a, b)` read as a value.
    if (const auto *call = dyn_cast<clang::CallExpr>(strip(sub)))
      if (Value chosen = lowerMinMaxValue(call))
        return chosen;
    std::optional<Address> place = lowerLValue(sub);
    return place ? load(*place, l) : nullptr;
  }
  case clang::CK_NoOp:
  case clang::CK_ToVoid:
    return lowerRValue(sub);
  case clang::CK_UserDefinedConversion: {
    // `operator T()` called (`if (bits[i])`: std::vector<bool>'s proxy
    // read as a bool); the call's value is already of the target's type.
    Value v = lowerRValue(sub);
    if (!v || ast.hasSameUnqualifiedType(sub->getType(), expr->getType()) ||
        !sub->getType()->isScalarType())
      return v;
    return convert(v, sub->getType(), expr->getType(), l);
  }
  case clang::CK_IntegralCast:
  case clang::CK_IntegralToFloating:
  case clang::CK_FloatingToIntegral:
  case clang::CK_FloatingCast:
  case clang::CK_IntegralToBoolean:
  case clang::CK_FloatingToBoolean:
  case clang::CK_BooleanToSignedIntegral: {
    Value v = lowerRValue(sub);
    return v ? convert(v, sub->getType(), expr->getType(), l) : nullptr;
  }
  case clang::CK_PointerToBoolean: {
    // A test the compiler can decide (`assert(n > 0 && "message")`: a
    // string literal is never null) is its constant.
    bool known = false;
    if (expr->EvaluateAsBooleanCondition(known, ast))
      return arith::ConstantOp::create(b, l, b.getI1Type(),
                                       b.getBoolAttr(known));
    if (sub->getType()->isFunctionPointerType()) {
      Value address = lowerFunctionPointer(sub);
      return address ? toBool(address, sub->getType(), l) : nullptr;
    }
    Value isNull = lowerNullTest(expr->getSubExpr());
    if (!isNull)
      return nullptr;
    // (Folded where the test is known, so that `if (out)` takes its branch
    // alone: an optional output left null.)
    return b.createOrFold<arith::XOrIOp>(
        l, isNull, arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
  }
  case clang::CK_MemberPointerToBoolean: {
    // (Null is -1 for a data member, 0 for a member function.)
    Value value = lowerMemberPointer(sub);
    if (!value)
      return nullptr;
    int64_t null = sub->getType()->isMemberFunctionPointerType() ? 0 : -1;
    return arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::ne, value,
        arith::ConstantOp::create(b, l, b.getI64IntegerAttr(null)));
  }
  case clang::CK_LValueToRValueBitCast:
    return lowerBitCast(expr);
  case clang::CK_PointerToIntegral: {
    // The address itself (an alignment check, `uintptr_t(p) % 16`): where
    // the memory begins, and the offset, in bytes. No derivative flows.
    std::optional<Address> pointer = unpacked(lowerPointer(sub), sub);
    if (!pointer)
      return nullptr;
    auto type = cast<MemRefType>(pointer->memref.getType());
    auto [base, viewOffset] = memoryStart(pointer->memref, l);
    Value scalars = arith::AddIOp::create(b, l, viewOffset, pointer->offset);
    Value bytes = arith::AddIOp::create(
        b, l, base,
        arith::MulIOp::create(
            b, l, scalars,
            constantIndex(type.getElementTypeBitWidth() / 8, l)));
    return arith::IndexCastUIOp::create(
        b, l, b.getIntegerType(ast.getTypeSize(expr->getType())), bytes);
  }
  default:
    return unsupported(expr, "converting '" +
                                 expr->getSubExpr()->getType().getAsString() +
                                 "' to '" + expr->getType().getAsString() +
                                 "' cannot be differentiated");
  }
}

Value FunctionLowering::lowerBitCast(const clang::CastExpr *expr) {
  // std::bit_cast between numbers of one width: their bits, which carry
  // no derivative (ct.bit_cast says so to the engine).
  const clang::Expr *sub = expr->getSubExpr();
  clang::QualType from = sub->getType(), to = expr->getType();
  if (!from->isArithmeticType() || !to->isArithmeticType() ||
      from->isBooleanType() || to->isBooleanType())
    return unsupported(expr, "reading the bits of '" + from.getAsString() +
                                 "' as '" + to.getAsString() +
                                 "' cannot be differentiated; bit casts "
                                 "between numbers of one width can");
  std::optional<Address> place = lowerLValue(sub);
  Type target = typeOf(expr);
  if (!place || !target)
    return nullptr;
  Location l = loc(expr);
  return ct::BitCastOp::create(b, l, target, load(*place, l));
}

/// The predicate of a C++ comparison of floating-point values: ordered,
/// but for `!=` (true when either is NaN).
static arith::CmpFPredicate floatPredicate(clang::BinaryOperatorKind kind) {
  switch (kind) {
  case clang::BO_LT:
    return arith::CmpFPredicate::OLT;
  case clang::BO_LE:
    return arith::CmpFPredicate::OLE;
  case clang::BO_GT:
    return arith::CmpFPredicate::OGT;
  case clang::BO_GE:
    return arith::CmpFPredicate::OGE;
  case clang::BO_EQ:
    return arith::CmpFPredicate::OEQ;
  default:
    return arith::CmpFPredicate::UNE;
  }
}

static arith::CmpIPredicate integerPredicate(clang::BinaryOperatorKind kind,
                                             bool isSigned) {
  switch (kind) {
  case clang::BO_LT:
    return isSigned ? arith::CmpIPredicate::slt : arith::CmpIPredicate::ult;
  case clang::BO_LE:
    return isSigned ? arith::CmpIPredicate::sle : arith::CmpIPredicate::ule;
  case clang::BO_GT:
    return isSigned ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::ugt;
  case clang::BO_GE:
    return isSigned ? arith::CmpIPredicate::sge : arith::CmpIPredicate::uge;
  case clang::BO_EQ:
    return arith::CmpIPredicate::eq;
  default:
    return arith::CmpIPredicate::ne;
  }
}

Value FunctionLowering::arithmetic(clang::BinaryOperatorKind kind, Value lhs,
                                   Value rhs, clang::QualType type,
                                   Location l) {
  bool isFloat = isa<FloatType>(lhs.getType());
  bool isSigned = type->isSignedIntegerOrEnumerationType();
  // Signed overflow is undefined in C++, as Clang tells LLVM with `nsw`:
  // it lets LLVM widen induction variables and fold the sign extensions of
  // index arithmetic. (Not for types narrower than int: C++ computes those
  // in int and converts back, which wraps.)
  auto overflow = arith::IntegerOverflowFlags::none;
  if (isSigned && !ast.isPromotableIntegerType(type) &&
      !ast.getLangOpts().isSignedOverflowDefined())
    overflow = arith::IntegerOverflowFlags::nsw;
  // A shift's amount keeps its own type in C++ (`len >> 1` of a long by an
  // int); it is non-negative, so widening or narrowing keeps its value.
  if ((kind == clang::BO_Shl || kind == clang::BO_Shr) &&
      lhs.getType() != rhs.getType()) {
    if (rhs.getType().getIntOrFloatBitWidth() <
        lhs.getType().getIntOrFloatBitWidth())
      rhs = arith::ExtUIOp::create(b, l, lhs.getType(), rhs);
    else
      rhs = arith::TruncIOp::create(b, l, lhs.getType(), rhs);
  }
  switch (kind) {
  case clang::BO_Add:
    return isFloat
               ? arith::AddFOp::create(b, l, lhs, rhs).getResult()
               : arith::AddIOp::create(b, l, lhs, rhs, overflow).getResult();
  case clang::BO_Sub:
    return isFloat
               ? arith::SubFOp::create(b, l, lhs, rhs).getResult()
               : arith::SubIOp::create(b, l, lhs, rhs, overflow).getResult();
  case clang::BO_Mul:
    return isFloat
               ? arith::MulFOp::create(b, l, lhs, rhs).getResult()
               : arith::MulIOp::create(b, l, lhs, rhs, overflow).getResult();
  case clang::BO_Div:
    if (isFloat)
      return arith::DivFOp::create(b, l, lhs, rhs);
    return isSigned ? arith::DivSIOp::create(b, l, lhs, rhs).getResult()
                    : arith::DivUIOp::create(b, l, lhs, rhs).getResult();
  case clang::BO_Rem:
    return isSigned ? arith::RemSIOp::create(b, l, lhs, rhs).getResult()
                    : arith::RemUIOp::create(b, l, lhs, rhs).getResult();
  case clang::BO_And:
    return arith::AndIOp::create(b, l, lhs, rhs);
  case clang::BO_Or:
    return arith::OrIOp::create(b, l, lhs, rhs);
  case clang::BO_Xor:
    return arith::XOrIOp::create(b, l, lhs, rhs);
  case clang::BO_Shl:
    return arith::ShLIOp::create(b, l, lhs, rhs);
  case clang::BO_Shr:
    return isSigned ? arith::ShRSIOp::create(b, l, lhs, rhs).getResult()
                    : arith::ShRUIOp::create(b, l, lhs, rhs).getResult();
  default:
    break;
  }
  // Comparisons.
  if (isFloat)
    return arith::CmpFOp::create(b, l, floatPredicate(kind), lhs, rhs);
  return arith::CmpIOp::create(b, l, integerPredicate(kind, isSigned), lhs,
                               rhs);
}

/// The values of `call`'s only argument when it is a braced list
/// (`std::max({a, b, c})`), else null.
static const clang::InitListExpr *listOfValues(const clang::CallExpr *call) {
  if (call->getNumArgs() != 1)
    return nullptr;
  const auto *list = dyn_cast<clang::CXXStdInitializerListExpr>(
      call->getArg(0)->IgnoreImplicit());
  if (!list)
    return nullptr;
  return dyn_cast<clang::InitListExpr>(list->getSubExpr()->IgnoreImplicit());
}

Value FunctionLowering::lowerMinMaxValue(const clang::CallExpr *call) {
  const clang::FunctionDecl *callee = call->getDirectCallee();
  if (!callee || !callee->isInStdNamespace() || !callee->getIdentifier() ||
      !call->getType()->isArithmeticType())
    return nullptr;
  StringRef name = callee->getName();
  unsigned arity = name == "clamp" ? 3 : 2;
  // `std::max({a, b, c})`: the values of the list, as arguments.
  ArrayRef<const clang::Expr *> args(call->getArgs(), call->getNumArgs());
  if (const clang::InitListExpr *list = listOfValues(call);
      list && name != "clamp") {
    args = ArrayRef(list->getInits(), list->getNumInits());
    arity = args.size();
  }
  if ((name != "min" && name != "max" && name != "clamp") ||
      args.size() != arity || arity == 0 ||
      !llvm::all_of(args, [&](const clang::Expr *arg) {
        return ast.hasSameUnqualifiedType(arg->getType(), call->getType());
      }))
    return nullptr;
  // The standard's definitions, on values: max(a, b) = a < b ? b : a,
  // min(a, b) = b < a ? b : a, clamp(v, lo, hi) = v < lo ? lo : hi < v ?
  // hi : v; of a list, the first of the largest (smallest) values, as
  // max_element (min_element) finds it. (As a place, the library's own
  // body is lowered instead.)
  Location l = loc(call);
  SmallVector<Value> values;
  for (const clang::Expr *arg : args)
    if (Value value = lowerRValue(arg))
      values.push_back(value);
    else
      return nullptr;
  clang::QualType type = call->getType();
  auto less = [&](Value a, Value c) {
    return arithmetic(clang::BO_LT, a, c, type, l);
  };
  if (name == "max" || name == "min") {
    Value chosen = values.front();
    for (Value next : ArrayRef(values).drop_front())
      chosen = arith::SelectOp::create(
          b, l, name == "max" ? less(chosen, next) : less(next, chosen), next,
          chosen);
    return chosen;
  }
  Value upper = arith::SelectOp::create(b, l, less(values[2], values[0]),
                                        values[2], values[0]);
  return arith::SelectOp::create(b, l, less(values[0], values[1]), values[1],
                                 upper);
}

Value FunctionLowering::lowerBinary(const clang::BinaryOperator *expr) {
  Location l = loc(expr);
  if (expr->isLogicalOp())
    return lowerLogical(expr);
  if (expr->getOpcode() == clang::BO_Comma) {
    lowerDiscarded(expr->getLHS());
    return lowerRValue(expr->getRHS());
  }
  if (expr->getLHS()->getType()->isFunctionPointerType() ||
      expr->getRHS()->getType()->isFunctionPointerType() ||
      expr->getLHS()->getType()->isMemberPointerType())
    return compareFunctionPointers(expr);
  if (expr->getLHS()->getType()->isPointerType() &&
      expr->getRHS()->getType()->isPointerType())
    return lowerPointerRelation(expr->getOpcode(), expr->getLHS(),
                                expr->getRHS(), expr);
  if (expr->getLHS()->getType()->isPointerType() ||
      expr->getRHS()->getType()->isPointerType())
    return unsupported(expr, "a pointer can be compared only with another "
                             "pointer into the same array");
  Value lhs = lowerRValue(expr->getLHS());
  Value rhs = lowerRValue(expr->getRHS());
  if (!lhs || !rhs)
    return nullptr;
  if (expr->getOpcode() == clang::BO_Rem && isa<FloatType>(lhs.getType()))
    return unsupported(expr, "'%' on floating-point values is not C++");
  return arithmetic(expr->getOpcode(), lhs, rhs, expr->getLHS()->getType(), l);
}

/// `&&` and `||` evaluate their right side only when needed.
Value FunctionLowering::lowerLogical(const clang::BinaryOperator *expr) {
  Location l = loc(expr);
  Value lhs = lowerRValue(expr->getLHS());
  if (!lhs)
    return nullptr;
  lhs = toBool(lhs, expr->getLHS()->getType(), l);
  Block *current = b.getInsertionBlock();
  Block *rhsBlock = newBlock();
  Block *merge = newBlock();
  merge->addArgument(b.getI1Type(), l);
  enter(current);
  bool isAnd = expr->getOpcode() == clang::BO_LAnd;
  Value shortCircuit = arith::ConstantOp::create(b, l, b.getBoolAttr(!isAnd));
  if (isAnd)
    cf::CondBranchOp::create(b, l, lhs, rhsBlock, ValueRange{}, merge,
                             ValueRange{shortCircuit});
  else
    cf::CondBranchOp::create(b, l, lhs, merge, ValueRange{shortCircuit},
                             rhsBlock, ValueRange{});
  enter(rhsBlock);
  Value rhs = lowerRValue(expr->getRHS());
  if (!rhs)
    return nullptr;
  rhs = toBool(rhs, expr->getRHS()->getType(), l);
  cf::BranchOp::create(b, l, merge, ValueRange{rhs});
  enter(merge);
  return merge->getArgument(0);
}

Value FunctionLowering::lowerUnary(const clang::UnaryOperator *expr) {
  Location l = loc(expr);
  const clang::Expr *sub = expr->getSubExpr();
  switch (expr->getOpcode()) {
  case clang::UO_Real:
  case clang::UO_Imag:
    return lowerComplexPartValue(sub, expr->getOpcode() == clang::UO_Imag);
  case clang::UO_Plus:
    return lowerRValue(sub);
  case clang::UO_Minus: {
    Value v = lowerRValue(sub);
    if (!v)
      return nullptr;
    if (isa<FloatType>(v.getType()))
      return arith::NegFOp::create(b, l, v);
    Value zero = arith::ConstantOp::create(b, l, v.getType(),
                                           b.getZeroAttr(v.getType()));
    return arithmetic(clang::BO_Sub, zero, v, expr->getType(), l);
  }
  case clang::UO_LNot: {
    Value v = lowerRValue(sub);
    if (!v)
      return nullptr;
    Value one = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
    return arith::XOrIOp::create(b, l, toBool(v, sub->getType(), l), one);
  }
  case clang::UO_Not: {
    Value v = lowerRValue(sub);
    if (!v)
      return nullptr;
    Value ones = arith::ConstantOp::create(b, l, v.getType(),
                                           b.getIntegerAttr(v.getType(), -1));
    return arith::XOrIOp::create(b, l, v, ones);
  }
  case clang::UO_PreInc:
  case clang::UO_PreDec:
  case clang::UO_PostInc:
  case clang::UO_PostDec: {
    std::optional<Address> place = lowerLValue(sub);
    if (!place)
      return nullptr;
    auto [old, updated] = increment(expr, *place);
    return expr->isPrefix() ? updated : old;
  }
  case clang::UO_Deref: {
    std::optional<Address> place = lowerLValue(expr);
    return place ? load(*place, l) : nullptr;
  }
  default:
    return unsupported(expr, "this operator cannot be differentiated");
  }
}

std::pair<Value, Value>
FunctionLowering::increment(const clang::UnaryOperator *expr, Address place) {
  Location l = loc(expr);
  Value old = load(place, l);
  Type type = old.getType();
  Value one =
      isa<FloatType>(type)
          ? arith::ConstantOp::create(b, l, type, b.getFloatAttr(type, 1.0))
          : arith::ConstantOp::create(b, l, type, b.getIntegerAttr(type, 1));
  clang::BinaryOperatorKind kind =
      expr->isIncrementOp() ? clang::BO_Add : clang::BO_Sub;
  Value updated = arithmetic(kind, old, one, expr->getSubExpr()->getType(), l);
  store(updated, place, l);
  return {old, updated};
}

Block *FunctionLowering::emitConditional(
    const clang::ConditionalOperator *expr, TypeRange mergeTypes,
    function_ref<bool(const clang::Expr *, SmallVectorImpl<Value> &)>
        lowerArm) {
  Location l = loc(expr);
  Value cond = lowerRValue(expr->getCond());
  if (!cond)
    return nullptr;
  cond = toBool(cond, expr->getCond()->getType(), l);
  Block *current = b.getInsertionBlock();
  Block *trueBlock = newBlock();
  Block *falseBlock = newBlock();
  Block *merge = newBlock();
  for (Type type : mergeTypes)
    merge->addArgument(type, l);
  enter(current);
  cf::CondBranchOp::create(b, l, cond, trueBlock, falseBlock);
  for (auto [block, arm] : {std::pair{trueBlock, expr->getTrueExpr()},
                            std::pair{falseBlock, expr->getFalseExpr()}}) {
    enter(block);
    SmallVector<Value> passed;
    // Temporaries of an arm live in the arm (they would not dominate the
    // merge).
    size_t depth = cleanups.size();
    if (!lowerArm(arm, passed))
      return nullptr;
    emitCleanups(depth, l);
    cleanups.truncate(depth);
    branchTo(l, merge, passed);
  }
  enter(merge);
  return merge;
}

Value FunctionLowering::lowerConditional(
    const clang::ConditionalOperator *expr) {
  if (const clang::Expr *other = nullptr; lowerThrowingArm(expr, other))
    return other ? lowerRValue(other) : nullptr;
  Type type = typeOf(expr);
  if (!type)
    return nullptr;
  Block *merge = emitConditional(
      expr, type, [&](const clang::Expr *arm, SmallVectorImpl<Value> &passed) {
        Value v = lowerRValue(arm);
        if (v)
          passed.push_back(v);
        return v != nullptr;
      });
  return merge ? merge->getArgument(0) : nullptr;
}

} // namespace cotangent::frontend
