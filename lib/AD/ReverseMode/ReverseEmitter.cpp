//===- ReverseEmitter.cpp - Reverse-mode differentiation ------------------===//
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
//   pullback (same block, dominated), or of an eager loop's iteration.
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
//   iteration in the forward sweep (docs/AD.md, "Eager loops").
//
//===----------------------------------------------------------------------===//

#include "ReverseMode/ReverseEmitter.h"
#include "Analysis/BitReinterpretations.h"
#include "Analysis/ConstantMemoryWrites.h"
#include "Analysis/OutsideVariableWrites.h"
#include "DerivativeRegistry.h"
#include "Utils/ControlFlow.h"
#include "Utils/IRBuilders.h"
#include "Utils/LoopMarks.h"
#include "Utils/TapedAddresses.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

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

bool ReverseEmitter::isInDirectLevelThroughBranches(Block *block) {
  for (Block *at = block;;) {
    const Level &here = levels[at];
    if (here.direct && !here.rerun)
      return true;
    Operation *parent = at->getParentOp();
    if (!isBranch(parent))
      return false;
    at = parent->getBlock();
  }
}

/// Values the tape carries: scalars, and vector mode's lanes (a slot each).
/// `type`, which the tape cannot carry, in the user's terms.
static std::string describeUntapeable(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return "a value";
  Type element = memref.getElementType();
  std::string name = element.isF64()          ? "double"
                     : element.isF32()        ? "float"
                     : element.isInteger(1)   ? "bool"
                     : element.isIntOrIndex() ? "integer"
                                              : "element";
  if (!memref.hasStaticShape())
    return "an array of " + name + "s";
  return "an array of " + std::to_string(memref.getNumElements()) + " " + name +
         (memref.getNumElements() == 1 ? "" : "s");
}

static bool isTapeable(Type type) {
  if (auto lanes = dyn_cast<VectorType>(type))
    return ct::isDifferentiableScalar(lanes);
  return isa<FloatType, IntegerType, IndexType>(type);
}

Value ReverseEmitter::passToReverse(Block *block, Value value) {
  // From the level whose forward code made it (this one or a branch's
  // around it).
  while (!levels[block].direct &&
         value.getParentBlock() != levels[block].forward &&
         isBranch(block->getParentOp()))
    block = block->getParentOp()->getBlock();
  if (levels[block].direct)
    return value;
  if (isTapeable(value.getType()))
    return fromForward(block, value, value);
  return passOutOfBranch(block, value);
}

Value ReverseEmitter::passOutOfBranch(Block *block, Value value) {
  // The forward branch op is rebuilt with one more result: `value` from
  // the region that computed it, poison from the others.
  if (levels[block].direct || !isBranch(block->getParentOp()) ||
      !isInDirectLevelThroughBranches(block->getParentOp()->getBlock()))
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
      // Poison from the regions that did not compute it, but a condition
      // gets `false`: the reverse code tests it inside a test of the
      // branch it comes from, and scf.if's canonicalization merges the two
      // into `outer && inner`, which would be poison (undefined) exactly
      // when the outer test is false.
      OpBuilder at(yield);
      passed = value.getType().isInteger(1)
                   ? arith::ConstantIntOp::create(at, loc, 0, 1).getResult()
                   : ub::PoisonOp::create(at, loc, value.getType()).getResult();
    }
    yield->insertOperands(yield->getNumOperands(), passed);
  }
  branch->replaceAllUsesWith(rebuilt->getResults().drop_back());
  forwardValues.map(primalBranch->getResults(),
                    rebuilt->getResults().drop_back());
  // Values passed out before are results of the old op, cached by levels
  // (as values, and as keys of levels around the branch).
  auto renew = [&](Value v) {
    auto result = dyn_cast<OpResult>(v);
    return result && result.getOwner() == branch
               ? rebuilt->getResult(result.getResultNumber())
               : v;
  };
  for (auto &[primalBlock, level] : levels) {
    DenseMap<Value, Value> renewed;
    for (auto [key, known] : level.values)
      renewed[renew(key)] = renew(known);
    level.values = std::move(renewed);
  }
  branch->remove();
  retiredBranches.push_back({branch, rebuilt});
  // Out of the branch, the value belongs to the level around it.
  Value result = rebuilt->getResults().back();
  return passToReverse(outer, result);
}

void ReverseEmitter::destroyRetiredBranches() {
  // In order: a rebuilt branch may itself have been rebuilt later, so the
  // uses move along the chain to the live op.
  for (auto [old, rebuilt] : retiredBranches)
    old->replaceAllUsesWith(
        rebuilt->getResults().take_front(old->getNumResults()));
  for (auto [old, rebuilt] : retiredBranches)
    old->destroy();
  retiredBranches.clear();
}

