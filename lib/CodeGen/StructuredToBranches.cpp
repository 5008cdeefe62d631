//===- StructuredToBranches.cpp - scf to cf in linear time ----------------===//

#include "cotangent/CodeGen/StructuredToBranches.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"

using namespace mlir;

namespace cotangent::codegen {
namespace {

struct ErasedOps : RewriterBase::Listener {
  void notifyOperationErased(Operation *op) override { ops.insert(op); }
  DenseSet<Operation *> ops;
};

struct StructuredToBranches
    : PassWrapper<StructuredToBranches, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StructuredToBranches)
  StringRef getArgument() const final { return "ct-structured-to-branches"; }
  StringRef getDescription() const final {
    return "Lower scf to cf branches, each block's last op first";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, cf::ControlFlowDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet set(&getContext());
    populateSCFToControlFlowConversionPatterns(set);
    FrozenRewritePatternSet patterns(std::move(set));
    PatternApplicator applicator(patterns);
    applicator.applyDefaultCostModel();
    // Outer ops before the ops in their regions (the patterns move those
    // regions into the parent one, as the conversion driver expects), and
    // each block's ops last first. Ops the patterns move stay valid; any a
    // pattern erases is skipped.
    SmallVector<Operation *> structured;
    getOperation()->walk<WalkOrder::PreOrder, ReverseIterator>(
        [&](Operation *op) {
          if (isa_and_nonnull<scf::SCFDialect>(op->getDialect()) &&
              !op->hasTrait<OpTrait::IsTerminator>())
            structured.push_back(op);
        });
    ErasedOps erased;
    PatternRewriter rewriter(&getContext());
    rewriter.setListener(&erased);
    for (Operation *op : structured) {
      if (erased.ops.contains(op))
        continue;
      rewriter.setInsertionPoint(op);
      (void)applicator.matchAndRewrite(op, rewriter);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createStructuredToBranchesPass() {
  return std::make_unique<StructuredToBranches>();
}

void registerStructuredToBranchesPass() {
  PassRegistration<StructuredToBranches>();
}

} // namespace cotangent::codegen
