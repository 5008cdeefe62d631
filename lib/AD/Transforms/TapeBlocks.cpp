//===- TapeBlocks.cpp - Loops push and pop their tape entries as blocks ---===//
//
// A push or pop calls into the tape and updates its size: a loop that
// pushes one value per element cannot be vectorised, however simple its
// body. With the trip count known on entry, the slots a loop pushes form
// one block whose layout is known, so the loop can claim it at once and
// store into it by iteration (ct-tape-blocks in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "Utils/IRBuilders.h"
#include "Utils/LoopMarks.h"
#include "Utils/Tapes.h"
#include "cotangent/AD/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-tape-blocks"

namespace cotangent::ad {
#define GEN_PASS_DEF_TAPEBLOCKS
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;

namespace {

/// `loop`'s trip count as an index, built before the loop.
Value buildTripCount(OpBuilder &b, scf::ForOp loop) {
  Location loc = loop.getLoc();
  return ad::buildIndexCast(b, loc,
                            ad::buildTripCount(b, loc, loop.getLowerBound(),
                                               loop.getUpperBound(),
                                               loop.getStep()));
}

/// Positions in a block lie in [0, size): their arithmetic wraps neither way,
/// which LLVM needs to know to fold it into addresses.
constexpr auto kInBlock =
    arith::IntegerOverflowFlags::nsw | arith::IntegerOverflowFlags::nuw;

/// The number of the iteration running, as an index, built at the start of
/// `loop`'s body. (iv - lb lies in [0, ub - lb), which the trip count assumes
/// fits the type.)
Value buildIterationNumber(OpBuilder &b, scf::ForOp loop) {
  Location loc = loop.getLoc();
  Value k = arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, loop.getInductionVar(),
                            loop.getLowerBound(),
                            arith::IntegerOverflowFlags::nsw),
      loop.getStep());
  return ad::buildIndexCast(b, loc, k);
}

/// `a * b + c` on indices, with b and c constants.
Value buildSlot(OpBuilder &b, Location loc, Value a, int64_t scale,
                int64_t offset) {
  Value product = arith::MulIOp::create(
      b, loc, a, arith::ConstantIndexOp::create(b, loc, scale), kInBlock);
  return arith::AddIOp::create(b, loc, product,
                               arith::ConstantIndexOp::create(b, loc, offset),
                               kInBlock);
}

void claimBlock(scf::ForOp loop, MutableArrayRef<ct::TapePushOp> pushes) {
  Location loc = loop.getLoc();
  auto width = static_cast<int64_t>(pushes.size());
  auto reserve = dyn_cast_or_null<ct::TapeReserveOp>(loop->getPrevNode());
  OpBuilder b(loop);
  Value slots =
      arith::MulIOp::create(b, loc, buildTripCount(b, loop),
                            arith::ConstantIndexOp::create(b, loc, width));
  Value tape = pushes.front().getTape();
  Value block = ct::TapeClaimOp::create(b, loc, tape, slots);
  // The claim makes room itself; a reserve only ever sizes the storage.
  if (reserve && reserve.getTape() == tape)
    reserve.erase();
  b.setInsertionPointToStart(loop.getBody());
  Value k = buildIterationNumber(b, loop);
  for (auto [j, push] : llvm::enumerate(pushes)) {
    b.setInsertionPoint(push);
    ct::TapeWriteOp::create(b, push.getLoc(), block,
                            buildSlot(b, push.getLoc(), k, width, j),
                            push.getValue());
    push.erase();
  }
}

void releaseBlock(scf::ForOp loop, MutableArrayRef<ct::TapePopOp> pops) {
  Location loc = loop.getLoc();
  auto width = static_cast<int64_t>(pops.size());
  OpBuilder b(loop);
  Value count = buildTripCount(b, loop);
  Value slots = arith::MulIOp::create(
      b, loc, count, arith::ConstantIndexOp::create(b, loc, width));
  Value block =
      ct::TapeReleaseOp::create(b, loc, pops.front().getTape(), slots);
  b.setInsertionPointToStart(loop.getBody());
  // Iteration k pops what iteration T - 1 - k of the pushing loop pushed.
  Value k = buildIterationNumber(b, loop);
  Value last = arith::SubIOp::create(
      b, loc, count, arith::ConstantIndexOp::create(b, loc, 1), kInBlock);
  Value pushed = arith::SubIOp::create(b, loc, last, k, kInBlock);
  for (auto [q, pop] : llvm::enumerate(pops)) {
    b.setInsertionPoint(pop);
    Value slot = buildSlot(b, pop.getLoc(), pushed, width,
                           width - 1 - static_cast<int64_t>(q));
    Value value =
        ct::TapeReadOp::create(b, pop.getLoc(), pop.getType(), block, slot);
    pop.replaceAllUsesWith(value);
    pop.erase();
  }
}

/// Runs a reversed loop whose iterations commute (marked by reverse mode)
/// in the other order: k becomes trips - 1 - k, so that its reads go up the
/// block and the primal's induction variable goes up, as in the primal.
void runForward(scf::ForOp loop) {
  if (!matchPattern(loop.getLowerBound(), m_Zero()) ||
      !matchPattern(loop.getStep(), m_One()))
    return;
  Location loc = loop.getLoc();
  Value k = loop.getInductionVar();
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Value one = arith::ConstantOp::create(b, loc, k.getType(),
                                        b.getIntegerAttr(k.getType(), 1));
  Value last = arith::SubIOp::create(b, loc, loop.getUpperBound(), one,
                                     arith::IntegerOverflowFlags::nsw);
  Value flipped = arith::SubIOp::create(b, loc, last, k, kInBlock);
  k.replaceAllUsesExcept(flipped, flipped.getDefiningOp());
}

struct TapeBlocks : cotangent::ad::impl::TapeBlocksBase<TapeBlocks> {
  void runOnOperation() override {
    // Post-order: inner loops first.
    getOperation().walk([](scf::ForOp loop) {
      bool commuting = loop->removeAttr(ad::kCommutingIterations) != nullptr;
      if (auto pushes = ad::getOnlyTapeOps<ct::TapePushOp>(loop)) {
        LLVM_DEBUG(llvm::dbgs()
                   << "[" DEBUG_TYPE "] " << "the loop at " << loop.getLoc()
                   << " pushes " << pushes->size()
                   << " values per iteration into one block" << "\n");
        claimBlock(loop, *pushes);
      } else if (auto pops = ad::getOnlyTapeOps<ct::TapePopOp>(loop)) {
        LLVM_DEBUG(llvm::dbgs()
                   << "[" DEBUG_TYPE "] " << "the loop at " << loop.getLoc()
                   << " pops " << pops->size()
                   << " values per iteration from one block"
                   << (commuting ? ", in the primal's order" : "") << "\n");
        releaseBlock(loop, *pops);
        if (commuting)
          runForward(loop);
      }
    });
  }
};

} // namespace
