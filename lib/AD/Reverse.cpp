//===- Reverse.cpp - Reverse-mode differentiation -------------------------===//
//
// A forward sweep re-executes the primal; a reverse sweep then walks every
// block backwards and propagates adjoints from results to operands.
//
// * Adjoints of scalars live in one stack slot (memref<T>) each, accumulated
//   with `+=` and zeroed when consumed, so that loops, branches and values
//   used in several iterations need no special plumbing; LLVM promotes the
//   slots to registers after lowering.
// * Each primal block is a *level*. The reverse code of a level can use the
//   forward values of that level directly only in the body of a combined
//   pullback (same block, dominated), or of an iteration reversed in place.
//   Elsewhere - loop bodies, branches, and the body of a callee split into
//   fwd/rev halves - a value the reverse code needs is pushed on the tape at
//   the end of the forward block and popped at the start of the reverse
//   block: pushes in order of first need, pops in the opposite order, so
//   nested levels interleave as a stack. (A branch inside a direct level
//   passes the value out as a result instead.)
//   Constants are rematerialised, induction variables recomputed from the
//   reversed loop's counter, and memref views recomputed from their sources.
// * Loops run backwards over their trip count (scf.for) or the iteration
//   count recorded by the forward sweep (scf.while).
// * Calls run the callee's fwd half in the forward sweep and its rev half in
//   the reverse sweep, sharing the caller's tape; recursion needs nothing
//   more. A custom gradient replaces both halves. A call whose result's
//   adjoint is known before it runs calls the callee's pullback instead.
// * A loop that sums terms the result uses linearly is undone iteration by
//   iteration in the forward sweep (docs/AD.md, "Loops reversed in place").
//
//===----------------------------------------------------------------------===//

#include "Derivatives.h"
#include "IterationKills.h"
#include "LinearResults.h"

#include "cotangent/AD/ScalarDerivativeOpInterface.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/SaveAndRestore.h"

#include <map>

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

/// The reverse-sweep side of one primal block.
struct Level {
  /// The forward clone of the block; pushes go before its terminator.
  Block *forward = nullptr;
  /// The block holding the reverse code; pops go to its start.
  Block *reverse = nullptr;
  /// Set-up code of the reverse block (shadow allocations, recomputed views)
  /// goes before this op, after every pop.
  Operation *anchor = nullptr;
  /// Forward values are directly usable by the reverse code.
  bool direct = false;
  /// The block reruns the iteration a recomputed loop undoes (its forward
  /// ops are recorded, so branches in it are not rebuilt).
  bool rerun = false;
  /// Primal value -> its value in the reverse block.
  DenseMap<Value, Value> values;
  /// Primal memory -> its shadow, usable in the reverse block.
  DenseMap<Value, Value> shadows;
};

class ReverseEmitter {
public:
  ReverseEmitter(DerivativeRegistry &registry, func::FuncOp primal,
                 ArrayRef<ct::Activity> activities)
      : registry(registry), primal(primal),
        activities(activities.begin(), activities.end()),
        activity(primal, activities) {}

  /// Fails on a store whose derivative would be lost: an active value
  /// stored into memory without a shadow (memory the caller declared
  /// constant), from where it is read back.
  LogicalResult checkStoresIntoConstantMemory();
  LogicalResult emitCombined(func::FuncOp pullback);
  LogicalResult emitSplit(func::FuncOp forward, func::FuncOp reverse);

private:
  // Forward sweep.
  LogicalResult forwardBlock(OpBuilder &b, Block &block);
  LogicalResult forwardOp(OpBuilder &b, Operation &op);
  LogicalResult forwardFor(OpBuilder &b, scf::ForOp op);
  /// The adjoint of `call`'s result if it is known before the call runs
  /// and the callee's pullback may run there; null otherwise.
  Value buildEagerSeed(OpBuilder &b, func::CallOp call);
  /// Calls the callee's combined pullback with `seed` in the forward
  /// sweep; false (and nothing emitted) if a shadow it needs is missing.
  bool forwardEagerCall(OpBuilder &b, func::CallOp call, Value seed);
  /// The shadow of memory `value` as the forward code sees it, or null.
  Value shadowInForward(OpBuilder &b, Value value);
  /// Reverses the iteration of eager loop `op` that the forward code just
  /// before `b` ran, given the adjoints of the loop's results.
  LogicalResult reverseIterationInPlace(OpBuilder &b, scf::ForOp op,
                                        const DenseMap<Value, Value> &adjoints);
  void forwardShadowOf(OpBuilder &b, Operation &op);
  // Reverse sweep.
  LogicalResult reverseBlock(OpBuilder &b, Block &block);
  LogicalResult reverseOp(OpBuilder &b, Operation &op);
  LogicalResult reverseScalar(OpBuilder &b, Operation &op,
                              ScalarDerivativeOpInterface rule);
  LogicalResult reverseFor(OpBuilder &b, scf::ForOp op);
  /// scf.if and scf.index_switch.
  LogicalResult reverseBranch(OpBuilder &b, Operation *op);
  void reserveTape(scf::ForOp op);
  LogicalResult reverseWhile(OpBuilder &b, scf::WhileOp op);
  LogicalResult reverseCall(OpBuilder &b, func::CallOp op);
  bool needsReverse(Operation &op);

  /// Sets up the reverse side of primal block `block`.
  Level &openLevel(Block &block, Block *forward, Block *reverse, bool direct);
  /// The forward value `value` of level `block`, made available in that
  /// level's reverse block.
  Value fromForward(Block *block, Value key, Value value);
  /// `value`, computed in the forward clone of branch region `block`,
  /// passed out as a new result of the branch when the branch sits (through
  /// other branches) in a level that uses forward values directly, so that
  /// it needs no tape entry; null otherwise.
  Value passOutOfBranch(Block *block, Value value);
  /// Primal `value` as seen by the reverse code.
  Value primalInReverse(Value value);
  /// Whether the reverse code has `value` without a new tape entry, possibly
  /// by recomputing a chain of up to `depth` cheap pure ops.
  bool isAvailable(Value value, unsigned depth);
  bool isRecomputable(Operation *op, unsigned depth = 6);
  /// Whether `load` can be repeated in the reverse sweep instead of taping
  /// its value: in a combined pullback, memory that nothing writes after
  /// the load has kept what the load read. In a loop whose iterations are
  /// recomputed, writes in later iterations do not count.
  bool isUnchangedAfter(memref::LoadOp load);
  bool isUnchangedAfterFunction(memref::LoadOp load);
  /// Whether nothing writes the memory `memref` refers to after `op` (in a
  /// combined pullback; an argument only if the function writes none).
  bool keepsContentsAfter(Value memref, Operation *op);
  /// Chooses the loops whose iterations the reverse sweep runs again
  /// instead of taping what they compute.
  void selectRecomputedLoops();
  bool canRecomputeIterations(scf::ForOp loop);
  /// Whether every iteration of `loop` reads only memory that keeps its
  /// contents to the end of the function or elements the iteration wrote
  /// first, writes only local buffers, and neither calls nor allocates.
  /// `nestedKill` tells whether a nested loop reads what it wrote.
  bool isSelfContained(scf::ForOp loop, bool &nestedKill,
                       bool allowCalls = false);
  /// Whether `op` writes none of the memory it is given, and that memory
  /// keeps its contents to the end of the function.
  bool onlyReadsFinalMemory(Operation *op);
  /// Whether each element `load` reads in an iteration of `loop` was
  /// written earlier in the iteration, or by no iteration and by nothing
  /// after the load.
  bool readsOwnWrites(memref::LoadOp load, scf::ForOp loop);
  /// Chooses the top-level loops whose iterations are reversed in the
  /// forward sweep, right after each has run.
  void selectEagerLoops();
  bool canReverseEagerly(scf::ForOp loop);
  /// Runs the primal iteration that the reverse iteration of `op` undoes,
  /// so that its values can be used directly.
  LogicalResult recomputeIteration(OpBuilder &b, scf::ForOp op);
  /// The shadow of memory `value` in the reverse code; null if it has none.
  Value shadowInReverse(Value value);

  // Adjoint slots.
  Value slot(Value value);
  Value readAndZero(OpBuilder &b, Location loc, Value value);
  void accumulate(OpBuilder &b, Location loc, Value value, Value adjoint);

