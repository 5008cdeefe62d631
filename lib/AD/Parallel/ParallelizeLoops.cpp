//===- ParallelizeLoops.cpp - Independent marked loops become parallel ----===//
//
// The loops made from a C++ parallel loop (its serial form, its tangent
// loop, the forward and reverse sweeps of its pullback) are marked
// ct.parallel. Each is checked on its own, as generated: iterations are
// independent when what they carry is a reduction and the memory they
// write is either theirs alone or only accumulated into (ct-parallelize-
// loops in Passes.td). This file is the pass and the rewrite: the loops are
// simplified first (LoopCleanup), checked (IndependenceCheck), then made
// scf.parallel with their reductions, atomic accumulations and buffers and
// tapes of their own.
//
//===----------------------------------------------------------------------===//

#include "Parallel/IndependenceCheck.h"
#include "Parallel/LoopCleanup.h"
#include "Parallel/PrivateAccumulations.h"
#include "Utils/IRBuilders.h"
#include "Utils/LoopMarks.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSet.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-parallelize-loops"

namespace cotangent::ad {
#define GEN_PASS_DEF_PARALLELIZELOOPS
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;
using ad::Accumulation;
using ad::Reduction;

namespace {

void makeAtomic(Accumulation acc) {
  OpBuilder b(acc.store);
  Location loc = acc.store.getLoc();
  Value addend = acc.addend;
  if (acc.negate)
    addend = arith::NegFOp::create(b, loc, addend);
  memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addf, addend,
                              acc.store.getMemRef(), acc.store.getIndices());
  acc.store.erase();
  acc.add->erase();
  acc.load.erase();
}

/// The region of `r` in the scf.reduce that replaces `loop`: the running
/// value is its first argument, the iteration's contribution its second.
static void buildCombiner(Block &block, const Reduction &r, scf::ForOp loop,
                          Location loc) {
  Value lhs = block.getArgument(0), rhs = block.getArgument(1);
  OpBuilder combine = OpBuilder::atBlockEnd(&block);
  // The running value is lhs; the iteration's is rhs. (A nested loop's
  // combiner combines its own argument with its own contribution.)
  Value running = loop.getRegionIterArgs()[r.position];
  Value contribution = r.contribution;
  if (r.nestedInit) {
    auto nested = cast<scf::ForOp>(r.nestedInit->getOwner());
    unsigned j =
        r.nestedInit->getOperandNumber() - nested.getNumControlOperands();
    running = nested.getRegionIterArgs()[j];
    contribution = r.combiner->getOperand(0) == running
                       ? r.combiner->getOperand(1)
                       : r.combiner->getOperand(0);
    if (r.compare)
      contribution = cast<arith::SelectOp>(r.combiner).getTrueValue();
  }
  IRMapping mapping;
  mapping.map(running, lhs);
  mapping.map(contribution, rhs);
  Value combined;
  if (r.compare) {
    // rhs wins if strictly better (lhs < rhs for a max), the form
    // convert-scf-to-openmp knows.
    Value wins = arith::CmpFOp::create(combine, loc,
                                       r.maximum ? arith::CmpFPredicate::OLT
                                                 : arith::CmpFPredicate::OGT,
                                       lhs, rhs);
    combined = arith::SelectOp::create(combine, loc, wins, rhs, lhs);
  } else {
    Operation *clone = combine.clone(*r.combiner, mapping);
    // convert-scf-to-openmp knows `lhs op rhs` only: a commutative
    // combiner written the other way round (`c * acc`) is turned.
    if (clone->hasTrait<OpTrait::IsCommutative>() &&
        clone->getNumOperands() == 2 && clone->getOperand(0) == rhs &&
        clone->getOperand(1) == lhs) {
      clone->setOperand(0, lhs);
      clone->setOperand(1, rhs);
    }
    combined = clone->getResult(0);
  }
  scf::ReduceReturnOp::create(combine, loc, combined);
}

/// Rebuilds `loop` as an scf.parallel with `reductions` in scf.reduce.
void parallelize(scf::ForOp loop, ArrayRef<Reduction> reductions, bool scoped) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lb = ad::buildIndexCast(b, loc, loop.getLowerBound());
  Value ub = ad::buildIndexCast(b, loc, loop.getUpperBound());
  Value step = ad::buildIndexCast(b, loc, loop.getStep());
  auto parallel =
      scf::ParallelOp::create(b, loc, ValueRange{lb}, ValueRange{ub},
                              ValueRange{step}, ValueRange(loop.getInitArgs()));
  if (ad::isDeviceLoop(loop))
    parallel->setAttr(ct::kDeviceLoop, b.getUnitAttr());
  for (StringRef twin : {ct::kDeviceTwin, ct::kHostTwin})
    if (Attribute id = loop->getAttr(twin))
      parallel->setAttr(twin, id);
  Block *body = parallel.getBody();
  if (body->mightHaveTerminator())
    body->getTerminator()->erase();
  Value iv = body->getArgument(0);
  Type ivType = loop.getInductionVar().getType();
  if (!ivType.isIndex()) {
    OpBuilder at = OpBuilder::atBlockBegin(body);
    iv = arith::IndexCastOp::create(at, loc, ivType, iv);
  }
  loop.getInductionVar().replaceAllUsesWith(iv);
  Block *loopBody = loop.getBody();
  SmallVector<Value> contributions;
  for (const Reduction &r : reductions)
    contributions.push_back(r.contribution);
  loopBody->getTerminator()->erase();
  // A nested loop's sum starts from the identity and is the contribution.
  for (const Reduction &r : reductions)
    if (r.nestedInit) {
      OpBuilder before(r.nestedInit->getOwner());
      r.nestedInit->set(arith::ConstantOp::create(
          before, loc, *ad::getIdentity(r.combiner, r.compare, r.maximum)));
    }
  // The combiners move into the scf.reduce regions.
  SmallVector<Operation *> combiners;
  for (const Reduction &r : reductions) {
    if (r.nestedInit)
      continue;
    combiners.push_back(r.combiner);
    if (r.compare)
      combiners.push_back(r.compare);
  }
  for (Operation *op : combiners)
    op->remove();
  body->getOperations().splice(body->end(), loopBody->getOperations());
  OpBuilder end = OpBuilder::atBlockEnd(body);
  // What an iteration allocates on the stack (its buffers, its tape) is
  // released when it ends.
  if (scoped) {
    auto scope = memref::AllocaScopeOp::create(
        end, loc, ValueRange(contributions).getTypes());
    Block *inner = end.createBlock(&scope.getBodyRegion());
    inner->getOperations().splice(inner->end(), body->getOperations(),
                                  body->begin(), scope->getIterator());
    if (Operation *cast = iv.getDefiningOp())
      cast->moveBefore(scope);
    OpBuilder atEnd = OpBuilder::atBlockEnd(inner);
    memref::AllocaScopeReturnOp::create(atEnd, loc, contributions);
    contributions.assign(scope.getResults().begin(), scope.getResults().end());
    end.setInsertionPointToEnd(body);
  }
  auto reduce = scf::ReduceOp::create(end, loc, contributions);
  for (auto [region, r] : llvm::zip_equal(reduce.getReductions(), reductions))
    buildCombiner(region.front(), r, loop, loc);
  for (Operation *op : combiners)
    op->dropAllReferences();
  for (Operation *op : combiners)
    op->destroy();
  loop.replaceAllUsesWith(parallel.getResults());
  loop.erase();
}

