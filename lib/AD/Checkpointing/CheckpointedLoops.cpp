//===- CheckpointedLoops.cpp - Reverse mode of checkpointed loops ---------===//
//
// The loop's state is what its iterations carry (scalars) and the buffers
// its outlined iteration may write, plus buffers it reads that code after
// the loop overwrites. The forward sweep runs the loop on its own state,
// driven by the schedule (cotangent/checkpoint_schedule.h), copying the
// state into snapshots where the schedule says, and hands the state before
// the last iteration over to a working copy. The reverse sweep follows the
// rest of the schedule on that working copy: restore a snapshot, rerun
// iterations (calls of the outlined iteration), take a snapshot, or reverse
// one iteration (a call of its combined pullback, which records that one
// iteration and undoes it). The buffers' shadows are the loop's own: each
// reversal updates them in place, and the carried adjoints flow from one
// reversal to the one before.
//
//===----------------------------------------------------------------------===//

#include "Analysis/CallActivity.h"
#include "Checkpointing/CheckpointMemory.h"
#include "Checkpointing/Checkpoints.h"
#include "Checkpointing/OutlineCheckpoints.h"
#include "Checkpointing/ScheduleCalls.h"
#include "DerivativeRegistry.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Utils/IRBuilders.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

namespace {

using namespace cotangent::ad::schedule;

/// The outlined iteration `call` calls.
func::FuncOp getIteration(func::CallOp call) {
  return SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
}

/// The iteration's induction variable for schedule step `k` (an index).
Value buildIv(OpBuilder &b, Location loc, Value k, Value lowerBound,
              Value step) {
  Type type = lowerBound.getType();
  Value kk = type.isIndex()
                 ? k
                 : arith::IndexCastOp::create(b, loc, type, k).getResult();
  return arith::AddIOp::create(b, loc, lowerBound,
                               arith::MulIOp::create(b, loc, kk, step));
}

/// How a checkpointed loop's body, one call, is wired: the call operand
/// that is the induction variable, those that are the carried values, and
/// the call results that the loop carries on (in iteration-argument order).
/// The other operands come from outside the loop. (ct-outline-checkpoints
/// puts them in that order; forward mode, whose tangent loops a Hessian-
/// vector product reverses, interleaves tangents.)
struct BodyCall {
  func::CallOp call;
  unsigned ivOperand = 0;
  SmallVector<unsigned> carriedOperands, yieldedResults;

  bool isFromOutside(unsigned operand) const {
    return operand != ivOperand &&
           !llvm::is_contained(carriedOperands, operand);
  }
  /// The carried value whose operand `operand` is, if any.
  std::optional<unsigned> carriedAt(unsigned operand) const {
    auto *it = llvm::find(carriedOperands, operand);
    if (it == carriedOperands.end())
      return std::nullopt;
    return unsigned(it - carriedOperands.begin());
  }
};

std::optional<BodyCall> getBodyCall(scf::ForOp loop) {
  Block *body = loop.getBody();
  if (body->getOperations().size() != 2)
    return std::nullopt;
  auto call = dyn_cast<func::CallOp>(body->front());
  if (!call || !call->hasAttr(kCheckpointSnapshots))
    return std::nullopt;
  BodyCall wiring{call};
  // Each block argument once among the operands, nowhere else.
  for (BlockArgument arg : body->getArguments()) {
    if (!arg.hasOneUse() || arg.getUses().begin()->getOwner() != call)
      return std::nullopt;
    unsigned operand = arg.getUses().begin()->getOperandNumber();
    if (arg == loop.getInductionVar())
      wiring.ivOperand = operand;
    else
      wiring.carriedOperands.push_back(operand);
  }
  for (Value yielded : loop.getYieldedValues()) {
    auto result = dyn_cast<OpResult>(yielded);
    if (!result || result.getOwner() != call)
      return std::nullopt;
    wiring.yieldedResults.push_back(result.getResultNumber());
  }
  return wiring;
}

/// Runs iterations [from, to) of the body's function on `operands` (the
/// induction variable's and carried values' slots are replaced), from
/// carried values `carried`.
SmallVector<Value> buildAdvance(OpBuilder &b, Location loc,
                                const BodyCall &body,
                                SmallVector<Value> operands, Value from,
                                Value to, ValueRange carried, Value lowerBound,
                                Value step) {
  auto loop =
      scf::ForOp::create(b, loc, from, to, indexConstant(b, loc, 1), carried);
  OpBuilder inner = OpBuilder::atBlockBegin(loop.getBody());
  operands[body.ivOperand] =
      buildIv(inner, loc, loop.getInductionVar(), lowerBound, step);
  for (auto [j, operand] : llvm::enumerate(body.carriedOperands))
    operands[operand] = loop.getRegionIterArgs()[j];
  auto again =
      func::CallOp::create(inner, loc, getIteration(body.call), operands);
  // A loop without carried values has its yield already.
  if (!carried.empty())
    scf::YieldOp::create(
        inner, loc, llvm::map_to_vector(body.yieldedResults, [&](unsigned r) {
          return again.getResult(r);
        }));
  return llvm::to_vector(ValueRange(loop.getResults()));
}

/// buildIterationFacts for the iteration `body` calls, its operands'
/// values taken from `fwd`.
IterationFacts buildIterationFacts(OpBuilder &b, Location loc,
                                   const BodyCall &body, func::FuncOp iteration,
                                   Value lb, Value step, Value trips,
                                   const IRMapping &fwd) {
  return ad::buildIterationFacts(
      b, loc, body.call, iteration, body.ivOperand,
      [&](unsigned i) { return body.isFromOutside(i); }, lb, step, trips,
      [&](Value v) { return fwd.lookup(v); });
}

} // namespace

