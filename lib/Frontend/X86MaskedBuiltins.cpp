//===- X86MaskedBuiltins.cpp - AVX-512's masks, lane by lane --------------===//
//
// AVX-512 gives most operations a mask: an integer whose bit i says whether
// lane i is computed or taken from a passthrough operand (or, for memory,
// touched at all). Its builtins (`__builtin_ia32_*`, named here past that
// prefix) are lowered as what they compute: a `_mask` form is the
// operation (X86VectorBuiltins.cpp), then a select of each lane by its
// bit; a comparison into a mask is the comparisons' bits; the operations
// on masks are integer arithmetic; a masked load or store, gather or
// scatter touches memory only in the lanes that are on (scf.if where the
// mask is known only at run time, since the lanes that are off may lie past
// the end of an array). Masks are integers: no derivative flows through
// them, and each lane's derivative is that of the value it takes.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "ModuleLowering.h"
#include "X86VectorBuiltins.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
const clang::VectorType *asVector(clang::QualType type) {
  return type->getAs<clang::VectorType>();
}

/// Whether `expr` is a SIMD vector.
bool isPacket(const clang::Expr *expr) { return asVector(expr->getType()); }

/// Bit i of the integer `mask`, as an i1.
Value maskBit(OpBuilder &b, Location l, Value mask, unsigned i) {
  Type type = mask.getType();
  if (i >= type.getIntOrFloatBitWidth())
    return arith::ConstantOp::create(b, l, b.getBoolAttr(false));
  Value bit = arith::AndIOp::create(
      b, l, arith::ShRUIOp::create(b, l, mask, integerConstant(b, l, type, i)),
      integerConstant(b, l, type, 1));
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, bit,
                               integerConstant(b, l, type, 0));
}

/// The rounding-mode operand of AVX-512's builtins is accepted where it
/// keeps the current mode (`_MM_FROUND_CUR_DIRECTION`, or exceptions
/// suppressed): the lanes are then what the plain operation gives.
bool keepsCurrentRounding(uint64_t rounding) {
  return rounding == 4 || rounding == 8 || rounding == 12;
}

/// The integer comparison AVX-512's `cmp`/`ucmp` builtins make for their
/// immediate (_MM_CMPINT_EQ, LT, LE, FALSE, NE, NLT, NLE, TRUE); null for
/// the constant ones.
std::optional<arith::CmpIPredicate> integerComparison(uint64_t immediate,
                                                      bool isUnsigned) {
  using P = arith::CmpIPredicate;
  switch (immediate & 7) {
  case 0:
    return P::eq;
  case 1:
    return isUnsigned ? P::ult : P::slt;
  case 2:
    return isUnsigned ? P::ule : P::sle;
  case 4:
    return P::ne;
  case 5:
    return isUnsigned ? P::uge : P::sge;
  case 6:
    return isUnsigned ? P::ugt : P::sgt;
  default:
    return std::nullopt;
  }
}
} // namespace

SmallVector<Value> FunctionLowering::maskBits(const clang::Expr *mask,
                                              unsigned lanes) {
  Location l = loc(mask);
  SmallVector<Value> bits;
  // (A mask known here: constants, so that an all-ones mask costs nothing.)
  if (clang::Expr::EvalResult known; mask->EvaluateAsInt(known, ast)) {
    uint64_t value = known.Val.getInt().getZExtValue();
    for (unsigned i = 0; i < lanes; ++i)
      bits.push_back(arith::ConstantOp::create(
          b, l, b.getBoolAttr(i < 64 && ((value >> i) & 1))));
    return bits;
  }
  Value value = lowerRValue(mask);
  if (!value)
    return bits;
  for (unsigned i = 0; i < lanes; ++i)
    bits.push_back(maskBit(b, l, value, i));
  return bits;
}

Value FunctionLowering::loadWhere(Value on, Address address, Value otherwise,
                                  Location l) {
  if (std::optional<int64_t> known = getConstantIntValue(on))
    return *known ? load(address, l) : otherwise;
  scf::IfOp choice = buildChoice(b, l, otherwise.getType(), on);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(choice.thenBlock());
  scf::YieldOp::create(b, l, load(address, l));
  b.setInsertionPointToStart(choice.elseBlock());
  scf::YieldOp::create(b, l, otherwise);
  return choice.getResult(0);
}

