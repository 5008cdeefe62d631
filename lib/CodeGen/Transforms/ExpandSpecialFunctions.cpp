//===- ExpandSpecialFunctions.cpp - Polygamma as code ---------------------===//
//
// ct.polygamma n, x becomes:
//
//   (n = 0, x < 0)  x ← 1 − x, and −π / tan(π x) is added (reflection)
//   while x < 12 + n:  acc += −(−1)ⁿ n! / xⁿ⁺¹;  x += 1   (recurrence)
//   acc + the asymptotic series at x:
//     n = 0: log x − 1/(2x) − Σₖ B₂ₖ / (2k x²ᵏ)
//     n ≥ 1: (−1)ⁿ⁺¹ [ (n−1)!/xⁿ + n!/(2xⁿ⁺¹) + Σₖ B₂ₖ (2k+n−1)! / ((2k)!
//     x²ᵏ⁺ⁿ) ]
//
// with k = 1..8 (B₂ … B₁₆). At x ≥ 12 + n the first omitted term is below
// 1e−17 of the result, so the error is the rounding of the sums.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Passes.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/Debug.h"
#include <cmath>

#define DEBUG_TYPE "ct-expand-special-functions"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_EXPANDSPECIALFUNCTIONS
#include "cotangent/CodeGen/Passes.h.inc"
namespace {

/// B₂, B₄, ..., B₁₆.
constexpr double kBernoulli[] = {1.0 / 6,   -1.0 / 30,    1.0 / 42,
                                 -1.0 / 30, 5.0 / 66,     -691.0 / 2730,
                                 7.0 / 6,   -3617.0 / 510};

double factorial(int64_t n) {
  double f = 1;
  for (int64_t i = 2; i <= n; ++i)
    f *= i;
  return f;
}

struct ExpandPolygamma : OpRewritePattern<ct::PolygammaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ct::PolygammaOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getType();
    int64_t n = op.getOrder();
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << "polygamma of order " << n
                            << " at " << loc << " is expanded" << "\n");
    auto c = [&](double value) -> Value {
      return arith::ConstantOp::create(rewriter, loc, type,
                                       rewriter.getFloatAttr(type, value));
    };
    auto power = [&](Value x, int64_t k) {
      Value p = x;
      for (int64_t i = 1; i < k; ++i)
        p = arith::MulFOp::create(rewriter, loc, p, x);
      return p;
    };
    Value x = op.getX();
    Value correction = c(0);
    if (n == 0) {
      Value negative = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OLT, x, c(0));
      Value piX = arith::MulFOp::create(rewriter, loc, c(M_PI), x);
      Value cotangentTerm = arith::NegFOp::create(
          rewriter, loc,
          arith::DivFOp::create(rewriter, loc, c(M_PI),
                                math::TanOp::create(rewriter, loc, piX)));
      correction =
          arith::SelectOp::create(rewriter, loc, negative, cotangentTerm, c(0));
      x = arith::SelectOp::create(rewriter, loc, negative,
                                  arith::SubFOp::create(rewriter, loc, c(1), x),
                                  x);
    }
    // The recurrence up to the threshold. (NaN fails the test: no loop.)
    double step = (n % 2 == 0 ? -1.0 : 1.0) * factorial(n);
    Value threshold = c(12.0 + n);
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{type, type},
                                     ValueRange{x, c(0)});
    {
      Block *before =
          rewriter.createBlock(&loop.getBefore(), {}, {type, type}, {loc, loc});
      Value below =
          arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT,
                                before->getArgument(0), threshold);
      scf::ConditionOp::create(rewriter, loc, below, before->getArguments());
      Block *after =
          rewriter.createBlock(&loop.getAfter(), {}, {type, type}, {loc, loc});
      Value at = after->getArgument(0);
      Value term =
          arith::DivFOp::create(rewriter, loc, c(step), power(at, n + 1));
      Value acc =
          arith::AddFOp::create(rewriter, loc, after->getArgument(1), term);
      Value next = arith::AddFOp::create(rewriter, loc, at, c(1));
      scf::YieldOp::create(rewriter, loc, ValueRange{next, acc});
    }
    rewriter.setInsertionPointAfter(loop);
    Value z = loop.getResult(0), acc = loop.getResult(1);
    Value series;
    if (n == 0) {
      series = arith::SubFOp::create(
          rewriter, loc, math::LogOp::create(rewriter, loc, z),
          arith::DivFOp::create(rewriter, loc, c(0.5), z));
      for (int k = 1; k <= 8; ++k)
        series = arith::SubFOp::create(
            rewriter, loc, series,
            arith::DivFOp::create(rewriter, loc, c(kBernoulli[k - 1] / (2 * k)),
                                  power(z, 2 * k)));
    } else {
      series = arith::AddFOp::create(
          rewriter, loc,
          arith::DivFOp::create(rewriter, loc, c(factorial(n - 1)),
                                power(z, n)),
          arith::DivFOp::create(rewriter, loc, c(factorial(n) / 2),
                                power(z, n + 1)));
      for (int k = 1; k <= 8; ++k) {
        double coefficient =
            kBernoulli[k - 1] * factorial(2 * k + n - 1) / factorial(2 * k);
        series = arith::AddFOp::create(
            rewriter, loc, series,
            arith::DivFOp::create(rewriter, loc, c(coefficient),
                                  power(z, 2 * k + n)));
      }
      if (n % 2 == 0)
        series = arith::NegFOp::create(rewriter, loc, series);
    }
    Value result = arith::AddFOp::create(
        rewriter, loc, arith::AddFOp::create(rewriter, loc, acc, series),
        correction);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ExpandSpecialFunctions
    : impl::ExpandSpecialFunctionsBase<ExpandSpecialFunctions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandPolygamma>(&getContext());
    // One rewrite per op; the expansion creates no polygamma.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

} // namespace cotangent::codegen