Value ReverseEmitter::fromForward(Block *block, Value key, Value value) {
  Level &level = levels[block];
  if (level.direct)
    return value;
  if (Value known = level.values.lookup(key))
    return known;
  Location loc = value.getLoc();
  if (isa<ct::TapeType>(value.getType())) {
    // A tape passed to a call (the halves of a derivative differentiated
    // again): the reverse code never reads a primal tape, only its
    // adjoint tape, and the forward sweep has emptied it already.
    OpBuilder b = OpBuilder::atBlockBegin(reverseEntry);
    Value unread = ub::PoisonOp::create(b, loc, value.getType());
    level.values[key] = unread;
    return unread;
  }
  if (value.getDefiningOp<ct::LoadAddressOp>() ||
      forwardShadowValues.contains(value)) {
    // A loaded address, or a shadow the forward sweep made or loaded
    // (setShadowInForward): the address, passed out of branches or taped.
    // (Not other buffers: the program may free them before the reverse
    // sweep runs.)
    if (Value passed = passOutOfBranch(block, value)) {
      level.values[key] = passed;
      return passed;
    }
    Value popped = tapeAddress(level, loc, value);
    level.values[key] = popped;
    return popped;
  }
  if (!isTapeable(value.getType())) {
    hadError = true;
    if (!unreachableMemoryReported.insert(loc).second)
      return value;
    emitError(loc, "cannot differentiate in reverse mode: ")
        << describeUntapeable(value.getType())
        << " created inside a loop, branch or called function is needed by "
           "the reverse sweep; create it outside";
    return value;
  }
  if (Value passed = passOutOfBranch(block, value)) {
    level.values[key] = passed;
    return passed;
  }
  OpBuilder b(level.forward->getTerminator());
  if (auto lanes = dyn_cast<VectorType>(value.getType())) {
    // Vector mode's lanes, one tape slot each, in row-major order.
    int64_t count = lanes.getNumElements();
    for (int64_t k = 0; k < count; ++k)
      ct::TapePushOp::create(
          b, loc, getForwardTape(loc),
          vector::ExtractOp::create(b, loc, value,
                                    delinearize(k, lanes.getShape())));
    b.setInsertionPointToStart(level.reverse);
    SmallVector<Value> elements(count);
    for (int64_t k = count - 1; k >= 0; --k)
      elements[k] =
          ct::TapePopOp::create(b, loc, lanes.getElementType(), reverseTape);
    Value popped = vector::FromElementsOp::create(b, loc, lanes, elements);
    level.values[key] = popped;
    return popped;
  }
  ct::TapePushOp::create(b, loc, getForwardTape(loc), value);
  b.setInsertionPointToStart(level.reverse);
  Value popped = ct::TapePopOp::create(b, loc, value.getType(), reverseTape);
  level.values[key] = popped;
  return popped;
}

Value ReverseEmitter::tapeAddress(Level &level, Location loc, Value view) {
  // A loaded address (ct.load_address) and a heap buffer have offset 0, so
  // their aligned pointer is the address (a heap buffer's allocated one
  // too: memref.alloc without an alignment); it comes back viewed as a C
  // pointer is, then as the type it had.
  OpBuilder b(level.forward->getTerminator());
  IntegerAttr pair = getNewTapedAddressPair(b);
  auto address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view);
  address->setAttr(kTapedAddress, pair);
  ct::TapePushOp::create(b, loc, getForwardTape(loc), address);
  b.setInsertionPointToStart(level.reverse);
  Value popped = ct::TapePopOp::create(b, loc, b.getIndexType(), reverseTape);
  return buildViewOfAddress(b, loc, popped, cast<MemRefType>(view.getType()),
                            pair);
}

/// Moves `b` after the definitions of `values` in its block: code emitted
/// directly (not split) defines them where the primal has them, which can be
/// after a level's anchor.
static void moveAfter(OpBuilder &b, ArrayRef<Value> values) {
  for (Value value : values) {
    Operation *at = value.getDefiningOp();
    if (at && at->getBlock() == b.getInsertionBlock() &&
        (b.getInsertionPoint() == b.getInsertionBlock()->end() ||
         !at->isBeforeInBlock(&*b.getInsertionPoint())))
      b.setInsertionPointAfter(at);
  }
}

/// Whether the reverse code can tell which region of `branch` ran from its
/// first operand: the one place the engine needs a branch's semantics
/// beyond RegionBranchOpInterface (which region a run value selects).
static bool canChooseByRegion(Operation *branch) {
  return isa<scf::IfOp, scf::IndexSwitchOp>(branch);
}

