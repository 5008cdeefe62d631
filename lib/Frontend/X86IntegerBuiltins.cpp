//===- X86IntegerBuiltins.cpp - x86's shifts, conversions and movemasks ---===//
//
// The x86 builtins SIMD math code makes integers with (X86VectorBuiltins.cpp
// has the lane-by-lane floating-point ones): shifts of integer lanes by a
// count, conversions between floating-point and integer lanes, the
// builtins that gather lanes into one number (movemasks, `ptest`), and the
// extraction of one lane by a constant. Each is
// what the instruction computes, in the arith dialect, lane by lane:
// integers carry no derivative, so code that builds a power of two from an
// exponent's bits, or tests a mask, compiles as it runs; a conversion
// between `double` and `float` lanes keeps its derivative.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "X86VectorBuiltins.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
const clang::VectorType *asVector(clang::QualType type) {
  return type->getAs<clang::VectorType>();
}

/// `lane` shifted as x86's immediate shifts do: a count past the lane's
/// width gives zeros (logical) or copies of the sign bit (arithmetic).
Value shiftLane(OpBuilder &b, Location l, Value lane, Value count,
                StringRef direction) {
  Type type = lane.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  // (The count is unsigned.)
  Value amount = resizedUnsigned(b, l, count, type);
  Value wide = resizedUnsigned(b, l, count, b.getI64Type());
  Value inWidth =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, wide,
                            integerConstant(b, l, b.getI64Type(), width));
  if (direction == "ra") {
    Value capped = arith::SelectOp::create(
        b, l, inWidth, amount, integerConstant(b, l, type, width - 1));
    return arith::ShRSIOp::create(b, l, lane, capped);
  }
  Value safe = arith::SelectOp::create(b, l, inWidth, amount,
                                       integerConstant(b, l, type, 0));
  Value shifted = direction == "ll"
                      ? arith::ShLIOp::create(b, l, lane, safe).getResult()
                      : arith::ShRUIOp::create(b, l, lane, safe).getResult();
  return arith::SelectOp::create(b, l, inWidth, shifted,
                                 integerConstant(b, l, type, 0));
}

/// `x` converted to a 32-bit integer as `cvtpd2dq` (rounded to nearest,
/// `truncate` false) or `cvttpd2dq` does: NaNs and numbers out of range
/// give the "integer indefinite", INT_MIN.
Value convertLaneToInt32(OpBuilder &b, Location l, Value x, bool truncate) {
  Type type = x.getType();
  Value whole = truncate ? math::TruncOp::create(b, l, x).getResult()
                         : math::RoundEvenOp::create(b, l, x).getResult();
  auto bound = [&](double v) {
    return arith::ConstantOp::create(b, l, type, b.getFloatAttr(type, v));
  };
  Value inRange = arith::AndIOp::create(
      b, l,
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, whole,
                            bound(-2147483648.0)),
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, whole,
                            bound(2147483648.0)));
  // (A number out of range is not converted: LLVM's conversion of it is
  // poison.)
  Value safe = arith::SelectOp::create(b, l, inRange, whole, bound(0));
  Type i32 = b.getI32Type();
  return arith::SelectOp::create(b, l, inRange,
                                 arith::FPToSIOp::create(b, l, i32, safe),
                                 integerConstant(b, l, i32, INT32_MIN));
}
} // namespace

std::optional<SmallVector<Value>>
FunctionLowering::x86IntegerBuiltin(const clang::CallExpr *call, StringRef name,
                                    bool &handled) {
  handled = false;
  // Shifts by a count: psllqi128, psradi256, psrlwi512, ... (`i`: by a
  // number, not by a vector's first lane).
  StringRef shift = name;
  bool isShift = shift.consume_front("ps") && shift.size() > 4 &&
                 (shift.starts_with("ll") || shift.starts_with("rl") ||
                  shift.starts_with("ra")) &&
                 StringRef("wdq").contains(shift[2]) && shift[3] == 'i' &&
                 call->getNumArgs() == 2 &&
                 asVector(call->getArg(0)->getType());
  // Conversions: cvtpd2dq (rounded), cvttpd2dq (truncated), their `ps`
  // forms and 256-bit ones, and cvtpd2ps (to float, with a derivative).
  StringRef conversion = name;
  conversion.consume_back("256");
  bool isConversion = call->getNumArgs() == 1 &&
                      llvm::is_contained({"cvtpd2dq", "cvttpd2dq", "cvtps2dq",
                                          "cvttps2dq", "cvtpd2ps"},
                                         conversion);
  if (!isShift && !isConversion)
    return std::nullopt;
  handled = true;
  Location l = loc(call);
  std::optional<SmallVector<Value>> lanes = vectorLanes(call->getArg(0));
  if (!lanes)
    return std::nullopt;
  if (isShift) {
    Value count = lowerRValue(call->getArg(1));
    if (!count)
      return std::nullopt;
    for (Value &lane : *lanes)
      lane = shiftLane(b, l, lane, count, shift.take_front(2));
    return lanes;
  }
  SmallVector<Value> result;
  for (Value lane : *lanes)
    result.push_back(
        conversion == "cvtpd2ps"
            ? arith::TruncFOp::create(b, l, b.getF32Type(), lane).getResult()
            : convertLaneToInt32(b, l, lane, conversion.starts_with("cvtt")));
  // (Two doubles give the low half of a 128-bit result; zeros above.)
  unsigned wanted = asVector(call->getType())->getNumElements();
  Type laneType = result.front().getType();
  while (result.size() < wanted)
    result.push_back(
        arith::ConstantOp::create(b, l, laneType, b.getZeroAttr(laneType)));
  return result;
}

