//===- ReverseEmitter.h - Reverse mode, one function at a time --*- C++ -*-===//
//
// Internal to lib/AD: the state of reverse-mode differentiation of one
// function and the services the ops' ReverseModeOpInterface models use
// (lib/AD/Rules). ReverseEmitter.cpp: levels, values, shadows, adjoint slots
// and the entry points; ForwardSweep.cpp: the walk of the forward sweep and
// eager calls; ReverseSweep.cpp: the walk of the reverse sweep. What memory
// holds when the reverse code runs and which loops are eager or recomputed
// are decided by PullbackMemory and LoopStrategies.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_REVERSEMODE_REVERSEEMITTER_H
#define COTANGENT_LIB_AD_REVERSEMODE_REVERSEEMITTER_H

#include "Analysis/LoopStrategies.h"
#include "Analysis/PullbackMemory.h"
#include "DerivativeRegistry.h"
#include "Utils/IRBuilders.h"
#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/SaveAndRestore.h"

#include <map>
#include <memory>

namespace cotangent::ad::reverse {

using mlir::ArrayRef;
using mlir::Block;
using mlir::BlockArgument;
using mlir::DenseMap;
using mlir::DenseSet;
using mlir::failure;
using mlir::IRMapping;
using mlir::Location;
using mlir::LogicalResult;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::SmallVector;
using mlir::Twine;
using mlir::Type;
using mlir::Value;
namespace arith = mlir::arith;
namespace func = mlir::func;
namespace memref = mlir::memref;
namespace scf = mlir::scf;

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
  ReverseEmitter(const ReverseEmitter &) = delete;
  ReverseEmitter &operator=(const ReverseEmitter &) = delete;
  ~ReverseEmitter() { destroyRetiredBranches(); }

  LogicalResult emitCombined(func::FuncOp pullback);
  LogicalResult emitSplit(func::FuncOp forward, func::FuncOp reverse);
  /// Maps each dup argument of the primal to its shadow among the
  /// arguments of `entry` (a derivative's), which begin at `first`.
  void bindShadowArguments(Block *entry, unsigned first,
                           DenseMap<Value, Value> &shadows);

  //===--------------------------------------------------------------------===//
  // Services for the ops' ReverseModeOpInterface models (lib/AD/Rules)
  //===--------------------------------------------------------------------===//

  /// Emits the forward sweep of the ops of `block` but its terminator.
  LogicalResult forwardBlock(OpBuilder &b, Block &block);
  /// Emits the reverse of the ops of `block` but its terminator, last first.
  LogicalResult reverseBlock(OpBuilder &b, Block &block);
  /// Whether the reverse sweep must do something for `op`.
  bool needsReverse(Operation &op);
  /// The rule for ops without a model of their own: an active result, or
  /// an op in a region that needs reverse.
  bool needsReverseByDefault(Operation *op);
  /// Runs the callee's pullback in the forward sweep when the adjoint of
  /// `call`'s result is known there (an eager call); false (and nothing
  /// emitted) otherwise.
  bool tryEagerCall(OpBuilder &b, func::CallOp call);
  /// The tape the forward sweep pushes to, created on first use in a
  /// combined pullback.
  Value getForwardTape(Location loc);

  /// Sets up the reverse side of primal block `block`.
  Level &openLevel(Block &block, Block *forward, Block *reverse, bool direct);
  /// The forward value `value` of level `block`, made available in that
  /// level's reverse block.
  Value fromForward(Block *block, Value key, Value value);
  /// Primal `value` as seen by the reverse code.
  Value primalInReverse(Value value);
  /// A fresh buffer standing for primal memory `value` of nested level
  /// `block` in its reverse code, or null where none may.
  Value standInBuffer(Block *block, Value value);
  /// The shadow of memory `value` in the reverse code; null if it has none.
  Value shadowInReverse(Value value);
  /// The shadow of memory `value` as the forward code sees it (views made
  /// at `b`), or null: the shadows of arguments and of memory made in
  /// levels that use forward values directly, and those set below.
  /// Where `ownWhereNone` (an address stored in a shadow holder), a place
  /// a choice selects that has no shadow is its own shadow (memory without
  /// derivatives: ActivityAnalysis::choosesPlaceWithoutShadow).
  Value shadowInForward(OpBuilder &b, Value value, bool ownWhereNone = false);
  /// Records `shadow`, made by the forward sweep, as the shadow of `value`
  /// (memory whose shadow the forward sweep reads from memory: a loaded
  /// address). The reverse code gets it as it gets forward values.
  void setShadowInForward(Value value, Value shadow);
  /// `buffer`, which the forward sweep made and only the reverse sweep
  /// frees (a custom rule's residual), reaches the reverse sweep as its
  /// address, taped where it was made in a loop or branch.
  void keepForReverse(Value buffer) { forwardShadowValues.insert(buffer); }
  /// Marks branch result `value` as memory whose shadow its forward clone
  /// passes out (memory a loop passes out, chosen there); so are the
  /// branch results its regions yield for it.
  void passShadowOut(Value value);
  bool passesShadowOut(Value value) const {
    return shadowsPassedOut.contains(value);
  }
  /// The shadow and indices, in the reverse code, of the element a load or
  /// store `op` of `memref[indices]` touches; reports an error if the memory
  /// has no shadow.
  struct ShadowElement {
    Value shadow;
    SmallVector<Value> indices;
  };
  llvm::FailureOr<ShadowElement> shadowElement(Operation &op, Value memref,
                                               mlir::ValueRange indices);