  LogicalResult fail(Operation *op, const Twine &message) {
    op->emitError("cannot differentiate '")
        << op->getName() << "' in reverse mode: " << message;
    hadError = true;
    return failure();
  }

  DerivativeRegistry &registry;
  func::FuncOp primal;
  SmallVector<ct::Activity> activities;
  ActivityAnalysis activity;

  IRMapping forwardValues;
  /// Node-based, so references to levels stay valid as levels are added.
  std::map<Block *, Level> levels;
  DenseMap<Value, Value> slots;
  DenseMap<Value, Value> rematerialized;
  Block *reverseEntry = nullptr;
  Value forwardTape, reverseTape;
  /// Lazily created tape of a combined pullback.
  ct::TapeInitOp localTape;
  /// Residuals of calls with a ct.custom_vjp rule, from the forward sweep.
  DenseMap<Operation *, SmallVector<Value>> residuals;
  /// Iteration counts of scf.while loops, from the forward sweep.
  DenseMap<Operation *, Value> whileCounts;
  /// Set for a combined pullback whose function writes no memory argument:
  /// then its memory arguments keep their contents to the end.
  bool argumentsReadOnly = false;
  /// In a combined pullback, the ops that may write each local buffer of
  /// the function body.
  DenseMap<Value, SmallVector<Operation *>> localWriters;
  /// Loops whose reverse iterations first run their primal iteration again.
  DenseSet<Operation *> recomputedLoops;
  /// Loops reversed in place, with the ops that take their results to the
  /// return (linearly).
  llvm::MapVector<Operation *, llvm::SetVector<Operation *>> eagerLoops;
  /// The loop whose iteration is being undone in place, if any.
  Operation *inPlaceLoop = nullptr;
  /// Adjoints known in the forward sweep: of the running sums of loops
  /// reversed in place, while their iterations are emitted.
  DenseMap<Value, Value> knownAdjoints;
  /// Calls whose pullback ran in the forward sweep (their result's adjoint
  /// was known before them).
  DenseSet<Operation *> eagerCalls;
  /// The seeds of a combined pullback, by return operand.
  SmallVector<std::pair<unsigned, Value>> returnSeeds;
  bool hadError = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Levels, primal values and shadows in the reverse sweep
//===----------------------------------------------------------------------===//

Level &ReverseEmitter::openLevel(Block &block, Block *forward, Block *reverse,
                                 bool direct) {
  Level &level = levels[&block];
  level.forward = forward;
  level.reverse = reverse;
  level.direct = direct;
  OpBuilder b = OpBuilder::atBlockBegin(reverse);
  level.anchor =
      arith::ConstantIndexOp::create(b, block.getParentOp()->getLoc(), 0);
  return level;
}

Value ReverseEmitter::passOutOfBranch(Block *block, Value value) {
  // The forward branch op is rebuilt with one more result: `value` from
  // the region that computed it, poison from the others.
  std::function<bool(Block *)> reachesDirectLevel = [&](Block *at) {
    Operation *parent = at->getParentOp();
    if (!isa<scf::IfOp, scf::IndexSwitchOp>(parent))
      return false;
    const Level &around = levels[parent->getBlock()];
    return (around.direct && !around.rerun) ||
           reachesDirectLevel(parent->getBlock());
  };
  if (!reachesDirectLevel(block))
    return nullptr;
  Operation *primalBranch = block->getParentOp();
  Block *outer = primalBranch->getBlock();
  Operation *branch = levels[block].forward->getParentOp();
  Location loc = branch->getLoc();
  OperationState state(loc, branch->getName());
  state.addOperands(branch->getOperands());
  state.addAttributes(branch->getAttrs());
  state.addTypes(branch->getResultTypes());
  state.addTypes(value.getType());
  for (unsigned i = 0; i < branch->getNumRegions(); ++i)
    state.addRegion();
  OpBuilder b(branch);
  Operation *rebuilt = b.create(state);
  for (auto [from, to] :
       llvm::zip_equal(branch->getRegions(), rebuilt->getRegions())) {
    to.takeBody(from);
    Operation *yield = to.front().getTerminator();
    Value passed = value;
    if (value.getParentRegion() != &to) {
      OpBuilder at(yield);
      passed = ub::PoisonOp::create(at, loc, value.getType());
    }
    yield->insertOperands(yield->getNumOperands(), passed);
  }
  branch->replaceAllUsesWith(rebuilt->getResults().drop_back());
  forwardValues.map(primalBranch->getResults(),
                    rebuilt->getResults().drop_back());
  // Values passed out before are results of the old op, cached by levels.
  for (auto &[primalBlock, level] : levels)
    for (auto &[key, known] : level.values)
      if (auto result = dyn_cast<OpResult>(known);
          result && result.getOwner() == branch)
        known = rebuilt->getResult(result.getResultNumber());
  branch->erase();
  // Out of the branch, the value belongs to the level around it.
  Value result = rebuilt->getResults().back();
  return fromForward(outer, result, result);
}

Value ReverseEmitter::fromForward(Block *block, Value key, Value value) {
  Level &level = levels[block];
  if (level.direct)
    return value;
  if (Value known = level.values.lookup(key))
    return known;
  Location loc = value.getLoc();
  if (!isa<FloatType, IntegerType, IndexType>(value.getType())) {
    hadError = true;
    emitError(loc, "cannot differentiate in reverse mode: a value of type ")
        << value.getType()
        << " created inside a loop, branch or called function is needed by "
           "the reverse sweep; create it outside";
    return value;
  }
  if (Value passed = passOutOfBranch(block, value)) {
    level.values[key] = passed;
    return passed;
  }
  if (!forwardTape) {
    OpBuilder b = OpBuilder::atBlockBegin(reverseEntry);
    localTape = ct::TapeInitOp::create(b, loc);
    forwardTape = reverseTape = localTape;
  }
  OpBuilder b(level.forward->getTerminator());
  ct::TapePushOp::create(b, loc, forwardTape, value);
  b.setInsertionPointToStart(level.reverse);
  Value popped = ct::TapePopOp::create(b, loc, value.getType(), reverseTape);
  level.values[key] = popped;
  return popped;
}

bool ReverseEmitter::isAvailable(Value value, unsigned depth) {
  if (rematerialized.count(value) ||
      (inPlaceLoop &&
       !inPlaceLoop->isAncestor(value.getParentBlock()->getParentOp())))
    return true;
  Operation *def = value.getDefiningOp();
  if (def && def->hasTrait<OpTrait::ConstantLike>())
    return true;
  Level &level = levels[value.getParentBlock()];
  if (level.direct || level.values.count(value))
    return true;
  return depth > 0 && def && isRecomputable(def, depth - 1);
}

bool ReverseEmitter::isRecomputable(Operation *op, unsigned depth) {
  // Cheap means arith, the size of a memref, or a load of memory that
  // still holds what it held: a handful of them cost less than a push and a
  // pop, a transcendental function does not.
  auto load = dyn_cast<memref::LoadOp>(op);
  bool cheap = load ? isUnchangedAfter(load)
                    : isa<memref::DimOp>(op) ||
                          (isa<arith::ArithDialect>(op->getDialect()) &&
                           isPure(op) && op->getNumRegions() == 0);
  if (!cheap || op->getNumResults() != 1)
    return false;
  // An operand from an enclosing level costs at most one tape entry per
  // iteration of that level, not one per use here.
  Block *block = op->getBlock();
  return llvm::all_of(op->getOperands(), [&](Value v) {
    Block *from = v.getParentBlock();
    return (from != block && from->findAncestorOpInBlock(*op)) ||
           isAvailable(v, depth);
  });
}

/// Whether `writer` may run after `load` has run within one execution of
/// `scope` (the function, or one iteration of a loop): again in a later
/// iteration of a loop around both, or after it in program order.
static bool mayRunAfter(Operation *writer, Operation *load,
                        Operation *scope) {
  for (Operation *op = load->getParentOp(); op != scope;
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op) && op->isAncestor(writer))
      return true;
  // No loop around both: in the innermost block holding both, program
  // order decides, unless they are in different branches of one op.
  for (Operation *op = load; op != scope; op = op->getParentOp())
    if (Operation *other = op->getBlock()->findAncestorOpInBlock(*writer))
      return other != op && op->isBeforeInBlock(other);
  return true;
}

