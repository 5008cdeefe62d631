//===- AutoCheckpoints.cpp - Checkpointing long loops on its own ----------===//
//
// A loop whose recorded reverse sweep would keep more than fits in the
// cache streams its tape through memory, and for long time stepping that
// costs more than rerunning iterations from snapshots (binomial
// checkpointing). Which one a loop needs depends on its trip count, known
// when it starts, so the choice is made then: the loop becomes
//
//   scf.if (trips * bytes per iteration > limit
//           and the snapshots are much smaller than that tape) {
//     the loop, its body outlined as for `#pragma ct checkpoint`
//   } else {
//     the loop as it is
//   }
//
// and reverse mode handles each branch as usual. The limit is the runtime's
// (ct_checkpoint_tape_limit: half the tape memory kept between calls, or an
// environment variable). Only loops that reverse mode can checkpoint are
// candidates: in a function differentiated in reverse mode, inside no other
// loop, with no effect outside the function that rerunning would repeat, and
// with memory whose touched elements are known (the checks of the pragma's
// rule, asked quietly).
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemoryWrites.h"
#include "Checkpointing/CheckpointMemory.h"
#include "Checkpointing/Checkpoints.h"
#include "Checkpointing/OutlineCheckpoints.h"
#include "Checkpointing/ScheduleCalls.h"
#include "Checkpointing/TapeEstimate.h"
#include "Utils/IRBuilders.h"
#include "Utils/LoopMarks.h"
#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-auto-checkpoint"

namespace cotangent::ad {
#define GEN_PASS_DEF_AUTOCHECKPOINTS
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

/// Tapes below this, known when compiling, are always recorded.
constexpr double kSmallTape = 1 << 20;

/// Whether `loop` (in `function`) is one reverse mode could checkpoint.
bool isCandidate(scf::ForOp loop, func::FuncOp function) {
  for (Operation *at = loop->getParentOp(); at != function;
       at = at->getParentOp())
    if (!isa<scf::IfOp>(at))
      return false;
  if (llvm::any_of(loop.getResultTypes(), llvm::IsaPred<MemRefType>))
    return false;
  // A loop with a pragma-checkpointed loop inside is left to the pragma,
  // and parallel loops (and loops holding one) to their own derivatives.
  // Memory reached through an address read from memory is not among what
  // the outlined iteration is passed, which snapshots copy.
  auto isLeftToOthers = [](Operation *op) {
    return op->hasAttr(kCheckpointSnapshots) || op->hasAttr(kParallelLoop) ||
           isa<ct::LoadAddressOp>(op);
  };
  bool leftToOthers = loop->walk([&](Operation *op) {
                            return isLeftToOthers(op) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
                          })
                          .wasInterrupted();
  return !leftToOthers && !passesOutMemoryItChooses(loop) &&
         !findRerunHazard(loop);
}

Value toF64(OpBuilder &b, Location loc, Value index) {
  return arith::UIToFPOp::create(
      b, loc, b.getF64Type(),
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(), index));
}

/// The bytes a value of `type` takes in a snapshot (8 for an index or a
/// type without a width).
double bytesOf(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() * bytesOf(vector.getElementType());
  if (type.isIntOrFloat())
    return std::max(type.getIntOrFloatBitWidth(), 8u) / 8;
  return 8;
}

Value f64Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(value));
}