  // Adjoints. A value whose users all sit in its own block keeps its
  // adjoint as an SSA sum while the contributions are emitted in order in
  // the block where it is read (straight-line code: no slot for mem2reg to
  // promote); every other adjoint lives in a slot.
  Value slot(Value value);
  Value readAndZero(OpBuilder &b, Location loc, Value value);
  void accumulate(OpBuilder &b, Location loc, Value value, Value adjoint);
  /// Accumulates `adjoints`, the adjoints a pullback returns for the active
  /// ones among a call's `operands` (in order), into those the caller
  /// differentiates.
  void accumulateCallAdjoints(OpBuilder &b, Location loc,
                              mlir::ValueRange operands,
                              ArrayRef<ct::Activity> callActivities,
                              mlir::ValueRange adjoints);

  /// Reports that `op` cannot be differentiated, and why.
  LogicalResult fail(Operation *op, const Twine &message) {
    op->emitError("cannot differentiate '")
        << op->getName() << "' in reverse mode: " << message;
    hadError = true;
    return failure();
  }
  /// Reports `message` as it is: for constructs the user wrote in other
  /// terms than the op's (generated code).
  LogicalResult failWith(Operation *op, const Twine &message) {
    op->emitError(message);
    hadError = true;
    return failure();
  }
  /// Whether `block` sits, through branches only, in a level that uses
  /// forward values directly (and does not rerun them).
  bool isInDirectLevelThroughBranches(Block *block);
  /// Forward value `value` of level `block` (which sits in a direct level
  /// through branches only) where the reverse code of `block` runs: memory
  /// too, passed out of the branches (the tape carries scalars only).
  Value passToReverse(Block *block, Value value);
  /// Records a failure already reported.
  void markFailed() { hadError = true; }
  bool hadFailure() const { return hadError; }

  DerivativeRegistry &getRegistry() { return registry; }
  func::FuncOp getPrimal() { return primal; }
  const ActivityAnalysis &getActivity() const { return activity; }
  /// (Its write queries cache what they learn.)
  ActivityAnalysis &getActivity() { return activity; }
  bool isActive(Value value) const { return activity.isActive(value); }
  bool hasShadow(Value value) const { return activity.hasShadow(value); }
  /// What memory holds when the reverse code runs, and each loop's
  /// strategy (both know nothing outside a combined pullback).
  const PullbackMemory &getPullbackMemory() const { return memory; }
  const LoopStrategies &getLoopStrategies() const { return loops; }

  /// Primal values to their clones in the forward sweep (what `clone`
  /// takes); a rule that emits a region's forward sweep maps its results.
  IRMapping &getForwardMapping() { return forwardValues; }
  /// The reverse side of primal block `block` (created empty if new).
  Level &getLevel(Block *block) { return levels[block]; }
  /// The tape the reverse sweep pops from.
  Value getReverseTape() const { return reverseTape; }
  /// The seeds of a combined pullback, by return operand.
  ArrayRef<std::pair<unsigned, Value>> getReturnSeeds() const {
    return returnSeeds;
  }
  /// The adjoint of `value` known in the forward sweep (a running sum of
  /// an eager loop, while its iterations are emitted), or null.
  Value getKnownAdjoint(Value value) const {
    return knownAdjoints.lookup(value);
  }
  void setKnownAdjoint(Value value, Value adjoint) {
    knownAdjoints[value] = adjoint;
  }
  /// Marks `loop` as the loop whose iteration is undone in place until the
  /// result goes out of scope.
  [[nodiscard]] llvm::SaveAndRestore<Operation *> undoInPlace(Operation *loop) {
    return llvm::SaveAndRestore<Operation *>(inPlaceLoop, loop);
  }
  /// Whether `buffer`, allocated in a branch region, shares the shadow of
  /// the buffer the branch chooses (its free is the choice's).
  bool sharesChosenShadow(Value buffer) const {
    return sharedShadows.contains(buffer);
  }