bool ReverseEmitter::keepsContentsAfter(Value memref, Operation *op) {
  Value root = getMemoryRoot(memref);
  if (auto arg = dyn_cast<BlockArgument>(root))
    return argumentsReadOnly && arg.getOwner() == &primal.getBody().front();
  auto writers = localWriters.find(root);
  return writers != localWriters.end() &&
         llvm::none_of(writers->second, [&](Operation *writer) {
           return mayRunAfter(writer, op, primal);
         });
}

bool ReverseEmitter::isUnchangedAfterFunction(memref::LoadOp load) {
  return keepsContentsAfter(load.getMemRef(), load);
}

bool ReverseEmitter::isUnchangedAfter(memref::LoadOp load) {
  if (isUnchangedAfterFunction(load))
    return true;
  // The reverse code of a recomputed iteration runs right after the
  // iteration ran again: memory is as the iteration left it, so writers in
  // the loop matter only later in the same iteration; writers outside it
  // count as for the whole function.
  // The same holds in a loop reversed in place.
  Operation *loop = load->getParentOp();
  while (!isa<func::FuncOp>(loop) && !recomputedLoops.contains(loop) &&
         !eagerLoops.contains(loop))
    loop = loop->getParentOp();
  auto writers = localWriters.find(getMemoryRoot(load.getMemRef()));
  if (isa<func::FuncOp>(loop) || writers == localWriters.end())
    return false;
  return llvm::none_of(writers->second, [&](Operation *writer) {
    return mayRunAfter(writer, load, loop->isAncestor(writer) ? loop : primal);
  });
}

//===----------------------------------------------------------------------===//
// Recomputed iterations
//===----------------------------------------------------------------------===//

bool ReverseEmitter::onlyReadsFinalMemory(Operation *op) {
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return !isa<MemRefType>(operand.getType()) ||
           (!activity.mayWrite(op, operand) && keepsContentsAfter(operand, op));
  });
}

bool ReverseEmitter::isSelfContained(scf::ForOp loop, bool &nestedKill,
                                     bool allowCalls) {
  bool selfContained = true;
  nestedKill = false;
  loop.getBody()->walk([&](Operation *op) {
    bool harmlessCall = allowCalls && isa<func::CallOp>(op) &&
                        onlyReadsFinalMemory(op);
    if ((isa<CallOpInterface>(op) && !harmlessCall) ||
        isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op)) {
      selfContained = false;
      return WalkResult::interrupt();
    }
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      // Memory from outside must be reachable from the reverse code: an
      // argument's or a local buffer's (not one made in an outer loop).
      Value root = getMemoryRoot(operand);
      bool outside = !loop->isAncestor(operand.getParentBlock()->getParentOp());
      bool local = localWriters.count(root);
      auto arg = dyn_cast<BlockArgument>(root);
      bool argument = arg && arg.getOwner() == &primal.getBody().front();
      if ((outside && !local && !argument) ||
          (activity.mayWrite(op, operand) && !local)) {
        selfContained = false;
        return WalkResult::interrupt();
      }
    }
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load || isUnchangedAfterFunction(load))
      return WalkResult::advance();
    if (!readsOwnWrites(load, loop)) {
      selfContained = false;
      return WalkResult::interrupt();
    }
    nestedKill |= load->getParentOfType<scf::ForOp>() != loop;
    return WalkResult::advance();
  });
  return selfContained;
}

bool ReverseEmitter::readsOwnWrites(memref::LoadOp load, scf::ForOp loop) {
  if (isWrittenEarlierInIteration(load, loop))
    return true;
  auto writers = localWriters.find(getMemoryRoot(load.getMemRef()));
  return writers != localWriters.end() &&
         llvm::all_of(writers->second, [&](Operation *writer) {
           return loop->isAncestor(writer)
                      ? writesSameElementsBefore(writer, load, loop)
                      : !mayRunAfter(writer, load, primal);
         });
}

bool ReverseEmitter::canRecomputeIterations(scf::ForOp loop) {
  // The iteration must be repeatable from what the reverse code has: no
  // carried values, and self-contained (isSelfContained; local buffers are
  // seen by no one after the function). Worth it only if some nested loop
  // would otherwise tape loads.
  bool nestedKill = false;
  return loop.getNumRegionIterArgs() == 0 &&
         isSelfContained(loop, nestedKill) && nestedKill;
}

bool ReverseEmitter::canReverseEagerly(scf::ForOp loop) {
  // Reversed in place, an iteration is undone before later iterations and
  // the code after the loop have run, let alone been undone. So their
  // reverse must not be needed first: the adjoints of the results must be
  // known before the loop (linear uses, sums carried); each iteration must
  // read nothing that they change, except what it wrote first; and
  // nothing after the loop may read what the loop writes.
  if (!needsReverse(*loop.getOperation()) || !carriesOnlySums(loop, activity))
    return false;
  bool nestedKill = false;
  if (!isSelfContained(loop, nestedKill, /*allowCalls=*/true))
    return false;
  FailureOr<llvm::SetVector<Operation *>> uses =
      getLinearResultUses(loop, activity);
  if (failed(uses))
    return false;
  DenseSet<Value> written;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) && activity.mayWrite(op, operand))
        written.insert(getMemoryRoot(operand));
  });
  for (Operation *at = loop; at != primal; at = at->getParentOp())
    for (Operation *op = at->getNextNode(); op; op = op->getNextNode()) {
      WalkResult read = op->walk([&](Operation *inner) {
        if (isa<memref::DeallocOp>(inner))
          return WalkResult::advance();
        for (Value operand : inner->getOperands())
          if (isa<MemRefType>(operand.getType()) &&
              written.contains(getMemoryRoot(operand)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (read.wasInterrupted())
        return false;
    }
  // Inside a branch, the memory it uses must come from the top block, whose
  // shadows the forward sweep has.
  Block *top = &primal.getBody().front();
  WalkResult fromBranch = loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) &&
          !loop->isAncestor(operand.getParentBlock()->getParentOp()) &&
          operand.getParentBlock() != top)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (fromBranch.wasInterrupted())
    return false;
  eagerLoops[loop] = std::move(*uses);
  return true;
}

void ReverseEmitter::selectEagerLoops() {
  // Loops of the top block, or of branches in it (a function with an early
  // return has its body in one).
  std::function<void(Block &)> select = [&](Block &block) {
    for (Operation &op : block.without_terminator()) {
      if (auto loop = dyn_cast<scf::ForOp>(op))
        (void)canReverseEagerly(loop);
      else if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
        for (Region &region : op.getRegions())
          if (!region.empty())
            select(region.front());
    }
  };
  select(primal.getBody().front());
}

void ReverseEmitter::selectRecomputedLoops() {
  // Innermost first: a loop around a recomputed one is not recomputed too,
  // which would repeat the inner iterations once more.
  // Iterations reversed in place tape only within themselves: rerunning
  // their nested loops would only cost time.
  primal.walk([&](scf::ForOp loop) {
    if (llvm::any_of(eagerLoops, [&](auto &eager) {
          return eager.first->isAncestor(loop);
        }))
      return;
    bool holdsRecomputed = false;
    loop.getBody()->walk([&](scf::ForOp inner) {
      holdsRecomputed |= recomputedLoops.contains(inner);
    });
    if (!holdsRecomputed && canRecomputeIterations(loop))
      recomputedLoops.insert(loop);
  });
}

/// Stores of a recomputed iteration into memory that nothing in the
/// reverse iteration reads again (the iteration's results, for later code
/// whose reverse has run already): the clean-up then drops what fed them.
static void eraseUnreadStores(ArrayRef<Operation *> recomputed,
                              Block *reverseBody) {
  DenseSet<Value> read;
  reverseBody->walk([&](memref::LoadOp load) {
    read.insert(getMemoryRoot(load.getMemRef()));
  });
  for (Operation *op : recomputed)
    op->walk([&](memref::StoreOp store) {
      if (!read.contains(getMemoryRoot(store.getMemRef())))
        store.erase();
    });
}

LogicalResult ReverseEmitter::recomputeIteration(OpBuilder &b, scf::ForOp op) {
  // The iteration's ops are cloned like the forward sweep's, with the
  // values from outside the loop as the reverse code sees them; nested
  // levels then push to (and pop from) the tape within this iteration.
  op.getBody()->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (!op->isAncestor(operand.getParentBlock()->getParentOp()))
        forwardValues.map(operand, primalInReverse(operand));
  });
  forwardValues.map(op.getInductionVar(),
                    levels[op.getBody()].values.lookup(op.getInductionVar()));
  return forwardBlock(b, *op.getBody());
}

