//===- ComplexNumbers.cpp - _Complex values and std::complex --------------===//
//
// A complex number (`_Complex double`, the value std::complex keeps) is an
// object of two scalars, its real and imaginary parts, like a struct of two
// doubles: it lives in memory, and a complex expression is lowered into the
// place that receives it. Arithmetic and the C library's complex functions
// (__builtin_cexp, ..., which std::complex's functions call) are written on
// the parts with real arithmetic and <cmath>, whose derivatives the engine
// has: the derivative of a real result through complex intermediates, and of
// complex parameters (a std::complex's shadow is a std::complex), fall out.
// The inverse functions keep the library's values, differentiated as their
// expressions in log and sqrt.
// Products and quotients are the textbook formulas (C's Annex G treatment of
// infinities and NaNs is not kept).
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
/// A complex value as its two parts.
struct Parts {
  Value re, im;
};

/// The name of a complex builtin without `__builtin_` and its `f`/`l`
/// suffix (`cexp` for __builtin_cexpf), or "" for other functions.
std::string complexBuiltin(const clang::FunctionDecl *callee) {
  if (!callee->getBuiltinID() || !callee->getIdentifier())
    return "";
  llvm::StringRef name = callee->getName();
  name.consume_front("__builtin_");
  static constexpr llvm::StringLiteral known[] = {
      "cabs",   "carg",   "creal",  "cimag", "conj",   "cexp",
      "clog",   "csqrt",  "cpow",   "csin",  "ccos",   "ctan",
      "csinh",  "ccosh",  "ctanh",  "casin", "cacos",  "catan",
      "casinh", "cacosh", "catanh", "cproj", "complex"};
  for (llvm::StringRef candidate : known)
    if (name == candidate || name == (candidate + "f").str() ||
        name == (candidate + "l").str())
      return candidate.str();
  return "";
}
} // namespace

bool FunctionLowering::isComplexBuiltin(const clang::FunctionDecl *callee) {
  return !complexBuiltin(callee).empty();
}

std::optional<std::pair<Value, Value>>
FunctionLowering::complexParts(const clang::Expr *expr) {
  Location l = loc(expr);
  if (!expr->getType()->isAnyComplexType()) {
    // A real operand: its imaginary part is 0.
    Value re = lowerRValue(expr);
    if (!re)
      return std::nullopt;
    Value zero = arith::ConstantOp::create(b, l, re.getType(),
                                           b.getZeroAttr(re.getType()));
    return std::make_pair(re, zero);
  }
  std::optional<Address> place;
  if (expr->isGLValue()) {
    place = lowerLValue(expr);
  } else {
    place = allocate(expr->getType(), expr->getSourceRange(), "this value");
    if (place && !lowerComplexInto(expr, *place))
      return std::nullopt;
  }
  if (!place)
    return std::nullopt;
  return std::make_pair(load(*place, l), load(offsetBy(*place, 1, l), l));
}

/// `a op b` on parts (BO_Add ... BO_Div, also their compound forms);
/// `realRhs` when the right operand is real (its imaginary part is 0).
static std::optional<Parts> complexArithmetic(OpBuilder &b, Location l,
                                              clang::BinaryOperatorKind op,
                                              Parts x, Parts y, bool realRhs) {
  auto mul = [&](Value p, Value q) {
    return arith::MulFOp::create(b, l, p, q).getResult();
  };
  auto add = [&](Value p, Value q) {
    return arith::AddFOp::create(b, l, p, q).getResult();
  };
  auto sub = [&](Value p, Value q) {
    return arith::SubFOp::create(b, l, p, q).getResult();
  };
  auto div = [&](Value p, Value q) {
    return arith::DivFOp::create(b, l, p, q).getResult();
  };
  switch (op) {
  case clang::BO_Add:
  case clang::BO_AddAssign:
    return Parts{add(x.re, y.re), add(x.im, y.im)};
  case clang::BO_Sub:
  case clang::BO_SubAssign:
    return Parts{sub(x.re, y.re), sub(x.im, y.im)};
  case clang::BO_Mul:
  case clang::BO_MulAssign:
    if (realRhs)
      return Parts{mul(x.re, y.re), mul(x.im, y.re)};
    return Parts{sub(mul(x.re, y.re), mul(x.im, y.im)),
                 add(mul(x.re, y.im), mul(x.im, y.re))};
  case clang::BO_Div:
  case clang::BO_DivAssign: {
    if (realRhs)
      return Parts{div(x.re, y.re), div(x.im, y.re)};
    Value norm = add(mul(y.re, y.re), mul(y.im, y.im));
    return Parts{div(add(mul(x.re, y.re), mul(x.im, y.im)), norm),
                 div(sub(mul(x.im, y.re), mul(x.re, y.im)), norm)};
  }
  default:
    return std::nullopt;
  }
}

