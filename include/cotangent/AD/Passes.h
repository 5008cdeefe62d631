//===- Passes.h - Cotangent AD passes ---------------------------*- C++ -*-===//

#ifndef COTANGENT_AD_PASSES_H
#define COTANGENT_AD_PASSES_H

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace cotangent::ad {

#define GEN_PASS_DECL
#include "cotangent/AD/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cotangent/AD/Passes.h.inc"

/// The options of the `ct-autodiff` pipeline.
struct AutodiffPipelineOptions
    : public mlir::PassPipelineOptions<AutodiffPipelineOptions> {
  Option<std::string> unconnected{
      *this, "unconnected",
      llvm::cl::desc("What to do with an active parameter that does not "
                     "influence the result: zero, warn or error"),
      llvm::cl::init("warn")};
  Option<bool> optimize{
      *this, "optimize",
      llvm::cl::desc("Run the optimisations that only save tape or time "
                     "(the pre-AD loop and memory passes, every reverse-mode "
                     "strategy of ct-differentiate, ct-tape-blocks); off, "
                     "derivatives take the plain strategy"),
      llvm::cl::init(true)};
  Option<bool> autoCheckpoint{
      *this, "auto-checkpoint",
      llvm::cl::desc("Checkpoint loops whose recorded tape would be long, "
                     "chosen when they start (ct-auto-checkpoint)"),
      llvm::cl::init(true)};
  Option<bool> strongZero{
      *this, "strong-zero",
      llvm::cl::desc("A zero adjoint or tangent times any partial is zero, "
                     "even an infinite or NaN one"),
      llvm::cl::init(false)};
  Option<bool> allLoopsParallel{
      *this, "all-loops-parallel",
      llvm::cl::desc("Mark every loop as a parallel loop: a test of "
                     "ct-parallelize-loops, which makes a derivative loop "
                     "parallel only where it proves its iterations "
                     "independent"),
      llvm::cl::init(false)};
  Option<bool> deviceLoops{
      *this, "device-loops",
      llvm::cl::desc("Compiling for a GPU: loops meant for one get derivative "
                     "loops for it (atomics), with a twin for CPU threads"),
      llvm::cl::init(false)};
};

/// The passes every user of the engine runs: simplify the primal,
/// differentiate every request, clean up the result (Pipeline.cpp lists
/// them in order).
void buildAutodiffPipeline(mlir::OpPassManager &pm,
                           const AutodiffPipelineOptions &options);
void buildAutodiffPipeline(mlir::OpPassManager &pm);
/// Registers that pipeline as `ct-autodiff`, and `ct-derivatives`:
/// ct-internalize, ct-autodiff, symbol-dce, what the C++ plugin runs on the
/// frontend's output (`cotangent-cc --emit=mlir`).
void registerAutodiffPipeline();
/// What ct-differentiate runs on a function into which it inlined the
/// forward-mode derivatives it calls (a Hessian-vector product) before
/// differentiating it in reverse mode: canonicalize, loop-invariant code
/// motion, ct-hoist-invariant-loads, ct-forward-stores. Registered as
/// `ct-forward-derivative-cleanup` (on func.func).
void buildForwardDerivativeCleanup(mlir::OpPassManager &pm);
void buildDerivativesPipeline(mlir::OpPassManager &pm,
                              const AutodiffPipelineOptions &options);

} // namespace cotangent::ad

#endif // COTANGENT_AD_PASSES_H
