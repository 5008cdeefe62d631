//===- Math.cpp - Derivative rules of the math dialect --------------------===//

#include "Rules/RuleBuilder.h"
#include "mlir/IR/DialectRegistry.h"

#include <cmath>

using namespace mlir;
using namespace cotangent::ad;

namespace {
using Partials = SmallVector<Value>;
using P = PrimalValues;
using R = RuleBuilder;

namespace rules {
Value x(P &p) { return p.operand(0); }

Partials sin(R &r, P &p) { return {r.cos(x(p))}; }
Partials cos(R &r, P &p) { return {r.neg(r.sin(x(p)))}; }
// tan' = 1 + tan^2
Partials tan(R &r, P &p) { return {r.add(r.c(1), r.square(p.result()))}; }
// asin' = 1/sqrt(1-x^2), acos' = -asin'
Partials asin(R &r, P &p) {
  return {r.recip(r.sqrt(r.sub(r.c(1), r.square(x(p)))))};
}
Partials acos(R &r, P &p) {
  return {r.neg(r.recip(r.sqrt(r.sub(r.c(1), r.square(x(p))))))};
}
// atan' = 1/(1+x^2)
Partials atan(R &r, P &p) { return {r.recip(r.add(r.c(1), r.square(x(p))))}; }
// atan2(y, x): d/dy = x/(x^2+y^2), d/dx = -y/(x^2+y^2); 0 at the origin,
// where atan2 jumps (TensorFlow and JAX give NaN there).
Partials atan2(R &r, P &p) {
  Value y = p.operand(0), xv = p.operand(1);
  Value norm = r.add(r.square(xv), r.square(y));
  Value away = r.cmp(arith::CmpFPredicate::UNE, norm, r.c(0));
  return {r.where(away, r.div(xv, norm)), r.where(away, r.neg(r.div(y, norm)))};
}
Partials sinh(R &r, P &p) { return {r.cosh(x(p))}; }
Partials cosh(R &r, P &p) { return {r.sinh(x(p))}; }
// tanh' = 1 - tanh^2
Partials tanh(R &r, P &p) { return {r.sub(r.c(1), r.square(p.result()))}; }
Partials asinh(R &r, P &p) {
  return {r.recip(r.sqrt(r.add(r.square(x(p)), r.c(1))))};
}
Partials acosh(R &r, P &p) {
  return {r.recip(r.sqrt(r.sub(r.square(x(p)), r.c(1))))};
}
Partials atanh(R &r, P &p) { return {r.recip(r.sub(r.c(1), r.square(x(p))))}; }
Partials exp(R &, P &p) { return {p.result()}; }
Partials exp2(R &r, P &p) { return {r.mul(p.result(), r.c(M_LN2))}; }
// expm1' = exp = expm1 + 1
Partials expm1(R &r, P &p) { return {r.add(p.result(), r.c(1))}; }
Partials log(R &r, P &p) { return {r.recip(x(p))}; }
Partials log2(R &r, P &p) { return {r.recip(r.mul(x(p), r.c(M_LN2)))}; }
Partials log10(R &r, P &p) { return {r.recip(r.mul(x(p), r.c(M_LN10)))}; }
Partials log1p(R &r, P &p) { return {r.recip(r.add(r.c(1), x(p)))}; }
// sqrt' = 1/(2 sqrt)
Partials sqrt(R &r, P &p) { return {r.div(r.c(0.5), p.result())}; }
// rsqrt = x^(-1/2): rsqrt' = -rsqrt/(2x)
Partials rsqrt(R &r, P &p) {
  return {r.neg(r.div(p.result(), r.mul(r.c(2), x(p))))};
}
// cbrt' = 1/(3 cbrt^2): +inf at 0, the one-sided limit (cbrt/(3x) was
// 0/0 there).
Partials cbrt(R &r, P &p) {
  return {r.recip(r.mul(r.c(3), r.square(p.result())))};
}
// pow(a, b): d/da = b a^(b-1), 0 where b = 0 (a^0 is constant, also at
// a = 0); d/db = a^b log(a) where a > 0, 0 elsewhere (as TensorFlow: at
// a = 0 the limit, below it no real derivative).
Partials powf(R &r, P &p) {
  Value a = p.operand(0), b = p.operand(1);
  Value power = math::PowFOp::create(r.b, r.loc, a, r.sub(b, r.c(1)));
  Value varies = r.cmp(arith::CmpFPredicate::UNE, b, r.c(0));
  Value positive = r.cmp(arith::CmpFPredicate::OGT, a, r.c(0));
  return {r.where(varies, r.mul(b, power)),
          r.where(positive, r.mul(p.result(), r.log(a)))};
}
// fpowi(a, n): d/da = n a^(n-1); the integer exponent has no derivative.
Partials fpowi(R &r, P &p) {
  Value a = p.operand(0), n = p.operand(1);
  Value one = arith::ConstantOp::create(r.b, r.loc, n.getType(),
                                        r.b.getIntegerAttr(n.getType(), 1));
  Value nMinusOne = arith::SubIOp::create(r.b, r.loc, n, one);
  Value power = math::FPowIOp::create(r.b, r.loc, a, nMinusOne);
  // a^0 is constant: 0 (not 0 * 0^-1 = NaN at a = 0).
  Value exponent = r.toFloat(n);
  Value varies = r.cmp(arith::CmpFPredicate::UNE, exponent, r.c(0));
  return {r.where(varies, r.mul(exponent, power)), Value()};
}
// |x|' = sign(x), 0 at 0 (as TensorFlow and JAX: the middle of the
// subgradient [-1, 1]).
Partials absf(R &r, P &p) {
  Value nonzero = r.cmp(arith::CmpFPredicate::UNE, x(p), r.c(0));
  return {r.where(nonzero, r.copysign(r.c(1), x(p)))};
}
// Piecewise-constant functions.
Partials zero(R &, P &p) {
  return SmallVector<Value>(p.getOperation()->getNumOperands(), Value());
}
// erf' = 2/sqrt(pi) exp(-x^2), erfc' = -erf'
Partials erf(R &r, P &p) {
  return {r.mul(r.c(M_2_SQRTPI), r.exp(r.neg(r.square(x(p)))))};
}
Partials erfc(R &r, P &p) {
  return {r.mul(r.c(-M_2_SQRTPI), r.exp(r.neg(r.square(x(p)))))};
}
// fma(a, b, c) = a b + c
Partials fma(R &r, P &p) { return {p.operand(1), p.operand(0), r.c(1)}; }
// copysign(a, b) = |a| sign(b): d/da = sign(a) sign(b)
Partials copysign(R &r, P &p) {
  return {
      r.mul(r.copysign(r.c(1), p.operand(0)), r.copysign(r.c(1), p.operand(1))),
      Value()};
}

} // namespace rules
} // namespace

