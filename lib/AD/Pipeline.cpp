//===- Pipeline.cpp - The differentiation pipeline ------------------------===//

#include "cotangent/AD/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void cotangent::ad::buildAutodiffPipeline(OpPassManager &pm) {
  buildAutodiffPipeline(pm, AutodiffPipelineOptions{});
}

void cotangent::ad::buildAutodiffPipeline(
    OpPassManager &pm, const AutodiffPipelineOptions &pipelineOptions) {
  bool optimize = pipelineOptions.optimize;
  DifferentiateOptions options;
  options.unconnected = pipelineOptions.unconnected;
  options.strongZero = pipelineOptions.strongZero;
  options.eagerLoops = options.recomputeIterations = options.eagerCalls =
      options.commutingIterations = options.reloadMemory =
          options.recomputeValues = optimize;
  // Parallel loops are differentiated as the serial loops they equal,
  // marked so that their derivative loops can be made parallel again.
  SerializeParallelLoopsOptions serialize;
  serialize.allLoops = pipelineOptions.allLoopsParallel;
  serialize.deviceLoops = pipelineOptions.deviceLoops;
  pm.addPass(createSerializeParallelLoops(serialize));
  // Checkpointed loops' bodies become functions first, while their markers
  // can still tell their loop (the inliner puts loops inside others).
  pm.addPass(createOutlineCheckpoints());
  // Simplify the primal first: every op removed here is one less to
  // differentiate.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Callees inlined, a function differentiates into one combined pullback:
  // no tape between split halves, and memory it only reads can be read
  // again in the reverse sweep. Recursive calls and calls that custom rules
  // replace stay calls.
  pm.addPass(createKeepRuleCalls());
  pm.addPass(createInlinerPass());
  // Short fixed loops become straight-line code (no tape), and constants
  // shared so that the loads and stores they index can be matched.
  if (optimize)
    pm.addPass(createUnrollSmallLoops());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Pure ops first (index arithmetic), so that the loads they feed are
  // invariant too.
  pm.addPass(createLoopInvariantCodeMotionPass());
  if (optimize) {
    pm.addPass(createHoistInvariantLoads());
    pm.addPass(createForwardStores());
  }
  pm.addPass(createCanonicalizerPass());
  // Hoisted index arithmetic meets its copies after the loop (`p[i]` read
  // again): one value, known before the loop.
  pm.addPass(createCSEPass());
  // Loops whose tape would be long are checkpointed, chosen at run time
  // from their trip count: last, so that the estimate sees the body as it
  // will be differentiated.
  if (pipelineOptions.autoCheckpoint)
    pm.addPass(createAutoCheckpoints());
  pm.addPass(createDifferentiate(options));
  // Promote adjoint slots outside loops, fold the -0 starts and the
  // push/pop pairs that meet, and share what forward and reverse compute.
  pm.addPass(createMem2Reg());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Loops that only push, or only pop, do so as one block, so that LLVM
  // can vectorise them (after the clean-up, which folds push/pop pairs).
  if (optimize) {
    pm.addPass(createTapeBlocks());
    pm.addPass(createCanonicalizerPass());
  }
  // Loops made from parallel loops whose iterations are independent (by
  // position in blocks, not pushes) run in parallel.
  pm.addPass(createParallelizeLoops());
}

void cotangent::ad::buildForwardDerivativeCleanup(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  // Tangent rules recompute what the primal computes too (sin's tangent
  // needs cos x beside the primal's cos x): one of each, one tape entry.
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createHoistInvariantLoads());
  pm.addPass(createForwardStores());
}

void cotangent::ad::buildDerivativesPipeline(
    OpPassManager &pm, const AutodiffPipelineOptions &options) {
  pm.addPass(createInternalize());
  buildAutodiffPipeline(pm, options);
  pm.addPass(createSymbolDCEPass());
}

void cotangent::ad::registerAutodiffPipeline() {
  PassPipelineRegistration<AutodiffPipelineOptions>(
      "ct-autodiff",
      "Simplify, differentiate every ct request, and clean up the result",
      [](OpPassManager &pm, const AutodiffPipelineOptions &options) {
        buildAutodiffPipeline(pm, options);
      });
  PassPipelineRegistration<>(
      "ct-forward-derivative-cleanup",
      "Clean up a function with forward-mode derivatives inlined, before "
      "reverse mode (func.func)",
      buildForwardDerivativeCleanup);
  PassPipelineRegistration<AutodiffPipelineOptions>(
      "ct-derivatives",
      "What the C++ plugin runs on the frontend's output: internalize, "
      "ct-autodiff, drop what no derivative reaches",
      [](OpPassManager &pm, const AutodiffPipelineOptions &options) {
        buildDerivativesPipeline(pm, options);
      });
}