/// Whether code of `function` outside `loop` may write or free `memory`
/// (which the loop only reads: snapshots must then keep it too).
bool isWrittenOutside(func::FuncOp function, scf::ForOp loop, Value memory) {
  SmallVector<Value, 2> roots = getMemoryRoots(memory);
  auto sharesRoot = [&](Value value) {
    return llvm::any_of(getMemoryRoots(value), [&](Value root) {
      return llvm::is_contained(roots, root);
    });
  };
  return function
      .walk([&](Operation *op) {
        if (loop->isAncestor(op))
          return WalkResult::skip();
        bool writes = false;
        if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
          SmallVector<MemoryEffects::EffectInstance> found;
          effects.getEffects(found);
          writes = llvm::any_of(found, [&](const auto &effect) {
            return isa<MemoryEffects::Write, MemoryEffects::Free>(
                       effect.getEffect()) &&
                   (!effect.getValue() || sharesRoot(effect.getValue()));
          });
        } else if (isa<CallOpInterface>(op)) {
          writes = llvm::any_of(op->getOperands(), [&](Value operand) {
            return isa<MemRefType>(operand.getType()) && sharesRoot(operand);
          });
        }
        return writes ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The bytes one snapshot of `loop`'s state takes (the elements of the
/// memory its outlined iteration may write, and what it carries), built at
/// `b`; failure where the pragma's rule could not tell which elements of
/// some memory it touches.
FailureOr<Value> buildSnapshotBytes(OpBuilder &b, func::FuncOp function,
                                    scf::ForOp loop, func::CallOp call,
                                    Value trips) {
  Location loc = loop.getLoc();
  auto iteration = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  // Outlined: the induction variable, the carried values, then the
  // values from outside.
  unsigned firstOutside = 1 + loop.getNumRegionIterArgs();
  IterationFacts facts = buildIterationFacts(
      b, loc, call, iteration, /*ivOperand=*/0,
      [&](unsigned i) { return i >= firstOutside; }, loop.getLowerBound(),
      loop.getStep(), trips, [](Value v) { return v; });

  Value bytes = f64Constant(b, loc, 0);
  for (Type type : loop.getResultTypes())
    bytes = arith::AddFOp::create(b, loc, bytes,
                                  f64Constant(b, loc, bytesOf(type)));
  for (unsigned i = firstOutside; i < call.getNumOperands(); ++i) {
    Value memory = call.getOperand(i);
    auto type = dyn_cast<MemRefType>(memory.getType());
    if (!type)
      continue;
    // Memory only read, there and everywhere else, is never copied.
    bool written = mayWriteArgument(iteration, i);
    if (!written && !isWrittenOutside(function, loop, memory))
      continue;
    FailureOr<KeptElements> kept = buildKeptElements(
        b, loc, iteration, i, memory, memory, facts.known, facts.ranges, loop,
        "cannot checkpoint this loop", "");
    if (failed(kept))
      return failure();
    if (!written)
      continue;
    bytes = arith::AddFOp::create(
        b, loc, bytes,
        arith::MulFOp::create(
            b, loc, toF64(b, loc, kept->count),
            f64Constant(b, loc, bytesOf(type.getElementType()))));
  }
  return bytes;
}

/// Whether to checkpoint: the tape, trips x `perIteration` bytes, is over
/// the runtime's limit, and about sqrt(trips) snapshots of `snapshotBytes`
/// take less than a quarter of it (16 s^2 < trips p^2).
Value buildChoice(OpBuilder &b, Location loc, ModuleOp module, Value trips,
                  Value perIteration, Value snapshotBytes) {
  Value tripsF = toF64(b, loc, trips);
  Value tape = arith::MulFOp::create(b, loc, tripsF, perIteration);
  Value limit = arith::SIToFPOp::create(
      b, loc, b.getF64Type(),
      schedule::callSchedule(b, loc, module, "ct_checkpoint_tape_limit", {}));
  Value overLimit =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, tape, limit);
  Value snapshotsSquared = arith::MulFOp::create(
      b, loc, f64Constant(b, loc, 16),
      arith::MulFOp::create(b, loc, snapshotBytes, snapshotBytes));
  Value tapeTimesStep = arith::MulFOp::create(b, loc, tape, perIteration);
  Value smallSnapshots = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OLT, snapshotsSquared, tapeTimesStep);
  return arith::AndIOp::create(b, loc, overLimit, smallSnapshots);
}

/// Puts `loop` at the end of `block` (before its terminator if it has one,
/// else followed by a yield of its results).
void moveInto(Block *block, scf::ForOp loop) {
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>()) {
    loop->moveBefore(block->getTerminator());
    return;
  }
  loop->moveBefore(block, block->end());
  OpBuilder end = OpBuilder::atBlockEnd(block);
  scf::YieldOp::create(end, loop.getLoc(), loop.getResults());
}

