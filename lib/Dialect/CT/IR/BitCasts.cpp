//===- BitCasts.cpp - ct.bit_cast: folding and the sign-bit tricks --------===//
//
// No derivative goes through the bits of a floating-point value, but the
// tricks numerical code plays on its sign bit have one: that of the
// floating-point operation they compute. SIMD libraries negate by an
// exclusive or with -0.0, take absolute values by clearing the sign bit,
// copy signs by masking two values and merging them, and select lanes by
// masking them with a comparison's all-ones lanes (`(m & a) | (~m & b)`).
// Canonicalization rewrites each into its operation, so that
// differentiation sees a negation, an absolute value, a copysign or a
// select rather than bits (which it refuses:
// Analysis/BitReinterpretations.cpp).
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

/// Whether `value` is the integer constant `mask` (of its width).
bool isMask(Value value, const APInt &mask) {
  APInt constant;
  return matchPattern(value, m_ConstantInt(&constant)) &&
         constant.getBitWidth() == mask.getBitWidth() && constant == mask;
}

/// A commutative op's operands, in both orders: a pattern matching one
/// operand as one thing and the other as another tries each.
template <typename Op>
std::array<std::pair<Value, Value>, 2> bothOrders(Op op) {
  return {std::pair{op.getLhs(), op.getRhs()},
          std::pair{op.getRhs(), op.getLhs()}};
}

/// `a`'s bits and `mask`, in either order, as `op`'s operands: `a`.
template <typename Op>
Value maskedFloat(Value bits, const APInt &mask, Type type) {
  auto op = bits.getDefiningOp<Op>();
  if (!op)
    return {};
  for (auto [value, other] : bothOrders(op))
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
      for (auto [value, other] : bothOrders(either))
        // (a & ~sign) | (b & sign): copysign(a, b).
        if (Value a = maskedFloat<arith::AndIOp>(value, magnitude, type))
          if (Value b = maskedFloat<arith::AndIOp>(other, sign, type))
            return math::CopySignOp::create(rewriter, loc, a, b);
    if (auto flip = bits.getDefiningOp<arith::XOrIOp>())
      for (auto [value, other] : bothOrders(flip))
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

/// The condition `mask` is made of (all ones where it holds: a SIMD
/// comparison's lane), and whether the mask is inverted (`~mask`).
std::optional<std::pair<Value, bool>> maskCondition(Value mask) {
  auto condition = [](Value value) -> Value {
    auto extend = value.getDefiningOp<arith::ExtSIOp>();
    return extend && extend.getIn().getType().isInteger(1) ? extend.getIn()
                                                           : Value();
  };
  if (Value c = condition(mask))
    return std::pair{c, false};
  if (auto invert = mask.getDefiningOp<arith::XOrIOp>())
    for (auto [value, other] : bothOrders(invert))
      if (Value c = condition(value);
          c && isMask(other, APInt::getAllOnes(
                                 mask.getType().getIntOrFloatBitWidth())))
        return std::pair{c, true};
  return std::nullopt;
}

/// `x & mask` of a comparison's mask: `c ? x : 0` (`~mask`: `c ? 0 : x`),
/// the halves of a select written with bit operations (`_mm_and_pd`,
/// `_mm_andnot_pd`), which then has the derivative of a select.
struct MaskedBits : OpRewritePattern<arith::AndIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AndIOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [mask, x] : bothOrders(op)) {
      std::optional<std::pair<Value, bool>> condition = maskCondition(mask);
      if (!condition)
        continue;
      Value zero = arith::ConstantOp::create(
          rewriter, op.getLoc(), rewriter.getZeroAttr(op.getType()));
      auto [c, inverted] = *condition;
      rewriter.replaceOpWithNewOp<arith::SelectOp>(op, c, inverted ? zero : x,
                                                   inverted ? x : zero);
      return success();
    }
    return failure();
  }
};

