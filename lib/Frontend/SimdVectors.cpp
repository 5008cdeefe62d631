//===- SimdVectors.cpp - SIMD vector types as rows of lanes ---------------===//
//
// A SIMD vector (GCC's and Clang's `vector_size` types, x86's `__m128d`) is,
// to the memory model, what C++'s layout makes it: N lanes of one scalar
// type in a row, like an array of N. A vector expression is lowered into
// the place that receives it, as complex numbers are (ComplexNumbers.cpp),
// lane by lane with the scalar arithmetic the engine differentiates; SROA
// and mem2reg turn the lanes back into values, and LLVM's vectorizers
// vectorize them again. Reading a vector as one of another lane type
// (`(__v2du)v`) reads each lane's bits (ct.bit_cast, the lanes split or
// joined where their widths differ), so the sign-bit tricks of SIMD code
// keep their derivatives (BitCasts.cpp) and other bits of derivatives are
// refused.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "ModuleLowering.h"
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

/// Each lane of `lanes` as an integer of its width.
SmallVector<Value> laneBits(OpBuilder &b, Location l, ArrayRef<Value> lanes) {
  return llvm::map_to_vector(lanes, [&](Value lane) -> Value {
    Type type = lane.getType();
    if (!isa<FloatType>(type))
      return lane;
    return ct::BitCastOp::create(
        b, l, b.getIntegerType(type.getIntOrFloatBitWidth()), lane);
  });
}
} // namespace

SmallVector<Value> FunctionLowering::reinterpretLanes(ArrayRef<Value> lanes,
                                                      Type laneType,
                                                      Location l) {
  SmallVector<Value> bits = laneBits(b, l, lanes);
  unsigned from = bits.front().getType().getIntOrFloatBitWidth();
  unsigned to = laneType.getIntOrFloatBitWidth();
  Type integer = b.getIntegerType(to);
  SmallVector<Value> result;
  if (from == to) {
    result = bits;
  } else if (from < to) {
    // Narrow lanes joined, the first in the low bits (little-endian).
    unsigned k = to / from;
    for (unsigned j = 0; j < bits.size() / k; ++j) {
      Value joined;
      for (unsigned t = 0; t < k; ++t) {
        Value part = arith::ExtUIOp::create(b, l, integer, bits[j * k + t]);
        if (t)
          part = arith::ShLIOp::create(
              b, l, part,
              arith::ConstantOp::create(b, l,
                                        b.getIntegerAttr(integer, t * from)));
        joined = joined ? arith::OrIOp::create(b, l, joined, part).getResult()
                        : part;
      }
      result.push_back(joined);
    }
  } else {
    // Wide lanes split, the low bits first.
    unsigned k = from / to;
    for (Value wide : bits)
      for (unsigned t = 0; t < k; ++t) {
        Value part = wide;
        if (t)
          part = arith::ShRUIOp::create(
              b, l, part,
              arith::ConstantOp::create(
                  b, l, b.getIntegerAttr(wide.getType(), t * to)));
        result.push_back(arith::TruncIOp::create(b, l, integer, part));
      }
  }
  if (isa<FloatType>(laneType))
    for (Value &lane : result)
      lane = ct::BitCastOp::create(b, l, laneType, lane);
  return result;
}

std::optional<SmallVector<Value>>
FunctionLowering::vectorLanes(const clang::Expr *expr) {
  expr = strip(expr);
  // (A place read: the place's lanes.)
  if (const auto *read = dyn_cast<clang::ImplicitCastExpr>(expr);
      read && read->getCastKind() == clang::CK_LValueToRValue)
    expr = read->getSubExpr();
  Location l = loc(expr);
  unsigned n = asVector(expr->getType())->getNumElements();
  std::optional<Address> place =
      expr->isGLValue() ? lowerLValue(expr) : materializeTemporary(expr);
  if (!place)
    return std::nullopt;
  SmallVector<Value> lanes;
  for (unsigned i = 0; i < n; ++i)
    lanes.push_back(load(offsetBy(*place, i, l), l));
  return lanes;
}

