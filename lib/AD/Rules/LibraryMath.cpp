//===- LibraryMath.cpp - Derivative rules of ct's C library functions -----===//

#include "RuleBuilder.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
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
} // namespace rules
} // namespace

void cotangent::ad::registerLibraryMathDerivativeRules(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, ct::CTDialect *) {
    attachRule<ct::HypotOp, rules::hypot>(context);
  });
}
