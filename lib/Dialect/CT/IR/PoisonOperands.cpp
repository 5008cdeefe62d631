//===- PoisonOperands.cpp - Poison offsets, sizes and strides as zero -----===//
//
// A slice or view whose offset, size or stride is `ub.poison` (an integer
// that no path defines: a value passed out of the one branch that computes
// it, a function's result on a path that falls off its end) may take any
// value. MLIR's own canonicalization of such ops folds every constant-like
// operand into the op's static list, and reads a poison attribute there as
// an integer: garbage strides, or a crash. Running first (a higher benefit
// than the folding pattern's), this pattern gives those operands the value
// zero, which is one of the values poison may take.
//
//===----------------------------------------------------------------------===//

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/HeapFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace cotangent::ct;

namespace {
struct PoisonIndexOperandsAsZero
    : public OpInterfaceRewritePattern<OffsetSizeAndStrideOpInterface> {
  PoisonIndexOperandsAsZero(MLIRContext *context)
      : OpInterfaceRewritePattern(context, /*benefit=*/100) {}

  LogicalResult matchAndRewrite(OffsetSizeAndStrideOpInterface op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (!value.getType().isIntOrIndex() ||
          !value.getDefiningOp<ub::PoisonOp>())
        continue;
      rewriter.setInsertionPoint(op);
      Value zero = arith::ConstantOp::create(
          rewriter, value.getLoc(), rewriter.getZeroAttr(value.getType()));
      rewriter.modifyOpInPlace(op, [&] { operand.set(zero); });
      changed = true;
    }
    return success(changed);
  }
};
} // namespace

void CTDialect::getCanonicalizationPatterns(RewritePatternSet &results) const {
  results.add<PoisonIndexOperandsAsZero>(getContext());
  populateHeapFunctionCanonicalizations(results);
}
