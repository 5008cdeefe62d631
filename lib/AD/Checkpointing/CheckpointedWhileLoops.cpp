//===- CheckpointedWhileLoops.cpp - Checkpointed loops of unknown length --===//
//
// A checkpointed loop whose trip count is known only when it ends (a
// `while`, a `for` with a `break`) reaches reverse mode as an scf.while
// whose condition region calls the outlined iteration: `(carried...,
// captured...) -> (continues, next carried..., results...)`. Its forward
// sweep runs the loop on its own state, taking snapshots as the online
// schedule says before each call (evenly spread, thinned as the loop goes
// on), and counts the calls. Its reverse sweep reverses every call, last
// first, with the binomial schedule on each stretch between snapshots: the
// last call (which ended the loop) is seeded with the adjoints of the
// loop's results, every call with the adjoints of what it carried on.
//
//===----------------------------------------------------------------------===//

#include "Analysis/CallActivity.h"
#include "Checkpointing/CheckpointMemory.h"
#include "Checkpointing/Checkpoints.h"
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
using namespace cotangent::ad::schedule;

/// Snapshots of a loop of unknown length when the pragma gives no count.
static constexpr int64_t kDefaultOnlineSnapshots = 64;

func::CallOp ad::getCheckpointedCall(scf::WhileOp loop) {
  Block *before = loop.getBeforeBody(), *after = loop.getAfterBody();
  if (before->getOperations().size() != 2 || after->getOperations().size() != 1)
    return nullptr;
  auto call = dyn_cast<func::CallOp>(before->front());
  scf::ConditionOp condition = loop.getConditionOp();
  unsigned numCarried = before->getNumArguments();
  if (!call || !call->hasAttr(kCheckpointSnapshots) ||
      call.getNumOperands() < numCarried ||
      call.getNumResults() < 1 + numCarried ||
      condition.getCondition() != call.getResult(0) ||
      condition.getArgs().size() < numCarried)
    return nullptr;
  for (auto [operand, arg] :
       llvm::zip(call.getOperands(), before->getArguments()))
    if (operand != arg)
      return nullptr;
  // What the loop carries on, then results of the call (clean-ups drop
  // those no one uses).
  for (auto [i, arg] : llvm::enumerate(condition.getArgs())) {
    auto result = dyn_cast<OpResult>(arg);
    if (!result || result.getOwner() != call ||
        (i < numCarried) != (result.getResultNumber() <= numCarried) ||
        (i < numCarried && result.getResultNumber() != 1 + i))
      return nullptr;
  }
  ValueRange yielded = after->getTerminator()->getOperands();
  if (ValueRange(after->getArguments().take_front(numCarried)) != yielded)
    return nullptr;
  return call;
}

/// The call result that loop result `i` is.
static unsigned callResultOf(scf::WhileOp loop, unsigned i) {
  return cast<OpResult>(loop.getConditionOp().getArgs()[i]).getResultNumber();
}

static func::FuncOp getIteration(func::CallOp call) {
  return SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
}

/// Copies the carried values and the buffers of the state between the
/// values `carried` / the flat buffers `buffer(k)` and snapshot `slot`
/// (`into`: towards the snapshot). The kept elements start at `first` in
/// the loop's own memory, at 0 in the working copies (`ownMemory` false).
static void copySnapshot(OpBuilder &b, Location loc,
                         const CheckpointedLoopState &state, ValueRange carried,
                         function_ref<Value(unsigned)> buffer, bool ownMemory,
                         Value slot, bool into) {
  Value zero = indexConstant(b, loc, 0);
  if (into)
    for (auto [j, v] : llvm::enumerate(carried))
      memref::StoreOp::create(b, loc, v, state.carriedSnapshots[j],
                              ValueRange{slot});
  for (auto [k, buf] : llvm::enumerate(state.buffers)) {
    Value at = arith::MulIOp::create(b, loc, slot, buf.count);
    Value start = ownMemory ? buf.first : zero;
    if (into)
      copyElements(b, loc, buffer(k), start, buf.snapshots, at, buf.count);
    else
      copyElements(b, loc, buf.snapshots, at, buffer(k), start, buf.count);
  }
}

