//===- X86VectorBuiltins.cpp - x86's packet builtins, lane by lane --------===//
//
// What x86's builtins on packets (`__builtin_ia32_*`, named here past that
// prefix) compute, as functions of their operands' lanes: comparisons,
// minima and maxima, blends, roundings, shuffles by an immediate,
// extractions and insertions of 128- and 256-bit parts, permutations by a
// vector of indices. SimdVectors.cpp lowers the operands' lanes and stores
// what these give; AVX-512's masked forms compute the same, then choose
// each lane by the mask (X86MaskedBuiltins.cpp). Everything is arith and
// math ops on lanes, which the engine differentiates.
//
//===----------------------------------------------------------------------===//

#include "X86VectorBuiltins.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace cotangent::frontend {

Value integerConstant(OpBuilder &b, Location l, Type type, int64_t v) {
  return arith::ConstantOp::create(b, l, b.getIntegerAttr(type, v));
}

Value resizedUnsigned(OpBuilder &b, Location l, Value value, Type type) {
  unsigned from = value.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (from < to)
    return arith::ExtUIOp::create(b, l, type, value);
  if (from > to)
    return arith::TruncIOp::create(b, l, type, value);
  return value;
}

Value packedBits(OpBuilder &b, Location l, ArrayRef<Value> flags, Type type) {
  Value packed = integerConstant(b, l, type, 0);
  for (auto [i, flag] : llvm::enumerate(flags))
    packed = arith::OrIOp::create(
        b, l, packed,
        arith::ShLIOp::create(b, l, arith::ExtUIOp::create(b, l, type, flag),
                              integerConstant(b, l, type, i)));
  return packed;
}

std::optional<arith::CmpFPredicate>
x86Comparison(StringRef name, std::optional<uint64_t> immediate) {
  using P = arith::CmpFPredicate;
  if (!name.consume_front("cmp"))
    return std::nullopt;
  for (StringRef suffix : {"pd512", "ps512", "pd256", "ps256", "pd", "ps"})
    if (name.consume_back(suffix))
      break;
  if (name.empty()) {
    if (!immediate)
      return std::nullopt;
    // (AVX-512's predicates 16 to 31 are 0 to 15 with the other signalling.)
    static const P byImmediate[16] = {P::OEQ, P::OLT, P::OLE, P::UNO,
                                      P::UNE, P::UGE, P::UGT, P::ORD,
                                      P::UEQ, P::ULT, P::ULE, P::AlwaysFalse,
                                      P::ONE, P::OGE, P::OGT, P::AlwaysTrue};
    return byImmediate[*immediate & 15];
  }
  return llvm::StringSwitch<std::optional<P>>(name)
      .Case("eq", P::OEQ)
      .Case("lt", P::OLT)
      .Case("le", P::OLE)
      .Case("unord", P::UNO)
      .Case("neq", P::UNE)
      .Case("nlt", P::UGE)
      .Case("nle", P::UGT)
      .Case("ord", P::ORD)
      .Default(std::nullopt);
}

/// `x` rounded as SSE4.1's `round` and AVX-512's `rndscale` do by their
/// immediate: to a multiple of 2^-M (M in bits 4 to 7, 0 for `round`) in
/// the mode bits 0 and 1 give (to nearest even, down, up, toward zero), or
/// in the current mode, to nearest even, when bit 2 is set.
static Value roundLane(OpBuilder &b, Location l, Value x, uint64_t immediate) {
  unsigned mode = immediate & 4 ? 0 : immediate & 3;
  unsigned fractionBits = (immediate >> 4) & 15;
  Type type = x.getType();
  auto scaled = [&](Value v, double by) -> Value {
    return arith::MulFOp::create(
        b, l, v, arith::ConstantOp::create(b, l, b.getFloatAttr(type, by)));
  };
  if (fractionBits)
    x = scaled(x, std::ldexp(1.0, fractionBits));
  Value rounded;
  switch (mode) {
  case 0:
    rounded = math::RoundEvenOp::create(b, l, x);
    break;
  case 1:
    rounded = math::FloorOp::create(b, l, x);
    break;
  case 2:
    rounded = math::CeilOp::create(b, l, x);
    break;
  default:
    rounded = math::TruncOp::create(b, l, x);
  }
  return fractionBits ? scaled(rounded, std::ldexp(1.0, -int(fractionBits)))
                      : rounded;
}

