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

/// An element whose contents are known as an SSA value.
struct KnownElement {
  Value memref;
  SmallVector<Value> indices;
  Value contents;

  bool matches(memref::LoadOp load) const {
    return memref == load.getMemRef() &&
           llvm::equal(indices, load.getIndices());
  }
  /// Whether `store` writes another element of the same memref: at a
  /// constant index that differs from this one's (a struct's other field).
  bool isOtherElement(memref::StoreOp store) const {
    if (store.getMemRef() != memref)
      return false;
    for (auto [mine, theirs] : llvm::zip(indices, store.getIndices())) {
      std::optional<int64_t> a = getConstantIntValue(mine);
      std::optional<int64_t> b = getConstantIntValue(theirs);
      if (a && b && *a != *b)
        return true;
    }
    return false;
  }
};

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

/// The loop `store` fills its memref over, if it is one (see FilledRange).
static std::optional<FilledRange> asFilledRange(memref::StoreOp store) {
  auto loop = dyn_cast<scf::ForOp>(store->getParentOp());
  if (!loop || loop.getNumRegionIterArgs() != 0 ||
      store.getIndices().size() != 1 || !matchPattern(loop.getStep(), m_One()))
    return std::nullopt;
  auto [counter, cast] = counterOf(store.getIndices()[0]);
  if (counter != loop.getInductionVar())
    return std::nullopt;
  // The stored value's computation, within the body.
  FilledRange fill{loop, store, {}, {}};
  ad::MemoryWrites loopWrites(loop);
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
      if (loopWrites.mayChange(load.getMemRef()))
        return std::nullopt;
      fill.reads.push_back(load.getMemRef());
    } else if (!isMemoryEffectFree(def)) {
      return std::nullopt;
    }
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  // The only write to the memref in the loop, on every iteration.
  bool otherWriter = false;
  loop.getBody()->walk([&](Operation *op) {
    if (op != store && !ad::neverWritesMemory(op) &&
        ad::MemoryWrites(op).mayChange(store.getMemRef()) &&
        !isa<memref::LoadOp>(op))
      otherWriter = true;
  });
  if (otherWriter)
    return std::nullopt;
  fill.slice = llvm::to_vector(slice);
  llvm::sort(fill.slice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return fill;
}

/// `load`'s value computed again, if it reads an element `fill` wrote: its
/// index is a counter of a loop around it over the same range.
static Value recompute(memref::LoadOp load, FilledRange fill) {
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

void forwardIn(Block &block, SmallVector<KnownElement> known,
               SmallVector<FilledRange> filled) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      auto *element = llvm::find_if(
          known, [&](const KnownElement &e) { return e.matches(load); });
      Value again;
      for (FilledRange &fill : filled)
        if (!again && element == known.end())
          again = recompute(load, fill);
      if (again) {
        LLVM_DEBUG(llvm::dbgs()
                   << "[" DEBUG_TYPE "] " << "the load at " << load.getLoc()
                   << " is recomputed from the filled range" << "\n");
        load.replaceAllUsesWith(again);
        load.erase();
      } else if (element != known.end()) {
        LLVM_DEBUG(llvm::dbgs()
                   << "[" DEBUG_TYPE "] " << "the load at " << load.getLoc()
                   << " is the value stored or loaded before it" << "\n");
        load.replaceAllUsesWith(element->contents);
        load.erase();
      } else {
        known.push_back({load.getMemRef(),
                         llvm::to_vector(ValueRange(load.getIndices())),
                         load.getResult()});
      }
      continue;
    }
    if (ad::neverWritesMemory(&op))
      continue;
    ad::MemoryWrites writes(&op);
    auto store = dyn_cast<memref::StoreOp>(op);
    auto changed = [&](const KnownElement &e) {
      return !(store && e.isOtherElement(store)) && writes.mayChange(e.memref);
    };
    auto refilled = [&](FilledRange &fill) {
      return writes.mayChange(fill.store.getMemRef()) ||
             llvm::any_of(fill.reads,
                          [&](Value read) { return writes.mayChange(read); });
    };
    // A branch starts with what is known before it; a loop body (or any
    // other region, which may run repeatedly) with what the op leaves alone.
    SmallVector<KnownElement> inside = known;
    SmallVector<FilledRange> filledInside = filled;
    if (op.hasTrait<OpTrait::IsIsolatedFromAbove>()) {
      inside.clear();
      filledInside.clear();
    } else if (!ad::isBranch(&op)) {
      llvm::erase_if(inside, changed);
      llvm::erase_if(filledInside, refilled);
    }
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        forwardIn(nested,
                  nested.isEntryBlock() ? inside : SmallVector<KnownElement>{},
                  nested.isEntryBlock() ? filledInside
                                        : SmallVector<FilledRange>{});
    llvm::erase_if(known, changed);
    llvm::erase_if(filled, refilled);
    if (store)
      known.push_back({store.getMemRef(),
                       llvm::to_vector(ValueRange(store.getIndices())),
                       store.getValueToStore()});
    // A loop that fills memory (its stores, directly in its body).
    if (auto loop = dyn_cast<scf::ForOp>(op))
      for (auto store : loop.getBody()->getOps<memref::StoreOp>())
        if (std::optional<FilledRange> fill = asFilledRange(store))
          filled.push_back(std::move(*fill));
  }
}

struct ForwardStoresPass : ad::impl::ForwardStoresBase<ForwardStoresPass> {
  void runOnOperation() override { ad::forwardStores(getOperation()); }
};

} // namespace

void ad::forwardStores(Operation *root) {
  for (Region &region : root->getRegions())
    for (Block &block : region)
      forwardIn(block, {}, {});
}