std::optional<SmallVector<Value>>
FunctionLowering::vectorOperation(const clang::Expr *expr) {
  Location l = loc(expr);
  const clang::VectorType *type = asVector(expr->getType());
  clang::QualType element = type->getElementType();
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    const clang::VectorType *left = asVector(binary->getLHS()->getType());
    if (!left || !asVector(binary->getRHS()->getType()))
      return unsupported<std::optional<SmallVector<Value>>>(
          expr, "this operator between a SIMD vector and a scalar cannot be "
                "differentiated yet; make the scalar a vector first");
    clang::QualType operand = left->getElementType();
    std::optional<SmallVector<Value>> x = vectorLanes(binary->getLHS());
    std::optional<SmallVector<Value>> y = vectorLanes(binary->getRHS());
    if (!x || !y)
      return std::nullopt;
    SmallVector<Value> lanes;
    for (auto [a, c] : llvm::zip_equal(*x, *y)) {
      Value lane = arithmetic(binary->getOpcode(), a, c, operand, l);
      if (!lane)
        return std::nullopt;
      // A comparison's lanes are all ones where it holds.
      if (binary->isComparisonOp())
        lane = arith::ExtSIOp::create(
            b, l, b.getIntegerType(ast.getTypeSize(element)), lane);
      lanes.push_back(lane);
    }
    return lanes;
  }
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr)) {
    std::optional<SmallVector<Value>> x = vectorLanes(unary->getSubExpr());
    if (!x)
      return std::nullopt;
    for (Value &lane : *x) {
      Type t = lane.getType();
      if (unary->getOpcode() == clang::UO_Minus)
        lane = isa<FloatType>(t)
                   ? arith::NegFOp::create(b, l, lane).getResult()
                   : arith::SubIOp::create(
                         b, l,
                         arith::ConstantOp::create(b, l, t, b.getZeroAttr(t)),
                         lane)
                         .getResult();
      else if (unary->getOpcode() == clang::UO_Not && !isa<FloatType>(t))
        lane = arith::XOrIOp::create(
            b, l, lane,
            arith::ConstantOp::create(b, l, t, b.getIntegerAttr(t, -1)));
      else if (unary->getOpcode() != clang::UO_Plus)
        return unsupported<std::optional<SmallVector<Value>>>(
            expr, "this operator on SIMD vectors cannot be differentiated");
    }
    return x;
  }
  if (const auto *shuffle = dyn_cast<clang::ShuffleVectorExpr>(expr)) {
    // __builtin_shufflevector(a, b, i...): lane i of a and b in a row.
    SmallVector<Value> sources;
    for (unsigned k = 0; k < 2; ++k) {
      std::optional<SmallVector<Value>> x = vectorLanes(shuffle->getExpr(k));
      if (!x)
        return std::nullopt;
      sources.append(*x);
    }
    SmallVector<Value> lanes;
    for (unsigned i = 2; i < shuffle->getNumSubExprs(); ++i) {
      int64_t k = shuffle->getShuffleMaskIdx(i - 2).getSExtValue();
      // (-1: any lane; the first.)
      lanes.push_back(sources[k < 0 ? 0 : k]);
    }
    return lanes;
  }
  if (const auto *conversion = dyn_cast<clang::ConvertVectorExpr>(expr)) {
    const clang::Expr *source = conversion->getSrcExpr();
    std::optional<SmallVector<Value>> x = vectorLanes(source);
    if (!x)
      return std::nullopt;
    clang::QualType from = asVector(source->getType())->getElementType();
    for (Value &lane : *x)
      lane = convert(lane, from, element, l);
    return x;
  }
  return unsupported<std::optional<SmallVector<Value>>>(
      expr, "this SIMD vector expression cannot be differentiated yet");
}

