//===- HoistInvariantLoads.cpp - Loads that do not change move out --------===//
//
// `for r: t[r] += q[r] * c[k]` reads c[k] once per r; differentiated, the
// reverse sweep needs that value once per r as well. Hoisted (guarded by a
// non-empty trip), it is one value of the enclosing level.
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemoryWrites.h"
#include "Transforms/Transforms.h"
#include "cotangent/AD/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-hoist-invariant-loads"

namespace cotangent::ad {
#define GEN_PASS_DEF_HOISTINVARIANTLOADS
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;

namespace {

void hoistFrom(scf::ForOp loop) {
  SmallVector<memref::LoadOp> candidates;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto load = dyn_cast<memref::LoadOp>(op))
      if (llvm::all_of(load->getOperands(),
                       [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
        candidates.push_back(load);
  if (candidates.empty())
    return;
  ad::MemoryWrites writes(loop);
  OpBuilder b(loop);
  Value nonEmpty;
  for (memref::LoadOp load : candidates) {
    if (writes.mayChange(load.getMemRef()))
      continue;
    Location loc = load.getLoc();
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << "the load at " << loc
                            << " leaves the loop at " << loop.getLoc() << "\n");
    if (!nonEmpty)
      nonEmpty =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                loop.getLowerBound(), loop.getUpperBound());
    Type type = load.getType();
    auto guarded = scf::IfOp::create(b, loc, type, nonEmpty,
                                     /*withElseRegion=*/true);
    OpBuilder inner = guarded.getThenBodyBuilder();
    Value value = inner.clone(*load)->getResult(0);
    scf::YieldOp::create(inner, loc, value);
    inner = guarded.getElseBodyBuilder();
    Value zero =
        arith::ConstantOp::create(inner, loc, type, inner.getZeroAttr(type));
    scf::YieldOp::create(inner, loc, zero);
    load.replaceAllUsesWith(guarded.getResult(0));
    load.erase();
  }
}

struct HoistInvariantLoadsPass
    : ad::impl::HoistInvariantLoadsBase<HoistInvariantLoadsPass> {
  void runOnOperation() override { ad::hoistInvariantLoads(getOperation()); }
};

} // namespace

void ad::hoistInvariantLoads(Operation *root) {
  // Post-order: an inner loop's loads move out first, and may then move
  // out of the enclosing loop too.
  root->walk([](scf::ForOp loop) { hoistFrom(loop); });
}