std::optional<Address>
FunctionLowering::lowerComplexAssignment(const clang::BinaryOperator *expr) {
  using Result = std::optional<Address>;
  Location l = loc(expr);
  // C++17: the right operand is evaluated first.
  std::optional<std::pair<Value, Value>> rhs = complexParts(expr->getRHS());
  std::optional<Address> place = lowerLValue(expr->getLHS());
  if (!rhs || !place)
    return std::nullopt;
  Parts value{rhs->first, rhs->second};
  if (expr->getOpcode() != clang::BO_Assign) {
    Parts old{load(*place, l), load(offsetBy(*place, 1, l), l)};
    std::optional<Parts> result =
        complexArithmetic(b, l, expr->getOpcode(), old, value,
                          !expr->getRHS()->getType()->isAnyComplexType());
    if (!result)
      return unsupported<Result>(expr, "this operator on complex numbers "
                                       "cannot be differentiated");
    value = *result;
  }
  store(value.re, *place, l);
  store(value.im, offsetBy(*place, 1, l), l);
  return place;
}

std::optional<Address>
FunctionLowering::lowerComplexPart(const clang::UnaryOperator *expr) {
  std::optional<Address> place = lowerLValue(expr->getSubExpr());
  if (!place)
    return std::nullopt;
  return offsetBy(*place, expr->getOpcode() == clang::UO_Imag ? 1 : 0,
                  loc(expr));
}

Value FunctionLowering::lowerComplexPartValue(const clang::Expr *complex,
                                              bool imaginary) {
  std::optional<std::pair<Value, Value>> parts = complexParts(complex);
  if (!parts)
    return nullptr;
  return imaginary ? parts->second : parts->first;
}