/// `value` as an argument of the iteration plus a constant (through
/// additions of constants), or none.
static std::optional<std::pair<BlockArgument, int64_t>>
asArgumentPlus(Value value) {
  auto [base, offset] = splitConstantOffset(value);
  if (auto arg = dyn_cast<BlockArgument>(base))
    return std::make_pair(arg, offset);
  return std::nullopt;
}

/// `b` if `value` is `a && b` as C++ short-circuits it: the result of
/// `if (a) yield b else yield false`.
static Value getShortCircuitAnd(Value value) {
  auto branch = value.getDefiningOp<scf::IfOp>();
  if (!branch || branch.getNumResults() != 1 || branch.getElseRegion().empty())
    return nullptr;
  Value otherwise = branch.elseYield().getOperand(0);
  if (!matchPattern(otherwise, m_Zero()))
    return nullptr;
  return branch.thenYield().getOperand(0);
}

/// Whether every memory access whose index depends on `counter` runs only
/// where one of `tests` held (in the then-branch of a test).
static bool accessesOnlyAfter(BlockArgument counter, ArrayRef<Value> tests) {
  auto guarded = [&](Operation *op) {
    for (auto branch = op->getParentOfType<scf::IfOp>(); branch;
         branch = branch->getParentOfType<scf::IfOp>())
      if (llvm::is_contained(tests, branch.getCondition()) &&
          branch.getThenRegion().isAncestor(op->getParentRegion()))
        return true;
    return false;
  };
  SmallVector<Value> worklist{counter};
  DenseSet<Value> seen{counter};
  auto follow = [&](Value v) {
    if (v.getType().isIntOrIndex() && seen.insert(v).second)
      worklist.push_back(v);
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (llvm::any_of(user->getOperandTypes(), llvm::IsaPred<MemRefType>) ||
          isa<func::CallOp>(user)) {
        if (!guarded(user))
          return false;
        continue;
      }
      if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        auto branch = dyn_cast<scf::IfOp>(yield->getParentOp());
        if (!branch)
          return false;
        for (OpOperand &use : yield->getOpOperands())
          if (use.get() == v)
            follow(branch.getResult(use.getOperandNumber()));
        continue;
      }
      for (Value result : user->getResults())
        follow(result);
    }
  }
  return true;
}