Value ReverseEmitter::primalInReverse(Value value) {
  if (Value known = rematerialized.lookup(value))
    return known;
  // Undoing an iteration in place, what comes from outside the loop is in
  // the forward code around it.
  if (inPlaceLoop &&
      !inPlaceLoop->isAncestor(value.getParentBlock()->getParentOp()))
    return forwardValues.lookup(value);
  Operation *def = value.getDefiningOp();
  if (def && def->hasTrait<OpTrait::ConstantLike>()) {
    OpBuilder b = OpBuilder::atBlockBegin(reverseEntry);
    Value copy = b.clone(*def)->getResult(0);
    rematerialized[value] = copy;
    return copy;
  }
  Block *block = value.getParentBlock();
  Level &level = levels[block];
  if (Value known = level.values.lookup(value))
    return known;
  // Pure ops whose operands the reverse code already has are recomputed:
  // one op instead of a push and a pop. Views are always recomputed. A
  // local buffer of a split callee is gone when its rev half runs; the
  // reverse code never reads primal memory, so a fresh buffer of the same
  // shape serves to pass on (to views and calls).
  bool localBufferOfSplitCallee = def && isa<memref::AllocaOp>(def) &&
                                  block == &primal.getBody().front();
  if (def && !level.direct &&
      (isa<ViewLikeOpInterface>(def) || localBufferOfSplitCallee ||
       isRecomputable(def))) {
    IRMapping mapping;
    for (Value operand : def->getOperands())
      mapping.map(operand, primalInReverse(operand));
    OpBuilder b(level.anchor);
    Value copy = b.clone(*def, mapping)->getResult(0);
    level.values[value] = copy;
    return copy;
  }
  return fromForward(block, value, forwardValues.lookup(value));
}

Value ReverseEmitter::shadowInReverse(Value value) {
  if (!isShadowedType(value.getType()) || !activity.hasShadow(value))
    return nullptr;
  Block *block = value.getParentBlock();
  Level &level = levels[block];
  if (Value known = level.shadows.lookup(value))
    return known;
  Operation *def = value.getDefiningOp();
  OpBuilder b(level.anchor);
  Value result;
  if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(def)) {
    IRMapping mapping;
    for (Value operand : def->getOperands())
      if (operand != view.getViewSource())
        mapping.map(operand, primalInReverse(operand));
    mapping.map(view.getViewSource(), shadowInReverse(view.getViewSource()));
    result = b.clone(*def, mapping)->getResult(0);
  } else if (def && isa<memref::AllocOp, memref::AllocaOp>(def) &&
             block == &primal.getBody().front()) {
    // A local buffer of a split callee: its shadow lives in the rev half.
    IRMapping mapping;
    for (Value operand : def->getOperands())
      mapping.map(operand, primalInReverse(operand));
    result = b.clone(*def, mapping)->getResult(0);
    buildZeroFill(b, def->getLoc(), result);
  } else {
    hadError = true;
    emitError(value.getLoc(),
              "cannot differentiate in reverse mode: the derivative of this "
              "memory is needed by the reverse sweep, but it is created "
              "inside a loop or branch; allocate it outside");
    return nullptr;
  }
  level.shadows[value] = result;
  return result;
}

//===----------------------------------------------------------------------===//
// Adjoint slots
//===----------------------------------------------------------------------===//

/// The zero adjoints start from: -0 rather than +0, because x + -0 == x for
/// every x (including -0), so the first accumulation folds away.
static Value buildAdjointZero(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, -0.0));
}

Value ReverseEmitter::slot(Value value) {
  if (Value known = slots.lookup(value))
    return known;
  OpBuilder b = OpBuilder::atBlockBegin(reverseEntry);
  Location loc = value.getLoc();
  Value s = memref::AllocaOp::create(b, loc,
                                     MemRefType::get({}, value.getType()));
  memref::StoreOp::create(b, loc, buildAdjointZero(b, loc, value.getType()),
                          s);
  slots[value] = s;
  return s;
}

Value ReverseEmitter::readAndZero(OpBuilder &b, Location loc, Value value) {
  Value s = slot(value);
  Value adjoint = memref::LoadOp::create(b, loc, s);
  memref::StoreOp::create(b, loc, buildAdjointZero(b, loc, value.getType()),
                          s);
  return adjoint;
}

void ReverseEmitter::accumulate(OpBuilder &b, Location loc, Value value,
                                Value adjoint) {
  Value s = slot(value);
  Value old = memref::LoadOp::create(b, loc, s);
  adjoint = buildFloatCast(b, loc, adjoint, value.getType());
  memref::StoreOp::create(b, loc, buildAdjointSum(b, loc, old, adjoint), s);
}

//===----------------------------------------------------------------------===//
// Forward sweep
//===----------------------------------------------------------------------===//

LogicalResult ReverseEmitter::forwardBlock(OpBuilder &b, Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(forwardOp(b, op)))
      return failure();
  return success();
}

/// Shadows of local buffers and their views, made in the forward sweep where
/// the reverse sweep can use forward values directly.
void ReverseEmitter::forwardShadowOf(OpBuilder &b, Operation &op) {
  Level &level = levels[op.getBlock()];
  if (!level.direct || op.getNumResults() != 1 ||
      !isShadowedType(op.getResult(0).getType()) ||
      !activity.hasShadow(op.getResult(0)))
    return;
  Value result = op.getResult(0);
  if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
    // Cloning with `forwardValues` itself would remap the primal result.
    IRMapping mapping = forwardValues;
    Value s = b.clone(op, mapping)->getResult(0);
    buildZeroFill(b, op.getLoc(), s);
    level.shadows[result] = s;
  } else if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
    IRMapping mapping = forwardValues;
    mapping.map(view.getViewSource(), shadowInReverse(view.getViewSource()));
    level.shadows[result] = b.clone(op, mapping)->getResult(0);
  }
}

LogicalResult ReverseEmitter::forwardFor(OpBuilder &b, scf::ForOp op) {
  Location loc = op.getLoc();
  auto eager = eagerLoops.find(op);
  DenseMap<Value, Value> resultAdjoints;
  if (eager != eagerLoops.end())
    resultAdjoints = buildLinearAdjoints(
        b, op, eager->second, returnSeeds,
        [&](Value v) { return forwardValues.lookup(v); });
  auto loop = scf::ForOp::create(
      b, loc, forwardValues.lookup(op.getLowerBound()),
      forwardValues.lookup(op.getUpperBound()),
      forwardValues.lookup(op.getStep()),
      llvm::map_to_vector(op.getInitArgs(),
                          [&](Value v) { return forwardValues.lookup(v); }));
  Block *body = loop.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  forwardValues.map(op.getBody()->getArguments(), body->getArguments());
  Level &level = levels[op.getBody()];
  level.forward = body;
  if (eager != eagerLoops.end()) {
    // The reverse code follows in the same block and uses forward values
    // directly; set before the forward code, which makes shadows of views.
    level.reverse = body;
    level.direct = true;
    // Calls in the body may need the running sums' adjoints (eager calls).
    for (auto [i, result] : llvm::enumerate(op.getResults()))
      if (Value adjoint = resultAdjoints.lookup(result))
        if (auto sums = getRunningSum(op, i))
          for (Value sum : *sums)
            knownAdjoints[sum] = adjoint;
  }
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  if (failed(forwardBlock(inner, *op.getBody())))
    return failure();
  if (eager != eagerLoops.end() &&
      failed(reverseIterationInPlace(inner, op, resultAdjoints)))
    return failure();
  inner.clone(*op.getBody()->getTerminator(), forwardValues);
  forwardValues.map(op.getResults(), loop.getResults());
  // A carried sum passes its adjoint on to its initial value unchanged.
  for (auto [init, result] : llvm::zip_equal(op.getInitArgs(), op.getResults()))
    if (Value adjoint = resultAdjoints.lookup(result);
        adjoint && activity.isActive(init))
      accumulate(b, loc, init, adjoint);
  return success();
}

