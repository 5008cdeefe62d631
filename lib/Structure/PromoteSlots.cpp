//===- PromoteSlots.cpp - Stack slots to SSA values in one walk -----------===//
//
// The frontend gives every C++ local a stack slot (a memref.alloca at the
// function entry) and reads and writes it with loads and stores, as Clang's
// code generation does with allocas. This pass is classic SSA construction
// (Cytron et al.: block arguments at the iterated dominance frontier of the
// stores, pruned by liveness, then one renaming walk over the dominator
// tree), done for all slots together:
//
//  1. one walk over the ops records, per slot, the blocks that store it and
//     the blocks that read it before storing it;
//  2. dominance frontiers are computed once for the region; per slot, the
//     blocks where it is live on entry and the merge blocks that need an
//     argument follow from those few blocks;
//  3. one preorder walk over the dominator tree replaces each load by the
//     slot's current value, with an undo log to restore the values when it
//     leaves a subtree, and appends the current values to the branches into
//     merge blocks.
//
// Upstream mem2reg promotes one slot at a time and visits every op of the
// region for each, which is slots x ops: seconds on a function of 16,000
// statements, whose slots grow with its size (a counter per loop).
//
//===----------------------------------------------------------------------===//

#include "cotangent/Structure/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-promote-slots"

namespace cotangent::structure {
#define GEN_PASS_DEF_PROMOTESLOTS
#include "cotangent/Structure/Passes.h.inc"
} // namespace cotangent::structure

using namespace mlir;

namespace {

/// Allocations with more elements are arrays, indexed in loops: promoting
/// each element would only add block arguments. Structs and short fixed
/// arrays (a 3-vector, a 4x4 matrix) are below this.
constexpr int64_t kMaxPromotedElements = 64;

/// One element of a promoted allocation.
struct Slot {
  Type type;
  Location loc;
  /// Blocks with a store to the slot, and the allocation's block (where its
  /// value starts undefined).
  SmallVector<Block *, 4> definingBlocks;
  /// Blocks that read the slot before any store in the same block.
  SmallVector<Block *, 4> readingBlocks;
};

class SlotPromoter {
public:
  explicit SlotPromoter(Region &region) : region(region) {}

  /// Promotes what it can; false if the region's branches cannot take new
  /// operands (then nothing is changed).
  bool run();

private:
  void findSlots();
  /// The slot a load or store accesses, or -1.
  int slotOf(Value memref, ValueRange indices) const;
  void recordAccesses();
  void computeDominanceFrontiers(DominanceInfo &dominance);
  void placeBlockArguments();
  void rename(DominanceInfo &dominance);
  void renameBlock(Block *block);
  Value currentValue(unsigned slot);
  void setCurrent(unsigned slot, Value value);

  Region &region;
  SmallVector<Slot> slots;
  /// The first slot of each promoted allocation; its elements follow.
  DenseMap<Value, unsigned> firstSlot;
  SmallVector<memref::AllocaOp> allocations;
  DenseMap<Block *, SmallVector<Block *, 2>> frontiers;
  /// Per merge block, the slots it receives as (new) block arguments.
  DenseMap<Block *, SmallVector<std::pair<unsigned, BlockArgument>, 4>>
      blockArguments;
  SmallVector<Value> current;
  SmallVector<std::pair<unsigned, Value>> undoLog;
  DenseMap<Type, Value> zeros;
};

} // namespace

static bool isPromotableAllocation(memref::AllocaOp alloca, Region &region) {
  MemRefType type = alloca.getType();
  if (!type.hasStaticShape() || type.getRank() > 1 ||
      !type.getLayout().isIdentity() || type.getNumElements() < 1 ||
      type.getNumElements() > kMaxPromotedElements ||
      !isa<FloatType, IntegerType, IndexType>(type.getElementType()))
    return false;
  Value memref = alloca.getResult();
  auto constantInRange = [&](ValueRange indices) {
    if (indices.empty())
      return true;
    std::optional<int64_t> index = getConstantIntValue(indices.front());
    return index && *index >= 0 && *index < type.getNumElements();
  };
  return llvm::all_of(memref.getUsers(), [&](Operation *user) {
    if (user->getParentRegion() != &region)
      return false;
    if (auto load = dyn_cast<memref::LoadOp>(user))
      return constantInRange(load.getIndices());
    if (auto store = dyn_cast<memref::StoreOp>(user))
      return store.getValueToStore() != memref &&
             constantInRange(store.getIndices());
    return false;
  });
}