Value buildElementwiseBuiltin(OpBuilder &b, Location l, StringRef name,
                              ValueRange operands, bool isSigned) {
  Value x = operands[0];
  if (isa<FloatType>(x.getType())) {
    if (operands.size() == 1) {
      if (name == "sqrt")
        return math::SqrtOp::create(b, l, x);
      if (name == "abs")
        return math::AbsFOp::create(b, l, x);
      if (name == "floor")
        return math::FloorOp::create(b, l, x);
      if (name == "ceil")
        return math::CeilOp::create(b, l, x);
      if (name == "trunc")
        return math::TruncOp::create(b, l, x);
      if (name == "round")
        return math::RoundOp::create(b, l, x);
      if (name == "roundeven")
        return math::RoundEvenOp::create(b, l, x);
    }
    if (operands.size() == 2 && name == "max")
      return arith::MaxNumFOp::create(b, l, x, operands[1]);
    if (operands.size() == 2 && name == "min")
      return arith::MinNumFOp::create(b, l, x, operands[1]);
    if (operands.size() == 3 && name == "fma")
      return math::FmaOp::create(b, l, x, operands[1], operands[2]);
    // (`sin`, `exp`, `pow`...: the <cmath> function of that name.)
    return buildNamedMathFunction(b, l, name, operands, x.getType());
  }
  if (operands.size() == 1 && name == "abs")
    return math::AbsIOp::create(b, l, x);
  if (operands.size() == 2 && name == "max")
    return isSigned ? arith::MaxSIOp::create(b, l, x, operands[1]).getResult()
                    : arith::MaxUIOp::create(b, l, x, operands[1]).getResult();
  if (operands.size() == 2 && name == "min")
    return isSigned ? arith::MinSIOp::create(b, l, x, operands[1]).getResult()
                    : arith::MinUIOp::create(b, l, x, operands[1]).getResult();
  return {};
}

std::optional<SmallVector<Value>>
FunctionLowering::elementwiseBuiltin(const clang::CallExpr *call) {
  using Result = std::optional<SmallVector<Value>>;
  Location l = loc(call);
  const clang::FunctionDecl *callee = call->getDirectCallee();
  StringRef name = callee && callee->getIdentifier() ? callee->getName() : "";
  std::string what = name.empty() ? "this call" : "'" + name.str() + "'";
  bool x86 = name.consume_front("__builtin_ia32_");
  if (bool handled; x86)
    if (Result lanes = x86IntegerBuiltin(call, name, handled); handled)
      return lanes;
  if (bool handled; x86)
    if (Result lanes = x86MaskedBuiltin(call, name, handled); handled)
      return lanes;
  // (An immediate operand: the comparison an AVX `cmp` makes.)
  std::optional<uint64_t> immediate;
  if (const clang::Expr *last =
          call->getNumArgs() ? call->getArg(call->getNumArgs() - 1) : nullptr;
      x86 && last && !asVector(last->getType())) {
    clang::Expr::EvalResult value;
    if (!last->EvaluateAsInt(value, ast))
      return unsupported<Result>(call, "the SIMD builtin " + what +
                                           " takes an operand that is not a "
                                           "constant; it cannot be "
                                           "differentiated");
    immediate = value.Val.getInt().getZExtValue();
  }
  auto notLowered = [&] {
    return unsupported<Result>(
        call, "the SIMD builtin " + what +
                  " cannot be differentiated yet; build the library's "
                  "scalar code instead (Eigen: define EIGEN_DONT_VECTORIZE)");
  };
  if ((!x86 && !name.consume_front("__builtin_elementwise_")) ||
      !call->getNumArgs() || !asVector(call->getArg(0)->getType()))
    return notLowered();
  SmallVector<SmallVector<Value>> arguments;
  for (const clang::Expr *arg : call->arguments()) {
    if (!asVector(arg->getType()))
      continue; // (the immediate)
    std::optional<SmallVector<Value>> x = vectorLanes(arg);
    if (!x)
      return std::nullopt;
    arguments.push_back(std::move(*x));
  }
  if (x86) {
    unsigned resultLanes = asVector(call->getType())->getNumElements();
    Result lanes =
        x86BuiltinLanes(b, l, name, arguments, immediate, resultLanes);
    return lanes ? lanes : notLowered();
  }
  bool isSigned = asVector(call->getType())
                      ->getElementType()
                      ->isSignedIntegerOrEnumerationType();
  SmallVector<Value> lanes;
  for (unsigned i = 0; i < arguments.front().size(); ++i) {
    SmallVector<Value> operands;
    for (const SmallVector<Value> &argument : arguments)
      operands.push_back(argument[i]);
    Value lane = buildElementwiseBuiltin(b, l, name, operands, isSigned);
    if (!lane)
      return unsupported<Result>(call, "the builtin " + what +
                                           " on SIMD vectors cannot be "
                                           "differentiated yet");
    lanes.push_back(lane);
  }
  return lanes;
}