bool FunctionLowering::lowerLaneExtract(const clang::CallExpr *call,
                                        std::optional<CallResult> &result) {
  // vec_ext_vNT(v, i) (`_mm256_extract_epi32`, `_mm_extract_epi16`): lane i
  // of v, a number (with its derivative, for a floating-point lane).
  result = std::nullopt;
  clang::Expr::EvalResult index;
  if (!call->getArg(1)->EvaluateAsInt(index, ast)) {
    unsupported(call->getArg(1), "the lane of this SIMD extraction is not a "
                                 "constant; it cannot be differentiated");
    return true;
  }
  std::optional<SmallVector<Value>> lanes = vectorLanes(call->getArg(0));
  if (!lanes)
    return true;
  Value lane = (*lanes)[index.Val.getInt().getZExtValue() % lanes->size()];
  Location l = loc(call);
  // (A narrow integer lane is extended to the builtin's `int`.)
  Type type = b.getIntegerType(ast.getTypeSize(call->getType()));
  if (isa<IntegerType>(lane.getType()) &&
      lane.getType().getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    lane = call->getType()->isSignedIntegerType()
               ? arith::ExtSIOp::create(b, l, type, lane).getResult()
               : arith::ExtUIOp::create(b, l, type, lane).getResult();
  result = CallResult{lane, {}};
  return true;
}

bool FunctionLowering::lowerX86ScalarBuiltin(
    const clang::CallExpr *call, std::optional<CallResult> &result) {
  // x86's builtins that make a number of SIMD vectors: a movemask (the
  // lanes' sign bits, the first lane's in bit 0) and the tests of `ptest`
  // (whether `a & b`, or `~a & b`, is zero). Integers: no derivative.
  const clang::FunctionDecl *callee = call->getDirectCallee();
  StringRef name =
      callee && callee->getIdentifier() ? callee->getName() : StringRef();
  if (name.starts_with("__builtin_ia32_vec_ext_v") && call->getNumArgs() == 2)
    return lowerLaneExtract(call, result);
  if (lowerX86MaskBuiltin(call, result))
    return true;
  if (!name.consume_front("__builtin_ia32_") ||
      !call->getType()->isIntegerType() || !call->getNumArgs() ||
      !llvm::all_of(call->arguments(), [](const clang::Expr *arg) {
        return asVector(arg->getType());
      }))
    return false;
  bool movemask = name.starts_with("movmsk") || name.starts_with("pmovmskb");
  bool testZero = name.starts_with("ptestz") || name.starts_with("vtestz");
  bool testCarry = name.starts_with("ptestc") || name.starts_with("vtestc");
  if (!(movemask && call->getNumArgs() == 1) &&
      !((testZero || testCarry) && call->getNumArgs() == 2))
    return false;
  Location l = loc(call);
  result = std::nullopt;
  SmallVector<SmallVector<Value>> arguments;
  for (const clang::Expr *arg : call->arguments()) {
    std::optional<SmallVector<Value>> lanes = vectorLanes(arg);
    if (!lanes)
      return true;
    Type bits =
        b.getIntegerType(lanes->front().getType().getIntOrFloatBitWidth());
    arguments.push_back(reinterpretLanes(*lanes, bits, l));
  }
  Type integer = b.getIntegerType(ast.getTypeSize(call->getType()));
  auto constant = [&](Type type, int64_t v) {
    return integerConstant(b, l, type, v);
  };
  // (vtestz/vtestc of floating-point packets test the sign bits only.)
  bool signBitsOnly =
      name.starts_with("vtest") && asVector(call->getArg(0)->getType())
                                       ->getElementType()
                                       ->isRealFloatingType();
  SmallVector<Value> signs;
  Value anySet = arith::ConstantOp::create(b, l, b.getBoolAttr(false));
  for (auto [i, lane] : llvm::enumerate(arguments[0])) {
    Type type = lane.getType();
    if (movemask) {
      signs.push_back(arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                            lane, constant(type, 0)));
      continue;
    }
    Value a = lane;
    if (testCarry)
      a = arith::XOrIOp::create(b, l, lane, constant(type, -1));
    Value both = arith::AndIOp::create(b, l, a, arguments[1][i]);
    if (signBitsOnly)
      both = arith::ShRUIOp::create(
          b, l, both, constant(type, type.getIntOrFloatBitWidth() - 1));
    anySet = arith::OrIOp::create(
        b, l, anySet,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, both,
                              constant(type, 0)));
  }
  Value value =
      movemask ? packedBits(b, l, signs, integer)
               : arith::ExtUIOp::create(
                     b, l, integer,
                     arith::XOrIOp::create(
                         b, l, anySet,
                         arith::ConstantOp::create(b, l, b.getBoolAttr(true))))
                     .getResult();
  result = CallResult{value, {}};
  return true;
}

} // namespace cotangent::frontend
