//===- StoreToLoadForwarding.cpp - Loads of what was just stored or loaded ===//
//
// `c[r] = x - m; y = d * c[r]` reads back the value it stored. Left as a
// load, the reverse sweep must keep that value on the tape whenever c is
// overwritten later; replaced by the stored value, it is recomputed from x
// and m. Within a block, a load of the element a store just wrote (or a
// load just read), with the same memref and index values and no write that
// may alias in between, takes that value. What is known before a branch
// holds in it; before a loop, in its body for the memory the loop leaves
// alone.
//
// Across loops: a loop `for i in [lb, ub)` whose body stores `c[i] = v(i)`
// on every iteration, v computed from i, values from before the loop and
// loads of memory nothing writes until the read, fills c. A later load
// `c[j]`, with j the counter of a loop over the same [lb, ub), reads v(j):
// it is computed again there (GMM's centered point, filled by one helper
// and read by the next), so that the reverse sweep recomputes it from
// memory it can read again rather than taping it.
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemoryWrites.h"
#include "Transforms/KnownElements.h"
#include "Transforms/Transforms.h"
#include "Utils/ControlFlow.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/AD/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-forward-stores"

namespace cotangent::ad {
#define GEN_PASS_DEF_FORWARDSTORES
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;

namespace {

/// A loop that fills `memref` over its whole range: `store` writes
/// `memref[i]` (or `memref[cast(i)]`) each iteration with a value computed
/// by `slice` (in order) from i, values from outside the loop, and loads
/// of `reads`, which the loop does not write.
struct FilledRange {
  scf::ForOp loop;
  memref::StoreOp store;
  SmallVector<Operation *> slice;
  SmallVector<Value> reads;
};

/// The counter `index` is, through at most one cast: the value and the
/// cast (null if none).
static std::pair<Value, Operation *> counterOf(Value index) {
  Operation *cast = index.getDefiningOp();
  if (cast && isa<arith::IndexCastOp, arith::IndexCastUIOp>(cast))
    return {cast->getOperand(0), cast};
  return {index, nullptr};
}

/// What a loop's body writes: the whole body's, and each of its ops'
/// (with what is nested in them), computed once for all its stores.
struct BodyWrites {
  ad::MemoryWrites loop;
  SmallVector<std::pair<Operation *, ad::MemoryWrites>> ops;