/// One lane of the builtins of one floating-point operand: roundings by an
/// immediate and AVX-512's square roots (in the current rounding mode).
static Value x86UnaryLane(OpBuilder &b, Location l, StringRef name, Value x,
                          std::optional<uint64_t> immediate) {
  if (!isa<FloatType>(x.getType()))
    return {};
  if ((name.starts_with("roundp") || name.starts_with("rndscalep")) &&
      immediate)
    return roundLane(b, l, x, *immediate);
  if (name == "sqrtpd512" || name == "sqrtps512")
    return math::SqrtOp::create(b, l, x);
  return {};
}

Value x86Lane(OpBuilder &b, Location l, StringRef name,
              ArrayRef<Value> operands, std::optional<uint64_t> immediate) {
  if (operands.size() == 1)
    return x86UnaryLane(b, l, name, operands[0], immediate);
  // (AVX-512's minima and maxima take a rounding mode: the current one.)
  bool wide = name.consume_back("512");
  if (wide && operands.size() == 2 && !name.starts_with("min") &&
      !name.starts_with("max"))
    return {};
  if (operands.size() < 2 || !isa<FloatType>(operands[0].getType()) ||
      !(name.ends_with("pd") || name.ends_with("ps") ||
        name.ends_with("pd256") || name.ends_with("ps256")))
    return {};
  Value x = operands[0], y = operands[1];
  Type bits = b.getIntegerType(x.getType().getIntOrFloatBitWidth());
  // blendv: the second operand's lane where the mask's sign bit is set.
  if (name.starts_with("blendv") && operands.size() == 3) {
    Value mask = ct::BitCastOp::create(b, l, bits, operands[2]);
    Value set = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::slt, mask,
        arith::ConstantOp::create(b, l, b.getIntegerAttr(bits, 0)));
    return arith::SelectOp::create(b, l, set, y, x);
  }
  if (operands.size() != 2)
    return {};
  auto compare = [&](arith::CmpFPredicate predicate) -> Value {
    return arith::CmpFOp::create(b, l, predicate, x, y);
  };
  // Minimum and maximum are the instruction's: the second operand unless
  // the first is strictly less, or greater (what Eigen's `pmin` relies on).
  if (name.starts_with("min"))
    return arith::SelectOp::create(b, l, compare(arith::CmpFPredicate::OLT), x,
                                   y);
  if (name.starts_with("max"))
    return arith::SelectOp::create(b, l, compare(arith::CmpFPredicate::OGT), x,
                                   y);
  // A comparison gives a lane of all ones or all zeros, as the instruction.
  std::optional<arith::CmpFPredicate> predicate =
      x86Comparison(name, immediate);
  if (!predicate)
    return {};
  Value mask = arith::ExtSIOp::create(b, l, bits, compare(*predicate));
  return ct::BitCastOp::create(b, l, x.getType(), mask);
}

/// The lanes of the builtins that take out or put in a part of a packet by
/// an immediate (AVX's 128-bit halves, AVX-512's 128- and 256-bit parts:
/// `vextractf128`, `extractf64x4`, `insertf32x4`...), or none.
static std::optional<SmallVector<Value>>
x86PartLanes(StringRef name, ArrayRef<SmallVector<Value>> arguments,
             uint64_t immediate, unsigned resultLanes) {
  name.consume_front("v");
  ArrayRef<Value> a = arguments[0];
  unsigned n = a.size();
  if (name.starts_with("extract") && arguments.size() == 1 && resultLanes < n &&
      n % resultLanes == 0) {
    unsigned part = immediate % (n / resultLanes);
    return SmallVector<Value>(a.slice(part * resultLanes, resultLanes));
  }
  if (name.starts_with("insert") && arguments.size() == 2 &&
      arguments[1].size() < n && n % arguments[1].size() == 0 &&
      resultLanes == n) {
    ArrayRef<Value> part = arguments[1];
    unsigned at = (immediate % (n / part.size())) * part.size();
    SmallVector<Value> lanes(a);
    llvm::copy(part, lanes.begin() + at);
    return lanes;
  }
  return std::nullopt;
}