/// Moves into `loop`'s body the buffers that live for one iteration
/// (ct.iteration_local) used only there, with what fills them before the
/// loop, so that each iteration has its own. Returns whether any moved.
bool sinkIterationLocalBuffers(scf::ForOp loop) {
  SmallVector<memref::AllocaOp> buffers;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (auto alloca = operand.getDefiningOp<memref::AllocaOp>();
          alloca && alloca->hasAttr(ct::kIterationLocal) &&
          !loop->isAncestor(alloca) && !llvm::is_contained(buffers, alloca))
        buffers.push_back(alloca);
  });
  bool moved = false;
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  for (memref::AllocaOp alloca : buffers) {
    if (!ad::canGiveEachIteration(alloca, loop))
      continue;
    Value buffer = alloca.getResult();
    SmallVector<Operation *> fills;
    for (Operation *user : buffer.getUsers()) {
      if (loop->isAncestor(user))
        continue;
      auto fill = dyn_cast<scf::ForOp>(user->getParentOp());
      fills.push_back(fill ? fill.getOperation() : user);
    }
    alloca->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
    for (Operation *fill : fills) {
      // Fill loops' bounds are constants; clone them after the buffer.
      IRMapping mapping;
      for (Value operand : fill->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && def != alloca.getOperation() && !loop->isAncestor(def))
          if (isPure(def) && def->getNumOperands() == 0)
            mapping.map(operand, b.clone(*def)->getResult(0));
      fill->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && !fill->isAncestor(def) && def != alloca.getOperation() &&
              !mapping.contains(operand) && isPure(def) &&
              def->getNumOperands() == 0)
            mapping.map(operand, b.clone(*def)->getResult(0));
      });
      b.clone(*fill, mapping);
      fill->erase();
    }
    moved = true;
  }
  return moved;
}