/// `(c ? x : 0) | (c ? 0 : y)`: `c ? x : y` (`_mm_or_pd` of the halves).
/// The halves may be floats already (`c ? a : +0.0`, SelectOfBits' work
/// on each half), read as bits: then the select of the floats, as bits.
struct JoinedSelects : OpRewritePattern<arith::OrIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::OrIOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [first, second] : bothOrders(op)) {
      auto [taken, takenIsFloat] = half(first);
      auto [other, otherIsFloat] = half(second);
      if (!taken || !other || takenIsFloat != otherIsFloat ||
          taken.getCondition() != other.getCondition() ||
          !isZero(taken.getFalseValue()) || !isZero(other.getTrueValue()))
        continue;
      Value joined =
          arith::SelectOp::create(rewriter, op.getLoc(), taken.getCondition(),
                                  taken.getTrueValue(), other.getFalseValue());
      if (takenIsFloat)
        joined = BitCastOp::create(rewriter, op.getLoc(), op.getType(), joined);
      rewriter.replaceOp(op, joined);
      return success();
    }
    return failure();
  }

private:
  /// The select `bits` is, or whose float's bits it is.
  static std::pair<arith::SelectOp, bool> half(Value bits) {
    if (auto select = bits.getDefiningOp<arith::SelectOp>())
      return {select, false};
    if (auto cast = bits.getDefiningOp<BitCastOp>())
      if (auto select = cast.getInput().getDefiningOp<arith::SelectOp>();
          select && isa<FloatType>(select.getType()))
        return {select, true};
    return {nullptr, false};
  }
  /// Whether `value` is all zero bits (+0.0 for a float).
  static bool isZero(Value value) {
    return matchPattern(value, m_Zero()) ||
           matchPattern(value, m_PosZeroFloat());
  }
};

/// `zext(trunc x) | zext(trunc(x >> n)) << n`: `x`, its halves joined
/// again (SIMD code splitting a double's bits into two `int` lanes, which
/// a shuffle moves together, as `_mm_shuffle_epi32` does).
struct JoinedHalves : OpRewritePattern<arith::OrIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::OrIOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isIntOrFloat())
      return failure();
    unsigned width = op.getType().getIntOrFloatBitWidth();
    if (width % 2)
      return failure();
    unsigned half = width / 2;
    // The value `bits` is the low half of, shifted right by `shift` first.
    auto halfOf = [&](Value bits, unsigned shift) -> Value {
      auto extend = bits.getDefiningOp<arith::ExtUIOp>();
      auto truncate =
          extend ? extend.getIn().getDefiningOp<arith::TruncIOp>() : nullptr;
      if (!truncate || truncate.getType().getIntOrFloatBitWidth() != half)
        return {};
      Value whole = truncate.getIn();
      if (shift == 0)
        return whole;
      auto shifted = whole.getDefiningOp<arith::ShRUIOp>();
      if (!shifted || !isMask(shifted.getRhs(), APInt(width, shift)))
        return {};
      return shifted.getLhs();
    };
    for (auto [low, high] : bothOrders(op)) {
      auto up = high.getDefiningOp<arith::ShLIOp>();
      if (!up || !isMask(up.getRhs(), APInt(width, half)))
        continue;
      Value x = halfOf(low, 0);
      if (x && x.getType() == op.getType() && halfOf(up.getLhs(), half) == x) {
        rewriter.replaceOp(op, x);
        return success();
      }
    }
    return failure();
  }
};

/// A float made from a select of floats' bits (or constants): the select
/// of the floats, each bit cast folding away.
struct SelectOfBits : OpRewritePattern<BitCastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BitCastOp op,
                                PatternRewriter &rewriter) const override {
    auto select = op.getInput().getDefiningOp<arith::SelectOp>();
    if (!select || !isa<FloatType>(op.getType()))
      return failure();
    auto foldable = [&](Value arm) {
      return floatBehind(arm, op.getType()) || matchPattern(arm, m_Constant());
    };
    if (!foldable(select.getTrueValue()) || !foldable(select.getFalseValue()))
      return failure();
    Location loc = op.getLoc();
    auto cast = [&](Value arm) -> Value {
      if (Value a = floatBehind(arm, op.getType()))
        return a;
      return BitCastOp::create(rewriter, loc, op.getType(), arm);
    };
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, select.getCondition(),
                                                 cast(select.getTrueValue()),
                                                 cast(select.getFalseValue()));
    return success();
  }
};

