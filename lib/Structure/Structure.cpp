//===- Structure.cpp - The ct-structure pass ------------------------------===//

#include "ChosenPlaces.h"
#include "CountedLoops.h"
#include "ParallelLoops.h"

#include "cotangent/Structure/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Transforms/RegionUtils.h"

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
      if (llvm::any_of(call.getResultTypes(), llvm::IsaPred<MemRefType>))
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

void StructurePass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = module.getContext();
  OpPassManager promote(ModuleOp::getOperationName());
  promote.addPass(createCanonicalizerPass());
  promote.addNestedPass<func::FuncOp>(structure::createPromoteSlots());
  promote.addPass(createSROA());
  promote.addPass(createMem2Reg());
  promote.addPass(createCanonicalizerPass());
  OpPassManager simplify(ModuleOp::getOperationName());
  simplify.addPass(createCanonicalizerPass());
  simplify.addPass(createCSEPass());
  if (failed(runPipeline(promote, module)) || failed(inlineViewCalls(module)) ||
      failed(runPipeline(promote, module)))
    return signalPassFailure();
  IRRewriter rewriter(context);
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function.isExternal())
      continue;
    (void)eraseUnreachableBlocks(rewriter, function.getBody());
    if (function.getBody().hasOneBlock())
      continue;
    ControlFlowToSCFTransformation transformation;
    DominanceInfo dominance;
    if (failed(transformCFGToSCF(function.getBody(), transformation,
                                 dominance))) {
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