/// Gives each iteration of `loop` (marked ct.iteration_tape: it takes back
/// every entry it makes) a tape of its own in place of the shared one.
bool privatizeTape(scf::ForOp loop) {
  if (!loop->hasAttr(ad::kIterationTape))
    return false;
  Value shared = ad::getSharedTape(loop);
  if (!shared)
    return false;
  Location loc = loop.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Value own = ct::TapeInitOp::create(b, loc);
  shared.replaceUsesWithIf(
      own, [&](OpOperand &use) { return loop->isAncestor(use.getOwner()); });
  b.setInsertionPoint(loop.getBody()->getTerminator());
  ct::TapeFreeOp::create(b, loc, own);
  return true;
}

/// Copies, at `after`, of the iteration-local buffers `loop` could give each
/// iteration, with the constant fills before it: the loop's twin uses these
/// (returned as a mapping), so each of the two loops can sink its own.
IRMapping giveTwinItsBuffers(scf::ForOp loop, OpBuilder &after) {
  SetVector<memref::AllocaOp> buffers;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (auto alloca = operand.getDefiningOp<memref::AllocaOp>();
          alloca && ad::canGiveEachIteration(alloca, loop))
        buffers.insert(alloca);
  });
  IRMapping mapping;
  for (memref::AllocaOp alloca : buffers) {
    // The fills (stores, or the loops of one store that run them), in order;
    // a fill nested deeper is not copied, and the buffer stays shared.
    SmallVector<Operation *> fills;
    bool copyable = true;
    for (Operation *user : alloca->getUsers()) {
      if (loop->isAncestor(user))
        continue;
      auto fillLoop = dyn_cast<scf::ForOp>(user->getParentOp());
      Operation *fill = fillLoop ? fillLoop.getOperation() : user;
      copyable &= fill->getBlock() == loop->getBlock();
      if (!llvm::is_contained(fills, fill))
        fills.push_back(fill);
    }
    if (!copyable)
      continue;
    Value copy = after.clone(*alloca)->getResult(0);
    llvm::sort(fills, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    IRMapping fillMapping;
    fillMapping.map(alloca.getResult(), copy);
    for (Operation *fill : fills)
      after.clone(*fill, fillMapping);
    mapping.map(alloca.getResult(), copy);
  }
  return mapping;
}

/// Whether `loop` is nested in a loop marked for a GPU.
/// Warns, once per source loop, that target loop `loop` runs on the CPU
/// because its iterations could not be shown independent, naming a call of
/// code compiled elsewhere if that is what it makes.
void warnStaysOnCpu(scf::ForOp loop, llvm::StringSet<> &warned) {
  if (!warned.insert(ct::getSourcePosition(loop.getLoc())).second)
    return;
  std::string why = "its iterations could not be shown to be independent";
  loop.getBody()->walk([&](func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || !callee->hasAttr(ct::kExternalAttr))
      return WalkResult::advance();
    auto name = callee->getAttrOfType<StringAttr>("ct.source_name");
    why = "it calls '" + (name ? name.getValue() : call.getCallee()).str() +
          "', which is compiled elsewhere, and a kernel cannot call it";
    return WalkResult::interrupt();
  });
  loop.emitWarning() << "this target loop runs on the CPU, not the GPU: "
                     << why;
}

bool isInDeviceLoop(scf::ForOp loop) {
  for (Operation *op = loop->getParentOp(); op; op = op->getParentOp())
    if (ad::isDeviceLoop(op))
      return true;
  return false;
}

/// The loops marked ct.parallel, outer ones first.
SmallVector<scf::ForOp> collectMarkedLoops(ModuleOp module) {
  SmallVector<scf::ForOp> marked;
  module.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    if (loop->hasAttr(ad::kParallelLoop))
      marked.push_back(loop);
  });
  return marked;
}