/// The C library's complex functions on parts (C11 7.3, principal values).
static Parts complexFunction(OpBuilder &b, Location l, llvm::StringRef name,
                             Parts z, Parts w) {
  auto mul = [&](Value p, Value q) {
    return arith::MulFOp::create(b, l, p, q).getResult();
  };
  auto neg = [&](Value p) {
    return arith::NegFOp::create(b, l, p).getResult();
  };
  auto expOf = [&](Parts v) {
    Value scale = math::ExpOp::create(b, l, v.re);
    return Parts{mul(scale, math::CosOp::create(b, l, v.im)),
                 mul(scale, math::SinOp::create(b, l, v.im))};
  };
  auto logOf = [&](Parts v) {
    Value modulus = ct::HypotOp::create(b, l, v.re, v.im);
    return Parts{math::LogOp::create(b, l, modulus),
                 math::Atan2Op::create(b, l, v.im, v.re)};
  };
  if (name == "conj")
    return Parts{z.re, neg(z.im)};
  if (name == "cexp")
    return expOf(z);
  if (name == "clog")
    return logOf(z);
  if (name == "cpow") {
    // exp(w log z).
    Parts log = logOf(z);
    return expOf(Parts{
        arith::SubFOp::create(b, l, mul(w.re, log.re), mul(w.im, log.im)),
        arith::AddFOp::create(b, l, mul(w.re, log.im), mul(w.im, log.re))});
  }
  if (name == "csqrt") {
    // t = sqrt((|x| + |z|) / 2); x >= 0: t + i y / 2t, else |y| / 2t +
    // i copysign(t, y) (Kahan's form: no cancellation, so its derivatives
    // are regular on the positive real axis, where (|z| - x) would be 0).
    Type type = z.re.getType();
    auto constant = [&](double v) -> Value {
      return arith::ConstantOp::create(b, l, type, b.getFloatAttr(type, v));
    };
    Value modulus = ct::HypotOp::create(b, l, z.re, z.im);
    Value absRe = math::AbsFOp::create(b, l, z.re);
    Value t = math::SqrtOp::create(
        b, l, mul(arith::AddFOp::create(b, l, absRe, modulus), constant(0.5)));
    Value twiceT = mul(t, constant(2));
    // (At 0, t is 0: the root is 0 with y's sign.)
    Value isZero =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, t, constant(0));
    Value other = arith::SelectOp::create(
        b, l, isZero, z.im, arith::DivFOp::create(b, l, z.im, twiceT));
    Value otherAbs = math::AbsFOp::create(b, l, other);
    Value rightHalf = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE,
                                            z.re, constant(0));
    return Parts{
        arith::SelectOp::create(b, l, rightHalf, t, otherAbs),
        arith::SelectOp::create(b, l, rightHalf, other,
                                math::CopySignOp::create(b, l, t, z.im))};
  }
  Value sin = math::SinOp::create(b, l, z.re);
  Value cos = math::CosOp::create(b, l, z.re);
  Value sinh = math::SinhOp::create(b, l, z.im);
  Value cosh = math::CoshOp::create(b, l, z.im);
  if (name == "csin")
    return Parts{mul(sin, cosh), mul(cos, sinh)};
  if (name == "ccos")
    return Parts{mul(cos, cosh), neg(mul(sin, sinh))};
  if (name == "ctan")
    return *complexArithmetic(b, l, clang::BO_Div,
                              Parts{mul(sin, cosh), mul(cos, sinh)},
                              Parts{mul(cos, cosh), neg(mul(sin, sinh))},
                              /*realRhs=*/false);
  // sinh(x + iy) = sinh x cos y + i cosh x sin y, and cosh likewise.
  Value sinhRe = math::SinhOp::create(b, l, z.re);
  Value coshRe = math::CoshOp::create(b, l, z.re);
  Value sinIm = math::SinOp::create(b, l, z.im);
  Value cosIm = math::CosOp::create(b, l, z.im);
  Parts sinhZ{mul(sinhRe, cosIm), mul(coshRe, sinIm)};
  Parts coshZ{mul(coshRe, cosIm), mul(sinhRe, sinIm)};
  if (name == "csinh")
    return sinhZ;
  if (name == "ctanh")
    return *complexArithmetic(b, l, clang::BO_Div, sinhZ, coshZ,
                              /*realRhs=*/false);
  return coshZ;
}