/// Whether the tape of `loop`, `perIteration` bytes per iteration, is known
/// when compiling to be empty or small.
bool isKnownSmall(scf::ForOp loop, Value perIteration) {
  FloatAttr bytes;
  if (!matchPattern(perIteration, m_Constant(&bytes)))
    return false;
  if (bytes.getValueAsDouble() == 0)
    return true;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         ub = getConstantIntValue(loop.getUpperBound()),
                         step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return false;
  int64_t trips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
  return double(trips) * bytes.getValueAsDouble() < kSmallTape;
}

/// Versions `loop`: checkpointed when the choice says so at run time.
void version(scf::ForOp loop, func::FuncOp function, SymbolTable &symbols) {
  Location loc = loop.getLoc();
  // The code that chooses is built in a region of its own before the loop
  // (the analyses it asks look at where values are defined), moved out of
  // it once the loop is known to qualify.
  OpBuilder at(loop);
  auto holder = scf::ExecuteRegionOp::create(at, loc, TypeRange{});
  OpBuilder b = OpBuilder::atBlockEnd(&holder.getRegion().emplaceBlock());
  std::optional<Value> perIteration = buildTapeEstimate(b, loop);
  if (!perIteration || isKnownSmall(loop, *perIteration)) {
    holder.erase();
    return;
  }
  auto copy = cast<scf::ForOp>(at.clone(*loop));
  func::CallOp call = outlineIterations(copy, 0, function, symbols);
  call->setAttr(kCheckpointAuto, at.getUnitAttr());
  Value trips = ad::buildIndexCast(
      b, loc,
      ad::buildTripCount(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                         loop.getStep()));
  FailureOr<Value> snapshotBytes = failure();
  {
    // The rule's own checks, asked quietly: a failure here only means the
    // loop stays recorded.
    ScopedDiagnosticHandler quiet(loop.getContext(),
                                  [](Diagnostic &) { return success(); });
    snapshotBytes = buildSnapshotBytes(b, function, copy, call, trips);
  }
  if (failed(snapshotBytes)) {
    auto iteration = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    copy.erase();
    symbols.erase(iteration);
    holder.erase();
    return;
  }
  Value choice = buildChoice(b, loc, function->getParentOfType<ModuleOp>(),
                             trips, *perIteration, *snapshotBytes);
  Block *block = loop->getBlock();
  block->getOperations().splice(Block::iterator(copy),
                                holder.getRegion().front().getOperations());
  holder.erase();
  auto branch = scf::IfOp::create(at, loc, loop.getResultTypes(), choice,
                                  /*withElseRegion=*/true);
  branch->setAttr(kAutoCheckpointChoice, at.getUnitAttr());
  loop->replaceAllUsesWith(branch.getResults());
  moveInto(branch.thenBlock(), copy);
  moveInto(branch.elseBlock(), loop);
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] the loop at " << loc
                          << " is checkpointed when its tape is long\n");
}

/// The functions of `module` with a body that only reverse-mode requests
/// (gradients, pullbacks) use: forward mode and other callers keep the
/// loops as written.
SmallVector<func::FuncOp> getReversedOnly(ModuleOp module) {
  SmallVector<func::FuncOp> found;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function.isExternal())
      continue;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(function, module);
    if (uses && !uses->empty() &&
        llvm::all_of(*uses, [](const SymbolTable::SymbolUse &use) {
          return isa<ct::GradientOp, ct::PullbackOp>(use.getUser());
        }))
      found.push_back(function);
  }
  return found;
}

struct AutoCheckpointsPass
    : ad::impl::AutoCheckpointsBase<AutoCheckpointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (func::FuncOp function : getReversedOnly(module)) {
      SmallVector<scf::ForOp> loops;
      function.walk([&](scf::ForOp loop) {
        if (isCandidate(loop, function))
          loops.push_back(loop);
      });
      for (scf::ForOp loop : loops)
        version(loop, function, symbols);
    }
  }
};

} // namespace