IterationFacts ad::buildIterationFacts(
    OpBuilder &b, Location loc, func::CallOp call, func::FuncOp iteration,
    unsigned ivOperand, function_ref<bool(unsigned)> isFromOutside, Value lb,
    Value step, Value trips, function_ref<Value(Value)> valueNow) {
  IterationFacts facts;
  for (unsigned i = 0; i < call.getNumOperands(); ++i)
    if (isFromOutside(i) && !isa<MemRefType>(call.getOperand(i).getType()))
      facts.known.map(iteration.getArgument(i), valueNow(call.getOperand(i)));
  Value lastTrip =
      arith::SubIOp::create(b, loc, trips, indexConstant(b, loc, 1));
  Value ivHi = buildIv(
      b, loc,
      arith::MaxSIOp::create(b, loc, lastTrip, indexConstant(b, loc, 0)), lb,
      step);
  facts.ranges.push_back(
      {iteration.getArgument(ivOperand),
       Interval{buildIndexCast(b, loc, lb), buildIndexCast(b, loc, ivHi)}});
  return facts;
}

/// Whether the state keeps the memory `root` that `loop`'s outlined
/// `iteration` takes as argument `i`: it may write it, or reads it and code
/// after the loop changes it.
static bool isKeptBuffer(func::FuncOp iteration, unsigned i, Value root,
                         Operation *loop, ReverseEmitter &e) {
  return mayWriteArgument(iteration, i) ||
         !e.getPullbackMemory().keepsContentsAfter(root, loop);
}

LogicalResult ad::buildStateBuffers(
    OpBuilder &b, Location loc, Operation *loop, func::CallOp call,
    func::FuncOp iteration, function_ref<bool(unsigned)> fromOutside,
    Value snapshots, const IRMapping &known,
    ArrayRef<std::pair<Value, Interval>> ranges, ReverseEmitter &e,
    SmallVectorImpl<CheckpointedLoopState::Buffer> &buffers) {
  for (unsigned i = 0; i < call.getNumOperands(); ++i) {
    if (!fromOutside(i))
      continue;
    Value root = call.getOperand(i);
    auto type = dyn_cast<MemRefType>(root.getType());
    if (!type)
      continue;
    if (!isKeptBuffer(iteration, i, root, loop, e))
      continue;
    Value rootNow = e.getForwardMapping().lookup(root);
    FailureOr<KeptElements> kept = buildKeptElements(
        b, loc, iteration, i, root, rootNow, known, ranges, loop,
        "cannot checkpoint this loop", "remove '#pragma ct checkpoint'");
    if (failed(kept)) {
      e.markFailed();
      return failure();
    }
    WorkingCopy working = buildWorkingCopy(b, loc, rootNow, *kept);
    CheckpointedLoopState::Buffer buffer;
    buffer.argument = i;
    buffer.first = kept->first;
    buffer.count = kept->count;
    buffer.workingFlat = working.flat;
    buffer.working = working.view;
    buffer.snapshots = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
        ValueRange{arith::MulIOp::create(b, loc, snapshots, buffer.count)});
    buffers.push_back(buffer);
  }
  return success();
}

