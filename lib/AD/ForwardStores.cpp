//===- ForwardStores.cpp - Loads of what was just stored or loaded --------===//
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
//===----------------------------------------------------------------------===//

#include "cotangent/AD/Passes.h"
#include "Derivatives.h"
#include "MemoryWrites.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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
};

void forwardIn(Block &block, SmallVector<KnownElement> known) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      auto *element = llvm::find_if(
          known, [&](const KnownElement &e) { return e.matches(load); });
      if (element != known.end()) {
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
    auto changed = [&](const KnownElement &e) {
      return writes.mayChange(e.memref);
    };
    // A branch starts with what is known before it; a loop body (or any
    // other region, which may run repeatedly) with what the op leaves alone.
    SmallVector<KnownElement> inside = known;
    if (op.hasTrait<OpTrait::IsIsolatedFromAbove>())
      inside.clear();
    else if (!isa<scf::IfOp, scf::IndexSwitchOp>(op))
      llvm::erase_if(inside, changed);
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        forwardIn(nested, nested.isEntryBlock() ? inside
                                                : SmallVector<KnownElement>{});
    llvm::erase_if(known, changed);
    if (auto store = dyn_cast<memref::StoreOp>(op))
      known.push_back({store.getMemRef(),
                       llvm::to_vector(ValueRange(store.getIndices())),
                       store.getValueToStore()});
  }
}

struct ForwardStoresPass : ad::impl::ForwardStoresBase<ForwardStoresPass> {
  void runOnOperation() override { ad::forwardStores(getOperation()); }
};

} // namespace

void ad::forwardStores(Operation *root) {
  for (Region &region : root->getRegions())
    for (Block &block : region)
      forwardIn(block, {});
}
