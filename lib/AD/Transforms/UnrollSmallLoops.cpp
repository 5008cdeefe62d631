//===- UnrollSmallLoops.cpp - Short fixed loops unrolled ------------------===//
//
// `for (int i = 0; i < 3; ++i) r[i] = p[i] - c[i];` is common in geometric
// code. Differentiated as a loop, every value its reverse needs is a tape
// entry per iteration; unrolled, the body is part of the enclosing block,
// whose reverse can use forward values directly (in a combined pullback),
// and the stores and loads of its small buffers meet at constant indices,
// where ct-forward-stores replaces the loads by the stored values.
//
//===----------------------------------------------------------------------===//

#include "Checkpointing/Checkpoints.h"
#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-unroll-small-loops"

namespace cotangent::ad {
#define GEN_PASS_DEF_UNROLLSMALLLOOPS
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;

namespace {

/// The most iterations, and ops in all of them, that a loop unrolls into.
/// Unrolled, a loop needs no tape (its values are straight-line code the
/// reverse sweep uses directly): worth it for the short fixed loops of
/// small vectors and matrices (3-D rotations, 4x4 transforms, the 8 trips
/// of a cube's corners), not for code size beyond a few hundred ops.
constexpr int64_t kMaxTrips = 8;
constexpr int64_t kMaxUnrolledOps = 128;

bool isSmall(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->getZExtValue() > uint64_t(kMaxTrips))
    return false;
  // A loop the user asked to checkpoint stays a loop.
  if (cotangent::ad::getCheckpointedCall(loop))
    return false;
  int64_t ops = 0;
  loop.getBody()->walk([&](Operation *) { ++ops; });
  return ops * int64_t(trips->getZExtValue()) <= kMaxUnrolledOps;
}

struct UnrollSmallLoopsPass
    : cotangent::ad::impl::UnrollSmallLoopsBase<UnrollSmallLoopsPass> {
  void runOnOperation() override {
    // Innermost first: an unrolled inner loop makes its parent larger, which
    // then may no longer be small.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      if (!isSmall(loop))
        continue;
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << "unrolling the loop at "
                              << loop.getLoc() << "\n");
      (void)loopUnrollFull(loop);
    }
  }
};

} // namespace