/// The inverse functions as expressions of log and sqrt (C11 7.3's
/// principal values, away from their branch cuts): asinh z = log(z +
/// sqrt(z^2 + 1)), acosh z = log(z + sqrt(z + 1) sqrt(z - 1)) (Kahan's
/// form, principal everywhere), atanh z = (log(1 + z) - log(1 - z)) / 2,
/// asin z = -i asinh(iz), atan z = -i atanh(iz), acos z = pi/2 - asin z.
/// Their derivatives are the functions'; their values lose digits near 0
/// (z + sqrt(z^2 + 1) is 1 + z), so the library gives the value.
static Parts inverseFunction(OpBuilder &b, Location l, llvm::StringRef name,
                             Parts z) {
  Type type = z.re.getType();
  auto constant = [&](double v) -> Value {
    return arith::ConstantOp::create(b, l, type, b.getFloatAttr(type, v));
  };
  auto add = [&](Parts p, Parts q) {
    return Parts{arith::AddFOp::create(b, l, p.re, q.re),
                 arith::AddFOp::create(b, l, p.im, q.im)};
  };
  auto times = [&](Parts p, Parts q) {
    return *complexArithmetic(b, l, clang::BO_Mul, p, q, /*realRhs=*/false);
  };
  auto sqrtOf = [&](Parts p) { return complexFunction(b, l, "csqrt", p, {}); };
  auto logOf = [&](Parts p) { return complexFunction(b, l, "clog", p, {}); };
  auto shifted = [&](Parts p, double by) {
    return Parts{arith::AddFOp::create(b, l, p.re, constant(by)), p.im};
  };
  auto negated = [&](Parts p) {
    return Parts{arith::NegFOp::create(b, l, p.re),
                 arith::NegFOp::create(b, l, p.im)};
  };
  auto asinh = [&](Parts p) {
    return logOf(add(p, sqrtOf(shifted(times(p, p), 1))));
  };
  auto atanh = [&](Parts p) {
    Parts d = add(logOf(shifted(p, 1)), negated(logOf(shifted(negated(p), 1))));
    Value half = constant(0.5);
    return Parts{arith::MulFOp::create(b, l, d.re, half),
                 arith::MulFOp::create(b, l, d.im, half)};
  };
  // -i f(iz) for f = asinh or atanh: iz = (-y, x), -i (a + ib) = (b, -a).
  auto rotated = [&](auto f) {
    Parts w = f(Parts{arith::NegFOp::create(b, l, z.im), z.re});
    return Parts{w.im, arith::NegFOp::create(b, l, w.re)};
  };
  if (name == "casinh")
    return asinh(z);
  if (name == "catanh")
    return atanh(z);
  if (name == "cacosh")
    return logOf(add(z, times(sqrtOf(shifted(z, 1)), sqrtOf(shifted(z, -1)))));
  if (name == "catan")
    return rotated(atanh);
  Parts asin = rotated(asinh);
  if (name == "casin")
    return asin;
  return Parts{
      arith::SubFOp::create(b, l, constant(llvm::numbers::pi / 2), asin.re),
      arith::NegFOp::create(b, l, asin.im)};
}

/// For the functions whose value the C library gives, the expression whose
/// derivatives are theirs: the inverse functions', and z itself for the
/// projection onto the Riemann sphere (which moves only infinities). None
/// for the others.
static std::optional<Parts> derivativeForm(OpBuilder &b, Location l,
                                           llvm::StringRef name, Parts z) {
  if (name == "cproj")
    return z;
  if (llvm::is_contained(
          {"casin", "cacos", "catan", "casinh", "cacosh", "catanh"}, name))
    return inverseFunction(b, l, name, z);
  return std::nullopt;
}

/// `name`'s value at `z` as the C library computes it.
static Parts libraryComplexValue(OpBuilder &b, ModuleOp top,
                                 llvm::StringRef name, Parts z, Location l) {
  // The C library's double function: _Complex double travels as two
  // doubles both ways (the x86-64 and AArch64 C ABIs), as a function of
  // two f64 results lowers. A float's parts go through it in double.
  Type type = z.re.getType();
  Type f64 = b.getF64Type();
  auto function = top.lookupSymbol<func::FuncOp>(name);
  if (!function) {
    OpBuilder atTop(top.getContext());
    atTop.setInsertionPointToEnd(top.getBody());
    function = func::FuncOp::create(
        atTop, l, name, atTop.getFunctionType({f64, f64}, {f64, f64}));
    function.setPrivate();
  }
  auto toDouble = [&](Value v) -> Value {
    v = ct::StopGradientOp::create(b, l, v);
    return type == f64 ? v : arith::ExtFOp::create(b, l, f64, v).getResult();
  };
  auto fromDouble = [&](Value v) -> Value {
    return type == f64 ? v : arith::TruncFOp::create(b, l, type, v).getResult();
  };
  auto call = func::CallOp::create(b, l, function,
                                   ValueRange{toDouble(z.re), toDouble(z.im)});
  return Parts{fromDouble(call.getResult(0)), fromDouble(call.getResult(1))};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerComplexBuiltin(const clang::CallExpr *expr,
                                      const clang::FunctionDecl *callee,
                                      std::optional<Address> dest) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  std::string name = complexBuiltin(callee);
  std::optional<std::pair<Value, Value>> z = complexParts(expr->getArg(0));
  if (!z)
    return std::nullopt;
  Parts x{z->first, z->second};
  if (name == "creal" || name == "cimag")
    return CallResult{name == "creal" ? x.re : x.im, {}};
  if (name == "cabs")
    return CallResult{ct::HypotOp::create(b, l, x.re, x.im), {}};
  if (name == "carg")
    return CallResult{math::Atan2Op::create(b, l, x.im, x.re), {}};
  Parts y{};
  if (name == "cpow" || name == "complex") {
    std::optional<std::pair<Value, Value>> w = complexParts(expr->getArg(1));
    if (!w)
      return std::nullopt;
    y = Parts{w->first, w->second};
  }
  if (!dest)
    dest = allocate(expr->getType(), expr->getSourceRange(), "this value");
  if (!dest)
    return std::nullopt;
  Parts result;
  if (name == "complex") {
    // __builtin_complex(re, im) (libc++'s std::complex makes its _Complex
    // value so): the two real operands as the parts.
    result = Parts{x.re, y.re};
  } else if (std::optional<Parts> expression = derivativeForm(b, l, name, x)) {
    // The library's value, differentiated as the expression's: every
    // derivative is the function's.
    result = *expression;
    if (!isa<Float80Type>(x.re.getType())) {
      Parts value = libraryComplexValue(b, module.getModule(), name, x, l);
      result = Parts{ct::PassThroughOp::create(b, l, value.re, expression->re),
                     ct::PassThroughOp::create(b, l, value.im, expression->im)};
    }
  } else {
    result = complexFunction(b, l, name, x, y);
  }
  store(result.re, *dest, l);
  store(result.im, offsetBy(*dest, 1, l), l);
  return Result(CallResult{nullptr, dest});
}