  /// State a rule keeps for one op from the forward sweep to the reverse
  /// (a checkpointed loop's snapshots, a while loop's trip count): a type
  /// derived from OpState, one per op and type, created on first use. The
  /// engine knows nothing of what it holds.
  struct OpState {
    virtual ~OpState() = default;
  };
  template <typename StateT> StateT &getOpState(Operation *op) {
    std::unique_ptr<OpState> &state = opStates[{op, getStateKey<StateT>()}];
    if (!state)
      state = std::make_unique<StateT>();
    return static_cast<StateT &>(*state);
  }
  /// The state of type StateT kept for `op`, or null.
  template <typename StateT> StateT *lookupOpState(Operation *op) {
    auto it = opStates.find({op, getStateKey<StateT>()});
    return it == opStates.end() ? nullptr
                                : static_cast<StateT *>(it->second.get());
  }

private:
  /// One address per state type (no RTTI).
  template <typename StateT> static const void *getStateKey() {
    static const char key = 0;
    return &key;
  }
  DenseMap<std::pair<Operation *, const void *>, std::unique_ptr<OpState>>
      opStates;

  //===--------------------------------------------------------------------===//
  // The emitter's own machinery (ReverseEmitter.cpp, ForwardSweep.cpp): the
  // walks, eager calls, what to tape or recompute
  //===--------------------------------------------------------------------===//

  LogicalResult forwardOp(OpBuilder &b, Operation &op);
  LogicalResult reverseOp(OpBuilder &b, Operation &op);
  /// The adjoint of `call`'s result if it is known before the call runs
  /// and the callee's pullback may run there; null otherwise.
  Value buildEagerSeed(OpBuilder &b, func::CallOp call);
  /// Calls the callee's combined pullback with `seed` in the forward
  /// sweep; false (and nothing emitted) if a shadow it needs is missing.
  bool forwardEagerCall(OpBuilder &b, func::CallOp call, Value seed);
  /// `value`, computed in the forward clone of branch region `block`,
  /// passed out as a new result of the branch when the branch sits (through
  /// other branches) in a level that uses forward values directly, so that
  /// it needs no tape entry; null otherwise.
  Value passOutOfBranch(Block *block, Value value);
  /// A view of a loaded address (`view`) from the forward code of `level`
  /// in its reverse code: the address on the tape, viewed again.
  Value tapeAddress(Level &level, Location loc, Value view);
  /// Forward branches that passOutOfBranch replaced, with their
  /// replacements. They are unlinked but kept alive until emission ends:
  /// callers may still hold their results (operands gathered before the
  /// rebuild), and ops built from those are redirected at the end.
  SmallVector<std::pair<Operation *, Operation *>> retiredBranches;
  void destroyRetiredBranches();
  /// The longest chain of cheap pure ops (index arithmetic, sizes, loads
  /// of unchanged memory) the reverse code recomputes instead of taping the
  /// value at its end. Each op of the chain costs about what one tape entry
  /// costs (a push, a pop, a slot); longer chains are rare, and the bound
  /// keeps the recursive search cheap. Only a choice between two correct
  /// codes depends on it.
  static constexpr unsigned kRecomputeDepth = 6;
  /// Whether the reverse code has `value` without a new tape entry, possibly
  /// by recomputing a chain of up to `depth` cheap pure ops.
  bool isAvailable(Value value, unsigned depth);
  bool isRecomputable(Operation *op, unsigned depth = kRecomputeDepth);
  /// Whether `load` can be repeated in the reverse sweep instead of taping
  /// its value: in a combined pullback, memory that nothing writes after
  /// the load has kept what the load read. In a loop whose iterations are
  /// recomputed or undone in place, writes in later iterations do not
  /// count.
  bool isUnchangedAfter(memref::LoadOp load);