SmallVector<Value> ad::buildCallShadows(OpBuilder &b, Location loc,
                                        func::CallOp call,
                                        ArrayRef<ct::Activity> activities,
                                        ReverseEmitter &e,
                                        SmallVectorImpl<Value> &scratch) {
  SmallVector<Value> shadows;
  for (auto [operand, a] : llvm::zip_equal(call.getOperands(), activities)) {
    if (a != ct::Activity::Duplicated)
      continue;
    Value s = e.shadowInReverse(operand);
    if (!s) {
      s = buildScratchShadow(b, loc, e.primalInReverse(operand));
      scratch.push_back(s);
    }
    shadows.push_back(s);
  }
  return shadows;
}

void ad::passOnIterationAdjoints(
    OpBuilder &in, Location loc, func::CallOp call,
    ArrayRef<ct::Activity> activities, ValueRange returned,
    function_ref<bool(unsigned, std::optional<unsigned> &)> carriedSlot,
    MutableArrayRef<Value> next, unsigned numCarried, ReverseEmitter &e) {
  for (Value &adjoint : next.drop_front(numCarried))
    adjoint = buildZero(in, loc, adjoint.getType());
  unsigned nextAdjoint = 0;
  for (auto [i, a] : llvm::enumerate(activities)) {
    if (a != ct::Activity::Active)
      continue;
    Value adjoint = returned[nextAdjoint++];
    std::optional<unsigned> slot;
    if (!carriedSlot(i, slot))
      e.accumulate(in, loc, call.getOperand(i), adjoint);
    else if (slot)
      next[numCarried + *slot] = adjoint;
  }
}

LogicalResult ad::finishCheckpointedReversal(
    OpBuilder &b, Location loc, OperandRange inits,
    ArrayRef<unsigned> positions, ValueRange adjoints, ArrayRef<Value> scratch,
    const CheckpointedLoopState &state, ReverseEmitter &e) {
  for (auto [j, position] : llvm::enumerate(positions)) {
    Value init = inits[position];
    if (e.getActivity().isActive(init))
      e.accumulate(b, loc, init, adjoints[j]);
  }
  for (Value s : scratch)
    buildScratchFree(b, loc, s);
  freeCheckpointedLoopState(b, loc, state);
  return success(!e.hadFailure());
}

void ad::freeCheckpointedLoopState(OpBuilder &b, Location loc,
                                   const CheckpointedLoopState &state) {
  for (const auto &buf : state.buffers) {
    memref::DeallocOp::create(b, loc, buf.snapshots);
    memref::DeallocOp::create(b, loc, buf.workingFlat);
  }
  for (Value buffer : state.carriedSnapshots)
    memref::DeallocOp::create(b, loc, buffer);
  for (Value buffer : state.carriedHandOver)
    memref::DeallocOp::create(b, loc, buffer);
  memref::DeallocOp::create(b, loc, state.schedule);
}

CheckpointedLoopState ad::passToReverse(ReverseEmitter &e, Block *block,
                                        const CheckpointedLoopState &state) {
  auto pass = [&](Value v) { return v ? e.passToReverse(block, v) : v; };
  CheckpointedLoopState passed = state;
  passed.schedule = pass(state.schedule);
  passed.lowerBound = pass(state.lowerBound);
  passed.step = pass(state.step);
  passed.calls = pass(state.calls);
  for (Value &v : passed.carriedSnapshots)
    v = pass(v);
  for (Value &v : passed.carriedHandOver)
    v = pass(v);
  for (CheckpointedLoopState::Buffer &buffer : passed.buffers)
    for (Value *v : {&buffer.first, &buffer.count, &buffer.snapshots,
                     &buffer.workingFlat, &buffer.working})
      *v = pass(*v);
  return passed;
}

func::CallOp ad::getCheckpointedCall(scf::ForOp loop) {
  std::optional<BodyCall> body = getBodyCall(loop);
  return body ? body->call : nullptr;
}

namespace {
/// A checkpointed loop recorded as usual instead (warned about once).
struct RecordedInstead : ReverseEmitter::OpState {};
} // namespace

