//===- StructuredToBranches.cpp - scf to cf in linear time ----------------===//

#include "cotangent/CodeGen/Passes.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-structured-to-branches"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_STRUCTUREDTOBRANCHES
#include "cotangent/CodeGen/Passes.h.inc"
namespace {

struct ErasedOps : RewriterBase::Listener {
  void notifyOperationErased(Operation *op) override { ops.insert(op); }
  DenseSet<Operation *> ops;
};

struct StructuredToBranches
    : impl::StructuredToBranchesBase<StructuredToBranches> {
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
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << structured.size()
                            << " structured ops to lower, last first" << "\n");
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

} // namespace cotangent::codegen
