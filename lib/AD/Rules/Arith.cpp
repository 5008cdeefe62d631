//===- Arith.cpp - Derivative rules of the arith dialect ------------------===//

#include "ForwardMode/ForwardEmitter.h"
#include "ReverseMode/ReverseEmitter.h"
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
  return {Value(), r.indicator(condition), r.indicatorOfNot(condition)};
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
    if (!emitter.hasShadow(select.getResult()))
      return success();
    if (!onTrue && !onFalse)
      return select.emitError("cannot differentiate a choice between places "
                              "whose derivatives are not tracked");
    // A place whose derivative is not tracked (a parameter left out of
    // ct::wrt): zeros in its place.
    auto type = cast<MemRefType>((onTrue ? onTrue : onFalse).getType());
    if (!onTrue)
      onTrue = emitter.counterpartShadow(b, op->getLoc(), select.getTrueValue(),
                                         type);
    if (!onFalse)
      onFalse = emitter.counterpartShadow(b, op->getLoc(),
                                          select.getFalseValue(), type);
    if (emitter.hadError())
      return failure();
    emitter.setTangent(
        select.getResult(),
        arith::SelectOp::create(b, op->getLoc(),
                                emitter.lookup(select.getCondition()), onTrue,
                                onFalse));
    return success();
  }
};
/// Whether `value` may be used where `b` inserts: defined before it in its
/// block or in a block around it.
static bool isDefinedBefore(Value value, OpBuilder &b) {
  Block *block = b.getInsertionBlock();
  Operation *at =
      b.getInsertionPoint() == block->end() ? nullptr : &*b.getInsertionPoint();
  while (block) {
    if (block == value.getParentBlock()) {
      Operation *def = value.getDefiningOp();
      return !def || !at || def->isBeforeInBlock(at);
    }
    at = block->getParentOp();
    block = at ? at->getBlock() : nullptr;
  }
  return false;
}

/// Reverse mode: a choice between places, made in a level whose forward
/// values the reverse code uses directly, gets its shadow in the forward
/// sweep (the same choice between the places' shadows), as the views of
/// local buffers do: the views made of it there need it (a reference
/// chosen in a loop and passed to a function).
struct SelectReverse
    : public ReverseModeOpInterface::ExternalModel<SelectReverse,
                                                   arith::SelectOp> {
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 reverse::ReverseEmitter &emitter) const {
    if (failed(emitClonedForward(op, b, emitter)))
      return failure();
    auto select = cast<arith::SelectOp>(op);
    Value result = select.getResult();
    reverse::Level &level = emitter.getLevel(op->getBlock());
    if (!isa<MemRefType>(result.getType()) || !level.direct ||
        !emitter.getActivity().hasShadow(result))
      return success();
    Value onTrue = emitter.shadowInReverse(select.getTrueValue());
    Value onFalse = emitter.shadowInReverse(select.getFalseValue());
    Value condition =
        emitter.getForwardMapping().lookupOrNull(select.getCondition());
    if (!onTrue || !onFalse || !condition)
      return success(); // the reverse code makes it (or reports why not)
    for (Value shadow : {onTrue, onFalse})
      if (!isDefinedBefore(shadow, b))
        return success();
    level.shadows[result] =
        arith::SelectOp::create(b, op->getLoc(), condition, onTrue, onFalse);
    return success();
  }
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            reverse::ReverseEmitter &emitter) const {
    return emitScalarReverse(op, b, emitter);
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
                                     SelectFlow, SelectForward, SelectReverse>(
        *context);
  });
}
