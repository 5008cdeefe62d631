//===- LoopCleanup.cpp - Marked loops simplified before the check ---------===//

#include "Parallel/LoopCleanup.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace cotangent;

void ad::promoteLoopCarriedSlots(scf::ForOp loop) {
  llvm::SetVector<Value> slots;
  loop.getBody()->walk([&](Operation *op) {
    Value memref;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      memref = store.getMemRef();
    if (memref && memref.getDefiningOp<memref::AllocaOp>() &&
        cast<MemRefType>(memref.getType()).getRank() == 0 &&
        !loop->isAncestor(memref.getDefiningOp()))
      slots.insert(memref);
  });
  auto onlyDirectAccesses = [&](Value slot) {
    return llvm::all_of(slot.getUsers(), [&](Operation *user) {
      bool access = (isa<memref::LoadOp>(user)) ||
                    (isa<memref::StoreOp>(user) &&
                     cast<memref::StoreOp>(user).getMemRef() == slot);
      return access &&
             (!loop->isAncestor(user) || user->getBlock() == loop.getBody());
    });
  };
  SmallVector<Value> promoted;
  for (Value slot : slots)
    if (onlyDirectAccesses(slot))
      promoted.push_back(slot);
  if (promoted.empty())
    return;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits;
  for (Value slot : promoted)
    inits.push_back(memref::LoadOp::create(b, loc, slot));
  IRRewriter rewriter(loop.getContext());
  auto yieldValues = [&](OpBuilder &, Location,
                         ArrayRef<BlockArgument>) -> SmallVector<Value> {
    return SmallVector<Value>(inits);
  };
  FailureOr<LoopLikeOpInterface> grown =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(rewriter, inits,
                                       /*replaceInitOperandUsesInLoop=*/false,
                                       yieldValues);
  if (failed(grown))
    return;
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  unsigned first = newLoop.getNumRegionIterArgs() - promoted.size();
  Block *body = newLoop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (auto [k, slot] : llvm::enumerate(promoted)) {
    Value current = newLoop.getRegionIterArgs()[first + k];
    for (Operation &op :
         llvm::make_early_inc_range(body->without_terminator())) {
      if (auto load = dyn_cast<memref::LoadOp>(op);
          load && load.getMemRef() == slot) {
        load.replaceAllUsesWith(current);
        load.erase();
      } else if (auto store = dyn_cast<memref::StoreOp>(op);
                 store && store.getMemRef() == slot) {
        current = store.getValueToStore();
        store.erase();
      }
    }
    yield->setOperand(first + k, current);
    OpBuilder after(newLoop->getBlock(), ++Block::iterator(newLoop));
    memref::StoreOp::create(after, loc, newLoop.getResult(first + k), slot);
  }
}

void ad::passThroughUnusedCarriedValues(ArrayRef<scf::ForOp> loops) {
  using Position = std::pair<Operation *, unsigned>;
  llvm::DenseSet<Position> unused;
  for (scf::ForOp loop : loops)
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
      unused.insert({loop, i});
  auto yieldPosition = [](OpOperand &use) -> std::optional<Position> {
    if (!isa<scf::YieldOp>(use.getOwner()))
      return std::nullopt;
    auto loop = dyn_cast<scf::ForOp>(use.getOwner()->getParentOp());
    if (!loop)
      return std::nullopt;
    return Position{loop, use.getOperandNumber()};
  };
  auto stays = [&](scf::ForOp loop, unsigned i) {
    for (OpOperand &use : loop.getResult(i).getUses()) {
      std::optional<Position> at = yieldPosition(use);
      if (!at || !unused.contains(*at))
        return false;
    }
    BlockArgument arg = loop.getRegionIterArgs()[i];
    Value yielded = loop.getYieldedValues()[i];
    for (OpOperand &use : arg.getUses()) {
      Operation *user = use.getOwner();
      if (std::optional<Position> at = yieldPosition(use);
          at && *at == Position{loop, i})
        continue;
      if (auto nested = dyn_cast<scf::ForOp>(user);
          nested && use.getOperandNumber() >= nested.getNumControlOperands() &&
          unused.contains({nested, use.getOperandNumber() -
                                       nested.getNumControlOperands()}))
        continue;
      // Only computing its own next value.
      if (isPure(user) && user->getNumResults() == 1 &&
          user->getResult(0) == yielded && yielded.hasOneUse())
        continue;
      return false;
    }
    return true;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (scf::ForOp loop : loops)
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
        if (unused.contains({loop, i}) && !stays(loop, i)) {
          unused.erase({loop, i});
          changed = true;
        }
  }
  for (auto [op, i] : unused) {
    auto loop = cast<scf::ForOp>(op);
    loop.getBody()->getTerminator()->setOperand(i, loop.getRegionIterArgs()[i]);
  }
}

/// Whether `a` and `b` access the same element: the same memref at the
/// same index values.
static bool sameElement(Value memrefA, ValueRange indicesA, Value memrefB,
                        ValueRange indicesB) {
  return memrefA == memrefB && indicesA == indicesB;
}

void ad::eraseRedundantStores(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store)
      continue;
    // Overwritten before anything reads memory.
    for (Operation *next = store->getNextNode(); next;
         next = next->getNextNode()) {
      if (auto later = dyn_cast<memref::StoreOp>(next)) {
        if (sameElement(store.getMemRef(), store.getIndices(),
                        later.getMemRef(), later.getIndices())) {
          store.erase();
          break;
        }
        continue;
      }
      if (!isMemoryEffectFree(next))
        break;
    }
  }
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto store = dyn_cast<memref::StoreOp>(op);
    auto load = store ? store.getValueToStore().getDefiningOp<memref::LoadOp>()
                      : nullptr;
    if (!load || load->getBlock() != &block ||
        !sameElement(store.getMemRef(), store.getIndices(), load.getMemRef(),
                     load.getIndices()))
      continue;
    bool written = false;
    for (Operation *at = load->getNextNode(); at != store.getOperation();
         at = at->getNextNode())
      if (!isMemoryEffectFree(at) && !isa<memref::LoadOp>(at))
        written = true;
    if (!written)
      store.erase();
  }
}