/// The ranges of the carried integers that count up, for the bounds of
/// what the iterations index: carried value `c` counts up if the
/// iteration goes on with c + step (step > 0) and only while
/// `c + k < bound` (or <=, possibly and-ed with other tests) for a bound
/// from outside the loop. The iterations then run with c from its initial
/// value up to the last value that passes the test, plus a step (the call
/// that stops the loop) unless the accesses wait for the test.
static SmallVector<std::pair<Value, Interval>>
buildCounterRanges(OpBuilder &b, Location loc, scf::WhileOp op,
                   func::FuncOp iteration, const IRMapping &known,
                   const IRMapping &fwd) {
  SmallVector<std::pair<Value, Interval>> ranges;
  auto ret = cast<func::ReturnOp>(iteration.getBody().front().getTerminator());
  Value continues = ret.getOperand(0);
  SmallVector<arith::CmpIOp> tests;
  SmallVector<Value> conjuncts{continues};
  while (!conjuncts.empty()) {
    Value v = conjuncts.pop_back_val();
    if (auto both = v.getDefiningOp<arith::AndIOp>()) {
      conjuncts.append({both.getLhs(), both.getRhs()});
    } else if (auto compare = v.getDefiningOp<arith::CmpIOp>()) {
      tests.push_back(compare);
    } else if (Value second = getShortCircuitAnd(v)) {
      conjuncts.append({v.getDefiningOp<scf::IfOp>().getCondition(), second});
    }
  }
  auto toIndex = [&](Value v) -> Value {
    if (v.getType().isIndex())
      return v;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  unsigned numCarried = op.getBeforeBody()->getNumArguments();
  for (unsigned j = 0; j < numCarried; ++j) {
    BlockArgument counter = iteration.getArgument(j);
    if (!counter.getType().isIntOrIndex())
      continue;
    // What it goes on with (a select on `continues` keeps the old value
    // when the loop stops).
    Value next = ret.getOperand(1 + j);
    if (auto select = next.getDefiningOp<arith::SelectOp>();
        select && select.getCondition() == continues)
      next = select.getTrueValue();
    if (auto branch = next.getDefiningOp<scf::IfOp>();
        branch && branch.getCondition() == continues)
      next =
          branch.thenYield().getOperand(cast<OpResult>(next).getResultNumber());
    auto stepped = asArgumentPlus(next);
    if (!stepped || stepped->first != counter || stepped->second <= 0)
      continue;
    for (arith::CmpIOp compare : tests) {
      bool strict = compare.getPredicate() == arith::CmpIPredicate::slt;
      if (!strict && compare.getPredicate() != arith::CmpIPredicate::sle)
        continue;
      auto tested = asArgumentPlus(compare.getLhs());
      if (!tested || tested->first != counter)
        continue;
      Value bound;
      if (std::optional<int64_t> c = getConstantIntValue(compare.getRhs()))
        bound = arith::ConstantIndexOp::create(b, loc, *c);
      else if (auto arg = dyn_cast<BlockArgument>(compare.getRhs());
               arg && arg.getOwner() == &iteration.getBody().front())
        if (Value outside = known.lookupOrNull(arg))
          bound = toIndex(outside);
      if (!bound)
        continue;
      Value init = toIndex(fwd.lookup(op.getInits()[j]));
      // The largest counter that passes the test, and, unless every access
      // waits for the test, the one after it.
      int64_t beyond = -tested->second - (strict ? 1 : 0);
      if (!accessesOnlyAfter(counter, {compare.getResult(), continues}))
        beyond += stepped->second;
      Value last = arith::AddIOp::create(
          b, loc, bound, arith::ConstantIndexOp::create(b, loc, beyond));
      Value hi = arith::MaxSIOp::create(b, loc, init, last);
      ranges.push_back({counter, Interval{init, hi}});
      break;
    }
  }
  return ranges;
}

/// Before call `k` of the forward loop: the schedule's snapshot actions
/// (take one of `carried` and the state's buffers, or move one) until it
/// says to run the call.
static void buildSnapshotActions(OpBuilder &b, Location loc, ModuleOp module,
                                 CheckpointedLoopState &state,
                                 func::CallOp call, ValueRange carried, Value k,
                                 IRMapping &fwd) {
  auto actions = scf::WhileOp::create(b, loc, b.getI64Type(), ValueRange{});
  b.createBlock(&actions.getBefore());
  Value action = callSchedule(b, loc, module, "ct_checkpoint_online_next",
                              {state.schedule, toI64(b, loc, k)});
  scf::ConditionOp::create(b, loc, isNot(b, loc, action, kAdvance),
                           ValueRange{action});
  Block *body = b.createBlock(&actions.getAfter(), {}, b.getI64Type(), {loc});
  buildActionSwitch(
      b, loc, body->getArgument(0), {}, {kTakeSnapshot, kMoveSnapshot}, {},
      [&](OpBuilder &in, int64_t c) -> SmallVector<Value> {
        Value from = readField(in, loc, state.schedule, kArg0);
        if (c == kTakeSnapshot) {
          copySnapshot(
              in, loc, state, carried,
              [&](unsigned j) {
                return flatten(
                    in, loc,
                    fwd.lookup(call.getOperand(state.buffers[j].argument)));
              },
              /*ownMemory=*/true, from, /*into=*/true);
          return {};
        }
        Value to = readField(in, loc, state.schedule, kArg1);
        for (Value buffer : state.carriedSnapshots)
          memref::StoreOp::create(
              in, loc,
              memref::LoadOp::create(in, loc, buffer, ValueRange{from}), buffer,
              ValueRange{to});
        for (const auto &buf : state.buffers)
          copyElements(
              in, loc, buf.snapshots,
              arith::MulIOp::create(in, loc, from, buf.count), buf.snapshots,
              arith::MulIOp::create(in, loc, to, buf.count), buf.count);
        return {};
      });
  scf::YieldOp::create(b, loc);
  b.setInsertionPointAfter(actions);
}

LogicalResult ad::forwardCheckpointedLoop(OpBuilder &b, scf::WhileOp op,
                                          ReverseEmitter &e) {
  Location loc = op.getLoc();
  func::CallOp call = getCheckpointedCall(op);
  func::FuncOp iteration = getIteration(call);
  if (failed(e.getRegistry().generateNow(iteration)))
    return failure();
  auto module = op->getParentOfType<ModuleOp>();
  IRMapping &fwd = e.getForwardMapping();
  CheckpointedLoopState state;
  unsigned numCarried = op.getBeforeBody()->getNumArguments();

  int64_t asked =
      call->getAttrOfType<IntegerAttr>(kCheckpointSnapshots).getInt();
  Value snapshots =
      indexConstant(b, loc, asked > 0 ? asked : kDefaultOnlineSnapshots);
  Value stateSize = arith::AddIOp::create(
      b, loc, indexConstant(b, loc, kStateFixed),
      arith::MulIOp::create(b, loc, snapshots,
                            indexConstant(b, loc, kStatePerSnapshot)));
  state.schedule = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI64Type()),
      ValueRange{stateSize});
  callSchedule(b, loc, module, "ct_checkpoint_online_init",
               {state.schedule, toI64(b, loc, snapshots)},
               /*returnsAction=*/false);
  for (Type type : op.getBeforeBody()->getArgumentTypes())
    state.carriedSnapshots.push_back(memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, type),
        ValueRange{snapshots}));
  IRMapping known;
  for (unsigned i = numCarried; i < call.getNumOperands(); ++i)
    if (call.getOperand(i).getType().isIntOrIndex())
      known.map(iteration.getArgument(i), fwd.lookup(call.getOperand(i)));
  SmallVector<std::pair<Value, Interval>> counters =
      buildCounterRanges(b, loc, op, iteration, known, fwd);
  if (failed(buildStateBuffers(
          b, loc, op, call, iteration,
          [&](unsigned i) { return i >= numCarried; }, snapshots, known,
          counters, e, state.buffers)))
    return failure();

  // The loop, counting its calls; the schedule's snapshots before each.
  SmallVector<Value> inits = llvm::map_to_vector(
      op.getInits(), [&](Value v) { return fwd.lookup(v); });
  inits.push_back(indexConstant(b, loc, 0));
  SmallVector<Type> carriedTypes(op.getBeforeBody()->getArgumentTypes());
  carriedTypes.push_back(b.getIndexType());
  // What the calls return (but whether to go on), and the count.
  SmallVector<Type> passedTypes(TypeRange(call.getResultTypes()).drop_front());
  passedTypes.push_back(b.getIndexType());
  auto loop = scf::WhileOp::create(b, loc, passedTypes, inits);
  Block *before =
      b.createBlock(&loop.getBefore(), {}, carriedTypes,
                    SmallVector<Location>(carriedTypes.size(), loc));
  ValueRange carried = before->getArguments().drop_back();
  Value k = before->getArguments().back();
  buildSnapshotActions(b, loc, module, state, call, carried, k, fwd);
  SmallVector<Value> operands = llvm::map_to_vector(
      call.getOperands(), [&](Value v) { return fwd.lookupOrNull(v); });
  llvm::copy(carried, operands.begin());
  auto step = func::CallOp::create(b, loc, iteration, operands);
  SmallVector<Value> passed(step.getResults().drop_front());
  passed.push_back(arith::AddIOp::create(b, loc, k, indexConstant(b, loc, 1)));
  scf::ConditionOp::create(b, loc, step.getResult(0), passed);
  Block *after = b.createBlock(&loop.getAfter(), {}, passedTypes,
                               SmallVector<Location>(passedTypes.size(), loc));
  SmallVector<Value> next(after->getArguments().take_front(numCarried));
  next.push_back(after->getArguments().back());
  scf::YieldOp::create(b, loc, next);
  b.setInsertionPointAfter(loop);

  Value calls = loop.getResults().back();
  callSchedule(b, loc, module, "ct_checkpoint_online_finish",
               {state.schedule, toI64(b, loc, calls)},
               /*returnsAction=*/false);
  for (OpResult result : op->getResults())
    fwd.map(result,
            loop.getResult(callResultOf(op, result.getResultNumber()) - 1));
  state.calls = calls;
  e.getOpState<CheckpointedLoopState>(op) = std::move(state);
  return success();
}

