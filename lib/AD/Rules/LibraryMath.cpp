//===- LibraryMath.cpp - Derivative rules of ct's C library functions -----===//

#include "Rules/RuleBuilder.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {
using Partials = SmallVector<Value>;
using P = PrimalValues;
using R = RuleBuilder;

namespace rules {
// hypot(x, y): d/dx = x/h, d/dy = y/h; 0 at the origin (the middle of its
// subgradient), never 0/0.
Partials hypot(R &r, P &p) {
  Value h = p.result();
  Value away = r.cmp(arith::CmpFPredicate::UNE, h, r.c(0));
  return {r.where(away, r.div(p.operand(0), h)),
          r.where(away, r.div(p.operand(1), h))};
}

Value digamma(R &r, Value x) {
  return ct::PolygammaOp::create(r.b, r.loc, r.b.getI64IntegerAttr(0), x);
}
// lgamma'(x) = ψ(x); tgamma'(x) = Γ(x) ψ(x).
Partials lgamma(R &r, P &p) { return {digamma(r, p.operand(0))}; }
Partials tgamma(R &r, P &p) {
  return {r.mul(p.result(), digamma(r, p.operand(0)))};
}
} // namespace rules

/// d/dx ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁺¹⁾(x): the order is the op's, so this rule reads it.
struct PolygammaRule
    : public ScalarDerivativeOpInterface::ExternalModel<PolygammaRule,
                                                        ct::PolygammaOp> {
  SmallVector<Value> buildPartials(Operation *op, OpBuilder &builder,
                                   PrimalValues &primals) const {
    auto polygamma = cast<ct::PolygammaOp>(op);
    return {ct::PolygammaOp::create(
        builder, primals.getLoc(),
        builder.getI64IntegerAttr(polygamma.getOrder() + 1),
        primals.operand(0))};
  }
};
} // namespace

void cotangent::ad::registerLibraryMathDerivativeRules(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, ct::CTDialect *) {
    attachRule<ct::HypotOp, rules::hypot>(context);
    attachRule<ct::LgammaOp, rules::lgamma>(context);
    attachRule<ct::TgammaOp, rules::tgamma>(context);
    ct::PolygammaOp::attachInterface<PolygammaRule>(*context);
    attachScalarModes<ct::PolygammaOp>(context);
  });
}