void SlotPromoter::findSlots() {
  for (Block &block : region)
    for (auto alloca : block.getOps<memref::AllocaOp>()) {
      if (!isPromotableAllocation(alloca, region))
        continue;
      firstSlot[alloca.getResult()] = slots.size();
      allocations.push_back(alloca);
      for (int64_t i = 0, e = alloca.getType().getNumElements(); i < e; ++i)
        slots.push_back(
            Slot{alloca.getType().getElementType(), alloca.getLoc(), {}, {}});
    }
}

int SlotPromoter::slotOf(Value memref, ValueRange indices) const {
  auto it = firstSlot.find(memref);
  if (it == firstSlot.end())
    return -1;
  if (indices.empty())
    return it->second;
  return it->second + *getConstantIntValue(indices.front());
}

void SlotPromoter::recordAccesses() {
  // The last block that stored each slot, and the last one recorded as
  // reading or defining it: one walk, no per-block sets.
  SmallVector<Block *> storedIn(slots.size(), nullptr);
  auto define = [&](unsigned slot, Block *block) {
    if (storedIn[slot] != block)
      slots[slot].definingBlocks.push_back(block);
    storedIn[slot] = block;
  };
  for (Block &block : region)
    for (Operation &op : block) {
      if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
        auto it = firstSlot.find(alloca.getResult());
        if (it != firstSlot.end())
          for (int64_t i = 0, e = alloca.getType().getNumElements(); i < e; ++i)
            define(it->second + i, &block);
      } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
        int slot = slotOf(load.getMemRef(), load.getIndices());
        if (slot < 0 || storedIn[slot] == &block)
          continue;
        SmallVector<Block *, 4> &reading = slots[slot].readingBlocks;
        if (reading.empty() || reading.back() != &block)
          reading.push_back(&block);
      } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
        int slot = slotOf(store.getMemRef(), store.getIndices());
        if (slot >= 0)
          define(slot, &block);
      }
    }
}

void SlotPromoter::computeDominanceFrontiers(DominanceInfo &dominance) {
  // Cooper, Harvey and Kennedy: walk up from each predecessor of a merge
  // block to its immediate dominator.
  auto &tree = dominance.getDomTree(&region);
  for (Block &block : region) {
    if (block.hasNoPredecessors() || block.getSinglePredecessor())
      continue;
    Block *idom = tree.getNode(&block)->getIDom()->getBlock();
    for (Block *predecessor : block.getPredecessors())
      for (Block *runner = predecessor; runner != idom;
           runner = tree.getNode(runner)->getIDom()->getBlock()) {
        SmallVector<Block *, 2> &frontier = frontiers[runner];
        if (!llvm::is_contained(frontier, &block))
          frontier.push_back(&block);
      }
  }
}

void SlotPromoter::placeBlockArguments() {
  for (auto [index, slot] : llvm::enumerate(slots)) {
    if (slot.readingBlocks.empty())
      continue;
    // Live on entry: reading blocks, and their predecessors up to stores.
    llvm::DenseSet<Block *> defining(slot.definingBlocks.begin(),
                                     slot.definingBlocks.end());
    llvm::DenseSet<Block *> liveIn(slot.readingBlocks.begin(),
                                   slot.readingBlocks.end());
    SmallVector<Block *> worklist(slot.readingBlocks.begin(),
                                  slot.readingBlocks.end());
    while (!worklist.empty()) {
      Block *block = worklist.pop_back_val();
      for (Block *predecessor : block->getPredecessors())
        if (!defining.contains(predecessor) &&
            liveIn.insert(predecessor).second)
          worklist.push_back(predecessor);
    }
    // The iterated dominance frontier of the stores, where live.
    llvm::DenseSet<Block *> visited;
    worklist.assign(slot.definingBlocks.begin(), slot.definingBlocks.end());
    while (!worklist.empty()) {
      Block *block = worklist.pop_back_val();
      auto it = frontiers.find(block);
      if (it == frontiers.end())
        continue;
      for (Block *merge : it->second) {
        if (!liveIn.contains(merge) || !visited.insert(merge).second)
          continue;
        blockArguments[merge].emplace_back(
            index, merge->addArgument(slot.type, slot.loc));
        if (!defining.contains(merge))
          worklist.push_back(merge);
      }
    }
  }
}