void FunctionLowering::storeWhere(Value on, Value value, Address address,
                                  Location l) {
  if (std::optional<int64_t> known = getConstantIntValue(on)) {
    if (*known)
      store(value, address, l);
    return;
  }
  scf::IfOp choice = scf::IfOp::create(b, l, on);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(choice.thenBlock()->getTerminator());
  store(value, address, l);
}

std::optional<Address>
FunctionLowering::maskedLaneAddress(Address base, const clang::Expr *index,
                                    Value lane, uint64_t scale,
                                    unsigned laneBytes) {
  // Gathers and scatters offset by index * scale bytes: lanes, where the
  // scale is whole lanes (a `double` gather's 8, a `float` one's 4 or 8).
  if (scale % laneBytes)
    return unsupported<std::optional<Address>>(
        index, "these indices of a gather or scatter count parts of its "
               "lanes (its scale is not a whole number of lanes); it cannot "
               "be differentiated");
  clang::QualType type = asVector(index->getType())->getElementType();
  Location l = loc(index);
  Value offset = this->index(lane, type, l);
  if (scale != laneBytes)
    offset = arith::MulIOp::create(
        b, l, offset, arith::ConstantIndexOp::create(b, l, scale / laneBytes));
  return offsetBy(base, offset, l);
}

std::optional<SmallVector<Value>>
FunctionLowering::maskedMemoryLanes(const clang::CallExpr *call,
                                    StringRef name) {
  using Result = std::optional<SmallVector<Value>>;
  Location l = loc(call);
  unsigned n = asVector(call->getType())->getNumElements();
  bool gather = name.starts_with("gather");
  // load*_mask(pointer, passthrough, mask); gather*(passthrough, base,
  // indices, mask, scale).
  const clang::Expr *pointer = call->getArg(gather ? 1 : 0);
  std::optional<Address> base = lowerPointer(pointer);
  std::optional<SmallVector<Value>> passthrough =
      vectorLanes(call->getArg(gather ? 0 : 1));
  if (!base || !passthrough)
    return std::nullopt;
  SmallVector<Value> on = maskBits(call->getArg(gather ? 3 : 2), n);
  std::optional<SmallVector<Value>> indices;
  std::optional<uint64_t> scale;
  if (gather) {
    indices = vectorLanes(call->getArg(2));
    clang::Expr::EvalResult known;
    if (!indices || !call->getArg(4)->EvaluateAsInt(known, ast))
      return std::nullopt;
    scale = known.Val.getInt().getZExtValue();
  }
  if (on.size() != n)
    return std::nullopt;
  if (gather && indices->size() != n)
    return unsupported<Result>(call, "a gather with fewer indices than "
                                     "lanes cannot be differentiated yet");
  unsigned laneBytes =
      ast.getTypeSizeInChars(asVector(call->getType())->getElementType())
          .getQuantity();
  SmallVector<Value> lanes;
  for (unsigned i = 0; i < n; ++i) {
    std::optional<Address> at =
        gather ? maskedLaneAddress(*base, call->getArg(2), (*indices)[i],
                                   *scale, laneBytes)
               : offsetBy(*base, i, l);
    if (!at)
      return Result();
    lanes.push_back(loadWhere(on[i], *at, (*passthrough)[i], l));
  }
  return lanes;
}