/// Bits [offset, offset + width) of an integer made of narrower values
/// (SIMD lanes joined into wider ones: extended, shifted and or'd; masked
/// by constants; shifted back and truncated), as an expression of those
/// values, or nullopt where it is not one. Without a rewriter it only
/// answers whether it can (null values), so that a pattern that fails
/// leaves nothing behind.
struct BitSlice {
  PatternRewriter *rewriter;
  Location loc;

  std::optional<Value> of(Value bits, unsigned offset, unsigned width,
                          unsigned depth = 0) {
    unsigned total = bits.getType().getIntOrFloatBitWidth();
    if (offset == 0 && total == width)
      return bits;
    if (depth > 16 || offset + width > total)
      return std::nullopt;
    APInt constant;
    if (matchPattern(bits, m_ConstantInt(&constant)))
      return make(constant.extractBits(width, offset));
    Operation *op = bits.getDefiningOp();
    if (!op)
      return std::nullopt;
    if (auto extend = dyn_cast<arith::ExtUIOp>(op)) {
      unsigned inner = extend.getIn().getType().getIntOrFloatBitWidth();
      if (offset >= inner)
        return make(APInt::getZero(width));
      if (offset + width > inner)
        return std::nullopt;
      return of(extend.getIn(), offset, width, depth + 1);
    }
    if (auto truncate = dyn_cast<arith::TruncIOp>(op))
      return of(truncate.getIn(), offset, width, depth + 1);
    APInt amount;
    if (isa<arith::ShLIOp, arith::ShRUIOp>(op) &&
        matchPattern(op->getOperand(1), m_ConstantInt(&amount)) &&
        amount.ult(total)) {
      unsigned k = amount.getZExtValue();
      if (isa<arith::ShRUIOp>(op)) {
        if (offset + k + width > total)
          return std::nullopt;
        return of(op->getOperand(0), offset + k, width, depth + 1);
      }
      if (offset >= k)
        return of(op->getOperand(0), offset - k, width, depth + 1);
      if (offset + width > k)
        return std::nullopt;
      return make(APInt::getZero(width));
    }
    if (!isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op))
      return std::nullopt;
    std::optional<Value> x = of(op->getOperand(0), offset, width, depth + 1);
    std::optional<Value> y = of(op->getOperand(1), offset, width, depth + 1);
    if (!x || !y)
      return std::nullopt;
    if (!rewriter)
      return Value();
    if (isa<arith::AndIOp>(op))
      return arith::AndIOp::create(*rewriter, loc, *x, *y).getResult();
    if (isa<arith::OrIOp>(op))
      return arith::OrIOp::create(*rewriter, loc, *x, *y).getResult();
    return arith::XOrIOp::create(*rewriter, loc, *x, *y).getResult();
  }

private:
  Value make(const APInt &value) {
    if (!rewriter)
      return Value();
    return arith::ConstantOp::create(
        *rewriter, loc,
        rewriter->getIntegerAttr(rewriter->getIntegerType(value.getBitWidth()),
                                 value));
  }
};

/// A narrow integer taken out of joined lanes, `trunc((join(a, b) & m) >>
/// 32)`: the lane it came from, `b & (m >> 32)`. SIMD code on floats' bits
/// in wider integer lanes (`_mm512_and_si512` of a float packet's bits, in
/// 64-bit lanes) then shows each float's sign-bit trick to SignBitTrick.
struct NarrowedBits : OpRewritePattern<arith::TruncIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncIOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<IntegerType>(op.getType()))
      return failure();
    unsigned width = op.getType().getIntOrFloatBitWidth();
    if (!BitSlice{nullptr, op.getLoc()}.of(op.getIn(), 0, width))
      return failure();
    std::optional<Value> narrow =
        BitSlice{&rewriter, op.getLoc()}.of(op.getIn(), 0, width);
    rewriter.replaceOp(op, *narrow);
    return success();
  }
};
} // namespace

void BitCastOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<SignBitTrick, MaskedBits, JoinedSelects, JoinedHalves,
               SelectOfBits, NarrowedBits>(context);
}