struct ParallelizeLoops
    : cotangent::ad::impl::ParallelizeLoopsBase<ParallelizeLoops> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> marked = collectMarkedLoops(getOperation());
    if (marked.empty())
      return;
    if (failed(simplifyMarkedLoops(marked)))
      return signalPassFailure();
    DenseMap<Operation *, scf::ForOp> twins =
        makeCpuTwins(collectMarkedLoops(getOperation()));
    parallelizeIndependent(collectMarkedLoops(getOperation()), twins);
    getOperation().walk(
        [](scf::ForOp loop) { loop->removeAttr(ad::kParallelLoop); });
  }

  /// Slots carried from one iteration to the next become values (inner
  /// loops first, so that the outer ones carry what those leave), and
  /// those that do not change fold away; so do the stores that put back
  /// what an element held (the reverse of an update `m[i] += v`).
  LogicalResult simplifyMarkedLoops(SmallVector<scf::ForOp> marked) {
    for (scf::ForOp loop : llvm::reverse(marked))
      ad::promoteLoopCarriedSlots(loop);
    OpPassManager cleanup(ModuleOp::getOperationName());
    cleanup.addPass(createMem2Reg());
    cleanup.addNestedPass<func::FuncOp>(ad::createForwardStores());
    cleanup.addPass(createCanonicalizerPass());
    cleanup.addPass(createCSEPass());
    if (failed(runPipeline(cleanup, getOperation())))
      return failure();
    marked = collectMarkedLoops(getOperation());
    for (scf::ForOp loop : marked)
      loop.getBody()->walk(
          [](Block *block) { ad::eraseRedundantStores(*block); });
    SmallVector<scf::ForOp> nests;
    for (scf::ForOp loop : marked)
      loop->walk([&](scf::ForOp inner) {
        if (!llvm::is_contained(nests, inner))
          nests.push_back(inner);
      });
    ad::passThroughUnusedCarriedValues(nests);
    OpPassManager fold(ModuleOp::getOperationName());
    fold.addPass(createCanonicalizerPass());
    fold.addPass(createCSEPass());
    if (failed(runPipeline(fold, getOperation())))
      return failure();
    return success();
  }

  /// A loop for a GPU adds into shared memory atomically even from loops
  /// nested in its iterations; CPU threads do better with private copies.
  /// So it gets a twin for CPU threads, right after it, and
  /// ct-offload-loops runs one or the other.
  DenseMap<Operation *, scf::ForOp>
  makeCpuTwins(const SmallVector<scf::ForOp> &marked) {
    DenseMap<Operation *, scf::ForOp> twins;
    for (scf::ForOp loop : marked) {
      if (!ad::isDeviceLoop(loop) || isInDeviceLoop(loop))
        continue;
      OpBuilder after(loop->getBlock(), std::next(loop->getIterator()));
      IRMapping mapping = giveTwinItsBuffers(loop, after);
      auto twin = cast<scf::ForOp>(after.clone(*loop, mapping));
      twin->walk([](scf::ForOp inner) {
        if (ad::isDeviceLoop(inner))
          inner->setAttr(ad::kParallelLoop, UnitAttr::get(inner.getContext()));
      });
      auto id = IntegerAttr::get(IntegerType::get(loop.getContext(), 64),
                                 static_cast<int64_t>(twins.size()));
      loop->setAttr(ct::kDeviceTwin, id);
      twin->setAttr(ct::kHostTwin, id);
      twins[loop] = twin;
    }
    return twins;
  }

  /// Outer loops first; a loop inside a parallel one stays serial.
  void parallelizeIndependent(const SmallVector<scf::ForOp> &marked,
                              DenseMap<Operation *, scf::ForOp> &twins) {
    llvm::StringSet<> warned;
    for (scf::ForOp loop : marked) {
      if (loop->getParentOfType<scf::ParallelOp>())
        continue;
      // The check counts on each iteration getting its own buffers and
      // tape, which only a parallel loop then gets.
      ad::IndependenceCheck checker(loop);
      bool independent = checker.check();
      if (!independent && ad::isDeviceLoop(loop)) {
        // Not for a GPU: its twin runs on the CPU.
        warnStaysOnCpu(loop, warned);
        if (scf::ForOp twin = twins.lookup(loop)) {
          twin->removeAttr(ct::kHostTwin);
          loop.replaceAllUsesWith(twin.getResults());
          loop.erase();
        }
        continue;
      }
      if (!independent) {
        // Perhaps chunks adding into private copies are independent: tried
        // on a copy of the loop, kept if so.
        OpBuilder before(loop);
        auto copy = cast<scf::ForOp>(before.clone(*loop));
        bool chunked = ad::privatizeAccumulations(copy);
        auto chunks = chunked ? cast<scf::ForOp>(loop->getPrevNode()) : copy;
        ad::IndependenceCheck chunkChecker(chunks, loop);
        if (!chunked || !chunkChecker.check()) {
          chunks.erase();
          continue;
        }
        if (Attribute id = loop->getAttr(ct::kHostTwin))
          chunks->setAttr(ct::kHostTwin, id);
        loop.replaceAllUsesWith(chunks.getResults());
        loop.erase();
        loop = chunks;
        checker = std::move(chunkChecker);
      }
      bool scoped = sinkIterationLocalBuffers(loop);
      scoped |= privatizeTape(loop);
      for (const Accumulation &acc : checker.atomics)
        makeAtomic(acc);
      parallelize(loop, checker.reductions, scoped);
    }
  }
};

} // namespace

bool ad::indexesLikeRoot(Value memref, Value root) {
  while (memref != root) {
    auto view = memref.getDefiningOp<memref::SubViewOp>();
    if (!view || !llvm::all_of(view.getMixedOffsets(), isZeroInteger) ||
        !llvm::all_of(view.getMixedStrides(), isOneInteger))
      return false;
    memref = view.getSource();
  }
  return true;
}