bool FunctionLowering::lowerComplexConversion(const clang::CastExpr *conversion,
                                              Address dest) {
  Location l = loc(conversion);
  const clang::Expr *sub = conversion->getSubExpr();
  Type scalar = cast<MemRefType>(dest.memref.getType()).getElementType();
  clang::QualType to =
      conversion->getType()->castAs<clang::ComplexType>()->getElementType();
  auto storeParts = [&](Value re, clang::QualType reFrom, Value im,
                        clang::QualType imFrom) {
    store(convert(re, reFrom, to, l), dest, l);
    store(convert(im, imFrom, to, l), offsetBy(dest, 1, l), l);
    return true;
  };
  switch (conversion->getCastKind()) {
  case clang::CK_FloatingRealToComplex:
  case clang::CK_IntegralRealToComplex: {
    Value re = lowerRValue(sub);
    Value zero = arith::ConstantOp::create(b, l, scalar, b.getZeroAttr(scalar));
    return re && storeParts(re, sub->getType(), zero, to);
  }
  case clang::CK_FloatingComplexCast:
  case clang::CK_IntegralComplexToFloatingComplex:
  case clang::CK_LValueToRValue:
  case clang::CK_NoOp: {
    if (!sub->isGLValue() && sub->getType()->isAnyComplexType() &&
        (conversion->getCastKind() == clang::CK_NoOp ||
         conversion->getCastKind() == clang::CK_LValueToRValue))
      return lowerComplexInto(sub, dest);
    std::optional<std::pair<Value, Value>> parts = complexParts(sub);
    clang::QualType from =
        sub->getType()->castAs<clang::ComplexType>()->getElementType();
    return parts && storeParts(parts->first, from, parts->second, from);
  }
  default:
    return unsupported<bool>(conversion, "this conversion to a complex number "
                                         "cannot be differentiated");
  }
}

bool FunctionLowering::lowerComplexChoice(
    const clang::ConditionalOperator *choice, Address dest) {
  Location l = loc(choice);
  Type scalar = cast<MemRefType>(dest.memref.getType()).getElementType();
  Block *merge = emitConditional(
      choice, {scalar, scalar},
      [&](const clang::Expr *arm, SmallVectorImpl<Value> &passed) {
        std::optional<std::pair<Value, Value>> parts = complexParts(arm);
        if (!parts)
          return false;
        passed.push_back(parts->first);
        passed.push_back(parts->second);
        return true;
      });
  if (!merge)
    return false;
  store(merge->getArgument(0), dest, l);
  store(merge->getArgument(1), offsetBy(dest, 1, l), l);
  return true;
}