LogicalResult ReverseEmitter::reverseIterationInPlace(
    OpBuilder &b, scf::ForOp op, const DenseMap<Value, Value> &adjoints) {
  Location loc = op.getLoc();
  Level &level = levels[op.getBody()];
  level.anchor = arith::ConstantIndexOp::create(b, loc, 0);
  llvm::SaveAndRestore<Operation *> inPlace(inPlaceLoop, op);
  // Every iteration's running sum has the adjoint of the result.
  auto yielded = op.getYieldedValues();
  for (auto [i, arg] : llvm::enumerate(op.getRegionIterArgs()))
    if (Value adjoint = adjoints.lookup(op.getResult(i));
        adjoint && activity.isActive(arg))
      accumulate(b, loc, yielded[i], adjoint);
  if (failed(reverseBlock(b, *op.getBody())))
    return failure();
  // What reached the sum's block argument is the same adjoint again, which
  // the initial value received once; the slot is cleared for the next
  // iteration.
  for (BlockArgument arg : op.getRegionIterArgs())
    if (activity.isActive(arg))
      (void)readAndZero(b, loc, arg);
  return success(!hadError);
}

LogicalResult ReverseEmitter::forwardOp(OpBuilder &b, Operation &op) {
  Location loc = op.getLoc();
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return forwardFor(b, forOp);
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
    Operation *branch = buildBranchLike(
        b, &op, forwardValues.lookup(op.getOperand(0)), op.getResultTypes());
    for (auto [from, to] : llvm::zip_equal(op.getRegions(),
                                           branch->getRegions())) {
      OpBuilder inner = OpBuilder::atBlockEnd(&to.front());
      if (from.empty()) {
        scf::YieldOp::create(inner, loc);
        continue;
      }
      levels[&from.front()].forward = &to.front();
      if (failed(forwardBlock(inner, from.front())))
        return failure();
      inner.clone(*from.front().getTerminator(), forwardValues);
    }
    forwardValues.map(op.getResults(), branch->getResults());
    return success();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    // Counts the executions of the after region for the reverse sweep.
    Type index = b.getIndexType();
    SmallVector<Value> inits = llvm::map_to_vector(
        whileOp.getInits(), [&](Value v) { return forwardValues.lookup(v); });
    inits.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    SmallVector<Type> afterTypes(whileOp.getResultTypes());
    afterTypes.push_back(index);
    auto loop = scf::WhileOp::create(b, loc, afterTypes, inits);
    SmallVector<Type> beforeTypes = llvm::to_vector(ValueRange(inits).getTypes());
    Block *before = b.createBlock(&loop.getBefore(), {}, beforeTypes,
                                  SmallVector<Location>(inits.size(), loc));
    forwardValues.map(whileOp.getBeforeArguments(),
                      before->getArguments().drop_back());
    levels[&whileOp.getBefore().front()].forward = before;
    OpBuilder inner = OpBuilder::atBlockEnd(before);
    if (failed(forwardBlock(inner, whileOp.getBefore().front())))
      return failure();
    auto condition = whileOp.getConditionOp();
    SmallVector<Value> passed = llvm::map_to_vector(
        condition.getArgs(), [&](Value v) { return forwardValues.lookup(v); });
    passed.push_back(before->getArguments().back());
    scf::ConditionOp::create(inner, loc,
                             forwardValues.lookup(condition.getCondition()),
                             passed);
    Block *after = b.createBlock(&loop.getAfter(), {}, afterTypes,
                                 SmallVector<Location>(afterTypes.size(), loc));
    forwardValues.map(whileOp.getAfterArguments(),
                      after->getArguments().drop_back());
    levels[&whileOp.getAfter().front()].forward = after;
    inner.setInsertionPointToEnd(after);
    if (failed(forwardBlock(inner, whileOp.getAfter().front())))
      return failure();
    SmallVector<Value> yielded = llvm::map_to_vector(
        whileOp.getYieldOp().getOperands(),
        [&](Value v) { return forwardValues.lookup(v); });
    Value one = arith::ConstantIndexOp::create(inner, loc, 1);
    yielded.push_back(
        arith::AddIOp::create(inner, loc, after->getArguments().back(), one));
    scf::YieldOp::create(inner, loc, yielded);
    b.setInsertionPointAfter(loop);
    forwardValues.map(whileOp.getResults(), loop.getResults().drop_back());
    whileCounts[whileOp] = loop.getResults().back();
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    if (needsReverse(op))
      if (Value seed = buildEagerSeed(b, call);
          seed && forwardEagerCall(b, call, seed))
        return success();
    func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
    Operation *rule = callee ? registry.getReverseRule(callee) : nullptr;
    if (auto vjp = dyn_cast_or_null<ct::CustomVjpOp>(rule);
        vjp && needsReverse(op)) {
      // The rule's forward half returns the results, then residuals that
      // its backward half needs.
      func::FuncOp forward = registry.lookupFunction(vjp.getForwardAttr());
      auto fwdCall = func::CallOp::create(
          b, loc, forward,
          llvm::map_to_vector(call.getOperands(), [&](Value v) {
            return forwardValues.lookup(v);
          }));
      unsigned numResults = call.getNumResults();
      forwardValues.map(call.getResults(),
                        fwdCall.getResults().take_front(numResults));
      residuals[call] = llvm::to_vector(
          ValueRange(fwdCall.getResults().drop_front(numResults)));
      return success();
    }
    if (needsReverse(op) && callee && !rule) {
      func::FuncOp forward = registry.get(callee, DerivativeKind::Forward,
                                          getCallActivities(call, activity));
      SmallVector<Value> operands = llvm::map_to_vector(
          call.getOperands(), [&](Value v) { return forwardValues.lookup(v); });
      if (!forwardTape) {
        OpBuilder entry = OpBuilder::atBlockBegin(reverseEntry);
        localTape = ct::TapeInitOp::create(entry, loc);
        forwardTape = reverseTape = localTape;
      }
      operands.push_back(forwardTape);
      auto fwdCall = func::CallOp::create(b, loc, forward, operands);
      forwardValues.map(call.getResults(), fwdCall.getResults());
      return success();
    }
  }
  if (op.getNumRegions() != 0)
    return fail(&op, "operations with regions other than scf.for, scf.while, "
                     "scf.if and scf.index_switch are not supported");
  b.clone(op, forwardValues);
  forwardShadowOf(b, op);
  return success();
}

//===----------------------------------------------------------------------===//
// Eager calls
//===----------------------------------------------------------------------===//

Value ReverseEmitter::buildEagerSeed(OpBuilder &b, func::CallOp call) {
  // Like the iterations of a loop reversed in place: when the result's
  // adjoint is known before the call (it reaches the return or a running
  // sum linearly, with factors computed before), the callee's combined
  // pullback can run right away, with no fwd/rev halves and no tape.
  func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
  if (call.getNumResults() != 1 || !activity.isActive(call.getResult(0)) ||
      !callee || callee.isExternal() || registry.getReverseRule(callee))
    return nullptr;
  // Its pullback adds to the shadows of what the callee reads now: that
  // memory must keep its contents to the end, and the callee writes none.
  if (!onlyReadsFinalMemory(call))
    return nullptr;
  std::optional<LinearPath> path =
      getLinearPath(call.getResult(0), call,
                    [&](Value v) { return knownAdjoints.count(v) != 0; });
  if (!path)
    return nullptr;
  Value end = path->known ? knownAdjoints.lookup(path->known) : Value();
  if (!path->known)
    for (auto [index, seed] : returnSeeds)
      if (index == path->returnIndex)
        end = end ? buildAdjointSum(b, call.getLoc(), end, seed) : seed;
  if (!end)
    return nullptr;
  return buildPathAdjoint(b, call.getLoc(), *path, end,
                          [&](Value v) { return forwardValues.lookup(v); });
}

Value ReverseEmitter::shadowInForward(OpBuilder &b, Value value) {
  if (!activity.hasShadow(value))
    return nullptr;
  if (Value known = levels[value.getParentBlock()].shadows.lookup(value))
    return known;
  auto view = value.getDefiningOp<ViewLikeOpInterface>();
  if (!view)
    return nullptr;
  Value source = shadowInForward(b, view.getViewSource());
  if (!source)
    return nullptr;
  IRMapping mapping;
  for (Value operand : view->getOperands())
    mapping.map(operand, operand == view.getViewSource()
                             ? source
                             : forwardValues.lookup(operand));
  return b.clone(*view, mapping)->getResult(0);
}

