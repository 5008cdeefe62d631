//===- SerializeParallelLoops.cpp - scf.parallel as marked serial loops ---===//
//
// Differentiation sees a parallel loop as the serial loop it equals, so
// that memory analyses, tapes and loop strategies need no parallel case;
// the mark lets ct-parallelize-loops make its derivative loops parallel
// again (ct-serialize-parallel-loops in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "Utils/LoopMarks.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "cotangent/AD/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-serialize-parallel-loops"

namespace cotangent::ad {
#define GEN_PASS_DEF_SERIALIZEPARALLELLOOPS
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;

namespace {

/// The serial nest of `parallel`: one scf.for per dimension, outermost
/// first, the reductions carried through all of them.
void serialize(scf::ParallelOp parallel, bool deviceLoops) {
  OpBuilder b(parallel);
  Location loc = parallel.getLoc();
  // A loop meant for a GPU keeps that in its mark, which derived loops
  // copy.
  Attribute mark = deviceLoops && parallel->hasAttr(ct::kDeviceLoop)
                       ? Attribute(b.getStringAttr(ad::kDeviceMark))
                       : Attribute(b.getUnitAttr());
  SmallVector<Value> carried(parallel.getInitVals());
  SmallVector<scf::ForOp> nest;
  IRMapping mapping;
  for (auto [lb, ub, step, iv] :
       llvm::zip_equal(parallel.getLowerBound(), parallel.getUpperBound(),
                       parallel.getStep(), parallel.getInductionVars())) {
    auto loop = scf::ForOp::create(b, loc, lb, ub, step, carried);
    loop->setAttr(ad::kParallelLoop, mark);
    if (!nest.empty())
      scf::YieldOp::create(b, loc, loop.getResults());
    mapping.map(iv, loop.getInductionVar());
    carried.assign(loop.getRegionIterArgs().begin(),
                   loop.getRegionIterArgs().end());
    nest.push_back(loop);
    // The builder gave a body without iteration arguments a yield.
    if (loop.getBody()->mightHaveTerminator())
      loop.getBody()->getTerminator()->erase();
    b.setInsertionPointToStart(loop.getBody());
  }
  Block *body = parallel.getBody();
  for (Operation &op : body->without_terminator())
    b.clone(op, mapping);
  // Each reduction combines the running value (lhs) with this iteration's.
  auto reduce = cast<scf::ReduceOp>(body->getTerminator());
  SmallVector<Value> next;
  for (auto [operand, region, running] :
       llvm::zip_equal(reduce.getOperands(), reduce.getReductions(), carried)) {
    Block &combiner = region.front();
    IRMapping combine;
    combine.map(combiner.getArgument(0), running);
    combine.map(combiner.getArgument(1), mapping.lookupOrDefault(operand));
    for (Operation &op : combiner.without_terminator())
      b.clone(op, combine);
    next.push_back(
        combine.lookupOrDefault(combiner.getTerminator()->getOperand(0)));
  }
  scf::YieldOp::create(b, loc, next);
  parallel.replaceAllUsesWith(nest.front().getResults());
  parallel.erase();
}

struct SerializeParallelLoops
    : cotangent::ad::impl::SerializeParallelLoopsBase<SerializeParallelLoops> {
  using SerializeParallelLoopsBase::SerializeParallelLoopsBase;
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    // Post-order: a nested parallel loop is serialized before the one
    // around it, whose body is then cloned with it.
    getOperation().walk([&](scf::ParallelOp loop) { loops.push_back(loop); });
    for (scf::ParallelOp loop : loops) {
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << "the parallel loop at "
                              << loop.getLoc()
                              << " is differentiated as a serial loop" << "\n");
      serialize(loop, deviceLoops);
    }
    if (allLoops)
      getOperation().walk([](scf::ForOp loop) {
        loop->setAttr(ad::kParallelLoop, UnitAttr::get(loop.getContext()));
      });
  }
};

} // namespace