/// Chooses among `choices`, one per region of `branch` (an scf.if, or an
/// scf.index_switch whose region 0 is the default), the one of the region
/// that ran, from `selector` (the condition or the switch's value).
static Value chooseByRegion(OpBuilder &b, Location loc, Operation *branch,
                            Value selector, ArrayRef<Value> choices) {
  assert(canChooseByRegion(branch) && "a branch with a known selector");
  if (isa<scf::IfOp>(branch))
    return arith::SelectOp::create(b, loc, selector, choices[0], choices[1]);
  Value chosen = choices[0];
  for (auto [i, value] :
       llvm::enumerate(cast<scf::IndexSwitchOp>(branch).getCases())) {
    Value isCase =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, selector,
                              arith::ConstantIndexOp::create(b, loc, value));
    chosen = arith::SelectOp::create(b, loc, isCase, choices[i + 1], chosen);
  }
  return chosen;
}

/// Constants, and constant tables (globals): made again wherever the
/// reverse code needs them.
static bool isMadeAnywhere(Operation *def) {
  return def && (def->hasTrait<OpTrait::ConstantLike>() ||
                 isa<memref::GetGlobalOp>(def));
}

bool ReverseEmitter::isAvailable(Value value, unsigned depth) {
  if (rematerialized.count(value) ||
      (inPlaceLoop &&
       !inPlaceLoop->isAncestor(value.getParentBlock()->getParentOp())))
    return true;
  Operation *def = value.getDefiningOp();
  if (isMadeAnywhere(def))
    return true;
  Level &level = levels[value.getParentBlock()];
  if (level.direct || level.values.count(value))
    return true;
  return depth > 0 && def && isRecomputable(def, depth - 1);
}

bool ReverseEmitter::isUnchangedAfter(memref::LoadOp load) {
  if (!registry.getStrategies().reloadMemory)
    return false;
  if (memory.isUnchangedAfterFunction(load))
    return true;
  Operation *loop = loops.getUndoneAfterRunning(load);
  return loop && memory.isUnchangedWithin(load, loop);
}

