//===- ExpandDeviceMath.cpp - exp and log as arithmetic for kernels -------===//
//
// Kernels are compiled without libdevice (no CUDA toolkit is needed), and
// the NVPTX backend has no double-precision exp or log; ct-offload-loops
// lets those two into kernels and this pass expands them (f32 through f64):
//
//   exp x = 2ᵏ · e^r,  k = ⌊x / ln 2 + ½⌋,  r = x − k·ln2_hi − k·ln2_lo,
//           |r| ≤ ½ ln 2: e^r by its Taylor polynomial to r¹³ (the first
//           omitted term is below 3e−18); 2ᵏ as two powers of two built
//           from their bits, so that subnormal results come out right.
//   log x = e·ln 2 + 2 atanh s,  x = 2ᵉ·m, m ∈ [√½, √2), s = (m−1)/(m+1),
//           |s| ≤ 0.1716: atanh s = s Σ s²ʲ/(2j+1) for j ≤ 12 (first
//           omitted term below 1e−19); subnormal x scaled by 2⁵⁴ first;
//           log 0 = −∞, log of a negative number = NaN, log ∞ = ∞.
//
// ln2_hi has its low bits zero so that k·ln2_hi is exact for |k| < 2¹¹.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/Debug.h"
#include <cmath>

#define DEBUG_TYPE "ct-expand-device-math"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_EXPANDDEVICEMATH
#include "cotangent/CodeGen/Passes.h.inc"

namespace {

constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;

class Expander {
public:
  Expander(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value exp(Value x) {
    // Beyond these, the result is ∞ or 0 anyway; the clamp keeps k small.
    x = arith::MaximumFOp::create(
        b, loc, arith::MinimumFOp::create(b, loc, x, f(710.0)), f(-746.0));
    Value k = math::FloorOp::create(b, loc, fma(x, f(1.0 / M_LN2), f(0.5)));
    Value r = sub(sub(x, mul(k, f(kLn2Hi))), mul(k, f(kLn2Lo)));
    Value p = f(1.0 / 6227020800.0); // 1/13!
    double factorial = 6227020800.0;
    for (int n = 12; n >= 0; --n) {
      factorial /= n + 1;
      p = fma(p, r, f(1.0 / factorial));
    }
    Value ki = arith::FPToSIOp::create(b, loc, b.getI64Type(), k);
    Value half = arith::ShRSIOp::create(b, loc, ki, i(1));
    Value rest = arith::SubIOp::create(b, loc, ki, half);
    return mul(mul(p, powerOfTwo(half)), powerOfTwo(rest));
  }

  Value log(Value x) {
    Type i64 = b.getI64Type();
    // Subnormals: scaled into the normal range.
    Value tiny = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                       f(0x1p-1022));
    Value scaled = arith::SelectOp::create(b, loc, tiny, mul(x, f(0x1p54)), x);
    Value bits = arith::BitcastOp::create(b, loc, i64, scaled);
    Value biased = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, bits, i(52)), i(0x7ff));
    Value e = arith::SubIOp::create(
        b, loc, biased,
        arith::SelectOp::create(b, loc, tiny, i(1023 + 54), i(1023)));
    Value mantissa = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, bits, i((int64_t(1) << 52) - 1)),
        i(int64_t(1023) << 52));
    Value m = arith::BitcastOp::create(b, loc, b.getF64Type(), mantissa);
    Value big =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, m, f(M_SQRT2));
    m = arith::SelectOp::create(b, loc, big, mul(m, f(0.5)), m);
    e = arith::SelectOp::create(b, loc, big,
                                arith::AddIOp::create(b, loc, e, i(1)), e);
    Value s = arith::DivFOp::create(b, loc, sub(m, f(1.0)),
                                    arith::AddFOp::create(b, loc, m, f(1.0)));
    Value z = mul(s, s);
    Value series = f(1.0 / 25.0);
    for (int j = 11; j >= 0; --j)
      series = fma(series, z, f(1.0 / (2 * j + 1)));
    Value logM = mul(mul(f(2.0), s), series);
    Value ef = arith::SIToFPOp::create(b, loc, b.getF64Type(), e);
    Value result = fma(ef, f(kLn2Hi), fma(ef, f(kLn2Lo), logM));
    // log 0 = −∞, log(x < 0) = NaN, log ∞ = ∞, log NaN = NaN.
    auto is = [&](arith::CmpFPredicate p, double c) {
      return arith::CmpFOp::create(b, loc, p, x, f(c));
    };
    result = arith::SelectOp::create(b, loc, is(arith::CmpFPredicate::OEQ, 0),
                                     f(-INFINITY), result);
    result = arith::SelectOp::create(
        b, loc, is(arith::CmpFPredicate::OEQ, INFINITY), f(INFINITY), result);
    return arith::SelectOp::create(b, loc, is(arith::CmpFPredicate::ULT, 0),
                                   f(NAN), result);
  }

private:
  Value f(double v) {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
  }
  Value i(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  /// 2ᵏ for k in [−1022, 1023], from its bits.
  Value powerOfTwo(Value k) {
    Value bits = arith::ShLIOp::create(
        b, loc, arith::AddIOp::create(b, loc, k, i(1023)), i(52));
    return arith::BitcastOp::create(b, loc, b.getF64Type(), bits);
  }

  OpBuilder &b;
  Location loc;
};

struct ExpandDeviceMath : impl::ExpandDeviceMathBase<ExpandDeviceMath> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<math::ExpOp, math::LogOp>(op) &&
          isa<Float32Type, Float64Type>(op->getResult(0).getType()))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << op->getName() << " at "
                              << loc << " is expanded into arithmetic" << "\n");
      Value x = op->getOperand(0);
      Type type = x.getType();
      if (type.isF32())
        x = arith::ExtFOp::create(b, loc, b.getF64Type(), x);
      Expander expand(b, loc);
      Value y = isa<math::ExpOp>(op) ? expand.exp(x) : expand.log(x);
      if (type.isF32())
        y = arith::TruncFOp::create(b, loc, type, y);
      op->getResult(0).replaceAllUsesWith(y);
      op->erase();
    }
  }
};

} // namespace

} // namespace cotangent::codegen
