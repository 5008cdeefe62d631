//===- EigenPacketMath.cpp - Eigen's packet math as <cmath> on each lane --===//
//
// With SIMD on, Eigen computes `exp`, `log`, `sin`... of its arrays by
// functions of whole packets (`Eigen::internal::pexp<Packet2d>`) that
// approximate each lane by a polynomial after a range reduction, with the
// tricks such code is made of: a rounding done by adding and subtracting
// 2^52 behind an optimization barrier, a power of two built from an
// integer's bits, a mantissa taken out by masks. Differentiated as written,
// they give the derivative of the tricks rather than of the function (the
// multiple of log 2 that exp's reduction takes off would get a derivative,
// and exp's would come out near zero). So a call of one is the <cmath>
// function on each lane, which the engine differentiates by its rule; each
// lane's value is then the C library's, within the unit or two in the last
// place Eigen's approximations promise.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "ModuleLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace cotangent::frontend {

/// The <cmath> function Eigen's packet function `name` (in
/// Eigen::internal) computes on each lane, or "" for another function.
/// (`rsqrt`: one over the square root.)
static StringRef packetMathFunction(StringRef name) {
  if (name == "generic_pow")
    return "pow";
  static constexpr StringLiteral kPacketFunctions[] = {
      "pexp",   "pexpm1", "plog",   "plog1p", "plog2", "plog10", "psin",
      "pcos",   "ptan",   "pasin",  "pacos",  "patan", "psinh",  "pcosh",
      "ptanh",  "psqrt",  "prsqrt", "pfloor", "pceil", "pround", "print",
      "ptrunc", "perf",   "perfc",  "plgamma"};
  return llvm::is_contained(kPacketFunctions, name) ? name.drop_front() : "";
}

bool FunctionLowering::lowerEigenPacketMathCall(
    const clang::CallExpr *call, const clang::FunctionDecl *callee,
    std::optional<Address> dest, std::optional<CallResult> &result) {
  const clang::FunctionTemplateDecl *primary = callee->getPrimaryTemplate();
  if (!primary || !callee->getIdentifier())
    return false;
  StringRef function = packetMathFunction(callee->getName());
  const auto *packet = call->getType()->getAs<clang::VectorType>();
  if (function.empty() || !packet ||
      !packet->getElementType()->isRealFloatingType() ||
      primary->getQualifiedNameAsString() !=
          ("Eigen::internal::" + callee->getName()).str())
    return false;
  if (llvm::any_of(call->arguments(), [&](const clang::Expr *arg) {
        return !ast.hasSameUnqualifiedType(arg->getType(), call->getType());
      }))
    return false;
  result = std::nullopt;
  Location l = loc(call);
  SmallVector<SmallVector<Value>> arguments;
  for (const clang::Expr *arg : call->arguments()) {
    std::optional<SmallVector<Value>> lanes = vectorLanes(arg);
    if (!lanes)
      return true;
    arguments.push_back(std::move(*lanes));
  }
  std::optional<Address> place = resultPlaceFor(call, call->getType(), dest);
  if (!place)
    return true;
  for (unsigned i = 0; i < packet->getNumElements(); ++i) {
    SmallVector<Value> operands;
    for (const SmallVector<Value> &argument : arguments)
      operands.push_back(argument[i]);
    Type type = operands.front().getType();
    Value lane;
    if (function == "rsqrt")
      lane = arith::DivFOp::create(
          b, l, arith::ConstantOp::create(b, l, type, b.getFloatAttr(type, 1)),
          math::SqrtOp::create(b, l, operands.front()));
    else
      lane = buildNamedMathFunction(b, l, function, operands, type);
    if (!lane) {
      result = unsupported<std::optional<CallResult>>(
          call, "Eigen's '" + callee->getName().str() +
                    "' of these packets cannot be differentiated yet");
      return true;
    }
    store(lane, offsetBy(*place, i, l), l);
  }
  result = CallResult{Value(), place};
  return true;
}

} // namespace cotangent::frontend
