//===- MathFunctions.cpp - <cmath> to the math dialect --------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
enum class MathKind {
  None,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Asinh,
  Acosh,
  Atanh,
  Exp,
  Exp2,
  Expm1,
  Log,
  Log2,
  Log10,
  Log1p,
  Pow,
  Sqrt,
  Cbrt,
  Hypot,
  Fabs,
  Fmin,
  Fmax,
  Floor,
  Ceil,
  Round,
  Erf,
  Erfc,
  Lgamma,
  Tgamma,
  Fma,
  Copysign,
  Fdim,
  Fmod,
  Remainder,
  Trunc,
  Rint,
  Ldexp
};
} // namespace

StringRef mathFunctionBase(StringRef name,
                           llvm::function_ref<bool(StringRef)> isKnown) {
  name.consume_front("__builtin_");
  // The float and long double spellings: sinf, powl, ... (the operand
  // types then decide which are lowered).
  if (!isKnown(name) && (name.ends_with("f") || name.ends_with("l")))
    return name.drop_back();
  return name;
}

/// `sinf`, `__builtin_sin`, `std::sin`... all name the same function.
static MathKind classify(StringRef name) {
  auto kind = [](StringRef n) {
    return llvm::StringSwitch<MathKind>(n)
        .Case("sin", MathKind::Sin)
        .Case("cos", MathKind::Cos)
        .Case("tan", MathKind::Tan)
        .Case("asin", MathKind::Asin)
        .Case("acos", MathKind::Acos)
        .Case("atan", MathKind::Atan)
        .Case("atan2", MathKind::Atan2)
        .Case("sinh", MathKind::Sinh)
        .Case("cosh", MathKind::Cosh)
        .Case("tanh", MathKind::Tanh)
        .Case("asinh", MathKind::Asinh)
        .Case("acosh", MathKind::Acosh)
        .Case("atanh", MathKind::Atanh)
        .Case("exp", MathKind::Exp)
        .Case("exp2", MathKind::Exp2)
        .Case("expm1", MathKind::Expm1)
        .Case("log", MathKind::Log)
        .Case("log2", MathKind::Log2)
        .Case("log10", MathKind::Log10)
        .Case("log1p", MathKind::Log1p)
        .Case("pow", MathKind::Pow)
        .Case("sqrt", MathKind::Sqrt)
        .Case("cbrt", MathKind::Cbrt)
        .Case("hypot", MathKind::Hypot)
        .Case("fabs", MathKind::Fabs)
        .Case("abs", MathKind::Fabs)
        .Case("fmin", MathKind::Fmin)
        .Case("fmax", MathKind::Fmax)
        .Case("floor", MathKind::Floor)
        .Case("ceil", MathKind::Ceil)
        .Case("round", MathKind::Round)
        .Case("erf", MathKind::Erf)
        .Case("erfc", MathKind::Erfc)
        .Case("lgamma", MathKind::Lgamma)
        .Case("tgamma", MathKind::Tgamma)
        .Case("fma", MathKind::Fma)
        .Case("copysign", MathKind::Copysign)
        .Case("fdim", MathKind::Fdim)
        .Case("fmod", MathKind::Fmod)
        .Case("remainder", MathKind::Remainder)
        .Case("trunc", MathKind::Trunc)
        .Case("rint", MathKind::Rint)
        .Case("nearbyint", MathKind::Rint)
        .Case("ldexp", MathKind::Ldexp)
        .Case("scalbn", MathKind::Ldexp)
        .Case("scalbln", MathKind::Ldexp)
        .Default(MathKind::None);
  };
  return kind(mathFunctionBase(
      name, [&](StringRef whole) { return kind(whole) != MathKind::None; }));
}

bool isMathLibraryFunction(const clang::FunctionDecl *function) {
  const clang::DeclContext *context =
      function->getDeclContext()->getRedeclContext();
  if (context->isTranslationUnit() || context->isExternCContext())
    return true;
  return context->isStdNamespace();
}

Value buildRemainder(OpBuilder &b, Location loc, Value x, Value y) {
  // x - n y with n = x / y rounded to nearest, ties to even.
  Value n =
      math::RoundEvenOp::create(b, loc, arith::DivFOp::create(b, loc, x, y));
  return arith::SubFOp::create(b, loc, x, arith::MulFOp::create(b, loc, n, y));
}

Value scaleByPowerOfTwo(OpBuilder &b, Location loc, Value x, Value n) {
  // x * 2^n, exact (n is an integer: no derivative). 2^n alone overflows
  // for |n| > 1023 where the product does not (a subnormal scaled up, a
  // large number scaled down), so n, clamped to where every finite x
  // gives 0 or infinity, is applied in three factors of at most 2^734.
  Type type = n.getType();
  auto constant = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
  };
  constexpr int64_t kBeyondEveryExponent = 2200;
  n = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, n, constant(kBeyondEveryExponent)),
      constant(-kBeyondEveryExponent));
  Value first = arith::DivSIOp::create(b, loc, n, constant(3));
  Value rest = arith::SubIOp::create(b, loc, n, first);
  Value second = arith::DivSIOp::create(b, loc, rest, constant(2));
  Value third = arith::SubIOp::create(b, loc, rest, second);
  Value scaled = x;
  for (Value part : {first, second, third}) {
    Value factor = math::Exp2Op::create(
        b, loc, arith::SIToFPOp::create(b, loc, x.getType(), part));
    scaled = arith::MulFOp::create(b, loc, scaled, factor);
  }
  return scaled;
}