  BodyWrites(scf::ForOp forOp, ad::MemoryFacts &facts) : loop(forOp, &facts) {
    for (Operation &op : *forOp.getBody())
      ops.emplace_back(&op, ad::MemoryWrites(&op, &facts));
  }
};

/// The loop `store` fills its memref over, if it is one (see FilledRange).
static std::optional<FilledRange> asFilledRange(memref::StoreOp store,
                                                const BodyWrites &writes) {
  auto loop = cast<scf::ForOp>(store->getParentOp());
  auto [counter, cast] = counterOf(store.getIndices()[0]);
  if (counter != loop.getInductionVar())
    return std::nullopt;
  // The stored value's computation, within the body.
  FilledRange fill{loop, store, {}, {}};
  SetVector<Operation *> slice;
  SmallVector<Value> worklist{store.getValueToStore()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (value != loop.getInductionVar() &&
          loop->isAncestor(arg.getOwner()->getParentOp()))
        return std::nullopt; // another block argument inside the loop
      continue;
    }
    if (!loop->isAncestor(def))
      continue;
    if (def->getBlock() != loop.getBody() || def->getNumRegions() != 0)
      return std::nullopt;
    if (auto load = dyn_cast<memref::LoadOp>(def)) {
      if (writes.loop.mayChange(load.getMemRef()))
        return std::nullopt;
      fill.reads.push_back(load.getMemRef());
    } else if (!isMemoryEffectFree(def)) {
      return std::nullopt;
    }
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  // The only write to the memref in the loop, on every iteration.
  for (auto &[op, opWrites] : writes.ops)
    if (op != store && opWrites.mayChange(store.getMemRef()))
      return std::nullopt;
  // The slice in the body's order (its ops are all in the body).
  for (Operation &op : *loop.getBody())
    if (slice.contains(&op))
      fill.slice.push_back(&op);
  return fill;
}

/// The stores of `loop`'s body that fill their memref (see FilledRange).
static SmallVector<FilledRange> filledRangesOf(scf::ForOp loop,
                                               ad::MemoryFacts &facts) {
  SmallVector<FilledRange> filled;
  if (loop.getNumRegionIterArgs() != 0 ||
      !matchPattern(loop.getStep(), m_One()))
    return filled;
  std::optional<BodyWrites> writes;
  for (auto store : loop.getBody()->getOps<memref::StoreOp>()) {
    if (store.getIndices().size() != 1)
      continue;
    if (!writes)
      writes.emplace(loop, facts);
    if (std::optional<FilledRange> fill = asFilledRange(store, *writes))
      filled.push_back(std::move(*fill));
  }
  return filled;
}

/// `load`'s value computed again, if it reads an element `fill` wrote: its
/// index is a counter of a loop around it over the same range.
static Value recompute(memref::LoadOp load, FilledRange &fill) {
  if (load.getMemRef() != fill.store.getMemRef() ||
      load.getIndices().size() != 1)
    return nullptr;
  auto [counter, cast] = counterOf(load.getIndices()[0]);
  auto [filledCounter, filledCast] = counterOf(fill.store.getIndices()[0]);
  auto arg = dyn_cast<BlockArgument>(counter);
  auto loop =
      arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()) : scf::ForOp();
  if (!loop || loop.getInductionVar() != counter ||
      counter.getType() != filledCounter.getType() ||
      (cast == nullptr) != (filledCast == nullptr) ||
      (cast && (cast->getName() != filledCast->getName() ||
                cast->getResultTypes() != filledCast->getResultTypes())))
    return nullptr;
  auto same = [](Value a, Value b) {
    return a == b || (getConstantIntValue(a) &&
                      getConstantIntValue(a) == getConstantIntValue(b));
  };
  if (!same(loop.getLowerBound(), fill.loop.getLowerBound()) ||
      !same(loop.getUpperBound(), fill.loop.getUpperBound()) ||
      !matchPattern(loop.getStep(), m_One()))
    return nullptr;
  OpBuilder b(load);
  IRMapping mapping;
  mapping.map(fill.loop.getInductionVar(), counter);
  for (Operation *op : fill.slice)
    b.clone(*op, mapping);
  // (A value from before the loop, such as the zero of a fill, is itself.)
  return mapping.lookupOrDefault(fill.store.getValueToStore());
}

/// What forwarding keeps for a whole function: memory facts, valid while
/// no value is erased (a new value could take an erased one's place), so
/// the loads it replaces are erased at the end.
struct Forwarding {
  ad::MemoryFacts facts;
  SmallVector<Operation *> erased;
};

void forwardIn(Block &block, ad::KnownElements &known,
               SmallVector<FilledRange> filled, Forwarding &forwarding);

/// Forwards in the regions of `op`, each starting with what is known and
/// filled now (rolled back after it).
void forwardInRegions(Operation &op, ad::KnownElements &known,
                      const SmallVector<FilledRange> &filled,
                      Forwarding &forwarding) {
  bool isolated = op.hasTrait<OpTrait::IsIsolatedFromAbove>();
  for (Region &region : op.getRegions())
    for (Block &nested : region) {
      if (isolated || !nested.isEntryBlock()) {
        ad::KnownElements nothing(forwarding.facts);
        forwardIn(nested, nothing, {}, forwarding);
        continue;
      }
      ad::KnownElements::Mark mark = known.mark();
      forwardIn(nested, known, filled, forwarding);
      known.rollback(mark);
    }
}

void forwardIn(Block &block, ad::KnownElements &known,
               SmallVector<FilledRange> filled, Forwarding &forwarding) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value contents = known.lookup(load.getMemRef(), load.getIndices());
      Value again;
      for (FilledRange &fill : filled)
        if (!again && !contents)
          again = recompute(load, fill);
      if (again) {
        LLVM_DEBUG(llvm::dbgs()
                   << "[" DEBUG_TYPE "] " << "the load at " << load.getLoc()
                   << " is recomputed from the filled range" << "\n");
        load.replaceAllUsesWith(again);
        forwarding.erased.push_back(load);
      } else if (contents) {
        LLVM_DEBUG(llvm::dbgs()
                   << "[" DEBUG_TYPE "] " << "the load at " << load.getLoc()
                   << " is the value stored or loaded before it" << "\n");
        load.replaceAllUsesWith(contents);
        forwarding.erased.push_back(load);
      } else {
        known.learn(load.getMemRef(), load.getIndices(), load.getResult());
      }
      continue;
    }
    if (ad::neverWritesMemory(&op))
      continue;
    ad::MemoryWrites writes(&op, &forwarding.facts);
    auto store = dyn_cast<memref::StoreOp>(op);
    auto refilled = [&](FilledRange &fill) {
      return writes.mayChange(fill.store.getMemRef()) ||
             llvm::any_of(fill.reads,
                          [&](Value read) { return writes.mayChange(read); });
    };
    // A branch starts with what is known before it; a loop body (or any
    // other region, which may run repeatedly) with what the op leaves alone.
    if (ad::isBranch(&op)) {
      forwardInRegions(op, known, filled, forwarding);
      known.forget(writes, store);
      llvm::erase_if(filled, refilled);
    } else {
      known.forget(writes, store);
      llvm::erase_if(filled, refilled);
      forwardInRegions(op, known, filled, forwarding);
    }
    if (store)
      known.learn(store.getMemRef(), store.getIndices(),
                  store.getValueToStore());
    // A loop that fills memory (its stores, directly in its body).
    if (auto loop = dyn_cast<scf::ForOp>(op))
      llvm::append_range(filled, filledRangesOf(loop, forwarding.facts));
  }
}

struct ForwardStoresPass : ad::impl::ForwardStoresBase<ForwardStoresPass> {
  void runOnOperation() override { ad::forwardStores(getOperation()); }
};

} // namespace

void ad::forwardStores(Operation *root) {
  Forwarding forwarding;
  for (Region &region : root->getRegions())
    for (Block &block : region) {
      ad::KnownElements nothing(forwarding.facts);
      forwardIn(block, nothing, {}, forwarding);
    }
  for (Operation *load : forwarding.erased)
    load->erase();
}