/// Whether the pragma's rule could copy the state of `op` here: its checks
/// of the memory to keep, asked quietly on code built in a scratch region
/// of the forward code and dropped. A loop the compiler chose to checkpoint
/// is recorded where they fail (in a derivative of a derivative, memory the
/// primal left alone may be changed after the loop).
static bool canKeepStateQuietly(scf::ForOp op, ReverseEmitter &e) {
  BodyCall body = *getBodyCall(op);
  func::FuncOp iteration = getIteration(body.call);
  if (failed(e.getRegistry().generateNow(iteration)))
    return false;
  Location loc = op.getLoc();
  IRMapping &fwd = e.getForwardMapping();
  Value lb = fwd.lookup(op.getLowerBound());
  Value step = fwd.lookup(op.getStep());
  OpBuilder at = OpBuilder::atBlockBegin(lb.getParentBlock());
  auto scratch = scf::ExecuteRegionOp::create(at, loc, TypeRange{});
  OpBuilder b = OpBuilder::atBlockEnd(&scratch.getRegion().emplaceBlock());
  ScopedDiagnosticHandler quiet(op.getContext(),
                                [](Diagnostic &) { return success(); });
  Value trips = buildIndexCast(
      b, loc, buildTripCount(b, loc, lb, fwd.lookup(op.getUpperBound()), step));
  IterationFacts facts =
      buildIterationFacts(b, loc, body, iteration, lb, step, trips, fwd);
  bool keepable = true;
  for (unsigned i = 0; i < body.call.getNumOperands() && keepable; ++i) {
    Value root = body.call.getOperand(i);
    if (body.isFromOutside(i) && isa<MemRefType>(root.getType()) &&
        isKeptBuffer(iteration, i, root, op, e))
      keepable = succeeded(buildKeptElements(b, loc, iteration, i, root,
                                             fwd.lookup(root), facts.known,
                                             facts.ranges, op, "", ""));
  }
  scratch.erase();
  return keepable;
}

bool ad::canCheckpointHere(Operation *loop, ReverseEmitter &e) {
  if (e.lookupOpState<CheckpointedLoopState>(loop))
    return true;
  if (e.lookupOpState<RecordedInstead>(loop))
    return false;
  // Nothing to undo (its work reaches no result): it runs as it is, with
  // no snapshots to take or free.
  if (!e.needsReverse(*loop))
    return false;
  // The snapshots are buffers, which the tape cannot carry from one level
  // to another: the loop must sit where the reverse code sees forward
  // values directly (the body of a combined pullback, or of a
  // checkpointed loop's iteration), or in branches there, which pass them
  // out as results.
  auto forLoop = dyn_cast<scf::ForOp>(loop);
  func::CallOp call = forLoop ? getCheckpointedCall(forLoop) : nullptr;
  bool chosen = call && call->hasAttr(kCheckpointAuto);
  if (e.isInDirectLevelThroughBranches(loop->getBlock()) &&
      (!chosen || canKeepStateQuietly(forLoop, e)))
    return true;
  e.getOpState<RecordedInstead>(loop);
  // Chosen by the compiler, not asked for: nothing to warn about.
  if (chosen)
    return false;
  loop->emitWarning("'#pragma ct checkpoint' ignored: the loop sits inside "
                    "another loop, or a function called from one; "
                    "its iterations are recorded as usual. Checkpoint the "
                    "outer loop too, or move this loop out");
  return false;
}

/// Snapshots: as asked, or the least S with S * S >= trips; no more than
/// iterations.
static Value buildSnapshotCount(OpBuilder &b, Location loc, func::CallOp call,
                                Value trips, Value one) {
  int64_t asked =
      call->getAttrOfType<IntegerAttr>(kCheckpointSnapshots).getInt();
  Value snapshots;
  if (asked > 0) {
    snapshots = indexConstant(b, loc, asked);
  } else {
    auto search = scf::WhileOp::create(b, loc, b.getIndexType(), one);
    Block *before =
        b.createBlock(&search.getBefore(), {}, b.getIndexType(), {loc});
    Value s = before->getArgument(0);
    Value small =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                              arith::MulIOp::create(b, loc, s, s), trips);
    scf::ConditionOp::create(b, loc, small, s);
    Block *after =
        b.createBlock(&search.getAfter(), {}, b.getIndexType(), {loc});
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::AddIOp::create(b, loc, after->getArgument(0), one)});
    b.setInsertionPointAfter(search);
    snapshots = search.getResult(0);
  }
  return arith::MaxSIOp::create(
      b, loc, one, arith::MinSIOp::create(b, loc, snapshots, trips));
}