bool ReverseEmitter::isRecomputable(Operation *op, unsigned depth) {
  if (!registry.getStrategies().recomputeValues)
    return false;
  // Cheap means arith, the size of a memref, or a load of memory that
  // still holds what it held: a handful of them cost less than a push and a
  // pop, a transcendental function does not.
  auto isCheap = [&](Operation *inner) {
    auto load = dyn_cast<memref::LoadOp>(inner);
    return load ? isUnchangedAfter(load)
                : isa<memref::DimOp>(inner) ||
                      (isa<arith::ArithDialect>(inner->getDialect()) &&
                       isPure(inner) && inner->getNumRegions() == 0);
  };
  // A branch of such ops too (a load guarded by a loop's first trip).
  bool cheap = isCheap(op);
  auto branch = dyn_cast<scf::IfOp>(op);
  if (branch)
    cheap = llvm::all_of(op->getRegions(), [&](Region &region) {
      return llvm::all_of(region.getOps(), [&](Operation &inner) {
        return isa<scf::YieldOp>(inner) || isCheap(&inner);
      });
    });
  if (!cheap || op->getNumResults() != 1)
    return false;
  // An operand from an enclosing level costs at most one tape entry per
  // iteration of that level, not one per use here.
  Block *block = op->getBlock();
  auto available = [&](Value v) {
    Block *from = v.getParentBlock();
    return (from != block && from->findAncestorOpInBlock(*op)) ||
           isAvailable(v, depth);
  };
  if (branch) {
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    if (!llvm::all_of(captured, available))
      return false;
  }
  return llvm::all_of(op->getOperands(), available);
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
  if (isMadeAnywhere(def)) {
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
  // local buffer is gone when the reverse code of its block runs (a split
  // callee's rev half, a branch or iteration reversed later), and a heap
  // buffer out of reach (the tape carries no memory: a derivative's working
  // copies, differentiated again); the reverse code never reads primal
  // memory, so a fresh buffer of the same shape serves to pass on (to views
  // and calls). A heap one is freed where that reverse code ends.
  if (def && !level.direct &&
      (isa<ViewLikeOpInterface, memref::AllocaOp, memref::AllocOp>(def) ||
       isRecomputable(def))) {
    IRMapping mapping;
    for (Value operand : def->getOperands())
      mapping.map(operand, primalInReverse(operand));
    SetVector<Value> captured; // by a recomputed branch's regions
    getUsedValuesDefinedAbove(def->getRegions(), captured);
    for (Value outside : captured)
      mapping.map(outside, primalInReverse(outside));
    OpBuilder b(level.anchor);
    // Every result at once (a view's metadata: base, offset, sizes...).
    Operation *clone = b.clone(*def, mapping);
    for (auto [result, copy] :
         llvm::zip_equal(def->getResults(), clone->getResults()))
      level.values[result] = copy;
    Value copy = clone->getResult(cast<OpResult>(value).getResultNumber());
    if (isa<memref::AllocOp>(def))
      freedAtReverseEnd[block].push_back(copy);
    return copy;
  }
  if (!level.direct)
    if (Value standIn = standInBuffer(block, value))
      return standIn;
  return fromForward(block, value, forwardValues.lookup(value));
}

Value ReverseEmitter::standInBuffer(Block *block, Value value) {
  // Other buffers than those above (a branch's or a loop's result: the
  // working copies a derivative's branch passes out, differentiated again)
  // are as unreachable, and for the same reason a fresh one serves. Not an
  // address read back, or a buffer the forward sweep kept (fromForward
  // passes those on), nor memory that may be its own shadow (the reverse
  // code compares its address with the shadow's).
  auto type = dyn_cast<MemRefType>(value.getType());
  Value forward = forwardValues.lookup(value);
  if (!type || !forward || !canBuildScratchBuffer(type) ||
      value.getDefiningOp<ct::LoadAddressOp>() ||
      forwardShadowValues.contains(forward) || activity.mayBeOwnShadow(value))
    return nullptr;
  if (Value known = standIns.lookup(value))
    return known;
  Level &level = levels[block];
  Location loc = value.getLoc();
  // Its sizes come from the forward code.
  SmallVector<Value> sizes;
  OpBuilder fb(level.forward->getTerminator());
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim)) {
      Value size = memref::DimOp::create(fb, loc, forward, dim);
      sizes.push_back(fromForward(block, size, size));
    }
  OpBuilder b(level.anchor);
  Value standIn = buildScratchBuffer(b, loc, type, sizes);
  standIns[value] = standIn;
  scratchFreedAtReverseEnd[block].push_back(standIn);
  return standIn;
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
  if (isNullPointerView(value)) {
    // `nullptr` (a default-constructed Eigen matrix's data): nothing is
    // read or written through it, so it is its own shadow.
    IRMapping mapping;
    Operation *zero = def->getOperand(0).getDefiningOp();
    mapping.map(zero->getResult(0), b.clone(*zero)->getResult(0));
    result = b.clone(*def, mapping)->getResult(0);
  } else if (Value forward = forwardShadows.lookup(value)) {
    // A shadow the forward sweep made or read from memory
    // (setShadowInForward): a loaded address's, which the holder may have
    // changed since, or a kept buffer's, whose address it stored.
    result = fromForward(block, forward, forward);
  } else if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(def)) {
    IRMapping mapping;
    for (Value operand : def->getOperands())
      if (operand != view.getViewSource())
        mapping.map(operand, primalInReverse(operand));
    Value sourceShadow = shadowInReverse(view.getViewSource());
    if (!sourceShadow)
      return nullptr; // reported
    mapping.map(view.getViewSource(), sourceShadow);
    result = b.clone(*def, mapping)->getResult(0);
  } else if (auto select = dyn_cast_or_null<arith::SelectOp>(def)) {
    // A choice between two places: the same choice between their shadows.
    SmallVector<Value, 2> shadows;
    if (failed(getShadowsOfChoices(
            value.getLoc(), {select.getTrueValue(), select.getFalseValue()},
            shadows)))
      return nullptr;
    Value onTrue = shadows[0], onFalse = shadows[1];
    Value condition = primalInReverse(select.getCondition());
    moveAfter(b, {condition, onTrue, onFalse});
    result =
        arith::SelectOp::create(b, def->getLoc(), condition, onTrue, onFalse);
  } else if (def && isa<memref::AllocOp, memref::AllocaOp>(def)) {
    // A local buffer: its shadow is a fresh zeroed buffer where the
    // reverse code of the buffer's block starts. A buffer created in a
    // branch or an iteration lives only there, so its adjoints do too: the
    // reverse of that branch or iteration starts from zero. (A local
    // buffer of a split callee is the same case: its shadow lives in the
    // rev half.)
    IRMapping mapping;
    for (Value operand : def->getOperands())
      mapping.map(operand, primalInReverse(operand));
    result = b.clone(*def, mapping)->getResult(0);
    buildZeroFill(b, def->getLoc(), result);
  } else if (isa_and_nonnull<ub::PoisonOp>(def)) {
    // Memory no path made (a region's stand-in for what another made):
    // nothing reads its shadow either.
    result = ub::PoisonOp::create(b, def->getLoc(), value.getType());
  } else if (isa_and_nonnull<ct::TapeInitOp>(def)) {
    // A tape's adjoint: a tape of adjoints, filled by the reverse of its
    // pops and emptied by the reverse of its pushes, in its block's
    // reverse code.
    result = ct::TapeInitOp::create(b, def->getLoc());
  } else if (Value whole = getWholeMemoryPassedOn(value)) {
    // One memory on every path (a place a loop carries out): its shadow,
    // viewed alike.
    Value s = shadowInReverse(whole);
    if (!s)
      return nullptr;
    moveAfter(b, {s});
    result = s.getType() == value.getType()
                 ? s
                 : memref::CastOp::create(b, value.getLoc(), value.getType(), s)
                       .getResult();
  } else if (Value chosen = shadowOfChosenBuffer(b, value)) {
    result = chosen;
  } else if (Value place = shadowOfChosenPlace(b, value)) {
    result = place;
  } else {
    return reportMissingShadow(value);
  }
  level.shadows[value] = result;
  return result;
}