bool ReverseEmitter::forwardEagerCall(OpBuilder &b, func::CallOp call,
                                      Value seed) {
  Location loc = call.getLoc();
  SmallVector<ct::Activity> callActivities = getCallActivities(call, activity);
  SmallVector<Value> operands = llvm::map_to_vector(
      call.getOperands(), [&](Value v) { return forwardValues.lookup(v); });
  operands.push_back(seed);
  for (auto [operand, a] : llvm::zip_equal(call.getOperands(), callActivities))
    if (a == ct::Activity::Duplicated) {
      Value s = shadowInForward(b, operand);
      if (!s)
        return false;
      operands.push_back(s);
    }
  func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
  func::FuncOp pullback =
      registry.get(callee, DerivativeKind::Pullback, callActivities);
  auto eager = func::CallOp::create(b, loc, pullback, operands);
  forwardValues.map(call.getResult(0), eager.getResult(0));
  unsigned next = 1;
  for (auto [operand, a] : llvm::zip_equal(call.getOperands(), callActivities))
    if (a == ct::Activity::Active) {
      Value adjoint = eager.getResult(next++);
      if (activity.isActive(operand))
        accumulate(b, loc, operand, adjoint);
    }
  eagerCalls.insert(call);
  return true;
}

//===----------------------------------------------------------------------===//
// Reverse sweep
//===----------------------------------------------------------------------===//

bool ReverseEmitter::needsReverse(Operation &op) {
  if (llvm::any_of(op.getResults(),
                   [&](Value r) { return activity.isActive(r); }))
    return true;
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return activity.hasShadow(store.getMemRef());
  if (isa<memref::AllocOp>(op))
    return activity.hasShadow(op.getResult(0));
  if (auto call = dyn_cast<func::CallOp>(op))
    return llvm::any_of(getCallActivities(call, activity), [](ct::Activity a) {
      return a != ct::Activity::Constant;
    });
  if (isa<ct::TapePushOp, ct::TapePopOp>(op))
    return activity.hasShadow(op.getOperand(0));
  for (Region &region : op.getRegions())
    for (Operation &inner : region.getOps())
      if (needsReverse(inner))
        return true;
  return false;
}

LogicalResult ReverseEmitter::reverseBlock(OpBuilder &b, Block &block) {
  // Loops reversed in place, and eager calls, were undone in the forward
  // sweep.
  for (Operation &op : llvm::reverse(block.without_terminator()))
    if (needsReverse(op) && !eagerLoops.contains(&op) &&
        !eagerCalls.contains(&op) && failed(reverseOp(b, op)))
      return failure();
  return success(!hadError);
}

LogicalResult ReverseEmitter::reverseOp(OpBuilder &b, Operation &op) {
  Location loc = op.getLoc();
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return reverseFor(b, forOp);
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
    return reverseBranch(b, &op);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return reverseWhile(b, whileOp);
  if (auto call = dyn_cast<func::CallOp>(op))
    return reverseCall(b, call);
  if (auto rule = dyn_cast<ScalarDerivativeOpInterface>(op))
    return reverseScalar(b, op, rule);
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    Value adjoint = readAndZero(b, loc, load.getResult());
    Value s = shadowInReverse(load.getMemRef());
    if (!s)
      return hadError ? failure()
                      : fail(&op, "its memory has no derivative, but the "
                                  "value is active (internal error)");
    SmallVector<Value> indices = llvm::map_to_vector(
        load.getIndices(), [&](Value v) { return primalInReverse(v); });
    Value old = memref::LoadOp::create(b, loc, s, indices);
    memref::StoreOp::create(b, loc, buildAdjointSum(b, loc, old, adjoint), s,
                            indices);
    return success(!hadError);
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    Value s = shadowInReverse(store.getMemRef());
    if (!s)
      return hadError ? failure()
                      : fail(&op, "its memory has no derivative, but the "
                                  "value is active (internal error)");
    SmallVector<Value> indices = llvm::map_to_vector(
        store.getIndices(), [&](Value v) { return primalInReverse(v); });
    // -0 like the slots: a load of the same element earlier in the primal
    // then adds its adjoint to -0, which folds away (+0 would not).
    Value adjoint = memref::LoadOp::create(b, loc, s, indices);
    memref::StoreOp::create(
        b, loc, buildAdjointZero(b, loc, adjoint.getType()), s, indices);
    if (activity.isActive(store.getValueToStore()))
      accumulate(b, loc, store.getValueToStore(), adjoint);
    return success(!hadError);
  }
  if (isa<memref::AllocOp>(op)) {
    if (Value s = shadowInReverse(op.getResult(0)))
      memref::DeallocOp::create(b, loc, s);
    return success(!hadError);
  }
  if (auto pass = dyn_cast<ct::PassThroughOp>(op)) {
    accumulate(b, loc, pass.getInput(),
               readAndZero(b, loc, pass.getResult()));
    return success();
  }
  if (isa<ct::TapePushOp, ct::TapePopOp, ct::TapeInitOp>(op))
    return fail(&op, "reverse mode over reverse-mode code that keeps a tape "
                     "(loops or calls) is not supported yet; use forward over "
                     "reverse (ct.jvp of a gradient)");
  if (isa<memref::AllocaOp, memref::DeallocOp, ViewLikeOpInterface>(op))
    return success();
  return fail(&op, "no derivative rule; bind a custom rule to the enclosing "
                   "function or stop the gradient with ct::stop_gradient");
}

/// Erases the ops that computed `value` and nothing else (stand-ins stay).
static void eraseUnused(Value value) {
  // A set: an op listed twice would be erased the first time.
  llvm::SetVector<Operation *> worklist;
  if (Operation *def = value.getDefiningOp())
    worklist.insert(def);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (isa<UnrealizedConversionCastOp>(op) || !isPure(op) || !op->use_empty())
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.insert(def);
    op->erase();
  }
}

LogicalResult ReverseEmitter::reverseScalar(OpBuilder &b, Operation &op,
                                            ScalarDerivativeOpInterface rule) {
  Location loc = op.getLoc();
  Value adjoint = readAndZero(b, loc, op.getResult(0));
  // The rule builds every partial, but only those of active operands are
  // used. It gets stand-ins for the primal values, and only the stand-ins
  // that kept partials use are fetched: a primal value fetched in vain can
  // cost a tape entry (`h * k` with h constant needs h, not k).
  SmallVector<std::pair<Value, Value>> standIns; // (stand-in, primal)
  auto lookup = [&](Value primal) -> Value {
    for (auto [standIn, known] : standIns)
      if (known == primal)
        return standIn;
    Value standIn = UnrealizedConversionCastOp::create(
                        b, loc, primal.getType(), ValueRange{})
                        .getResult(0);
    standIns.push_back({standIn, primal});
    return standIn;
  };
  PrimalValues primals(&op, lookup);
  SmallVector<Value> partials = rule.buildPartials(b, primals);
  for (auto [operand, partial] : llvm::zip_equal(op.getOperands(), partials)) {
    if (!partial)
      continue;
    if (activity.isActive(operand))
      accumulate(b, loc, operand,
                 arith::MulFOp::create(b, loc, partial, adjoint,
                                       arith::FastMathFlags::contract));
    else
      eraseUnused(partial);
  }
  for (auto [standIn, primal] : standIns) {
    if (!standIn.use_empty())
      standIn.replaceAllUsesWith(primalInReverse(primal));
    standIn.getDefiningOp()->erase();
  }
  return success(!hadError);
}