/// The loop as the schedule's forward part drives it: iterations advanced,
/// snapshots taken, the state handed over to the reverse sweep. Returns
/// the schedule loop's results (the last action, then the carried values).
static SmallVector<Value>
buildForwardSchedule(OpBuilder &b, Location loc, ModuleOp module,
                     const BodyCall &body, CheckpointedLoopState &state,
                     const SmallVector<Value> &operands, ValueRange initial,
                     Value lb, Value step, IRMapping &fwd) {
  func::CallOp call = body.call;
  auto flatRoot = [&](OpBuilder &at, const CheckpointedLoopState::Buffer &buf) {
    return flatten(at, loc, fwd.lookup(call.getOperand(buf.argument)));
  };
  return buildScheduleLoop(
      b, loc, module, state.schedule, "ct_checkpoint_forward_next", initial,
      [&](OpBuilder &at, Value action) {
        return arith::AndIOp::create(at, loc, isNot(at, loc, action, kDone),
                                     isNot(at, loc, action, kFinish));
      },
      [&](OpBuilder &at, Value action, ValueRange values) {
        return buildActionSwitch(
            at, loc, action, values.getTypes(),
            {kAdvance, kTakeSnapshot, kHandOver}, values,
            [&](OpBuilder &in, int64_t c) -> SmallVector<Value> {
              Value arg0 = readField(in, loc, state.schedule, kArg0);
              if (c == kAdvance)
                return buildAdvance(in, loc, body, operands, arg0,
                                    readField(in, loc, state.schedule, kArg1),
                                    values, lb, step);
              for (auto [j, v] : llvm::enumerate(values))
                memref::StoreOp::create(
                    in, loc, v,
                    c == kTakeSnapshot ? state.carriedSnapshots[j]
                                       : state.carriedHandOver[j],
                    c == kTakeSnapshot ? ValueRange{arg0}
                                       : ValueRange{indexConstant(in, loc, 0)});
              for (const auto &buf : state.buffers) {
                Value zero = indexConstant(in, loc, 0);
                if (c == kTakeSnapshot)
                  copyElements(in, loc, flatRoot(in, buf), buf.first,
                               buf.snapshots,
                               arith::MulIOp::create(in, loc, arg0, buf.count),
                               buf.count);
                else
                  copyElements(in, loc, flatRoot(in, buf), buf.first,
                               buf.workingFlat, zero, buf.count);
              }
              return llvm::to_vector(values);
            });
      });
}

LogicalResult ad::forwardCheckpointedLoop(OpBuilder &b, scf::ForOp op,
                                          ReverseEmitter &e) {
  Location loc = op.getLoc();
  BodyCall body = *getBodyCall(op);
  func::CallOp call = body.call;
  func::FuncOp iteration = getIteration(call);
  // A generated iteration (forward mode's, under a Hessian-vector
  // product) gets its body now: the analyses read it.
  if (failed(e.getRegistry().generateNow(iteration)))
    return failure();
  auto module = op->getParentOfType<ModuleOp>();
  IRMapping &fwd = e.getForwardMapping();
  CheckpointedLoopState state;
  Value lb = fwd.lookup(op.getLowerBound());
  Value ub = fwd.lookup(op.getUpperBound());
  Value step = fwd.lookup(op.getStep());
  state.lowerBound = lb;
  state.step = step;
  Value trips = buildIndexCast(b, loc, buildTripCount(b, loc, lb, ub, step));
  unsigned numCarried = op.getNumRegionIterArgs();

  Value one = indexConstant(b, loc, 1);
  Value snapshots = buildSnapshotCount(b, loc, call, trips, one);

  // The schedule.
  Value stateSize = arith::AddIOp::create(
      b, loc, indexConstant(b, loc, kStateFixed),
      arith::MulIOp::create(b, loc, snapshots,
                            indexConstant(b, loc, kStatePerSnapshot)));
  auto i64Buffer = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  state.schedule =
      memref::AllocOp::create(b, loc, i64Buffer, ValueRange{stateSize});
  callSchedule(b, loc, module, "ct_checkpoint_init",
               {state.schedule, toI64(b, loc, trips), toI64(b, loc, snapshots)},
               /*returnsAction=*/false);

  // Carried values.
  SmallVector<Value> initial = llvm::map_to_vector(
      op.getInitArgs(), [&](Value v) { return fwd.lookup(v); });
  for (Type type : op.getResultTypes()) {
    state.carriedSnapshots.push_back(memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, type),
        ValueRange{snapshots}));
    state.carriedHandOver.push_back(
        memref::AllocOp::create(b, loc, MemRefType::get({1}, type)));
  }

  // Buffers: those the iteration may write, and those it reads that are
  // overwritten after the loop.
  auto fromOutside = [&](unsigned i) { return body.isFromOutside(i); };
  IterationFacts facts =
      buildIterationFacts(b, loc, body, iteration, lb, step, trips, fwd);
  if (failed(buildStateBuffers(b, loc, op, call, iteration, fromOutside,
                               snapshots, facts.known, facts.ranges, e,
                               state.buffers)))
    return failure();

  // The loop, as the schedule's forward part drives it.
  SmallVector<Value> operands = llvm::map_to_vector(
      call.getOperands(), [&](Value v) { return fwd.lookupOrNull(v); });
  SmallVector<Value> carried = buildForwardSchedule(
      b, loc, module, body, state, operands, initial, lb, step, fwd);
  // The rest of the loop (all of it when the schedule stops at once).
  carried.erase(carried.begin());
  Value from = readField(b, loc, state.schedule, kArg0);
  Value start = arith::SelectOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, from, trips),
      from, trips);
  SmallVector<Value> results =
      buildAdvance(b, loc, body, operands, start, trips, carried, lb, step);
  fwd.map(op.getResults(), results);
  e.getOpState<CheckpointedLoopState>(op) = std::move(state);
  return success();
}