/// What the reverse schedule of `op` starts from: the carried values
/// (placeholders until the first restore), the adjoints of what each call
/// carries on (the positions of the floating-point ones go to
/// `floatCarried`), then of the calls' results proper, from the loop's
/// results that are them (what the last call carried on is not used).
static SmallVector<Value>
buildReverseStart(OpBuilder &b, Location loc, scf::WhileOp op,
                  func::CallOp call, ReverseEmitter &e,
                  SmallVectorImpl<unsigned> &floatCarried) {
  unsigned numCarried = op.getBeforeBody()->getNumArguments();
  SmallVector<Value> initial = llvm::map_to_vector(
      op.getInits(), [&](Value v) { return e.primalInReverse(v); });
  for (auto [j, type] : llvm::enumerate(op.getBeforeBody()->getArgumentTypes()))
    if (ct::isDifferentiableScalar(type)) {
      floatCarried.push_back(j);
      initial.push_back(buildZero(b, loc, type));
    }
  DenseMap<unsigned, Value> resultAdjoints;
  for (OpResult result : op->getResults().drop_front(numCarried))
    if (ct::isDifferentiableScalar(result.getType()))
      resultAdjoints[callResultOf(op, result.getResultNumber())] =
          e.getActivity().isActive(result)
              ? e.readAndZero(b, loc, result)
              : buildZero(b, loc, result.getType());
  for (unsigned r = 1 + numCarried; r < call.getNumResults(); ++r) {
    Type type = call.getResult(r).getType();
    if (!ct::isDifferentiableScalar(type))
      continue;
    Value adjoint = resultAdjoints.lookup(r);
    initial.push_back(adjoint ? adjoint : buildZero(b, loc, type));
  }
  return initial;
}