LogicalResult ReverseEmitter::reverseFor(OpBuilder &b, scf::ForOp op) {
  Location loc = op.getLoc();
  Value lb = primalInReverse(op.getLowerBound());
  Value ub = primalInReverse(op.getUpperBound());
  Value step = primalInReverse(op.getStep());
  Type type = lb.getType();
  auto constant = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantOp::create(at, loc, type, at.getIntegerAttr(type, v));
  };
  Value count = buildTripCount(b, loc, lb, ub, step);
  SmallVector<std::pair<Value, Value>> carried; // (iter_arg, result)
  for (auto [arg, result] :
       llvm::zip_equal(op.getRegionIterArgs(), op.getResults()))
    if (activity.isActive(arg))
      carried.push_back({arg, result});

  auto loop =
      scf::ForOp::create(b, loc, constant(b, 0), count, constant(b, 1));
  Block *body = loop.getBody();
  OpBuilder inner = OpBuilder::atBlockBegin(body);
  bool recompute = recomputedLoops.contains(op);
  Level &level = openLevel(*op.getBody(), levels[op.getBody()].forward, body,
                           /*direct=*/recompute);
  level.rerun = recompute;
  // The primal iteration this reverse iteration undoes, computed in the
  // set-up code so that recomputed values can use it.
  OpBuilder setup(level.anchor);
  Value k = loop.getInductionVar();
  Value last = arith::SubIOp::create(setup, loc, count, constant(setup, 1));
  Value offset = arith::MulIOp::create(
      setup, loc, arith::SubIOp::create(setup, loc, last, k), step);
  level.values[op.getInductionVar()] =
      arith::AddIOp::create(setup, loc, lb, offset);
  inner.setInsertionPointAfter(level.anchor);
  IRMapping forwardSweepValues;
  SmallVector<Operation *> recomputed;
  if (recompute) {
    forwardSweepValues = forwardValues;
    if (failed(recomputeIteration(inner, op)))
      return failure();
    for (Operation *at = level.anchor->getNextNode();
         at && at != &*inner.getInsertionPoint(); at = at->getNextNode())
      recomputed.push_back(at);
  }

  // The adjoint of the carried value flows from the result slot (which
  // holds the adjoint of what this iteration yielded) to the yielded value,
  // and back from the iteration's block argument to the result slot.
  auto yielded = op.getYieldedValues();
  for (auto [arg, result] : carried) {
    unsigned i = cast<BlockArgument>(arg).getArgNumber() - 1;
    accumulate(inner, loc, yielded[i], readAndZero(inner, loc, result));
  }
  if (failed(reverseBlock(inner, *op.getBody())))
    return failure();
  for (auto [arg, result] : carried)
    memref::StoreOp::create(inner, loc, readAndZero(inner, loc, arg),
                            slot(result));
  b.setInsertionPointAfter(loop);
  if (recompute) {
    forwardValues = std::move(forwardSweepValues);
    eraseUnreadStores(recomputed, body);
  } else {
    reserveTape(op);
  }
  for (auto [arg, result] : carried) {
    unsigned i = cast<BlockArgument>(arg).getArgNumber() - 1;
    accumulate(b, loc, op.getInitArgs()[i], readAndZero(b, loc, result));
  }
  return success(!hadError);
}

/// Sizes the tape for a forward loop from its trip count: every iteration
/// pushes as many values as its body (nested loops reserve their own).
void ReverseEmitter::reserveTape(scf::ForOp op) {
  Block *body = levels[op.getBody()].forward;
  auto pushes = static_cast<int64_t>(
      llvm::range_size(body->getOps<ct::TapePushOp>()));
  if (pushes == 0)
    return;
  auto loop = cast<scf::ForOp>(body->getParentOp());
  OpBuilder b(loop);
  Location loc = op.getLoc();
  Value count = buildIndexCast(
      b, loc,
      buildTripCount(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                     loop.getStep()));
  Value slots = arith::MulIOp::create(
      b, loc, count, arith::ConstantIndexOp::create(b, loc, pushes));
  ct::TapeReserveOp::create(b, loc, forwardTape, slots);
}

LogicalResult ReverseEmitter::reverseBranch(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  SmallVector<std::pair<unsigned, Value>> adjoints;
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    if (activity.isActive(result))
      adjoints.push_back({i, readAndZero(b, loc, result)});
  Operation *branch = buildBranchLike(
      b, op, primalInReverse(op->getOperand(0)), TypeRange{});
  for (auto [from, to] : llvm::zip_equal(op->getRegions(),
                                         branch->getRegions())) {
    OpBuilder inner = OpBuilder::atBlockEnd(&to.front());
    auto yield = scf::YieldOp::create(inner, loc);
    if (from.empty())
      continue;
    Block &block = from.front();
    openLevel(block, levels[&block].forward, &to.front(), false);
    inner.setInsertionPoint(yield);
    Operation *primalYield = block.getTerminator();
    for (auto [i, adjoint] : adjoints)
      if (activity.isActive(primalYield->getOperand(i)))
        accumulate(inner, loc, primalYield->getOperand(i), adjoint);
    if (failed(reverseBlock(inner, block)))
      return failure();
  }
  b.setInsertionPointAfter(branch);
  return success(!hadError);
}

LogicalResult ReverseEmitter::reverseWhile(OpBuilder &b, scf::WhileOp op) {
  // Forward: B0 A0 B1 A1 ... BN, with N counted by the forward sweep.
  // Reverse iteration k = 0..N undoes B(N-k), then A(N-k-1) if k < N; this
  // pops each half's tape entries in exactly the reverse order of pushing.
  Location loc = op.getLoc();
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  auto condition = op.getConditionOp();
  Value forwardCount = whileCounts.lookup(op);
  Value n = fromForward(op->getBlock(), forwardCount, forwardCount);
  // The final B passes its condition arguments to the results.
  for (auto [passed, result] :
       llvm::zip_equal(condition.getArgs(), op.getResults()))
    if (activity.isActive(result) && activity.isActive(passed))
      accumulate(b, loc, passed, readAndZero(b, loc, result));
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value iterations = arith::AddIOp::create(b, loc, n, c1);
  auto loop = scf::ForOp::create(b, loc, c0, iterations, c1);
  Level &beforeLevel =
      openLevel(before, levels[&before].forward, loop.getBody(), false);
  OpBuilder inner(loop.getBody()->getTerminator());
  (void)beforeLevel;
  if (failed(reverseBlock(inner, before)))
    return failure();
  // A(N-k-1) runs only while k < N.
  Value more = arith::CmpIOp::create(inner, loc, arith::CmpIPredicate::ult,
                                     loop.getInductionVar(), n);
  auto branch = scf::IfOp::create(inner, loc, TypeRange{}, more,
                                  /*withElseRegion=*/false);
  openLevel(after, levels[&after].forward, &branch.getThenRegion().front(),
            false);
  OpBuilder body(branch.getThenRegion().front().getTerminator());
  // A's yield feeds the before arguments of the B undone just now.
  for (auto [yielded, arg] : llvm::zip_equal(op.getYieldOp().getOperands(),
                                             op.getBeforeArguments()))
    if (activity.isActive(arg)) {
      Value adjoint = readAndZero(body, loc, arg);
      if (activity.isActive(yielded))
        accumulate(body, loc, yielded, adjoint);
    }
  if (failed(reverseBlock(body, after)))
    return failure();
  // A's arguments came from the condition of the B undone next.
  for (auto [passed, arg] :
       llvm::zip_equal(condition.getArgs(), op.getAfterArguments()))
    if (activity.isActive(arg)) {
      Value adjoint = readAndZero(body, loc, arg);
      if (activity.isActive(passed))
        accumulate(body, loc, passed, adjoint);
    }
  b.setInsertionPointAfter(loop);
  for (auto [init, arg] :
       llvm::zip_equal(op.getInits(), op.getBeforeArguments()))
    if (activity.isActive(arg)) {
      Value adjoint = readAndZero(b, loc, arg);
      if (activity.isActive(init))
        accumulate(b, loc, init, adjoint);
    }
  return success(!hadError);
}