bool FunctionLowering::lowerComplexInto(const clang::Expr *expr, Address dest) {
  expr = strip(expr);
  Location l = loc(expr);
  Type scalar = cast<MemRefType>(dest.memref.getType()).getElementType();
  auto storeParts = [&](Value re, Value im) {
    store(re, dest, l);
    store(im, offsetBy(dest, 1, l), l);
    return true;
  };
  auto toScalar = [&](Value value, clang::QualType from) {
    clang::QualType to =
        expr->getType()->castAs<clang::ComplexType>()->getElementType();
    return convert(value, from, to, l);
  };
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return lowerComplexInto(temporary->getSubExpr(), dest);
  if (const auto *cast = dyn_cast<clang::CastExpr>(expr))
    return lowerComplexConversion(cast, dest);
  if (const auto *list = dyn_cast<clang::InitListExpr>(expr)) {
    Value parts[2];
    for (unsigned i = 0; i < 2; ++i) {
      parts[i] =
          i < list->getNumInits()
              ? lowerRValue(list->getInit(i))
              : arith::ConstantOp::create(b, l, scalar, b.getZeroAttr(scalar));
      if (!parts[i])
        return false;
      if (i < list->getNumInits())
        parts[i] = toScalar(parts[i], list->getInit(i)->getType());
    }
    return storeParts(parts[0], parts[1]);
  }
  if (const auto *imaginary = dyn_cast<clang::ImaginaryLiteral>(expr)) {
    Value im = lowerRValue(imaginary->getSubExpr());
    return im && storeParts(arith::ConstantOp::create(b, l, scalar,
                                                      b.getZeroAttr(scalar)),
                            toScalar(im, imaginary->getSubExpr()->getType()));
  }
  if (isa<clang::ImplicitValueInitExpr>(expr)) {
    Value zero = arith::ConstantOp::create(b, l, scalar, b.getZeroAttr(scalar));
    return storeParts(zero, zero);
  }
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr);
      binary && !binary->isAssignmentOp() &&
      binary->getOpcode() != clang::BO_Comma) {
    std::optional<std::pair<Value, Value>> x = complexParts(binary->getLHS());
    std::optional<std::pair<Value, Value>> y = complexParts(binary->getRHS());
    if (!x || !y)
      return false;
    std::optional<Parts> result =
        complexArithmetic(b, l, binary->getOpcode(), Parts{x->first, x->second},
                          Parts{y->first, y->second},
                          !binary->getRHS()->getType()->isAnyComplexType());
    if (!result)
      return unsupported<bool>(expr, "this operator on complex numbers "
                                     "cannot be differentiated");
    return storeParts(result->re, result->im);
  }
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr)) {
    clang::UnaryOperatorKind op = unary->getOpcode();
    if (op == clang::UO_Plus || op == clang::UO_Minus || op == clang::UO_Not ||
        op == clang::UO_Extension) {
      std::optional<std::pair<Value, Value>> z =
          complexParts(unary->getSubExpr());
      if (!z)
        return false;
      Value re = z->first, im = z->second;
      if (op == clang::UO_Minus)
        re = arith::NegFOp::create(b, l, re);
      if (op == clang::UO_Minus || op == clang::UO_Not) // ~z: the conjugate
        im = arith::NegFOp::create(b, l, im);
      return storeParts(re, im);
    }
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(expr)) {
    std::optional<CallResult> result = lowerCall(call, dest);
    if (!result || !result->address)
      return false;
    if (result->address->memref != dest.memref ||
        result->address->offset != dest.offset)
      copy(dest, *result->address, 2, l);
    return true;
  }
  if (const auto *choice = dyn_cast<clang::ConditionalOperator>(expr))
    return lowerComplexChoice(choice, dest);
  if (!expr->isGLValue())
    return unsupported<bool>(expr, "this complex-valued expression cannot "
                                   "be differentiated");
  // A place: its two parts.
  std::optional<std::pair<Value, Value>> parts = complexParts(expr);
  return parts && storeParts(parts->first, parts->second);
}

} // namespace cotangent::frontend