Value ReverseEmitter::reportMissingShadow(Value value) {
  if (hadError)
    return nullptr;
  hadError = true;
  Operation *def = value.getDefiningOp();
  if (def && !isBranch(def) &&
      getMemoryRoots(value) != SmallVector<Value, 2>{value}) {
    // Memory a loop carries out, which may be different memory on
    // different runs (forward mode carries its tangent alongside).
    emitError(value.getLoc(),
              "cannot differentiate in reverse mode: a reference or pointer "
              "chosen inside this loop, between different arrays or "
              "variables, is used after the loop; choose it after the loop, "
              "or use forward mode (ct::jvp)");
    return nullptr;
  }
  emitError(value.getLoc(),
            "cannot differentiate in reverse mode: the derivative of this "
            "memory is needed by the reverse sweep, but it is created "
            "inside a loop or branch; allocate it outside");
  return nullptr;
}

LogicalResult
ReverseEmitter::getShadowsOfChoices(Location loc, ArrayRef<Value> places,
                                    SmallVectorImpl<Value> &shadows) {
  for (Value place : places) {
    Value shadow = shadowInReverse(place);
    if (!shadow && !hadError && isShadowedType(place.getType()) &&
        !activity.hasShadow(place))
      shadow = discardedAdjoints(place);
    if (!shadow) {
      if (!hadError)
        emitError(loc, "cannot differentiate a choice between a place whose "
                       "derivative is tracked and one whose derivative is "
                       "not");
      hadError = true;
      return failure();
    }
    shadows.push_back(shadow);
  }
  return success();
}

Value ReverseEmitter::discardedAdjoints(Value place) {
  // Memory whose derivative is not tracked (a parameter left out of
  // ct::wrt, a table of constants) chosen beside memory whose derivative
  // is: what the choice adds to it goes to zeros of its shape (scratch
  // memory for a C pointer's), made where the reverse code of its block
  // starts and freed where it ends.
  Value &scratch = discarded[place];
  if (scratch)
    return scratch;
  Block *block = place.getParentBlock();
  OpBuilder b(levels[block].anchor);
  Location loc = place.getLoc();
  Value primal = primalInReverse(place);
  if (!primal)
    return nullptr;
  scratch = buildScratchShadow(b, loc, primal);
  scratchFreedAtReverseEnd[block].push_back(scratch);
  return scratch;
}

Value ReverseEmitter::shadowOfChosenPlace(OpBuilder &b, Value value) {
  // A place chosen by a branch whose regions each yield memory from outside
  // it (a conditional place whose arms assign: `(c ? (t = x) : (u = y)) *=
  // y`): the same choice between the places' shadows, made in the reverse
  // code from the branch's condition or the switch's value.
  Operation *def = value.getDefiningOp();
  if (!def || !canChooseByRegion(def))
    return nullptr;
  unsigned index = cast<OpResult>(value).getResultNumber();
  SmallVector<Value> places;
  for (Region &region : def->getRegions()) {
    if (region.empty())
      return nullptr;
    Value yielded = region.front().getTerminator()->getOperand(index);
    while (auto cast = yielded.getDefiningOp<memref::CastOp>())
      yielded = cast.getSource();
    if (region.isAncestor(yielded.getParentRegion()))
      return nullptr; // made in the region: a buffer, not a place
    places.push_back(yielded);
  }
  SmallVector<Value> shadows;
  if (failed(getShadowsOfChoices(value.getLoc(), places, shadows)))
    return nullptr;
  Value selector = primalInReverse(def->getOperand(0));
  SmallVector<Value> operands(shadows);
  operands.push_back(selector);
  moveAfter(b, operands);
  Location loc = value.getLoc();
  for (Value &shadow : shadows)
    if (shadow.getType() != value.getType())
      shadow = memref::CastOp::create(b, loc, value.getType(), shadow);
  return chooseByRegion(b, loc, def, selector, shadows);
}

