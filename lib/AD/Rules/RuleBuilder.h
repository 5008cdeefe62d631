//===- RuleBuilder.h - Terse arithmetic for derivative rules ----*- C++ -*-===//

#ifndef COTANGENT_LIB_AD_RULES_RULEBUILDER_H
#define COTANGENT_LIB_AD_RULES_RULEBUILDER_H

#include "Rules/ScalarModes.h"
#include "Utils/IRBuilders.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace cotangent::ad {

/// Builds scalar arithmetic in one floating-point type at one location, so a
/// rule reads like its formula.
class RuleBuilder {
public:
  RuleBuilder(mlir::OpBuilder &builder, const PrimalValues &primals)
      : b(builder), loc(primals.getLoc()), type(primals.getType()) {}

  mlir::Value c(double value) {
    return buildFloatConstant(b, loc, type, value);
  }
  mlir::Value add(mlir::Value x, mlir::Value y) {
    return mlir::arith::AddFOp::create(b, loc, x, y);
  }
  mlir::Value sub(mlir::Value x, mlir::Value y) {
    return mlir::arith::SubFOp::create(b, loc, x, y);
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) {
    return mlir::arith::MulFOp::create(b, loc, x, y);
  }
  mlir::Value div(mlir::Value x, mlir::Value y) {
    return mlir::arith::DivFOp::create(b, loc, x, y);
  }
  mlir::Value neg(mlir::Value x) {
    return mlir::arith::NegFOp::create(b, loc, x);
  }
  mlir::Value recip(mlir::Value x) { return div(c(1.0), x); }
  mlir::Value square(mlir::Value x) { return mul(x, x); }
  mlir::Value sqrt(mlir::Value x) {
    return mlir::math::SqrtOp::create(b, loc, x);
  }
  mlir::Value exp(mlir::Value x) {
    return mlir::math::ExpOp::create(b, loc, x);
  }
  mlir::Value log(mlir::Value x) {
    return mlir::math::LogOp::create(b, loc, x);
  }
  mlir::Value sin(mlir::Value x) {
    return mlir::math::SinOp::create(b, loc, x);
  }
  mlir::Value cos(mlir::Value x) {
    return mlir::math::CosOp::create(b, loc, x);
  }
  mlir::Value sinh(mlir::Value x) {
    return mlir::math::SinhOp::create(b, loc, x);
  }
  mlir::Value cosh(mlir::Value x) {
    return mlir::math::CoshOp::create(b, loc, x);
  }
  mlir::Value copysign(mlir::Value magnitude, mlir::Value sign) {
    return mlir::math::CopySignOp::create(b, loc, magnitude, sign);
  }
  mlir::Value trunc(mlir::Value x) {
    return mlir::math::TruncOp::create(b, loc, x);
  }
  /// 1 where `condition` holds, 0 elsewhere (a product with it is a
  /// choice: buildProduct in ScalarModes.cpp).
  mlir::Value indicator(mlir::Value condition) {
    return mlir::arith::SelectOp::create(b, loc, condition, c(1.0), c(0.0));
  }
  /// 0 where `condition` holds, 1 elsewhere.
  mlir::Value indicatorOfNot(mlir::Value condition) {
    return mlir::arith::SelectOp::create(b, loc, condition, c(0.0), c(1.0));
  }
  /// `value` where `condition` holds, 0 elsewhere (never 0 * inf = NaN).
  mlir::Value where(mlir::Value condition, mlir::Value value) {
    return mlir::arith::SelectOp::create(b, loc, condition, value, c(0.0));
  }
  mlir::Value cmp(mlir::arith::CmpFPredicate predicate, mlir::Value x,
                  mlir::Value y) {
    return mlir::arith::CmpFOp::create(b, loc, predicate, x, y);
  }
  mlir::Value toFloat(mlir::Value integer) {
    return mlir::arith::SIToFPOp::create(b, loc, type, integer);
  }

  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::Type type;
};

/// Declares the external model of a rule as a one-line function of the
/// primal values; `Rule` is a callable `(RuleBuilder &, PrimalValues &) ->
/// SmallVector<Value>`. `Linear`, if given, is a callable `(Operation *,
/// unsigned index) -> std::optional<LinearTerm>` for ops linear in some
/// operands.
template <typename Op, auto Rule, auto Linear = nullptr>
struct ScalarRule : public ScalarDerivativeOpInterface::ExternalModel<
                        ScalarRule<Op, Rule, Linear>, Op> {
  llvm::SmallVector<mlir::Value> buildPartials(mlir::Operation *,
                                               mlir::OpBuilder &builder,
                                               PrimalValues &primals) const {
    RuleBuilder r(builder, primals);
    return Rule(r, primals);
  }
  std::optional<LinearTerm> getLinearTerm(mlir::Operation *op,
                                          unsigned index) const {
    if constexpr (std::is_same_v<decltype(Linear), std::nullptr_t>)
      return std::nullopt;
    else
      return Linear(op, index);
  }
};

/// Attaches `Rule` (partials from a RuleBuilder and the primal values) to
/// `Op` as its ScalarDerivativeOpInterface, and forward and reverse mode
/// built from it.
template <typename Op, auto Rule, auto Linear = nullptr>
void attachRule(mlir::MLIRContext *context) {
  Op::template attachInterface<ScalarRule<Op, Rule, Linear>>(*context);
  attachScalarModes<Op>(context);
}

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_RULES_RULEBUILDER_H