namespace {
/// An operand of an assembly statement: an output (and whether it is also
/// read) or an input.
struct AsmOperand {
  const clang::Expr *expr;
  bool output, read;
};
} // namespace

/// The operand of `statement`'s assembly its template names `name`
/// (`%[name]` or `%N`).
static std::optional<AsmOperand> asmOperand(const clang::GCCAsmStmt *statement,
                                            StringRef name) {
  name = name.trim();
  if (!name.consume_front("%"))
    return std::nullopt;
  unsigned index = 0;
  bool numbered = !name.getAsInteger(10, index);
  if (!numbered && !(name.consume_front("[") && name.consume_back("]")))
    return std::nullopt;
  for (unsigned i = 0; i < statement->getNumOutputs(); ++i)
    if (numbered ? index == i : statement->getOutputName(i) == name)
      return AsmOperand{
          statement->getOutputExpr(i), true,
          StringRef(statement->getOutputConstraint(i)).starts_with("+")};
  for (unsigned i = 0; i < statement->getNumInputs(); ++i)
    if (numbered ? index == statement->getNumOutputs() + i
                 : statement->getInputName(i) == name)
      return AsmOperand{statement->getInputExpr(i), false, true};
  return std::nullopt;
}

bool FunctionLowering::lowerPacketAssembly(const clang::GCCAsmStmt *statement) {
  // The packet instructions libraries write in assembly to steer register
  // allocation (Eigen for compilers that say they are an old GCC or Clang),
  // AT&T order, destination last: `minpd src, dst` sets dst to dst's lane
  // unless src's is smaller, AVX's `vminpd a, b, dst` dst to b's unless
  // a's is (each x86's builtin of that name, lane by lane), and
  // `vfmadd231pd a, b, dst` sets dst to a * b + dst.
  std::string text = statement->getAsmString();
  auto [mnemonic, rest] = StringRef(text).trim().split(' ');
  SmallVector<StringRef> names;
  rest.split(names, ',');
  bool avx = mnemonic.consume_front("v");
  bool fma = avx && mnemonic.consume_front("fmadd231");
  if (statement->getNumClobbers() || statement->getNumLabels() ||
      !(fma || mnemonic.starts_with("min") || mnemonic.starts_with("max")) ||
      !(mnemonic.ends_with("pd") || mnemonic.ends_with("ps")) ||
      names.size() != (avx ? 3u : 2u))
    return false;
  SmallVector<AsmOperand> operands;
  for (StringRef name : names) {
    std::optional<AsmOperand> operand = asmOperand(statement, name);
    if (!operand || !asVector(operand->expr->getType()))
      return false;
    operands.push_back(*operand);
  }
  const AsmOperand &dest = operands.back();
  if (!dest.output || ((!avx || fma) != dest.read))
    return false;
  SmallVector<SmallVector<Value>> sources;
  for (const AsmOperand &operand : operands) {
    if (!operand.read)
      continue;
    std::optional<SmallVector<Value>> lanes = vectorLanes(operand.expr);
    if (!lanes)
      return true;
    sources.push_back(std::move(*lanes));
  }
  std::optional<Address> place = lowerLValue(dest.expr);
  if (!place)
    return true;
  Location l = loc(statement);
  std::string builtin = mnemonic.str();
  for (unsigned i = 0; i < sources.front().size(); ++i) {
    Value lane = fma ? math::FmaOp::create(b, l, sources[0][i], sources[1][i],
                                           sources[2][i])
                           .getResult()
                     : x86Lane(b, l, builtin, {sources[1][i], sources[0][i]},
                               std::nullopt);
    if (!lane)
      return false;
    store(lane, offsetBy(*place, i, l), l);
  }
  return true;
}