LogicalResult ReverseEmitter::reverseCall(OpBuilder &b, func::CallOp op) {
  Location loc = op.getLoc();
  func::FuncOp callee = registry.lookupFunction(op.getCalleeAttr());
  if (!callee)
    return fail(op, "the callee is not a func.func in this module");
  SmallVector<ct::Activity> callActivities = getCallActivities(op, activity);
  // A rule takes every argument with its default activity.
  Operation *rule = registry.getReverseRule(callee);
  if (rule)
    callActivities = ct::getDefaultActivities(callee.getFunctionType());

  SmallVector<Value> operands;
  if (isa_and_nonnull<ct::CustomVjpOp>(rule)) {
    for (Value residual : residuals.lookup(op))
      operands.push_back(fromForward(op->getBlock(), residual, residual));
  } else {
    operands = llvm::map_to_vector(
        op.getOperands(), [&](Value v) { return primalInReverse(v); });
    if (!rule)
      operands.push_back(reverseTape);
  }
  for (Value result : op.getResults())
    if (ct::isDifferentiableScalar(result.getType()))
      operands.push_back(activity.isActive(result)
                             ? readAndZero(b, loc, result)
                             : buildZero(b, loc, result.getType()));
  SmallVector<Value> scratch;
  for (auto [operand, a] : llvm::zip_equal(op.getOperands(), callActivities)) {
    if (a != ct::Activity::Duplicated)
      continue;
    Value s = shadowInReverse(operand);
    if (!s) {
      s = buildScratchShadow(b, loc, primalInReverse(operand));
      scratch.push_back(s);
    }
    operands.push_back(s);
  }
  SmallVector<Type> adjointTypes;
  for (auto [operand, a] : llvm::zip_equal(op.getOperands(), callActivities))
    if (a == ct::Activity::Active)
      adjointTypes.push_back(operand.getType());
  FlatSymbolRefAttr target;
  if (auto gradient = dyn_cast_or_null<ct::CustomGradientOp>(rule))
    target = gradient.getPullbackAttr();
  else if (auto vjp = dyn_cast_or_null<ct::CustomVjpOp>(rule))
    target = vjp.getBackwardAttr();
  else
    target = FlatSymbolRefAttr::get(
        registry.get(callee, DerivativeKind::Reverse, callActivities)
            .getSymNameAttr());
  auto call = func::CallOp::create(b, loc, target, adjointTypes, operands);
  for (Value s : scratch)
    memref::DeallocOp::create(b, loc, s);
  unsigned next = 0;
  for (auto [operand, a] : llvm::zip_equal(op.getOperands(), callActivities))
    if (a == ct::Activity::Active) {
      Value adjoint = call.getResult(next++);
      if (activity.isActive(operand))
        accumulate(b, loc, operand, adjoint);
    }
  return success(!hadError);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LogicalResult ReverseEmitter::checkStoresIntoConstantMemory() {
  bool lost = false;
  primal.walk([&](memref::StoreOp store) {
    if (activity.hasShadow(store.getMemRef()) ||
        !activity.isActive(store.getValueToStore()))
      return;
    store.emitError("cannot differentiate: a value that carries a derivative "
                    "is stored into memory that is constant here (a "
                    "parameter not selected for differentiation); select it, "
                    "or copy it into a local buffer first");
    lost = true;
  });
  return failure(lost);
}

LogicalResult ReverseEmitter::emitCombined(func::FuncOp pullback) {
  Block *entry = pullback.addEntryBlock();
  reverseEntry = entry;
  Block &body = primal.getBody().front();
  Level &top = levels[&body];
  top.forward = top.reverse = entry;
  top.direct = true;
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  top.anchor = arith::ConstantIndexOp::create(b, primal.getLoc(), 0);
  // Nothing runs between the sweeps of a combined pullback, so memory the
  // function does not write is as the forward sweep read it (with no
  // argument written, no argument can alias a written one).
  argumentsReadOnly =
      llvm::none_of(body.getArguments(), [&](BlockArgument arg) {
        return isShadowedType(arg.getType()) && activity.mayWriteArgument(arg);
      });
  // Likewise a local buffer is, after its last write, as the forward sweep
  // read it.
  for (Operation &op : body.without_terminator())
    if (isa<memref::AllocaOp, memref::AllocOp>(op))
      localWriters[op.getResult(0)];
  primal.walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      auto writers = localWriters.find(getMemoryRoot(operand));
      if (writers != localWriters.end() && activity.mayWrite(op, operand))
        writers->second.push_back(op);
    }
  });
  selectEagerLoops();
  selectRecomputedLoops();

  unsigned numArgs = primal.getNumArguments();
  ct::ReverseSignature sig = ct::getReverseSignature(primal.getFunctionType(),
                                                     activities);
  for (auto [seed, index] : llvm::zip_equal(
           entry->getArguments().slice(numArgs, sig.seeds.size()),
           sig.seedResults))
    returnSeeds.push_back({index, seed});
  forwardValues.map(primal.getArguments(),
                    entry->getArguments().take_front(numArgs));
  unsigned nextShadow = numArgs + sig.seeds.size();
  for (auto [i, arg] : llvm::enumerate(primal.getArguments()))
    if (activities[i] == ct::Activity::Duplicated)
      top.shadows[arg] = entry->getArgument(nextShadow++);

  if (failed(forwardBlock(b, body)))
    return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [seed, index] : llvm::zip_equal(
           entry->getArguments().slice(numArgs, sig.seeds.size()),
           sig.seedResults))
    if (activity.isActive(ret.getOperand(index)))
      accumulate(b, ret.getLoc(), ret.getOperand(index), seed);
  if (failed(reverseBlock(b, body)))
    return failure();
  // (After the reverse sweep, which may rebuild branches with more results.)
  SmallVector<Value> results = llvm::map_to_vector(
      ret.getOperands(), [&](Value v) { return forwardValues.lookup(v); });
  for (unsigned i : sig.adjointArgs) {
    Value arg = primal.getArgument(i);
    results.push_back(activity.isActive(arg)
                          ? readAndZero(b, ret.getLoc(), arg)
                          : buildZero(b, ret.getLoc(), arg.getType()));
  }
  if (localTape)
    ct::TapeFreeOp::create(b, ret.getLoc(), localTape);
  func::ReturnOp::create(b, ret.getLoc(), results);
  return success();
}

LogicalResult ReverseEmitter::emitSplit(func::FuncOp forward,
                                        func::FuncOp reverse) {
  Block &body = primal.getBody().front();
  unsigned numArgs = primal.getNumArguments();
  ct::ReverseSignature sig = ct::getReverseSignature(primal.getFunctionType(),
                                                     activities);
  Block *fwdEntry = forward.addEntryBlock();
  Block *revEntry = reverse.addEntryBlock();
  reverseEntry = revEntry;
  forwardTape = fwdEntry->getArgument(numArgs);
  reverseTape = revEntry->getArgument(numArgs);

  // Forward half.
  forwardValues.map(primal.getArguments(),
                    fwdEntry->getArguments().take_front(numArgs));
  Level &top = levels[&body];
  top.forward = fwdEntry;
  OpBuilder fb = OpBuilder::atBlockEnd(fwdEntry);
  if (failed(forwardBlock(fb, body)))
    return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  func::ReturnOp::create(
      fb, ret.getLoc(),
      llvm::map_to_vector(ret.getOperands(),
                          [&](Value v) { return forwardValues.lookup(v); }));

  // Reverse half: arguments are available again, everything else comes
  // from the tape.
  openLevel(body, fwdEntry, revEntry, /*direct=*/false);
  for (auto [i, arg] : llvm::enumerate(primal.getArguments()))
    top.values[arg] = revEntry->getArgument(i);
  unsigned firstSeed = numArgs + 1;
  unsigned nextShadow = firstSeed + sig.seeds.size();
  for (auto [i, arg] : llvm::enumerate(primal.getArguments()))
    if (activities[i] == ct::Activity::Duplicated)
      top.shadows[arg] = revEntry->getArgument(nextShadow++);
  OpBuilder rb = OpBuilder::atBlockEnd(revEntry);
  for (auto [seed, index] : llvm::zip_equal(
           revEntry->getArguments().slice(firstSeed, sig.seeds.size()),
           sig.seedResults))
    if (activity.isActive(ret.getOperand(index)))
      accumulate(rb, ret.getLoc(), ret.getOperand(index), seed);
  if (failed(reverseBlock(rb, body)))
    return failure();
  SmallVector<Value> adjoints;
  for (unsigned i : sig.adjointArgs) {
    Value arg = primal.getArgument(i);
    adjoints.push_back(activity.isActive(arg)
                           ? readAndZero(rb, ret.getLoc(), arg)
                           : buildZero(rb, ret.getLoc(), arg.getType()));
  }
  func::ReturnOp::create(rb, ret.getLoc(), adjoints);
  return success();
}

LogicalResult ad::emitReverse(DerivativeRegistry &registry,
                              func::FuncOp primal, func::FuncOp forward,
                              func::FuncOp reverse,
                              ArrayRef<ct::Activity> activities) {
  if (!primal.getBody().hasOneBlock())
    return primal.emitError("cannot differentiate @")
           << primal.getSymName()
           << ": unstructured control flow (several blocks) is not supported "
              "yet; use structured loops and branches";
  ReverseEmitter emitter(registry, primal, activities);
  if (failed(emitter.checkStoresIntoConstantMemory()))
    return failure();
  if (forward == reverse)
    return emitter.emitCombined(forward);
  return emitter.emitSplit(forward, reverse);
}