Value ReverseEmitter::knownChosenShadow(OpBuilder &b, Operation *branch,
                                        ArrayRef<memref::AllocOp> buffers,
                                        const llvm::SmallBitVector &poison,
                                        MemRefType type) {
  // The same buffers passed out as another result of the branch (a working
  // copy a derivative's branch yields twice) have that result's shadow.
  for (const ChosenShadow &known : chosenShadows)
    if (known.branch == branch && known.poison == poison &&
        llvm::equal(known.buffers, buffers)) {
      b.setInsertionPointAfterValue(known.buffer);
      return known.buffer.getType() == type
                 ? known.buffer
                 : memref::CastOp::create(b, branch->getLoc(), type,
                                          known.buffer)
                       .getResult();
    }
  return nullptr;
}

Value ReverseEmitter::shadowOfChosenBuffer(OpBuilder &b, Value value) {
  // A buffer chosen by a branch (a function returning a std::vector from
  // two places, `return {}` early): each region yields memory it allocated
  // itself, whole. Its shadow is one fresh zeroed buffer of the chosen
  // one's size, which the region's own buffer takes as its shadow too, so
  // the adjoints the code after the branch accumulates reach the code in
  // it; it is freed when the reverse code of the branch's block ends (not
  // by the reverse of the region's alloc, which a region without active
  // code does not have).
  Operation *def = value.getDefiningOp();
  if (!def || !canChooseByRegion(def))
    return nullptr;
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || type.getRank() != 1)
    return nullptr;
  unsigned index = cast<OpResult>(value).getResultNumber();
  SmallVector<memref::AllocOp> buffers;
  // A region may yield poison instead (memory passed out of a branch
  // where it was made, poison from the others): then no buffer is chosen,
  // whose shadow is never touched, and gets one of size 0.
  llvm::SmallBitVector poison(def->getNumRegions());
  for (Region &region : def->getRegions()) {
    if (region.empty())
      return nullptr;
    Value yielded = region.front().getTerminator()->getOperand(index);
    if (yielded.getDefiningOp<ub::PoisonOp>()) {
      poison.set(region.getRegionNumber());
      continue;
    }
    if (auto cast = yielded.getDefiningOp<memref::CastOp>())
      yielded = cast.getSource();
    auto alloc = yielded.getDefiningOp<memref::AllocOp>();
    if (!alloc || !region.isAncestor(alloc->getParentRegion()) ||
        alloc.getType().getRank() != 1)
      return nullptr;
    buffers.push_back(alloc);
  }
  Location loc = value.getLoc();
  if (Value known = knownChosenShadow(b, def, buffers, poison, type))
    return known;
  Block *block = value.getParentBlock();
  Value size;
  if (levels[block].direct) {
    // Right after the chosen buffer: the reverse code follows its forward
    // code in the same block.
    Value chosen = primalInReverse(value);
    b.setInsertionPointAfterValue(chosen);
    size = memref::DimOp::create(b, loc, chosen, 0);
  } else {
    // Its size, from the forward code (by the tape): the primal's own size
    // query if it has one in the block.
    for (Operation *user : value.getUsers())
      if (auto dim = dyn_cast<memref::DimOp>(user);
          dim && dim->getBlock() == block && dim.getConstantIndex() == 0)
        size = primalInReverse(dim);
    if (!size) {
      OpBuilder forward = OpBuilder::atBlockTerminator(levels[block].forward);
      Value forwardSize =
          memref::DimOp::create(forward, loc, forwardValues.lookup(value), 0);
      size = fromForward(block, forwardSize, forwardSize);
    }
  }
  if (poison.any()) {
    if (buffers.empty())
      return nullptr;
    // Whether the region that ran made a buffer, from the branch's
    // condition or the switch's value.
    Value selector = primalInReverse(def->getOperand(0));
    moveAfter(b, selector);
    SmallVector<Value> madeBy;
    for (unsigned region = 0; region < def->getNumRegions(); ++region)
      madeBy.push_back(
          arith::ConstantIntOp::create(b, loc, !poison.test(region), 1));
    Value made = chooseByRegion(b, loc, def, selector, madeBy);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    size = arith::SelectOp::create(b, loc, made, size, zero);
  }
  auto bufferType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value buffer = memref::AllocOp::create(b, loc, bufferType, size);
  buildZeroFill(b, loc, buffer);
  for (memref::AllocOp alloc : buffers) {
    Value seed = alloc.getType() == bufferType
                     ? buffer
                     : memref::CastOp::create(b, loc, alloc.getType(), buffer)
                           .getResult();
    levels[alloc->getBlock()].shadows[alloc.getResult()] = seed;
    sharedShadows.insert(alloc.getResult());
  }
  chosenShadows.push_back({def, buffers, poison, buffer});
  freedAtReverseEnd[block].push_back(buffer);
  return type == bufferType
             ? buffer
             : memref::CastOp::create(b, loc, type, buffer).getResult();
}