bool FunctionLowering::lowerVectorCastInto(const clang::CastExpr *cast,
                                           Address dest) {
  Location l = loc(cast);
  const clang::VectorType *type = asVector(cast->getType());
  clang::QualType element = type->getElementType();
  const clang::Expr *sub = cast->getSubExpr();
  SmallVector<Value> lanes;
  switch (cast->getCastKind()) {
  case clang::CK_NoOp:
  // (A class's conversion to its vector, `operator __m128i &()` of Eigen's
  // packet wrappers: the call.)
  case clang::CK_UserDefinedConversion:
    return lowerVectorInto(sub, dest);
  case clang::CK_VectorSplat: {
    Value scalar = lowerRValue(sub);
    if (!scalar)
      return false;
    lanes.assign(type->getNumElements(),
                 convert(scalar, sub->getType(), element, l));
    break;
  }
  case clang::CK_BitCast: {
    // The same bits, as lanes of another type.
    std::optional<SmallVector<Value>> x = vectorLanes(sub);
    std::optional<Layout> lane = layoutOf(element, cast);
    if (!x || !lane)
      return false;
    lanes = reinterpretLanes(*x, lane->scalar, l);
    break;
  }
  default:
    return unsupported<bool>(cast, "this conversion of SIMD vectors cannot "
                                   "be differentiated");
  }
  for (auto [i, lane] : llvm::enumerate(lanes))
    store(lane, offsetBy(dest, i, l), l);
  return true;
}