std::optional<SmallVector<Value>>
FunctionLowering::maskedOperationLanes(const clang::CallExpr *call,
                                       StringRef name) {
  // op_mask(sources..., [immediate], passthrough, mask, [rounding]): the
  // passthrough is the last vector operand, the mask the integer after it.
  using Result = std::optional<SmallVector<Value>>;
  Location l = loc(call);
  std::string what = "'__builtin_ia32_" + name.str() + "_mask'";
  unsigned last = 0;
  for (unsigned i = 0; i < call->getNumArgs(); ++i)
    if (isPacket(call->getArg(i)))
      last = i;
  if (last + 1 >= call->getNumArgs() || isPacket(call->getArg(last + 1)))
    return unsupported<Result>(call, "the SIMD builtin " + what +
                                         " cannot be differentiated yet");
  SmallVector<SmallVector<Value>> sources;
  std::optional<uint64_t> immediate;
  for (unsigned i = 0; i < call->getNumArgs(); ++i) {
    const clang::Expr *arg = call->getArg(i);
    if (i == last || i == last + 1)
      continue;
    if (isPacket(arg) && i < last) {
      std::optional<SmallVector<Value>> lanes = vectorLanes(arg);
      if (!lanes)
        return std::nullopt;
      sources.push_back(std::move(*lanes));
      continue;
    }
    clang::Expr::EvalResult known;
    if (!arg->getType()->isIntegerType() || !arg->EvaluateAsInt(known, ast))
      return unsupported<Result>(arg, "the SIMD builtin " + what +
                                          " takes an operand that is not a "
                                          "constant; it cannot be "
                                          "differentiated");
    uint64_t value = known.Val.getInt().getZExtValue();
    // (One immediate before the passthrough; two are another form.)
    if (i < last && immediate)
      return unsupported<Result>(call, "the SIMD builtin " + what +
                                           " cannot be differentiated yet");
    if (i < last)
      immediate = value;
    else if (!keepsCurrentRounding(value))
      return unsupported<Result>(arg, "the SIMD builtin " + what +
                                          " with a rounding mode of its own "
                                          "cannot be differentiated; use "
                                          "the current rounding mode");
  }
  std::optional<SmallVector<Value>> passthrough =
      vectorLanes(call->getArg(last));
  if (!passthrough)
    return std::nullopt;
  Result lanes =
      x86BuiltinLanes(b, l, name, sources, immediate, passthrough->size());
  if (!lanes || lanes->size() != passthrough->size())
    return unsupported<Result>(
        call, "the SIMD builtin " + what +
                  " cannot be differentiated yet; build the library's scalar "
                  "code instead (Eigen: define EIGEN_DONT_VECTORIZE)");
  SmallVector<Value> on = maskBits(call->getArg(last + 1), lanes->size());
  if (on.size() != lanes->size())
    return std::nullopt;
  for (unsigned i = 0; i < lanes->size(); ++i)
    (*lanes)[i] =
        arith::SelectOp::create(b, l, on[i], (*lanes)[i], (*passthrough)[i]);
  return lanes;
}

std::optional<SmallVector<Value>>
FunctionLowering::x86MaskedBuiltin(const clang::CallExpr *call, StringRef name,
                                   bool &handled) {
  using Result = std::optional<SmallVector<Value>>;
  handled = true;
  Location l = loc(call);
  const clang::VectorType *type = asVector(call->getType());
  unsigned n = type->getNumElements();
  // An undefined packet: any lanes will do; zeros.
  if (name.starts_with("undef") && !call->getNumArgs()) {
    std::optional<Layout> lane = layoutOf(type->getElementType(), call);
    if (!lane)
      return std::nullopt;
    return SmallVector<Value>(
        n, arith::ConstantOp::create(b, l, b.getZeroAttr(lane->scalar)));
  }
  // select_N(mask, a, w): a's lane where the mask's bit is set, else w's;
  // selectsd/ss: the first lane only, the others w's.
  if (name.starts_with("select") && call->getNumArgs() == 3) {
    std::optional<SmallVector<Value>> a = vectorLanes(call->getArg(1));
    std::optional<SmallVector<Value>> w = vectorLanes(call->getArg(2));
    if (!a || !w)
      return std::nullopt;
    bool firstOnly = name.starts_with("selects");
    SmallVector<Value> on = maskBits(call->getArg(0), firstOnly ? 1 : n);
    if (on.empty())
      return std::nullopt;
    for (auto [i, bit] : llvm::enumerate(on))
      (*w)[i] = arith::SelectOp::create(b, l, bit, (*a)[i], (*w)[i]);
    return w;
  }
  bool isLoad = (name.starts_with("load") || name.starts_with("movdqa")) &&
                name.ends_with("_mask") && call->getNumArgs() == 3 &&
                call->getArg(0)->getType()->isPointerType();
  bool isGather = name.starts_with("gather") && call->getNumArgs() == 5 &&
                  call->getArg(1)->getType()->isPointerType();
  if (isLoad || isGather)
    return maskedMemoryLanes(call, name);
  if (name.consume_back("_mask") &&
      llvm::none_of(call->arguments(), [](const clang::Expr *arg) {
        return arg->getType()->isPointerType();
      }))
    return maskedOperationLanes(call, name);
  handled = false;
  return Result();
}