//===----------------------------------------------------------------------===//
// Adjoint slots
//===----------------------------------------------------------------------===//

Value ReverseEmitter::slot(Value value) {
  if (Value known = slots.lookup(value))
    return known;
  OpBuilder b = OpBuilder::atBlockBegin(reverseEntry);
  Location loc = value.getLoc();
  auto s =
      memref::AllocaOp::create(b, loc, MemRefType::get({}, value.getType()));
  // The adjoint of a value a parallel loop's body computes is read (and
  // cleared) in the iteration that computed it.
  for (Operation *at = value.getParentBlock()->getParentOp();
       at && at != primal.getOperation(); at = at->getParentOp())
    if (at->hasAttr(kParallelLoop)) {
      s->setAttr(ct::kIterationLocal, b.getUnitAttr());
      break;
    }
  memref::StoreOp::create(b, loc, buildAdjointZero(b, loc, value.getType()), s);
  slots[value] = s;
  return s;
}

bool ReverseEmitter::hasBlockAdjoint(Value value) {
  auto [known, inserted] = blockAdjointValues.try_emplace(value, false);
  if (!inserted)
    return known->second;
  // Read once, by the reverse of the op that defines it, in its block's
  // reverse code; contributions from users in the same block land there
  // too. (Results of region ops are read in their reversed regions.) Not
  // so for a while loop's condition: what it passes gets its adjoint from
  // the loop's results and from the after region of the iteration before,
  // both reversed outside the before region's reverse code.
  auto result = dyn_cast<OpResult>(value);
  known->second = result && result.getOwner()->getNumRegions() == 0 &&
                  llvm::all_of(value.getUsers(), [&](Operation *user) {
                    return user->getBlock() == result.getOwner()->getBlock() &&
                           !isa<scf::ConditionOp>(user);
                  });
  return known->second;
}

/// Whether code inserted at `b` comes after `after` (null: the start of
/// `block`) in `block`.
static bool insertsAfter(OpBuilder &b, Block *block, Operation *after) {
  if (b.getInsertionBlock() != block)
    return false;
  if (!after || b.getInsertionPoint() == block->end())
    return true;
  Operation *next = &*b.getInsertionPoint();
  return after != next && after->isBeforeInBlock(next);
}

Value ReverseEmitter::readAndZero(OpBuilder &b, Location loc, Value value) {
  Value pending;
  if (auto it = blockAdjoints.find(value); it != blockAdjoints.end()) {
    BlockAdjoint sum = it->second;
    blockAdjoints.erase(it);
    if (!insertsAfter(b, sum.block, sum.after)) {
      hadError = true;
      emitError(loc, "internal error: an adjoint is read where its sum is "
                     "not available");
    }
    pending = sum.value;
  }
  if (pending && !slots.count(value))
    return pending;
  if (!pending && !slots.count(value) && hasBlockAdjoint(value))
    return buildAdjointZero(b, loc, value.getType());
  Value s = slot(value);
  Value adjoint = memref::LoadOp::create(b, loc, s);
  memref::StoreOp::create(b, loc, buildAdjointZero(b, loc, value.getType()), s);
  return pending ? buildAdjointSum(b, loc, adjoint, pending) : adjoint;
}

void ReverseEmitter::accumulate(OpBuilder &b, Location loc, Value value,
                                Value adjoint) {
  adjoint = buildFloatCast(b, loc, adjoint, value.getType());
  // A running SSA sum while every contribution is emitted, in order, in the
  // block where the adjoint is read; a slot otherwise (and for the rest).
  if (hasBlockAdjoint(value)) {
    Block *reverse = levels[value.getParentBlock()].reverse;
    auto it = blockAdjoints.find(value);
    if (it == blockAdjoints.end() && reverse &&
        b.getInsertionBlock() == reverse) {
      blockAdjoints[value] = {adjoint, reverse, lastOpBefore(b)};
      return;
    }
    if (it != blockAdjoints.end() &&
        insertsAfter(b, it->second.block, it->second.after)) {
      Value sum = buildAdjointSum(b, loc, it->second.value, adjoint);
      it->second.value = sum;
      it->second.after = sum.getDefiningOp();
      return;
    }
  }
  Value s = slot(value);
  Value old = memref::LoadOp::create(b, loc, s);
  memref::StoreOp::create(b, loc, buildAdjointSum(b, loc, old, adjoint), s);
}