/// How many numbers the C library's function of `kind` takes.
static size_t arity(MathKind kind) {
  switch (kind) {
  case MathKind::Atan2:
  case MathKind::Pow:
  case MathKind::Hypot:
  case MathKind::Fmin:
  case MathKind::Fmax:
  case MathKind::Copysign:
  case MathKind::Fdim:
  case MathKind::Fmod:
  case MathKind::Remainder:
  case MathKind::Ldexp:
    return 2;
  case MathKind::Fma:
    return 3;
  default:
    return 1;
  }
}

/// The functions that are one operation of the math or arith dialect;
/// null for the others.
static Value buildOneOperation(OpBuilder &b, Location loc, MathKind kind,
                               ValueRange args) {
  auto unary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return Op::create(b, loc, args[0]);
  };
  auto binary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return Op::create(b, loc, args[0], args[1]);
  };
  switch (kind) {
  case MathKind::Sin:
    return unary(math::SinOp());
  case MathKind::Cos:
    return unary(math::CosOp());
  case MathKind::Tan:
    return unary(math::TanOp());
  case MathKind::Asin:
    return unary(math::AsinOp());
  case MathKind::Acos:
    return unary(math::AcosOp());
  case MathKind::Atan:
    return unary(math::AtanOp());
  case MathKind::Atan2:
    return binary(math::Atan2Op());
  case MathKind::Sinh:
    return unary(math::SinhOp());
  case MathKind::Cosh:
    return unary(math::CoshOp());
  case MathKind::Tanh:
    return unary(math::TanhOp());
  case MathKind::Asinh:
    return unary(math::AsinhOp());
  case MathKind::Acosh:
    return unary(math::AcoshOp());
  case MathKind::Atanh:
    return unary(math::AtanhOp());
  case MathKind::Exp:
    return unary(math::ExpOp());
  case MathKind::Exp2:
    return unary(math::Exp2Op());
  case MathKind::Expm1:
    return unary(math::ExpM1Op());
  case MathKind::Log:
    return unary(math::LogOp());
  case MathKind::Log2:
    return unary(math::Log2Op());
  case MathKind::Log10:
    return unary(math::Log10Op());
  case MathKind::Log1p:
    return unary(math::Log1pOp());
  case MathKind::Pow:
    return binary(math::PowFOp());
  case MathKind::Sqrt:
    return unary(math::SqrtOp());
  case MathKind::Cbrt:
    return unary(math::CbrtOp());
  case MathKind::Fabs:
    return unary(math::AbsFOp());
  case MathKind::Fmin:
    return binary(arith::MinNumFOp());
  case MathKind::Fmax:
    return binary(arith::MaxNumFOp());
  case MathKind::Floor:
    return unary(math::FloorOp());
  case MathKind::Ceil:
    return unary(math::CeilOp());
  case MathKind::Round:
    return unary(math::RoundOp());
  case MathKind::Erf:
    return unary(math::ErfOp());
  case MathKind::Erfc:
    return unary(math::ErfcOp());
  case MathKind::Copysign:
    return binary(math::CopySignOp());
  case MathKind::Trunc:
    return unary(math::TruncOp());
  // Round to nearest, ties to even: the default rounding mode.
  case MathKind::Rint:
    return unary(math::RoundEvenOp());
  case MathKind::Fmod:
    return binary(arith::RemFOp());
  default:
    return nullptr;
  }
}

/// The functions built from several operations, or from one of ours.
static Value buildComposed(OpBuilder &b, Location loc, MathKind kind,
                           ValueRange args, Type resultType) {
  auto zero = [&] {
    return arith::ConstantOp::create(b, loc, resultType,
                                     b.getFloatAttr(resultType, 0));
  };
  switch (kind) {
  case MathKind::Fma:
    return math::FmaOp::create(b, loc, args[0], args[1], args[2]);
  case MathKind::Fdim: {
    // x - y where x > y (or either is NaN), else +0 (the derivative at
    // the kink is 0).
    Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT,
                                        args[0], args[1]);
    Value difference = arith::SubFOp::create(b, loc, args[0], args[1]);
    return arith::SelectOp::create(b, loc, above, difference, zero());
  }
  case MathKind::Remainder:
    return buildRemainder(b, loc, args[0], args[1]);
  case MathKind::Hypot:
    // The C library's hypot, exact where x*x + y*y overflows.
    return ct::HypotOp::create(b, loc, args[0], args[1]);
  case MathKind::Lgamma:
    return ct::LgammaOp::create(b, loc, args[0]);
  case MathKind::Tgamma:
    return ct::TgammaOp::create(b, loc, args[0]);
  default:
    return nullptr;
  }
}

Value buildMathFunction(OpBuilder &b, Location loc,
                        const clang::FunctionDecl *function, ValueRange args,
                        Type resultType, ModuleOp module) {
  if (!function->getIdentifier() || !isMathLibraryFunction(function))
    return nullptr;
  return buildNamedMathFunction(b, loc, function->getName(), args, resultType);
}

Value buildNamedMathFunction(OpBuilder &b, Location loc, StringRef name,
                             ValueRange args, Type resultType) {
  MathKind kind = classify(name);
  if (kind == MathKind::Ldexp && args.size() == 2 &&
      isa<FloatType>(resultType) && args[0].getType() == resultType &&
      isa<IntegerType>(args[1].getType())) {
    return scaleByPowerOfTwo(b, loc, args[0], args[1]);
  }
  // (Another arity is another function: C++17's three-argument
  // std::hypot, an overload of the program's own.)
  if (kind == MathKind::None || !isa<FloatType>(resultType) ||
      args.size() != arity(kind) ||
      !llvm::all_of(args, [&](Value v) { return v.getType() == resultType; }))
    return nullptr;
  if (Value value = buildOneOperation(b, loc, kind, args))
    return value;
  return buildComposed(b, loc, kind, args, resultType);
}

} // namespace cotangent::frontend