Value FunctionLowering::comparisonMask(const clang::CallExpr *call,
                                       StringRef name) {
  // cmp{pd,ps}N_mask(a, b, predicate, mask[, rounding]) and the integer
  // cmp{b,w,d,q}N_mask / ucmp...: bit i is lane i's comparison, and the
  // mask's bit.
  Location l = loc(call);
  std::optional<SmallVector<Value>> x = vectorLanes(call->getArg(0));
  std::optional<SmallVector<Value>> y = vectorLanes(call->getArg(1));
  clang::Expr::EvalResult predicate;
  if (!x || !y)
    return {};
  if (!call->getArg(2)->EvaluateAsInt(predicate, ast))
    return unsupported<Value>(call->getArg(2),
                              "the comparison of this SIMD builtin is not a "
                              "constant; it cannot be differentiated");
  uint64_t immediate = predicate.Val.getInt().getZExtValue();
  SmallVector<Value> on = maskBits(call->getArg(3), x->size());
  if (on.size() != x->size())
    return {};
  Type integer = b.getIntegerType(ast.getTypeSize(call->getType()));
  bool floating = isa<FloatType>(x->front().getType());
  std::optional<arith::CmpFPredicate> floatPredicate =
      x86Comparison(name, immediate);
  if (floating && !floatPredicate)
    return unsupported<Value>(call, "this comparison of SIMD vectors cannot "
                                    "be differentiated yet");
  std::optional<arith::CmpIPredicate> intPredicate =
      integerComparison(immediate, name.starts_with("ucmp"));
  SmallVector<Value> bits;
  for (unsigned i = 0; i < x->size(); ++i) {
    Value holds;
    if (floating)
      holds = arith::CmpFOp::create(b, l, *floatPredicate, (*x)[i], (*y)[i]);
    else if (intPredicate)
      holds = arith::CmpIOp::create(b, l, *intPredicate, (*x)[i], (*y)[i]);
    else
      holds =
          arith::ConstantOp::create(b, l, b.getBoolAttr((immediate & 7) == 7));
    bits.push_back(arith::AndIOp::create(b, l, holds, on[i]));
  }
  return packedBits(b, l, bits, integer);
}

Value FunctionLowering::maskOperation(const clang::CallExpr *call,
                                      StringRef name) {
  // kand, kandn, kor, kxor, kxnor, knot of masks (qi/hi/si/di: 8 to 64
  // bits), and kortestz/kortestc: whether `a | b` is all zeros, all ones.
  Location l = loc(call);
  SmallVector<Value> operands;
  for (const clang::Expr *arg : call->arguments()) {
    operands.push_back(lowerRValue(arg));
    if (!operands.back())
      return {};
  }
  unsigned bits = name.ends_with("qi")   ? 8
                  : name.ends_with("hi") ? 16
                  : name.ends_with("si") ? 32
                                         : 64;
  Type mask = b.getIntegerType(bits);
  for (Value &operand : operands)
    operand = resizedUnsigned(b, l, operand, mask);
  Value ones = integerConstant(b, l, mask, -1);
  Value x = operands[0], y = operands.size() > 1 ? operands[1] : Value();
  Value value;
  if (name.starts_with("kortest")) {
    Value either = arith::OrIOp::create(b, l, x, y);
    value = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::eq, either,
        name.starts_with("kortestz") ? integerConstant(b, l, mask, 0) : ones);
  } else if (name.starts_with("knot")) {
    value = arith::XOrIOp::create(b, l, x, ones);
  } else if (name.starts_with("kandn")) {
    value =
        arith::AndIOp::create(b, l, arith::XOrIOp::create(b, l, x, ones), y);
  } else if (name.starts_with("kand")) {
    value = arith::AndIOp::create(b, l, x, y);
  } else if (name.starts_with("kxnor")) {
    value =
        arith::XOrIOp::create(b, l, arith::XOrIOp::create(b, l, x, y), ones);
  } else if (name.starts_with("kxor")) {
    value = arith::XOrIOp::create(b, l, x, y);
  } else {
    value = arith::OrIOp::create(b, l, x, y);
  }
  Type result = b.getIntegerType(ast.getTypeSize(call->getType()));
  return resizedUnsigned(b, l, value, result);
}