/// What reversing one iteration of a checkpointed loop needs.
struct IterationReversal {
  const BodyCall &body;
  func::CallOp call;
  func::FuncOp pullback;
  ArrayRef<ct::Activity> activities;
  /// The loop results that are floating-point, in order: their adjoints
  /// follow the carried values in the schedule loop's values.
  ArrayRef<unsigned> floatResults;
  ArrayRef<Value> shadows;
  const SmallVector<Value> &operands;
  const CheckpointedLoopState &state;
  unsigned numCarried;
  ReverseEmitter &e;
};

/// Reverses iteration `k` with its combined pullback, the carried values'
/// adjoints seeding the results that become them; returns `next` with the
/// adjoints the previous iteration's reversal takes.
static SmallVector<Value> reverseIteration(OpBuilder &in, Location loc,
                                           IterationReversal &r, Value k,
                                           ValueRange carried,
                                           ValueRange adjoints,
                                           SmallVector<Value> next) {
  SmallVector<Value> args(r.operands);
  args[r.body.ivOperand] =
      buildIv(in, loc, k, r.state.lowerBound, r.state.step);
  for (auto [j, operand] : llvm::enumerate(r.body.carriedOperands))
    args[operand] = carried[j];
  for (OpResult result : r.call->getResults()) {
    if (!ct::isDifferentiableScalar(result.getType()))
      continue;
    Value seed;
    for (auto [i, j] : llvm::enumerate(r.floatResults))
      if (r.body.yieldedResults[j] == result.getResultNumber())
        seed = adjoints[i];
    args.push_back(seed ? seed : buildZero(in, loc, result.getType()));
  }
  llvm::append_range(args, r.shadows);
  auto reversal = func::CallOp::create(in, loc, r.pullback, args);
  ValueRange returned =
      reversal.getResults().drop_front(r.call.getNumResults());
  // The adjoints of the carried values enter the previous iteration's
  // reversal (those that are floating-point); the others accumulate.
  passOnIterationAdjoints(
      in, loc, r.call, r.activities, returned,
      [&](unsigned i, std::optional<unsigned> &slot) {
        std::optional<unsigned> j = r.body.carriedAt(i);
        if (!j)
          return false;
        auto *pos = llvm::find(r.floatResults, *j);
        if (pos != r.floatResults.end())
          slot = pos - r.floatResults.begin();
        return true;
      },
      next, r.numCarried, r.e);
  return next;
}

/// What the reverse schedule starts from: the carried values at the
/// hand-over, then the adjoints of the loop's floating-point results (whose
/// positions go to `floatResults`).
static SmallVector<Value>
buildReverseStart(OpBuilder &b, Location loc, scf::ForOp op,
                  const CheckpointedLoopState &state, ReverseEmitter &e,
                  SmallVectorImpl<unsigned> &floatResults) {
  SmallVector<Value> initial;
  for (Value buffer : state.carriedHandOver)
    initial.push_back(memref::LoadOp::create(
        b, loc, buffer, ValueRange{indexConstant(b, loc, 0)}));
  for (auto [j, result] : llvm::enumerate(op.getResults()))
    if (ct::isDifferentiableScalar(result.getType())) {
      floatResults.push_back(j);
      initial.push_back(e.getActivity().isActive(result)
                            ? e.readAndZero(b, loc, result)
                            : buildZero(b, loc, result.getType()));
    }
  return initial;
}

