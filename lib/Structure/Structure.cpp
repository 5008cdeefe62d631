//===- Structure.cpp - The ct-structure pass ------------------------------===//

#include "ChosenPlaces.h"
#include "CountedLoops.h"
#include "ParallelLoops.h"

#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "cotangent/Structure/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-structure"

namespace cotangent::structure {
#define GEN_PASS_DEF_STRUCTURE
#include "cotangent/Structure/Passes.h.inc"
} // namespace cotangent::structure

using namespace mlir;
using namespace cotangent;
using namespace cotangent::structure;

/// Inlines every call whose results include a memref: C++ functions that
/// return references or pointers into their arguments (accessors such as
/// `std::array::operator[]`). The AD engine follows memory through views,
/// not through calls that return them; inlined, an accessor is a view.
static LogicalResult inlineViewCalls(ModuleOp module) {
  SymbolTable symbols(module);
  InlinerInterface interface(module.getContext());
  InlinerConfig config;
  // An inlined body may call further accessors; a recursive one would
  // never end, hence the bound: accessors of accessors (a vector of
  // structs of arrays) nest a few levels deep, never 16.
  constexpr int kMaxAccessorNesting = 16;
  for (int round = 0; round < kMaxAccessorNesting; ++round) {
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      // (A library object's member called as compiled returns a reference
      // into memory the engine treats as the call's own.)
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (llvm::any_of(call.getResultTypes(), llvm::IsaPred<MemRefType>) &&
          !(callee && callee->hasAttr(ct::kLibraryObjectAttr)))
        calls.push_back(call);
    });
    if (calls.empty())
      return success();
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal() ||
          failed(inlineCall(interface, config.getCloneCallback(), call, callee,
                            &callee.getBody())))
        return call.emitError("cannot differentiate through this call: its "
                              "reference or pointer result needs the "
                              "callee's body, which is not visible or is "
                              "recursive");
      call.erase();
    }
  }
  return module.emitError("accessors returning references nest too deeply");
}

namespace {

struct StructurePass : public structure::impl::StructureBase<StructurePass> {
  void runOnOperation() override;
};

} // namespace

/// Erases the code no path from the entry reaches: branches on constants
/// (SCCP has made them so, `if (c || v >= v) return ...;` with a known v)
/// become jumps, then the blocks no path reaches go. The greedy rewriter
/// need not terminate on such blocks: once values are promoted they may
/// define each other in a cycle (`%a = arith.addi %a, %c0`), which folding
/// rewrites forever.
static void eraseUnreachableCode(ModuleOp module, IRRewriter &rewriter) {
  module.walk([&](cf::CondBranchOp branch) {
    APInt value;
    if (!matchPattern(branch.getCondition(), m_ConstantInt(&value)))
      return;
    bool condition = !value.isZero();
    rewriter.setInsertionPoint(branch);
    if (condition)
      rewriter.replaceOpWithNewOp<cf::BranchOp>(branch, branch.getTrueDest(),
                                                branch.getTrueDestOperands());
    else
      rewriter.replaceOpWithNewOp<cf::BranchOp>(branch, branch.getFalseDest(),
                                                branch.getFalseDestOperands());
  });
  for (auto function : module.getOps<func::FuncOp>())
    if (!function.isExternal())
      (void)eraseUnreachableBlocks(rewriter, function.getBody());
}

void StructurePass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = module.getContext();
  IRRewriter rewriter(context);
  eraseUnreachableCode(module, rewriter);
  // Promotion, then constants known everywhere (SCCP) and the code they
  // make unreachable erased before the greedy clean-up (see above).
  OpPassManager canonicalize(ModuleOp::getOperationName());
  canonicalize.addPass(createCanonicalizerPass());
  OpPassManager promote(ModuleOp::getOperationName());
  promote.addNestedPass<func::FuncOp>(structure::createPromoteSlots());
  promote.addPass(createSROA());
  promote.addPass(createMem2Reg());
  promote.addPass(createSCCPPass());
  OpPassManager cleanUp(ModuleOp::getOperationName());
  cleanUp.addPass(createCanonicalizerPass());
  // (Rewrites only: the CFG stays as the frontend made it.)
  GreedyRewriteConfig onlyPatterns;
  onlyPatterns.enableFolding(false).setRegionSimplificationLevel(
      GreedySimplifyRegionLevel::Disabled);
  auto promoteAndClean = [&] {
    RewritePatternSet slotPatterns(context);
    populateChosenSlotPatterns(slotPatterns);
    if (failed(runPipeline(canonicalize, module)) ||
        failed(applyPatternsGreedily(module, std::move(slotPatterns),
                                     onlyPatterns)) ||
        failed(runPipeline(promote, module)))
      return failure();
    eraseUnreachableCode(module, rewriter);
    return runPipeline(cleanUp, module);
  };
  OpPassManager simplify(ModuleOp::getOperationName());
  simplify.addPass(createCanonicalizerPass());
  simplify.addPass(createCSEPass());
  if (failed(promoteAndClean()) || failed(inlineViewCalls(module)) ||
      failed(promoteAndClean()))
    return signalPassFailure();
  LLVM_DEBUG({
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isExternal())
        llvm::dbgs()
            << "[" DEBUG_TYPE "] @" << function.getSymName() << " promoted: "
            << llvm::range_size(
                   function.getBody().front().getOps<memref::AllocaOp>())
            << " slots left in its entry block\n";
  });
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function.isExternal())
      continue;
    (void)eraseUnreachableBlocks(rewriter, function.getBody());
    if (function.getBody().hasOneBlock())
      continue;
    ControlFlowToSCFTransformation transformation;
    DominanceInfo dominance;
    if (failed(
            transformCFGToSCF(function.getBody(), transformation, dominance))) {
      function.emitError("internal error: cannot structure the control "
                         "flow of this function");
      return signalPassFailure();
    }
  }
  if (failed(runPipeline(simplify, module)))
    return signalPassFailure();
  RewritePatternSet patterns(context);
  populateCountedLoopPatterns(patterns);
  populateClosedFormCounterPatterns(patterns);
  populateChosenPlacePatterns(patterns);
  if (failed(applyPatternsGreedily(module, std::move(patterns))) ||
      failed(runPipeline(simplify, module)))
    return signalPassFailure();
  // Counted, with their variables promoted: OpenMP loops can be parallel.
  if (failed(convertParallelLoops(module)) ||
      failed(runPipeline(simplify, module)))
    return signalPassFailure();
}