void ReverseEmitter::accumulateCallAdjoints(
    OpBuilder &b, Location loc, ValueRange operands,
    ArrayRef<ct::Activity> callActivities, ValueRange adjoints) {
  auto adjoint = adjoints.begin();
  for (auto [operand, a] : llvm::zip_equal(operands, callActivities))
    if (a == ct::Activity::Active) {
      Value value = *adjoint++;
      if (activity.isActive(operand))
        accumulate(b, loc, operand, value);
    }
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LogicalResult ReverseEmitter::emitCombined(func::FuncOp pullback) {
  Block *entry = pullback.addEntryBlock();
  reverseEntry = entry;
  Block &body = primal.getBody().front();
  Level &top = levels[&body];
  top.forward = top.reverse = entry;
  top.direct = true;
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  top.anchor = arith::ConstantIndexOp::create(b, primal.getLoc(), 0);
  const ReverseStrategies &strategies = registry.getStrategies();
  memory = PullbackMemory(primal, activity, strategies.reloadMemory);
  loops = LoopStrategies(primal, activity, memory, strategies.eagerLoops,
                         strategies.recomputeIterations,
                         [&](Operation &op) { return needsReverse(op); });

  unsigned numArgs = primal.getNumArguments();
  ct::ReverseSignature sig =
      ct::getReverseSignature(primal.getFunctionType(), activities);
  for (auto [seed, index] :
       llvm::zip_equal(entry->getArguments().slice(numArgs, sig.seeds.size()),
                       sig.seedResults))
    returnSeeds.push_back({index, seed});
  forwardValues.map(primal.getArguments(),
                    entry->getArguments().take_front(numArgs));
  bindShadowArguments(entry, numArgs + sig.seeds.size(), top.shadows);

  if (failed(forwardBlock(b, body)))
    return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [index, seed] : returnSeeds)
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
  for (Value buffer : memory.getDeferredFrees())
    memref::DeallocOp::create(b, ret.getLoc(), forwardValues.lookup(buffer));
  func::ReturnOp::create(b, ret.getLoc(), results);
  return success();
}

void ReverseEmitter::bindShadowArguments(Block *entry, unsigned first,
                                         DenseMap<Value, Value> &shadows) {
  unsigned next = first;
  for (auto [i, arg] : llvm::enumerate(primal.getArguments()))
    if (activities[i] == ct::Activity::Duplicated)
      shadows[arg] = entry->getArgument(next++);
}

LogicalResult ReverseEmitter::emitSplit(func::FuncOp forward,
                                        func::FuncOp reverse) {
  Block &body = primal.getBody().front();
  unsigned numArgs = primal.getNumArguments();
  ct::ReverseSignature sig =
      ct::getReverseSignature(primal.getFunctionType(), activities);
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
  // (Where it keeps addresses in its arguments' memory, the forward half
  // takes their shadows too: the address work is done there.)
  if (takesShadowsInForward(forward, numArgs))
    bindShadowArguments(fwdEntry, numArgs + 1, forwardShadows);
  OpBuilder fb = OpBuilder::atBlockEnd(fwdEntry);
  if (failed(forwardBlock(fb, body)))
    return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  func::ReturnOp::create(fb, ret.getLoc(),
                         llvm::map_to_vector(ret.getOperands(), [&](Value v) {
                           return forwardValues.lookup(v);
                         }));

  // Reverse half: arguments are available again, everything else comes
  // from the tape.
  openLevel(body, fwdEntry, revEntry, /*direct=*/false);
  for (auto [i, arg] : llvm::enumerate(primal.getArguments()))
    top.values[arg] = revEntry->getArgument(i);
  unsigned firstSeed = numArgs + 1;
  bindShadowArguments(revEntry, firstSeed + sig.seeds.size(), top.shadows);
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

LogicalResult ad::emitReverse(DerivativeRegistry &registry, func::FuncOp primal,
                              func::FuncOp forward, func::FuncOp reverse,
                              ArrayRef<ct::Activity> activities) {
  if (!primal.getBody().hasOneBlock())
    return primal.emitError("cannot differentiate @")
           << primal.getSymName()
           << ": unstructured control flow (several blocks) is not supported "
              "yet; use structured loops and branches";
  ReverseEmitter emitter(registry, primal, activities);
  if (failed(refuseDerivativesInOutsideVariables(
          primal, emitter.getActivity(),
          [&](func::FuncOp f) { return registry.hasRule(f); })) ||
      failed(
          refuseDerivativesInConstantMemory(primal, emitter.getActivity())) ||
      failed(refuseDerivativesThroughBits(primal, emitter.getActivity())))
    return failure();
  if (forward == reverse)
    return emitter.emitCombined(forward);
  return emitter.emitSplit(forward, reverse);
}