/// The lanes of x86's shuffles by an immediate (`_mm_shuffle_pd`,
/// `_mm_shuffle_ps`, `_mm_shuffle_epi32`, `vpermilp`, `vperm2f128` and
/// their wider forms, within each 128-bit part), or none.
static std::optional<SmallVector<Value>>
x86Shuffle(StringRef name, ArrayRef<SmallVector<Value>> arguments,
           uint64_t imm) {
  ArrayRef<Value> a = arguments[0];
  ArrayRef<Value> second = arguments.size() > 1 ? arguments[1] : a;
  SmallVector<Value> lanes;
  unsigned n = a.size();
  if (name.starts_with("vpermilp") && arguments.size() == 1) {
    bool doubles = name.starts_with("vpermilpd");
    for (unsigned i = 0; i < n; ++i)
      lanes.push_back(doubles ? a[(i & ~1u) + ((imm >> (i % 8)) & 1)]
                              : a[(i & ~3u) + ((imm >> (2 * (i % 4))) & 3)]);
    return lanes;
  }
  // Two 128-bit halves chosen from two 256-bit packets, zeros where bit 3
  // of a choice says.
  if ((name.starts_with("vperm2f128_") || name == "permti256") &&
      arguments.size() == 2) {
    for (unsigned half = 0; half < 2; ++half) {
      unsigned choice = (imm >> (4 * half)) & 15;
      ArrayRef<Value> from = choice & 2 ? second : a;
      for (unsigned i = 0; i < n / 2; ++i)
        lanes.push_back(choice & 8 ? Value()
                                   : from[(choice & 1) * (n / 2) + i]);
    }
    return llvm::all_of(lanes, [](Value lane) { return lane; })
               ? std::optional(lanes)
               : std::nullopt;
  }
  if (llvm::is_contained({"shufpd", "shufpd256", "shufpd512"}, name)) {
    if (arguments.size() != 2)
      return std::nullopt;
    for (unsigned i = 0; i < n; ++i)
      lanes.push_back((i % 2 ? second : a)[(i & ~1u) + ((imm >> (i % 8)) & 1)]);
    return lanes;
  }
  bool fromTwo = llvm::is_contained({"shufps", "shufps256", "shufps512"}, name);
  if (!fromTwo &&
      !llvm::is_contained({"pshufd", "pshufd256", "pshufd512"}, name))
    return std::nullopt;
  if (arguments.size() != (fromTwo ? 2u : 1u))
    return std::nullopt;
  for (unsigned i = 0; i < n; ++i) {
    unsigned part = i & ~3u, k = i % 4;
    ArrayRef<Value> from = fromTwo && k >= 2 ? second : a;
    lanes.push_back(from[part + ((imm >> (2 * k)) & 3)]);
  }
  return lanes;
}

/// The lanes of the permutations by a vector of indices: across the whole
/// packet (`permvardf512`, AVX2's `permvarsf256`: lane i is the lane the
/// low bits of index i name) or within each 128-bit part (`vpermilvarpd`
/// by bit 1 of each index, `vpermilvarps` by bits 0 and 1). An index
/// computed at run time chooses by a chain of selects.
static std::optional<SmallVector<Value>>
x86VariablePermutation(OpBuilder &b, Location l, StringRef name,
                       ArrayRef<SmallVector<Value>> arguments) {
  bool whole = name.starts_with("permvar");
  bool inParts = name.starts_with("vpermilvarp");
  if ((!whole && !inParts) || arguments.size() != 2 ||
      arguments[0].size() != arguments[1].size())
    return std::nullopt;
  ArrayRef<Value> a = arguments[0];
  unsigned n = a.size();
  bool doubles = name.starts_with("vpermilvarpd");
  unsigned group = whole ? n : doubles ? 2 : 4;
  SmallVector<Value> lanes;
  for (auto [i, index] : llvm::enumerate(arguments[1])) {
    Type type = index.getType();
    if (!isa<IntegerType>(type))
      return std::nullopt;
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(b, l, b.getIntegerAttr(type, v));
    };
    Value chosen = index;
    if (doubles)
      chosen = arith::ShRUIOp::create(b, l, chosen, constant(1));
    chosen = arith::AndIOp::create(b, l, chosen, constant(group - 1));
    unsigned first = i - i % group;
    Value lane = a[first];
    for (unsigned k = 1; k < group; ++k)
      lane = arith::SelectOp::create(
          b, l,
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, chosen,
                                constant(k)),
          a[first + k], lane);
    lanes.push_back(lane);
  }
  return lanes;
}