bool FunctionLowering::lowerVectorInto(const clang::Expr *expr, Address dest) {
  expr = strip(expr);
  Location l = loc(expr);
  const clang::VectorType *type = asVector(expr->getType());
  unsigned n = type->getNumElements();
  clang::QualType element = type->getElementType();
  auto storeLanes = [&](ArrayRef<Value> lanes) {
    for (auto [i, lane] : llvm::enumerate(lanes))
      store(lane, offsetBy(dest, i, l), l);
    return true;
  };
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return lowerVectorInto(temporary->getSubExpr(), dest);
  if (const auto *literal = dyn_cast<clang::CompoundLiteralExpr>(expr))
    return lowerVectorInto(literal->getInitializer(), dest);
  if (const auto *cast = dyn_cast<clang::CastExpr>(expr);
      cast && cast->getCastKind() != clang::CK_LValueToRValue)
    return lowerVectorCastInto(cast, dest);
  if (const auto *list = dyn_cast<clang::InitListExpr>(expr)) {
    // Lanes in order, vectors among them giving theirs; zeros after.
    SmallVector<Value> lanes;
    for (const clang::Expr *init : list->inits()) {
      if (asVector(init->getType())) {
        std::optional<SmallVector<Value>> x = vectorLanes(init);
        if (!x)
          return false;
        lanes.append(*x);
        continue;
      }
      Value scalar = lowerRValue(init);
      if (!scalar)
        return false;
      lanes.push_back(convert(scalar, init->getType(), element, l));
    }
    std::optional<Layout> lane = layoutOf(element, expr);
    if (!lane)
      return false;
    while (lanes.size() < n)
      lanes.push_back(arith::ConstantOp::create(b, l, lane->scalar,
                                                b.getZeroAttr(lane->scalar)));
    return storeLanes(lanes);
  }
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr);
      unary && unary->getOpcode() == clang::UO_Extension)
    return lowerVectorInto(unary->getSubExpr(), dest);
  if (const auto *call = dyn_cast<clang::CallExpr>(expr)) {
    if (const clang::FunctionDecl *callee = call->getDirectCallee();
        callee && callee->getBuiltinID()) {
      std::optional<SmallVector<Value>> lanes = elementwiseBuiltin(call);
      return lanes && storeLanes(*lanes);
    }
    std::optional<CallResult> result = lowerCall(call, dest);
    if (!result || !result->address)
      return false;
    if (result->address->memref != dest.memref ||
        result->address->offset != dest.offset)
      copy(dest, *result->address, n, l);
    return true;
  }
  if (const auto *choice = dyn_cast<clang::ConditionalOperator>(expr);
      choice && !asVector(choice->getCond()->getType()))
    return emitConditional(
               choice, TypeRange{},
               [&](const clang::Expr *arm, SmallVectorImpl<Value> &) {
                 return lowerVectorInto(arm, dest);
               }) != nullptr;
  if (expr->isGLValue()) {
    std::optional<Address> place = lowerLValue(expr);
    if (!place)
      return false;
    copy(dest, *place, n, l);
    return true;
  }
  // (A cast to an rvalue reads a place: above.)
  if (const auto *cast = dyn_cast<clang::ImplicitCastExpr>(expr);
      cast && cast->getCastKind() == clang::CK_LValueToRValue)
    return lowerVectorInto(cast->getSubExpr(), dest);
  std::optional<SmallVector<Value>> lanes = vectorOperation(expr);
  return lanes && storeLanes(*lanes);
}

std::optional<Address>
FunctionLowering::lowerVectorAssignment(const clang::BinaryOperator *expr) {
  Location l = loc(expr);
  std::optional<Address> place = lowerLValue(expr->getLHS());
  if (!place)
    return std::nullopt;
  if (expr->getOpcode() == clang::BO_Assign) {
    // (Read whole before written: `v = v.yx` in lanes.)
    std::optional<SmallVector<Value>> lanes = vectorLanes(expr->getRHS());
    if (!lanes)
      return std::nullopt;
    for (auto [i, lane] : llvm::enumerate(*lanes))
      store(lane, offsetBy(*place, i, l), l);
    return place;
  }
  const auto *compound = cast<clang::CompoundAssignOperator>(expr);
  clang::QualType element =
      asVector(expr->getLHS()->getType())->getElementType();
  std::optional<SmallVector<Value>> x = vectorLanes(expr->getLHS());
  std::optional<SmallVector<Value>> y = vectorLanes(expr->getRHS());
  if (!x || !y)
    return std::nullopt;
  clang::BinaryOperatorKind op =
      clang::BinaryOperator::getOpForCompoundAssignment(compound->getOpcode());
  for (auto [i, lanes] : llvm::enumerate(llvm::zip_equal(*x, *y))) {
    Value lane =
        arithmetic(op, std::get<0>(lanes), std::get<1>(lanes), element, l);
    if (!lane)
      return std::nullopt;
    store(lane, offsetBy(*place, i, l), l);
  }
  return place;
}

std::optional<Address>
FunctionLowering::lowerVectorLane(const clang::ArraySubscriptExpr *expr) {
  Location l = loc(expr);
  const clang::Expr *vector = expr->getBase();
  std::optional<Address> place =
      vector->isGLValue() ? lowerLValue(vector) : materializeTemporary(vector);
  Value i = lowerRValue(expr->getIdx());
  if (!place || !i)
    return std::nullopt;
  return offsetBy(*place, index(i, expr->getIdx()->getType(), l), l);
}

} // namespace cotangent::frontend