bool FunctionLowering::maskedStore(const clang::CallExpr *call,
                                   StringRef name) {
  // store*_mask(pointer, value, mask); scatter*(base, mask, indices, value,
  // scale).
  Location l = loc(call);
  bool scatter = name.starts_with("scatter");
  const clang::Expr *value = call->getArg(scatter ? 3 : 1);
  std::optional<Address> base = lowerPointer(call->getArg(0));
  std::optional<SmallVector<Value>> lanes = vectorLanes(value);
  if (!base || !lanes)
    return false;
  SmallVector<Value> on =
      maskBits(call->getArg(scatter ? 1 : 2), lanes->size());
  std::optional<SmallVector<Value>> indices;
  clang::Expr::EvalResult scale;
  if (scatter && (!(indices = vectorLanes(call->getArg(2))) ||
                  !call->getArg(4)->EvaluateAsInt(scale, ast)))
    return false;
  if (on.size() != lanes->size() ||
      (scatter && indices->size() != lanes->size()))
    return unsupported<bool>(call, "this masked SIMD store cannot be "
                                   "differentiated yet");
  unsigned laneBytes =
      ast.getTypeSizeInChars(asVector(value->getType())->getElementType())
          .getQuantity();
  for (unsigned i = 0; i < lanes->size(); ++i) {
    std::optional<Address> at =
        scatter
            ? maskedLaneAddress(*base, call->getArg(2), (*indices)[i],
                                scale.Val.getInt().getZExtValue(), laneBytes)
            : offsetBy(*base, i, l);
    if (!at)
      return false;
    storeWhere(on[i], (*lanes)[i], *at, l);
  }
  return true;
}

bool FunctionLowering::lowerX86MaskBuiltin(const clang::CallExpr *call,
                                           std::optional<CallResult> &result) {
  const clang::FunctionDecl *callee = call->getDirectCallee();
  StringRef name =
      callee && callee->getIdentifier() ? callee->getName() : StringRef();
  if (!name.consume_front("__builtin_ia32_") || isPacket(call))
    return false;
  unsigned args = call->getNumArgs();
  bool comparison = (name.starts_with("cmp") || name.starts_with("ucmp")) &&
                    name.ends_with("_mask") && (args == 4 || args == 5) &&
                    isPacket(call->getArg(0));
  bool onMasks = (name.starts_with("kortest") || name.starts_with("kand") ||
                  name.starts_with("kor") || name.starts_with("kxor") ||
                  name.starts_with("kxnor") || name.starts_with("knot")) &&
                 args == (name.starts_with("knot") ? 1u : 2u) &&
                 llvm::all_of(call->arguments(), [](const clang::Expr *arg) {
                   return arg->getType()->isIntegerType();
                 });
  bool store = (name.starts_with("store") || name.starts_with("movdqa")) &&
               name.ends_with("_mask") && args == 3 &&
               call->getArg(0)->getType()->isPointerType();
  bool scatter = name.starts_with("scatter") && args == 5 &&
                 call->getArg(0)->getType()->isPointerType();
  if (!comparison && !onMasks && !store && !scatter)
    return false;
  result = std::nullopt;
  if (store || scatter) {
    if (maskedStore(call, name))
      result = CallResult{};
    return true;
  }
  name.consume_back("_mask");
  if (Value value =
          comparison ? comparisonMask(call, name) : maskOperation(call, name))
    result = CallResult{value, {}};
  return true;
}

} // namespace cotangent::frontend
