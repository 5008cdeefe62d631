//===- Arith.cpp - Derivative rules of the arith dialect ------------------===//

#include "ForwardMode/ForwardEmitter.h"
#include "Rules/RuleBuilder.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace cotangent::ad;

namespace {
using Partials = SmallVector<Value>;
using P = PrimalValues;
using R = RuleBuilder;
using arith::CmpFPredicate;

// d(x+y) = dx + dy
namespace rules {
Partials addf(R &r, P &) { return {r.c(1), r.c(1)}; }
// d(x-y) = dx - dy
Partials subf(R &r, P &) { return {r.c(1), r.c(-1)}; }
// d(x*y) = y dx + x dy
Partials mulf(R &, P &p) { return {p.operand(1), p.operand(0)}; }
// d(x/y) = dx/y - (x/y) dy/y
Partials divf(R &r, P &p) {
  Value inverse = r.recip(p.operand(1));
  return {inverse, r.neg(r.mul(p.result(), inverse))};
}
// x rem y = x - y trunc(x/y): d = dx - trunc(x/y) dy
Partials remf(R &r, P &p) {
  return {r.c(1), r.neg(r.trunc(r.div(p.operand(0), p.operand(1))))};
}
Partials negf(R &r, P &) { return {r.c(-1)}; }
// Conversions between float types and to the same type: the identity.
Partials identity(R &r, P &) { return {r.c(1)}; }
// An integer converted to float carries no derivative.
Partials none(R &, P &) { return {Value()}; }
// max/min: the derivative of the operand that is selected; at a tie half
// of each (as JAX: max(x, x) has derivative 1, and the rule is symmetric).
Partials pickOrSplit(R &r, P &p, CmpFPredicate takesX) {
  Value x = p.operand(0), y = p.operand(1);
  Value tie = r.cmp(CmpFPredicate::OEQ, x, y);
  Value share = arith::SelectOp::create(r.b, r.loc, tie, r.c(0.5),
                                        r.indicator(r.cmp(takesX, x, y)));
  return {share, r.sub(r.c(1), share)};
}
Partials maxf(R &r, P &p) { return pickOrSplit(r, p, CmpFPredicate::OGT); }
Partials minf(R &r, P &p) { return pickOrSplit(r, p, CmpFPredicate::OLT); }
// select(c, x, y): the condition has no derivative.
Partials select(R &r, P &p) {
  Value condition = p.operand(0);
  return {Value(), r.indicator(condition),
          r.sub(r.c(1), r.indicator(condition))};
}

} // namespace rules

// The ops linear in some operands, and how they scale with them.
namespace linear {
using Term = std::optional<LinearTerm>;
Term sum(Operation *, unsigned) { return LinearTerm{}; }
Term difference(Operation *, unsigned index) {
  return LinearTerm{nullptr, false, index == 1};
}
Term negation(Operation *, unsigned) {
  return LinearTerm{nullptr, false, true};
}
Term product(Operation *op, unsigned index) {
  return LinearTerm{op->getOperand(1 - index)};
}
Term quotient(Operation *op, unsigned index) {
  if (index != 0)
    return std::nullopt;
  return LinearTerm{op->getOperand(1), true};
}
} // namespace linear

/// arith.select of scalars follows its rule; a select of memrefs is a choice
/// between two places (`c ? x : y` as an lvalue, std::min's reference),
/// which aliases both.
struct SelectFlow
    : public ActivityOpInterface::ExternalModel<SelectFlow, arith::SelectOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto select = cast<arith::SelectOp>(op);
    Value result = select.getResult();
    for (Value place : {select.getTrueValue(), select.getFalseValue()}) {
      flow.push_back({place, result});
      // What is written through the choice may change either place.
      if (isa<MemRefType>(result.getType()))
        flow.push_back({result, place});
    }
  }
};

struct SelectForward
    : public ForwardModeOpInterface::ExternalModel<SelectForward,
                                                   arith::SelectOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto select = cast<arith::SelectOp>(op);
    if (!isa<MemRefType>(select.getType()))
      return emitScalarTangent(op, b, emitter);
    // The shadow of a choice between places is the same choice between
    // their shadows.
    emitter.clonePrimal(b, *op);
    Value onTrue = emitter.shadow(select.getTrueValue());
    Value onFalse = emitter.shadow(select.getFalseValue());
    if (onTrue && onFalse)
      emitter.setTangent(
          select.getResult(),
          arith::SelectOp::create(b, op->getLoc(),
                                  emitter.lookup(select.getCondition()), onTrue,
                                  onFalse));
    else if (emitter.hasShadow(select.getResult()))
      return select.emitError(
          "cannot differentiate a choice between a place whose derivative "
          "is tracked and one whose derivative is not");
    return success();
  }
};
} // namespace

void cotangent::ad::registerArithDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, arith::ArithDialect *) {
    attachRule<arith::AddFOp, rules::addf, linear::sum>(context);
    attachRule<arith::SubFOp, rules::subf, linear::difference>(context);
    attachRule<arith::MulFOp, rules::mulf, linear::product>(context);
    attachRule<arith::DivFOp, rules::divf, linear::quotient>(context);
    attachRule<arith::RemFOp, rules::remf>(context);
    attachRule<arith::NegFOp, rules::negf, linear::negation>(context);
    attachRule<arith::ExtFOp, rules::identity>(context);
    attachRule<arith::TruncFOp, rules::identity>(context);
    attachRule<arith::SIToFPOp, rules::none>(context);
    attachRule<arith::UIToFPOp, rules::none>(context);
    attachRule<arith::MaximumFOp, rules::maxf>(context);
    attachRule<arith::MaxNumFOp, rules::maxf>(context);
    attachRule<arith::MinimumFOp, rules::minf>(context);
    attachRule<arith::MinNumFOp, rules::minf>(context);
    arith::SelectOp::attachInterface<ScalarRule<arith::SelectOp, rules::select>,
                                     SelectFlow, SelectForward,
                                     ScalarReverseModel<arith::SelectOp>>(
        *context);
  });
}
