//===- BitCasts.cpp - ct.bit_cast: folding and the sign-bit tricks --------===//
//
// No derivative goes through the bits of a floating-point value, but the
// tricks numerical code plays on its sign bit have one: that of the
// floating-point operation they compute. SIMD libraries negate by an
// exclusive or with -0.0, take absolute values by clearing the sign bit,
// copy signs by masking two values and merging them. Canonicalization
// rewrites each into its operation, so that differentiation sees a
// negation, an absolute value or a copysign rather than bits (which it
// refuses: Analysis/BitReinterpretations.cpp).
//
//===----------------------------------------------------------------------===//

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace cotangent::ct;

Operation *CTDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult BitCastOp::verify() {
  if (getInput().getType().getIntOrFloatBitWidth() !=
      getType().getIntOrFloatBitWidth())
    return emitOpError("reads the bits of ")
           << getInput().getType() << " as " << getType()
           << ", a number of another width";
  return success();
}

OpFoldResult BitCastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // The bits read back as the number they came from: that number.
  if (auto inner = getInput().getDefiningOp<BitCastOp>();
      inner && inner.getInput().getType() == getType())
    return inner.getInput();
  if (auto bits = dyn_cast_if_present<IntegerAttr>(adaptor.getInput())) {
    if (auto type = dyn_cast<FloatType>(getType()))
      return FloatAttr::get(type,
                            APFloat(type.getFloatSemantics(), bits.getValue()));
    return IntegerAttr::get(getType(), bits.getValue());
  }
  if (auto number = dyn_cast_if_present<FloatAttr>(adaptor.getInput())) {
    APInt bits = number.getValue().bitcastToAPInt();
    if (auto type = dyn_cast<FloatType>(getType()))
      return FloatAttr::get(type, APFloat(type.getFloatSemantics(), bits));
    return IntegerAttr::get(getType(), bits);
  }
  return {};
}

namespace {
/// The floating-point value of type `type` whose bits `bits` are, if they
/// are read from one.
Value floatBehind(Value bits, Type type) {
  auto cast = bits.getDefiningOp<BitCastOp>();
  return cast && cast.getInput().getType() == type ? cast.getInput() : Value();
}

/// Whether `value` is the integer constant `mask`.
bool isMask(Value value, const APInt &mask) {
  APInt constant;
  return matchPattern(value, m_ConstantInt(&constant)) && constant == mask;
}

/// `a`'s bits and `mask`, in either order, as `op`'s operands: `a`.
template <typename Op>
Value maskedFloat(Value bits, const APInt &mask, Type type) {
  auto op = bits.getDefiningOp<Op>();
  if (!op)
    return {};
  for (auto [value, other] : {std::pair{op.getLhs(), op.getRhs()},
                              std::pair{op.getRhs(), op.getLhs()}})
    if (Value a = floatBehind(value, type); a && isMask(other, mask))
      return a;
  return {};
}

/// A float made from the bits of other floats by a trick on their sign
/// bits: the operation it computes.
struct SignBitTrick : OpRewritePattern<BitCastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BitCastOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type)
      return failure();
    Value computed = rewrite(rewriter, op.getLoc(), op.getInput(), type);
    if (!computed)
      return failure();
    rewriter.replaceOp(op, computed);
    return success();
  }

private:
  static Value rewrite(PatternRewriter &rewriter, Location loc, Value bits,
                       FloatType type) {
    APInt sign = APInt::getSignMask(type.getWidth());
    APInt magnitude = ~sign;
    // a ^ -0.0: -a.
    if (Value a = maskedFloat<arith::XOrIOp>(bits, sign, type))
      return arith::NegFOp::create(rewriter, loc, a);
    // a & ~sign: |a|.
    if (Value a = maskedFloat<arith::AndIOp>(bits, magnitude, type))
      return math::AbsFOp::create(rewriter, loc, a);
    // a & sign: a zero of a's sign.
    if (Value a = maskedFloat<arith::AndIOp>(bits, sign, type))
      return copySign(rewriter, loc, 0.0, a);
    // a | sign: -|a|.
    if (Value a = maskedFloat<arith::OrIOp>(bits, sign, type))
      return arith::NegFOp::create(rewriter, loc,
                                   math::AbsFOp::create(rewriter, loc, a));
    if (auto either = bits.getDefiningOp<arith::OrIOp>())
      for (auto [value, other] : {std::pair{either.getLhs(), either.getRhs()},
                                  std::pair{either.getRhs(), either.getLhs()}})
        // (a & ~sign) | (b & sign): copysign(a, b).
        if (Value a = maskedFloat<arith::AndIOp>(value, magnitude, type))
          if (Value b = maskedFloat<arith::AndIOp>(other, sign, type))
            return math::CopySignOp::create(rewriter, loc, a, b);
    if (auto flip = bits.getDefiningOp<arith::XOrIOp>())
      for (auto [value, other] : {std::pair{flip.getLhs(), flip.getRhs()},
                                  std::pair{flip.getRhs(), flip.getLhs()}})
        // a ^ (b & sign): a times b's sign.
        if (Value a = floatBehind(value, type))
          if (Value b = maskedFloat<arith::AndIOp>(other, sign, type))
            return arith::MulFOp::create(rewriter, loc, a,
                                         copySign(rewriter, loc, 1.0, b));
    return {};
  }

  /// `magnitude` with the sign of `of`.
  static Value copySign(PatternRewriter &rewriter, Location loc,
                        double magnitude, Value of) {
    Value constant = arith::ConstantOp::create(
        rewriter, loc, rewriter.getFloatAttr(of.getType(), magnitude));
    return math::CopySignOp::create(rewriter, loc, constant, of);
  }
};
} // namespace

void BitCastOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<SignBitTrick>(context);
}