/// The lanes of the horizontal sums and differences (SSE3's `haddpd`,
/// AVX's `haddps256`, SSSE3's `phaddd`...): within each 128-bit part, the
/// sums of neighbouring lanes of the first operand, then of the second.
static std::optional<SmallVector<Value>>
x86HorizontalLanes(OpBuilder &b, Location l, StringRef name,
                   ArrayRef<SmallVector<Value>> arguments) {
  name.consume_front("p");
  bool add = name.starts_with("hadd");
  if ((!add && !name.starts_with("hsub")) || arguments.size() != 2 ||
      arguments[0].size() != arguments[1].size() ||
      !llvm::is_contained(
          {"pd", "ps", "pd256", "ps256", "d128", "w128", "d256", "w256"},
          name.drop_front(4)))
    return std::nullopt;
  unsigned n = arguments[0].size();
  unsigned width = arguments[0].front().getType().getIntOrFloatBitWidth();
  unsigned part = std::min(n, 128 / width), half = part / 2;
  SmallVector<Value> lanes;
  for (unsigned i = 0; i < n; ++i) {
    unsigned first = i - i % part, j = i % part;
    ArrayRef<Value> from = arguments[j < half ? 0 : 1];
    Value x = from[first + 2 * (j % half)],
          y = from[first + 2 * (j % half) + 1];
    bool floating = isa<FloatType>(x.getType());
    lanes.push_back(
        add ? (floating ? arith::AddFOp::create(b, l, x, y).getResult()
                        : arith::AddIOp::create(b, l, x, y).getResult())
            : (floating ? arith::SubFOp::create(b, l, x, y).getResult()
                        : arith::SubIOp::create(b, l, x, y).getResult()));
  }
  return lanes;
}

/// The lanes of SSE3's and AVX's alternating sums (`addsubpd`,
/// `addsubps256`...): the difference in even lanes, the sum in odd ones
/// (what Eigen's complex and quaternion products are built from).
static std::optional<SmallVector<Value>>
x86AlternatingLanes(OpBuilder &b, Location l, StringRef name,
                    ArrayRef<SmallVector<Value>> arguments) {
  if (!llvm::is_contained(
          {"addsubpd", "addsubps", "addsubpd256", "addsubps256"}, name) ||
      arguments.size() != 2 || arguments[0].size() != arguments[1].size() ||
      !isa<FloatType>(arguments[0].front().getType()))
    return std::nullopt;
  SmallVector<Value> lanes;
  for (unsigned i = 0; i < arguments[0].size(); ++i) {
    Value x = arguments[0][i], y = arguments[1][i];
    lanes.push_back(i % 2 ? arith::AddFOp::create(b, l, x, y).getResult()
                          : arith::SubFOp::create(b, l, x, y).getResult());
  }
  return lanes;
}

std::optional<SmallVector<Value>>
x86BuiltinLanes(OpBuilder &b, Location l, StringRef name,
                ArrayRef<SmallVector<Value>> arguments,
                std::optional<uint64_t> immediate, unsigned resultLanes) {
  if (arguments.empty())
    return std::nullopt;
  if (immediate) {
    if (auto lanes = x86PartLanes(name, arguments, *immediate, resultLanes))
      return lanes;
    if (auto lanes = x86Shuffle(name, arguments, *immediate))
      return lanes;
  }
  if (auto lanes = x86VariablePermutation(b, l, name, arguments))
    return lanes;
  if (auto lanes = x86HorizontalLanes(b, l, name, arguments))
    return lanes;
  if (auto lanes = x86AlternatingLanes(b, l, name, arguments))
    return lanes;
  if (llvm::any_of(arguments, [&](ArrayRef<Value> argument) {
        return argument.size() != arguments.front().size();
      }))
    return std::nullopt;
  SmallVector<Value> lanes;
  for (unsigned i = 0; i < arguments.front().size(); ++i) {
    SmallVector<Value> operands;
    for (ArrayRef<Value> argument : arguments)
      operands.push_back(argument[i]);
    Value lane = x86Lane(b, l, name, operands, immediate);
    if (!lane)
      return std::nullopt;
    lanes.push_back(lane);
  }
  return lanes;
}

} // namespace cotangent::frontend
