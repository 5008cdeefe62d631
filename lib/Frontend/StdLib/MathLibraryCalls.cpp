//===- MathLibraryCalls.cpp - <cmath> functions the C library computes ----===//
//
// The <cmath> functions that are not one expression of math-dialect ops:
// those whose value is best left to the C library (`logb`, `nextafter`),
// and those that also return a part through a pointer (`frexp`, `modf`,
// `remquo`, GNU's `sincos`). Each is the library's call, or an exact
// expression, with the derivative the function has.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
enum class LibraryMath {
  None,
  /// Piecewise constant: the library's value, no derivative (`logb`).
  Stepwise,
  /// The first argument moved by at most one unit in the last place: the
  /// library's value, the derivative of the identity (`nextafter`).
  NextTo,
  Frexp,
  Modf,
  Remquo,
  /// GNU's `sincos(x, &s, &c)`: both stored, as `sin` and `cos` give them.
  Sincos
};
} // namespace

static LibraryMath classifyLibraryMath(StringRef name) {
  auto kind = [](StringRef n) {
    return llvm::StringSwitch<LibraryMath>(n)
        .Case("logb", LibraryMath::Stepwise)
        .Case("nextafter", LibraryMath::NextTo)
        .Case("frexp", LibraryMath::Frexp)
        .Case("modf", LibraryMath::Modf)
        .Case("remquo", LibraryMath::Remquo)
        .Case("sincos", LibraryMath::Sincos)
        .Default(LibraryMath::None);
  };
  return kind(mathFunctionBase(
      name, [&](StringRef whole) { return kind(whole) != LibraryMath::None; }));
}

/// Whether `operands` are what the C library's function of `kind` takes
/// for a result of `type` (null: none), so that a function of the user's
/// of the same name and another signature is not taken for it.
static bool takesLibraryOperands(LibraryMath kind, ValueRange operands,
                                 Type type) {
  auto pointerTo = [&](size_t i, auto isElement) {
    auto memref = dyn_cast<MemRefType>(operands[i].getType());
    return memref && isElement(memref.getElementType());
  };
  auto integers = [](Type t) { return isa<IntegerType>(t); };
  auto numbers = [&](Type t) { return t == operands[0].getType(); };
  if (operands.empty() || !isa<FloatType>(operands[0].getType()))
    return false;
  switch (kind) {
  case LibraryMath::Stepwise:
    return operands.size() == 1 && type == operands[0].getType();
  case LibraryMath::NextTo:
    return operands.size() == 2 && type == operands[0].getType() &&
           operands[1].getType() == type;
  case LibraryMath::Frexp:
    return operands.size() == 2 && type == operands[0].getType() &&
           pointerTo(1, integers);
  case LibraryMath::Modf:
    return operands.size() == 2 && type == operands[0].getType() &&
           pointerTo(1, numbers);
  case LibraryMath::Remquo:
    return operands.size() == 3 && type == operands[0].getType() &&
           operands[1].getType() == type && pointerTo(2, integers);
  case LibraryMath::Sincos:
    return operands.size() == 3 && !type && pointerTo(1, numbers) &&
           pointerTo(2, numbers);
  case LibraryMath::None:
    return false;
  }
  return false;
}

bool FunctionLowering::lowerMathLibraryCall(const clang::Expr *expr,
                                            const clang::FunctionDecl *callee,
                                            ArrayRef<Value> operands, Type type,
                                            std::optional<CallResult> &result) {
  if (!callee->getIdentifier() || !isMathLibraryFunction(callee))
    return false;
  LibraryMath kind = classifyLibraryMath(callee->getName());
  if (!takesLibraryOperands(kind, operands, type))
    return false;
  Location l = loc(expr);
  if (kind == LibraryMath::Sincos) {
    store(math::SinOp::create(b, l, operands[0]),
          Address{operands[1], constantIndex(0, l)}, l);
    store(math::CosOp::create(b, l, operands[0]),
          Address{operands[2], constantIndex(0, l)}, l);
    result = CallResult{Value(), std::nullopt};
    return true;
  }
  // The library's call sees numbers without derivatives (so that none
  // crosses it); the derivative comes from what is built around it.
  auto callLibrary = [&]() -> Value {
    func::FuncOp function = module.getFunction(callee);
    if (!function)
      return nullptr;
    SmallVector<Value> arguments;
    for (Value operand : operands)
      arguments.push_back(isa<FloatType>(operand.getType())
                              ? ct::StopGradientOp::create(b, l, operand)
                              : operand);
    return func::CallOp::create(b, l, function, arguments).getResult(0);
  };
  Value x = operands[0];
  Value value;
  switch (kind) {
  case LibraryMath::Stepwise:
    value = callLibrary();
    break;
  case LibraryMath::NextTo:
    if (Value computed = callLibrary())
      value = ct::PassThroughOp::create(b, l, computed, x);
    break;
  case LibraryMath::Frexp:
    // m = x 2^-e, exact (m lies in [0.5, 1)), with e as the library
    // stores it.
    if (callLibrary()) {
      Value e = load(Address{operands[1], constantIndex(0, l)}, l);
      Value zero = arith::ConstantOp::create(b, l, e.getType(),
                                             b.getIntegerAttr(e.getType(), 0));
      value = scaleByPowerOfTwo(b, l, x, arith::SubIOp::create(b, l, zero, e));
    }
    break;
  case LibraryMath::Modf:
    value = lowerModf(x, operands[1], l);
    break;
  case LibraryMath::Remquo:
    // The quotient's bits as the library stores them; the value is
    // `remainder`'s.
    if (callLibrary())
      value = buildRemainder(b, l, x, operands[1]);
    break;
  case LibraryMath::None:
  case LibraryMath::Sincos:
    break;
  }
  result = value ? std::optional(CallResult{value, {}}) : std::nullopt;
  return true;
}

Value FunctionLowering::lowerModf(Value x, Value integralPart, Location l) {
  // The integral part trunc(x); the fraction x - trunc(x), exact, with the
  // sign of x where it is zero (an integer, or an infinity).
  Type type = x.getType();
  Value integral = math::TruncOp::create(b, l, x);
  store(integral, Address{integralPart, constantIndex(0, l)}, l);
  Value fraction = arith::SubFOp::create(b, l, x, integral);
  Value zero = arith::ConstantOp::create(b, l, type, b.getFloatAttr(type, 0.0));
  Value infinity = arith::ConstantOp::create(
      b, l, type,
      b.getFloatAttr(
          type, APFloat::getInf(cast<FloatType>(type).getFloatSemantics())));
  Value whole = arith::OrIOp::create(
      b, l,
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, fraction, zero),
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                            math::AbsFOp::create(b, l, x), infinity));
  return arith::SelectOp::create(
      b, l, whole, math::CopySignOp::create(b, l, zero, x), fraction);
}

} // namespace cotangent::frontend