void cotangent::ad::registerMathDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, math::MathDialect *) {
    attachRule<math::SinOp, rules::sin>(context);
    attachRule<math::CosOp, rules::cos>(context);
    attachRule<math::TanOp, rules::tan>(context);
    attachRule<math::AsinOp, rules::asin>(context);
    attachRule<math::AcosOp, rules::acos>(context);
    attachRule<math::AtanOp, rules::atan>(context);
    attachRule<math::Atan2Op, rules::atan2>(context);
    attachRule<math::SinhOp, rules::sinh>(context);
    attachRule<math::CoshOp, rules::cosh>(context);
    attachRule<math::TanhOp, rules::tanh>(context);
    attachRule<math::AsinhOp, rules::asinh>(context);
    attachRule<math::AcoshOp, rules::acosh>(context);
    attachRule<math::AtanhOp, rules::atanh>(context);
    attachRule<math::ExpOp, rules::exp>(context);
    attachRule<math::Exp2Op, rules::exp2>(context);
    attachRule<math::ExpM1Op, rules::expm1>(context);
    attachRule<math::LogOp, rules::log>(context);
    attachRule<math::Log2Op, rules::log2>(context);
    attachRule<math::Log10Op, rules::log10>(context);
    attachRule<math::Log1pOp, rules::log1p>(context);
    attachRule<math::SqrtOp, rules::sqrt>(context);
    attachRule<math::RsqrtOp, rules::rsqrt>(context);
    attachRule<math::CbrtOp, rules::cbrt>(context);
    attachRule<math::PowFOp, rules::powf>(context);
    attachRule<math::FPowIOp, rules::fpowi>(context);
    attachRule<math::AbsFOp, rules::absf>(context);
    attachRule<math::FloorOp, rules::zero>(context);
    attachRule<math::CeilOp, rules::zero>(context);
    attachRule<math::RoundOp, rules::zero>(context);
    attachRule<math::RoundEvenOp, rules::zero>(context);
    attachRule<math::TruncOp, rules::zero>(context);
    attachRule<math::ErfOp, rules::erf>(context);
    attachRule<math::ErfcOp, rules::erfc>(context);
    attachRule<math::FmaOp, rules::fma>(context);
    attachRule<math::CopySignOp, rules::copysign>(context);
  });
}