Value SlotPromoter::currentValue(unsigned slot) {
  if (Value value = current[slot])
    return value;
  // Read before any store: C++ reads an indeterminate value; zero is one.
  Type type = slots[slot].type;
  Value &zero = zeros[type];
  if (!zero) {
    OpBuilder builder = OpBuilder::atBlockBegin(&region.front());
    zero = arith::ConstantOp::create(
        builder, region.getLoc(), cast<TypedAttr>(builder.getZeroAttr(type)));
  }
  return zero;
}

void SlotPromoter::setCurrent(unsigned slot, Value value) {
  undoLog.emplace_back(slot, current[slot]);
  current[slot] = value;
}

void SlotPromoter::renameBlock(Block *block) {
  auto arguments = blockArguments.find(block);
  if (arguments != blockArguments.end())
    for (auto [slot, argument] : arguments->second)
      setCurrent(slot, argument);
  for (Operation &op : llvm::make_early_inc_range(*block)) {
    if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      auto it = firstSlot.find(alloca.getResult());
      if (it != firstSlot.end())
        for (int64_t i = 0, e = alloca.getType().getNumElements(); i < e; ++i)
          setCurrent(it->second + i, Value());
    } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
      int slot = slotOf(load.getMemRef(), load.getIndices());
      if (slot < 0)
        continue;
      load.getResult().replaceAllUsesWith(currentValue(slot));
      load.erase();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      int slot = slotOf(store.getMemRef(), store.getIndices());
      if (slot < 0)
        continue;
      setCurrent(slot, store.getValueToStore());
      store.erase();
    }
  }
  Operation *terminator = block->getTerminator();
  for (auto [index, successor] : llvm::enumerate(terminator->getSuccessors())) {
    auto it = blockArguments.find(successor);
    if (it == blockArguments.end())
      continue;
    SuccessorOperands operands =
        cast<BranchOpInterface>(terminator).getSuccessorOperands(index);
    for (auto [slot, argument] : it->second)
      operands.append(currentValue(slot));
  }
}

void SlotPromoter::rename(DominanceInfo &dominance) {
  current.assign(slots.size(), Value());
  if (region.hasOneBlock()) {
    renameBlock(&region.front());
    return;
  }
  // Preorder over the dominator tree without recursion (the tree of a long
  // function is as deep as it has blocks); the undo log restores each
  // slot's value when the walk leaves a subtree.
  using Node = llvm::DomTreeNodeBase<Block>;
  struct Frame {
    Node *node;
    size_t undoMark;
    Node::iterator nextChild;
  };
  Node *root = dominance.getDomTree(&region).getRootNode();
  renameBlock(root->getBlock());
  SmallVector<Frame> stack{{root, 0, root->begin()}};
  while (!stack.empty()) {
    Frame &frame = stack.back();
    if (frame.nextChild == frame.node->end()) {
      for (size_t i = undoLog.size(); i > frame.undoMark; --i)
        current[undoLog[i - 1].first] = undoLog[i - 1].second;
      undoLog.truncate(frame.undoMark);
      stack.pop_back();
      continue;
    }
    Node *child = *frame.nextChild++;
    size_t mark = undoLog.size();
    renameBlock(child->getBlock());
    stack.push_back({child, mark, child->begin()});
  }
}

bool SlotPromoter::run() {
  for (Block &block : region) {
    Operation *terminator = block.empty() ? nullptr : &block.back();
    if (!terminator || !terminator->hasTrait<OpTrait::IsTerminator>() ||
        (terminator->getNumSuccessors() && !isa<BranchOpInterface>(terminator)))
      return false;
  }
  findSlots();
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << slots.size()
                          << " slots to promote in "
                          << region.getParentOp()->getLoc() << "\n");
  if (slots.empty())
    return true;
  recordAccesses();
  DominanceInfo dominance;
  if (!region.hasOneBlock()) {
    computeDominanceFrontiers(dominance);
    placeBlockArguments();
  }
  rename(dominance);
  for (memref::AllocaOp alloca : allocations)
    alloca.erase();
  return true;
}

namespace {

struct PromoteSlotsPass
    : public cotangent::structure::impl::PromoteSlotsBase<PromoteSlotsPass> {
  void runOnOperation() override {
    FunctionOpInterface function = getOperation();
    if (function.isExternal())
      return;
    Region &body = function.getFunctionBody();
    // Blocks no path reaches are outside the dominator tree.
    IRRewriter rewriter(&getContext());
    (void)eraseUnreachableBlocks(rewriter, body);
    SlotPromoter(body).run();
  }
};

} // namespace