/// What reversing one call of a checkpointed while loop's iteration needs.
struct CallReversal {
  func::CallOp call;
  func::FuncOp pullback;
  ArrayRef<ct::Activity> activities;
  ArrayRef<unsigned> floatCarried;
  ArrayRef<Value> shadows;
  const SmallVector<Value> &operands;
  /// How many calls the forward sweep made.
  Value calls;
  unsigned numCarried;
  ReverseEmitter &e;
};

/// Reverses call `k`; the last one ended the loop and takes the adjoints of
/// its results. Returns `next` with the adjoints the previous call's
/// reversal takes.
static SmallVector<Value>
reverseCall(OpBuilder &in, Location loc, CallReversal &r, Value k,
            ValueRange carried, ValueRange nextAdjoints,
            ValueRange resultAdjoints, SmallVector<Value> next) {
  Value last = arith::CmpIOp::create(
      in, loc, arith::CmpIPredicate::eq, k,
      arith::SubIOp::create(in, loc, r.calls, indexConstant(in, loc, 1)));
  SmallVector<Value> args(r.operands);
  llvm::copy(carried, args.begin());
  llvm::append_range(args, nextAdjoints);
  for (Value adjoint : resultAdjoints)
    args.push_back(arith::SelectOp::create(
        in, loc, last, adjoint, buildZero(in, loc, adjoint.getType())));
  llvm::append_range(args, r.shadows);
  auto reversal = func::CallOp::create(in, loc, r.pullback, args);
  ValueRange returned =
      reversal.getResults().drop_front(r.call.getNumResults());
  passOnIterationAdjoints(
      in, loc, r.call, r.activities, returned,
      [&](unsigned i, std::optional<unsigned> &slot) {
        if (i >= r.numCarried)
          return false;
        slot = llvm::find(r.floatCarried, i) - r.floatCarried.begin();
        return true;
      },
      MutableArrayRef<Value>(next).take_front(r.numCarried +
                                              nextAdjoints.size()),
      r.numCarried, r.e);
  return next;
}