LogicalResult ad::reverseCheckpointedLoop(OpBuilder &b, scf::ForOp op,
                                          ReverseEmitter &e) {
  Location loc = op.getLoc();
  BodyCall body = *getBodyCall(op);
  func::CallOp call = body.call;
  func::FuncOp iteration = getIteration(call);
  auto module = op->getParentOfType<ModuleOp>();
  CheckpointedLoopState state =
      passToReverse(e, op->getBlock(), e.getOpState<CheckpointedLoopState>(op));
  unsigned numCarried = op.getNumRegionIterArgs();
  SmallVector<ct::Activity> activities =
      getCallActivities(call, e.getActivity());
  func::FuncOp pullback =
      e.getRegistry().get(iteration, DerivativeKind::Pullback, activities);

  // The operands of reruns: the loop's own, but the working copies for the
  // buffers of the state.
  SmallVector<Value> operands;
  for (auto [i, v] : llvm::enumerate(call.getOperands()))
    operands.push_back(body.isFromOutside(i) ? e.primalInReverse(v) : Value());
  for (const auto &buf : state.buffers)
    operands[buf.argument] = buf.working;
  // Shadows of the buffers passed, in operand order.
  SmallVector<Value> scratch;
  SmallVector<Value> shadows =
      buildCallShadows(b, loc, call, activities, e, scratch);

  SmallVector<unsigned> floatResults;
  SmallVector<Value> initial =
      buildReverseStart(b, loc, op, state, e, floatResults);

  IterationReversal reversal{body,         call,    pullback, activities,
                             floatResults, shadows, operands, state,
                             numCarried,   e};
  SmallVector<Value> final = buildScheduleLoop(
      b, loc, module, state.schedule, "ct_checkpoint_reverse_next", initial,
      [&](OpBuilder &at, Value action) {
        return isNot(at, loc, action, kDone);
      },
      [&](OpBuilder &at, Value action, ValueRange values) {
        ValueRange carried = values.take_front(numCarried);
        ValueRange adjoints = values.drop_front(numCarried);
        return buildActionSwitch(
            at, loc, action, values.getTypes(),
            {kAdvance, kTakeSnapshot, kRestore, kReverse}, values,
            [&](OpBuilder &in, int64_t c) -> SmallVector<Value> {
              Value arg0 = readField(in, loc, state.schedule, kArg0);
              Value zero = indexConstant(in, loc, 0);
              SmallVector<Value> next(values);
              switch (c) {
              case kAdvance: {
                SmallVector<Value> after =
                    buildAdvance(in, loc, body, operands, arg0,
                                 readField(in, loc, state.schedule, kArg1),
                                 carried, state.lowerBound, state.step);
                llvm::copy(after, next.begin());
                return next;
              }
              case kTakeSnapshot:
                for (auto [j, v] : llvm::enumerate(carried))
                  memref::StoreOp::create(in, loc, v, state.carriedSnapshots[j],
                                          ValueRange{arg0});
                for (const auto &buf : state.buffers)
                  copyElements(in, loc, buf.workingFlat, zero, buf.snapshots,
                               arith::MulIOp::create(in, loc, arg0, buf.count),
                               buf.count);
                return next;
              case kRestore:
                for (unsigned j = 0; j < numCarried; ++j)
                  next[j] = memref::LoadOp::create(
                      in, loc, state.carriedSnapshots[j], ValueRange{arg0});
                for (const auto &buf : state.buffers)
                  copyElements(in, loc, buf.snapshots,
                               arith::MulIOp::create(in, loc, arg0, buf.count),
                               buf.workingFlat, zero, buf.count);
                return next;
              default:
                return reverseIteration(in, loc, reversal, arg0, carried,
                                        adjoints, std::move(next));
              }
            });
      });
  // The adjoints of the initial carried values.
  return finishCheckpointedReversal(
      b, loc, op.getInitArgs(), floatResults,
      ValueRange(final).drop_front(1 + numCarried), scratch, state, e);
}