  /// The shadow of a buffer a branch chooses among buffers its regions
  /// allocate (created at `b`, shared with those buffers); null if `value`
  /// is not one.
  Value shadowOfChosenBuffer(OpBuilder &b, Value value);
  /// Reports that memory `value`, whose shadow the reverse code needs, has
  /// none it can reach (unless an error was reported already); null.
  Value reportMissingShadow(Value value);
  /// The shadow of a place a branch chooses among memory from outside it;
  /// null if `value` is not one.
  Value shadowOfChosenPlace(OpBuilder &b, Value value);
  /// The shadows of the places a choice is among, in order; reports a
  /// place without one.
  LogicalResult getShadowsOfChoices(Location loc, ArrayRef<Value> places,
                                    llvm::SmallVectorImpl<Value> &shadows);
  /// Zeros standing for the shadow of `place`, whose derivative is not
  /// tracked, in a choice: they receive what is discarded.
  Value discardedAdjoints(Value place);
  DenseMap<Value, Value> discarded;
  /// Those zeros, freed where the reverse code of their block ends.
  DenseMap<Block *, SmallVector<Value>> scratchFreedAtReverseEnd;
  /// Buffers the reverse code of a primal block allocates and frees at its
  /// end: those shadows, and stand-ins for primal heap buffers (see
  /// primalInReverse).
  DenseMap<Block *, SmallVector<Value>> freedAtReverseEnd;
  /// The region buffers that share a chosen buffer's shadow (whose alloc's
  /// reverse frees nothing).
  DenseSet<Value> sharedShadows;
  /// The shadows shadowOfChosenBuffer made: the branch, the buffers its
  /// regions yield, the regions yielding poison, the shared buffer.
  struct ChosenShadow {
    Operation *branch;
    SmallVector<memref::AllocOp> buffers;
    llvm::SmallBitVector poison;
    Value buffer;
  };
  SmallVector<ChosenShadow> chosenShadows;
  /// The shadow shadowOfChosenBuffer made for `branch` choosing `buffers`
  /// (and poison in `poison`'s regions), as `type` at `b`; null if none.
  Value knownChosenShadow(OpBuilder &b, Operation *branch,
                          ArrayRef<memref::AllocOp> buffers,
                          const llvm::SmallBitVector &poison,
                          mlir::MemRefType type);
  /// Shadows the forward sweep made outside direct levels
  /// (setShadowInForward), and every shadow it made or loaded there, and
  /// the buffers kept for the reverse sweep (keepForReverse).
  DenseMap<Value, Value> forwardShadows;
  DenseSet<Value> forwardShadowValues;
  /// Branch results whose shadows the forward clones pass out
  /// (passShadowOut).
  DenseSet<Value> shadowsPassedOut;

  //===--------------------------------------------------------------------===//
  // The emitter's state
  //===--------------------------------------------------------------------===//

  DerivativeRegistry &registry;
  func::FuncOp primal;
  SmallVector<ct::Activity> activities;
  ActivityAnalysis activity;

  IRMapping forwardValues;
  /// Node-based, so references to levels stay valid as levels are added.
  std::map<Block *, Level> levels;
  DenseMap<Value, Value> slots;
  /// The running sums of block-local adjoints: the sum, the block it is
  /// read in, and the op after which it is available (null: the block's
  /// start).
  struct BlockAdjoint {
    Value value;
    Block *block;
    Operation *after;
  };
  DenseMap<Value, BlockAdjoint> blockAdjoints;
  /// Whether each value may keep a block-local adjoint (hasBlockAdjoint).
  DenseMap<Value, bool> blockAdjointValues;
  bool hasBlockAdjoint(Value value);
  DenseMap<Value, Value> rematerialized;
  /// standInBuffer's buffers, by primal value. (Not level values: no load
  /// is recomputed from them.)
  DenseMap<Value, Value> standIns;
  Block *reverseEntry = nullptr;
  Value forwardTape, reverseTape;
  /// Lazily created tape of a combined pullback.
  ct::TapeInitOp localTape;
  /// What memory holds when the reverse code runs, and the loops undone in
  /// place or rerun (both know nothing outside a combined pullback).
  PullbackMemory memory;
  LoopStrategies loops;
  /// The loop whose iteration is being undone in place, if any.
  Operation *inPlaceLoop = nullptr;
  /// Adjoints known in the forward sweep: of the running sums of loops
  /// eager loops, while their iterations are emitted.
  DenseMap<Value, Value> knownAdjoints;
  /// Calls whose pullback ran in the forward sweep (their result's adjoint
  /// was known before them).
  DenseSet<Operation *> eagerCalls;
  /// The seeds of a combined pullback, by return operand.
  SmallVector<std::pair<unsigned, Value>> returnSeeds;
  bool hadError = false;
  /// Where memory the reverse sweep cannot reach was reported (once each:
  /// a branch passing several buffers out is one problem).
  llvm::DenseSet<mlir::Location> unreachableMemoryReported;
};

/// The zero adjoints start from: -0 rather than +0, because x + -0 == x for
/// every x (including -0), so the first accumulation folds away.
inline mlir::Value buildAdjointZero(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Type type) {
  return buildFloatConstant(b, loc, type, -0.0);
}

} // namespace cotangent::ad::reverse

#endif // COTANGENT_LIB_AD_REVERSEMODE_REVERSEEMITTER_H