LogicalResult ad::reverseCheckpointedLoop(OpBuilder &b, scf::WhileOp op,
                                          ReverseEmitter &e) {
  Location loc = op.getLoc();
  func::CallOp call = getCheckpointedCall(op);
  func::FuncOp iteration = getIteration(call);
  auto module = op->getParentOfType<ModuleOp>();
  CheckpointedLoopState state =
      passToReverse(e, op->getBlock(), e.getOpState<CheckpointedLoopState>(op));
  unsigned numCarried = op.getBeforeBody()->getNumArguments();
  Value calls = state.calls;
  SmallVector<ct::Activity> activities =
      getCallActivities(call, e.getActivity());
  func::FuncOp pullback =
      e.getRegistry().get(iteration, DerivativeKind::Pullback, activities);

  SmallVector<Value> operands =
      llvm::map_to_vector(call.getOperands(), [&](Value v) -> Value {
        auto arg = dyn_cast<BlockArgument>(v);
        return arg && arg.getOwner() == op.getBeforeBody()
                   ? Value()
                   : e.primalInReverse(v);
      });
  for (const auto &buf : state.buffers)
    operands[buf.argument] = buf.working;
  SmallVector<Value> scratch;
  SmallVector<Value> shadows =
      buildCallShadows(b, loc, call, activities, e, scratch);

  SmallVector<unsigned> floatCarried;
  SmallVector<Value> initial =
      buildReverseStart(b, loc, op, call, e, floatCarried);
  unsigned numNext = floatCarried.size();
  CallReversal reversal{call,         pullback,   activities,
                        floatCarried, shadows,    operands,
                        calls,        numCarried, e};
  SmallVector<Value> final = buildScheduleLoop(
      b, loc, module, state.schedule, "ct_checkpoint_reverse_next", initial,
      [&](OpBuilder &at, Value action) {
        return isNot(at, loc, action, kDone);
      },
      [&](OpBuilder &at, Value action, ValueRange values) {
        ValueRange carried = values.take_front(numCarried);
        ValueRange nextAdjoints = values.slice(numCarried, numNext);
        ValueRange resultAdjoints = values.drop_front(numCarried + numNext);
        return buildActionSwitch(
            at, loc, action, values.getTypes(),
            {kAdvance, kTakeSnapshot, kRestore, kReverse}, values,
            [&](OpBuilder &in, int64_t c) -> SmallVector<Value> {
              Value arg0 = readField(in, loc, state.schedule, kArg0);
              SmallVector<Value> next(values);
              auto working = [&](unsigned j) {
                return state.buffers[j].workingFlat;
              };
              switch (c) {
              case kAdvance: {
                auto rerun = scf::ForOp::create(
                    in, loc, arg0, readField(in, loc, state.schedule, kArg1),
                    indexConstant(in, loc, 1), carried);
                OpBuilder body = OpBuilder::atBlockBegin(rerun.getBody());
                SmallVector<Value> args(operands);
                llvm::copy(rerun.getRegionIterArgs(), args.begin());
                auto again = func::CallOp::create(body, loc, iteration, args);
                scf::YieldOp::create(body, loc,
                                     again.getResults().slice(1, numCarried));
                llvm::copy(rerun.getResults(), next.begin());
                return next;
              }
              case kTakeSnapshot:
                copySnapshot(in, loc, state, carried, working,
                             /*ownMemory=*/false, arg0, /*into=*/true);
                return next;
              case kRestore:
                for (unsigned j = 0; j < numCarried; ++j)
                  next[j] = memref::LoadOp::create(
                      in, loc, state.carriedSnapshots[j], ValueRange{arg0});
                copySnapshot(in, loc, state, {}, working,
                             /*ownMemory=*/false, arg0, /*into=*/false);
                return next;
              default:
                return reverseCall(in, loc, reversal, arg0, carried,
                                   nextAdjoints, resultAdjoints,
                                   std::move(next));
              }
            });
      });
  // What the first call received goes to the loop's initial values.
  return finishCheckpointedReversal(
      b, loc, op.getInits(), floatCarried,
      ValueRange(final).drop_front(1 + numCarried).take_front(numNext), scratch,
      state, e);
}
