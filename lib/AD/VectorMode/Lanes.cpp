//===- Lanes.cpp - Vector mode: K derivatives through one sweep -----------===//
//
// Two steps per function. The analysis finds the values that carry lanes:
// from the widened arguments forward through elementwise arithmetic, loads,
// region results and calls; memory that lanes are stored into carries lanes
// as a whole, so it also goes back to where the memory comes from (views,
// loop-carried buffers, arguments). The rewrite then gives those values
// their lane types in a copy of the function, turns accesses of widened
// memory into vector loads and stores, rebuilds views and calls, and
// broadcasts the primal values that meet lanes.
//
//===----------------------------------------------------------------------===//

#include "VectorMode/Lanes.h"
#include "Transforms/Transforms.h"
#include "Utils/IRBuilders.h"
#include "Utils/TapedAddresses.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/LaneAccesses.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

struct LaneWidener::Widening {
  func::FuncOp function;
  /// Which arguments and results carry lanes.
  SmallVector<bool> args, results;
  /// The values of `function` that carry lanes.
  DenseSet<Value> wide;
  bool analyzing = true;
  /// Whether a call inside the function asked for this analysis while it
  /// ran (recursion).
  bool recursive = false;
  func::FuncOp widened;
};

static std::string maskKey(ArrayRef<bool> args, ArrayRef<bool> results) {
  std::string key;
  for (bool b : args)
    key += b ? 'w' : 's';
  key += '.';
  for (bool b : results)
    key += b ? 'w' : 's';
  return key;
}

/// Gives each use of memory that is nothing its own op: a poison memref
/// (memory no path made, which a region yields beside memory another
/// region made) and a view of the null pointer (a class's empty storage,
/// stored as the address of the primal object's memory and of its
/// derivative's alike). One use may stand for memory with lanes, another
/// for memory without.
static void splitMemoryOfNothing(func::FuncOp function) {
  SmallVector<Operation *> nothing;
  function.walk([&](Operation *op) {
    if ((isa<ub::PoisonOp>(op) &&
         isa<MemRefType>(op->getResult(0).getType())) ||
        (isa<ct::PointerViewOp>(op) && isNullPointerView(op->getResult(0))))
      nothing.push_back(op);
  });
  for (Operation *op : nothing)
    for (OpOperand &use : llvm::make_early_inc_range(op->getUses())) {
      if (op->hasOneUse())
        break;
      OpBuilder b(use.getOwner());
      use.set(b.clone(*op)->getResult(0));
    }
}

/// Whether `function` reads an address kept in memory one of its
/// arguments gives access to.
static bool readsAddressesInArguments(func::FuncOp function) {
  return function
      .walk([&](ct::LoadAddressOp load) {
        for (Value root : getMemoryRoots(load.getHolder()))
          if (auto arg = dyn_cast<BlockArgument>(root);
              arg && arg.getOwner()->isEntryBlock() &&
              arg.getOwner()->getParentOp() == function)
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Ops that only view the memory of their first operand.
static bool isLaneView(Operation *op) {
  return isa<memref::CastOp, memref::SubViewOp, memref::ReinterpretCastOp>(op);
}

/// Reports that `op` cannot carry lanes. The location is the primal
/// construct the derivative code was generated for.
static LogicalResult unsupported(Operation *op, StringRef why = "") {
  InFlightDiagnostic diag =
      op->emitError("vector mode (ct::lanes) cannot differentiate this "
                    "construct yet");
  if (!why.empty())
    diag << ": " << why;
  diag << "; use one lane (ct::pullback or ct::jvp without ct::lanes)";
  return failure();
}

namespace cotangent::ad {

/// The fixpoint of which values carry lanes.
class LaneAnalysis {
public:
  LaneAnalysis(LaneWidener &widener, LaneWidener::Widening &w)
      : widener(widener), w(w) {}

  LogicalResult run() {
    Block &entry = w.function.getBody().front();
    for (auto [i, arg] : llvm::enumerate(entry.getArguments()))
      if (w.args[i])
        mark(arg);
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (isa<MemRefType, ct::TapeType>(value.getType()) &&
          failed(visitSource(value)))
        return failure();
      for (OpOperand &use : value.getUses())
        if (failed(visitUse(use)))
          return failure();
    }
    return success();
  }

private:
  void mark(Value value) {
    if (w.wide.insert(value).second)
      worklist.push_back(value);
  }

  /// Widened memory widens the memory it is a view or a choice of.
  LogicalResult visitSource(Value memory) {
    if (auto arg = dyn_cast<BlockArgument>(memory)) {
      Operation *parent = arg.getOwner()->getParentOp();
      unsigned n = arg.getArgNumber();
      if (parent == w.function) {
        w.args[n] = true;
        return success();
      }
      if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        if (n == 0)
          return success();
        markCarried(loop, n - 1);
        return success();
      }
      if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
        if (arg.getOwner() == loop.getBeforeBody()) {
          mark(loop.getInits()[n]);
          mark(loop.getYieldOp().getOperand(n));
        } else {
          mark(loop.getConditionOp().getArgs()[n]);
          mark(loop.getResult(n));
        }
        return success();
      }
      return unsupported(parent);
    }
    auto result = cast<OpResult>(memory);
    Operation *op = result.getOwner();
    unsigned n = result.getResultNumber();
    if (isLaneView(op)) {
      mark(op->getOperand(0));
      return success();
    }
    // Fresh memory, or memory no path made (poison, one per use).
    if (isa<memref::AllocOp, memref::AllocaOp, ct::TapeInitOp, ub::PoisonOp>(
            op))
      return success();
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      markCarried(loop, n);
      return success();
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      mark(loop.getConditionOp().getArgs()[n]);
      mark(loop.getAfterArguments()[n]);
      return success();
    }
    if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(op)) {
      for (Region &region : op->getRegions())
        if (!region.empty())
          mark(region.front().getTerminator()->getOperand(n));
      return success();
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      mark(select.getTrueValue());
      mark(select.getFalseValue());
      return success();
    }
    if (auto call = dyn_cast<func::CallOp>(op))
      return visitCall(call, n);
    if (auto load = dyn_cast<ct::LoadAddressOp>(op)) {
      markAddressClass(load.getView());
      return success();
    }
    if (auto view = dyn_cast<ct::PointerViewOp>(op))
      return markTapedAddresses(view);
    return unsupported(op, "its memory comes from elsewhere");
  }

  /// The view and the holder of a ct.store_address or ct.load_address.
  static std::optional<std::pair<Value, Value>> addressAccess(Operation *op) {
    if (auto store = dyn_cast<ct::StoreAddressOp>(op))
      return std::make_pair(store.getView(), store.getHolder());
    if (auto load = dyn_cast<ct::LoadAddressOp>(op))
      return std::make_pair(load.getView(), load.getHolder());
    return std::nullopt;
  }

  /// Memory whose address is kept in memory (docs/Memory.md): every view
  /// of its scalar type in the class of `view` (buildAddressClasses) may be
  /// the same memory, so all of them carry lanes (the views of the
  /// derivative's memory; the primal's are never stored beside them).
  void markAddressClass(Value view) {
    Type scalar = cast<MemRefType>(view.getType()).getElementType();
    if (!addressClassesBuilt)
      buildAddressClasses();
    Value target = classOfAll(view);
    if (!wideClasses.insert({target, scalar}).second)
      return;
    w.function.walk([&](Operation *op) {
      std::optional<std::pair<Value, Value>> access = addressAccess(op);
      if (!access)
        return;
      Value other = access->first;
      if (classOfAll(other) != target ||
          cast<MemRefType>(other.getType()).getElementType() != scalar)
        return;
      mark(other);
    });
  }

  /// Which memories may be the same, as far as addresses go: a memory whose
  /// address is stored in a holder is one with every memory stored in, or
  /// loaded from, a holder of the same class (unification, as in
  /// Steensgaard's points-to analysis: holders reached through addresses
  /// are classed by what holds them). The derivative's memories never join
  /// the primal's: their addresses are never stored beside each other (the
  /// null pointer, and memory with no derivative, which a derivative
  /// holder keeps as it is, are left out).
  void buildAddressClasses() {
    addressClassesBuilt = true;
    w.function.walk([&](Operation *op) {
      std::optional<std::pair<Value, Value>> access = addressAccess(op);
      if (!access)
        return;
      auto [view, holder] = *access;
      if (isNullPointerView(view) ||
          !ct::isDifferentiableMemRef(view.getType()))
        return;
      Value pointee = classOfAll(view);
      Value held = classOfAll(holder);
      auto known = heldBy.find(held);
      if (known == heldBy.end())
        heldBy[held] = findClass(pointee);
      else
        unite(known->second, pointee);
    });
  }
  /// The class of every memory `memory` may be: a choice (an object
  /// chosen by a conditional, a branch's result) is each of them, so they
  /// are one class.
  Value classOfAll(Value memory) {
    SmallVector<Value, 2> roots = getMemoryRoots(memory);
    if (roots.empty())
      return findClass(getMemoryRoot(memory));
    for (Value root : llvm::drop_begin(roots))
      unite(roots.front(), root);
    return findClass(roots.front());
  }
  Value findClass(Value root) {
    auto [it, inserted] = addressClasses.try_emplace(root, root);
    if (inserted || it->second == root)
      return root;
    Value found = findClass(it->second);
    addressClasses[root] = found;
    return found;
  }
  void unite(Value a, Value b) {
    a = findClass(a);
    b = findClass(b);
    if (a == b)
      return;
    addressClasses[a] = b;
    // What the two held is one memory too.
    auto heldA = heldBy.find(a);
    if (heldA == heldBy.end())
      return;
    Value pointeeA = heldA->second;
    heldBy.erase(heldA);
    auto heldB = heldBy.find(b);
    if (heldB == heldBy.end())
      heldBy[b] = pointeeA;
    else
      unite(pointeeA, heldB->second);
  }

  /// A view rebuilt from an address on the tape (the reverse sweep's view
  /// of memory whose address is kept): the view whose address the forward
  /// sweep read for it (the same kTapedAddress number) carries lanes with
  /// it.
  LogicalResult markTapedAddresses(ct::PointerViewOp view) {
    // The null pointer (kept where an address of memory with lanes may
    // be): lanes of nothing.
    if (isNullPointerView(view))
      return success();
    auto pair = view->getAttrOfType<IntegerAttr>(kTapedAddress);
    if (!pair)
      return unsupported(view, "its memory comes from elsewhere");
    bool found = false;
    w.function.walk([&](memref::ExtractAlignedPointerAsIndexOp address) {
      if (address->getAttr(kTapedAddress) != pair)
        return;
      mark(address.getSource());
      found = true;
    });
    // (The forward half of a recursive function, split from its reverse
    // half, took the address.)
    if (!found)
      return unsupported(view, "a recursive function keeps the address of "
                               "this memory for its reverse sweep");
    return success();
  }

  /// Iteration argument `j` of `loop`: its start, the value each iteration
  /// yields for it, and the result it becomes all carry lanes.
  void markCarried(scf::ForOp loop, unsigned j) {
    mark(loop.getInitArgs()[j]);
    mark(loop.getRegionIterArgs()[j]);
    mark(loop.getYieldedValues()[j]);
    mark(loop.getResult(j));
  }

  LogicalResult visitUse(OpOperand &use) {
    Operation *op = use.getOwner();
    unsigned n = use.getOperandNumber();
    for (auto visit :
         {&LaneAnalysis::visitMemoryUse, &LaneAnalysis::visitTapeUse,
          &LaneAnalysis::visitControlFlowUse})
      if (std::optional<LogicalResult> result = (this->*visit)(op, n))
        return *result;
    if (isa<func::ReturnOp>(op)) {
      w.results[n] = true;
      return success();
    }
    if (auto call = dyn_cast<func::CallOp>(op))
      return visitCall(call, std::nullopt);
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      if (n == 0)
        return unsupported(op, "a choice depends on a derivative");
      mark(select.getResult());
      return success();
    }
    // Lanes of lanes: the lane ops of code that is itself a vector-mode
    // derivative move derivatives between its lanes.
    if (isa<vector::BroadcastOp, vector::ExtractOp, vector::InsertOp,
            vector::FromElementsOp, vector::ReductionOp>(op)) {
      mark(op->getResult(0));
      return success();
    }
    if (op->hasTrait<OpTrait::Elementwise>() && op->getNumRegions() == 0) {
      // Arithmetic on derivatives is linear in them; a comparison or a
      // conversion to an integer is not derivative code.
      for (Value result : op->getResults())
        if (!ct::isDifferentiableScalar(result.getType()))
          return unsupported(op, "a derivative is compared or converted");
      for (Value result : op->getResults())
        mark(result);
      return success();
    }
    return unsupported(op);
  }

  /// What lanes in operand `n` of a memory op carry on to; none for other ops.
  std::optional<LogicalResult> visitMemoryUse(Operation *op, unsigned n) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (n == 0)
        mark(load.getResult());
      return success();
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (n == 0)
        mark(store.getMemRef());
      return success();
    }
    if (isLaneView(op)) {
      if (n == 0)
        mark(op->getResult(0));
      return success();
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      mark(copy.getSource());
      mark(copy.getTarget());
      return success();
    }
    if (isa<memref::DimOp, memref::DeallocOp, ct::AllocationSizeOp>(op))
      return success();
    // A holder with lanes (an object keeping numbers with derivatives
    // beside addresses) keeps each address in its slot's first lane, which
    // says nothing about the lanes of the memory it points to.
    if (auto store = dyn_cast<ct::StoreAddressOp>(op)) {
      if (n != 0)
        return success();
      // The null pointer is its own derivative: kept in the primal's
      // holders too, where it says nothing about their lanes.
      if (isNullPointerView(store.getView()))
        return success();
      // (Kept in memory the caller gives, the address would reach the
      // caller, whose views of it this function's lanes do not decide.)
      if (auto arg = dyn_cast<BlockArgument>(getMemoryRoot(store.getHolder()));
          arg && arg.getOwner()->isEntryBlock() &&
          arg.getOwner()->getParentOp() == w.function)
        return unsupported(op, "the address of memory with derivatives is "
                               "kept in memory this function's caller gives "
                               "(a node a recursive function builds and "
                               "returns)");
      markAddressClass(store.getView());
      return success();
    }
    if (isa<ct::LoadAddressOp>(op))
      return success();
    // (Lanes lie slot by slot: a narrower scalar's would be part of one.)
    if (auto retype = dyn_cast<ct::RetypeViewOp>(op))
      return unsupported(
          op, retype.getSource().getType().getElementType() ==
                      retype.getType().getElementType()
                  ? "an object reached through a base class that is not "
                    "its first carries derivatives"
                  : "a 'float' part of an object of 'double's carries "
                    "derivatives");
    // The address of memory with lanes (the same with or without them; a
    // null test reads it); one read for the tape: the view the reverse
    // sweep rebuilds from it has lanes too.
    if (auto address = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op)) {
      if (auto pair = address->getAttrOfType<IntegerAttr>(kTapedAddress))
        w.function.walk([&](ct::PointerViewOp view) {
          if (view->getAttr(kTapedAddress) == pair)
            mark(view.getResult());
        });
      return success();
    }
    // The metadata of widened memory for a view of the same memory (how
    // an entry point views its lanes): that view is widened with it.
    if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(op)) {
      bool viewsItself =
          meta.getBaseBuffer().use_empty() &&
          llvm::all_of(meta.getOffset().getUsers(), [&](Operation *user) {
            auto view = dyn_cast<memref::ReinterpretCastOp>(user);
            return view && view.getSource() == meta.getSource() &&
                   llvm::is_contained(view.getOffsets(), meta.getOffset());
          });
      if (!viewsItself)
        return unsupported(op, "its memory's layout is read");
      return success();
    }
    return std::nullopt;
  }

  /// What lanes in operand `n` of a tape op carry on to; none for other ops.
  std::optional<LogicalResult> visitTapeUse(Operation *op, unsigned n) {
    // A tape that lanes are pushed onto carries lanes in every entry (the
    // tangent tapes of forward mode over reverse-mode code).
    if (auto push = dyn_cast<ct::TapePushOp>(op)) {
      if (n == 1)
        mark(push.getTape());
      return success();
    }
    if (auto pop = dyn_cast<ct::TapePopOp>(op)) {
      mark(pop.getValue());
      return success();
    }
    if (isa<ct::TapeReserveOp, ct::TapeFreeOp>(op))
      return success();
    return std::nullopt;
  }

  /// What lanes in operand `n` of a loop, a branch or their terminators carry
  /// on to; none for other ops.
  std::optional<LogicalResult> visitControlFlowUse(Operation *op, unsigned n) {
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = op->getParentOp();
      if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        mark(loop.getRegionIterArgs()[n]);
        mark(loop.getResult(n));
      } else if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
        mark(loop.getBeforeArguments()[n]);
      } else if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(
                     parent)) {
        mark(parent->getResult(n));
      } else {
        return unsupported(parent);
      }
      return success();
    }
    if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
      if (n == 0)
        return unsupported(op, "a loop's condition depends on a derivative");
      auto loop = cast<scf::WhileOp>(op->getParentOp());
      mark(loop.getAfterArguments()[n - 1]);
      mark(loop.getResult(n - 1));
      return success();
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (n < 3)
        return unsupported(op, "a loop's bounds depend on a derivative");
      mark(loop.getRegionIterArgs()[n - 3]);
      mark(loop.getResult(n - 3));
      return success();
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      mark(loop.getBeforeArguments()[n]);
      return success();
    }
    return std::nullopt;
  }

  /// A call whose operand (or, with `result`, whose result) carries lanes
  /// calls the widened callee, which decides what else does.
  LogicalResult visitCall(func::CallOp call, std::optional<unsigned> result) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isExternal())
      return unsupported(call, "it calls a function defined elsewhere");
    // (The lanes of memory reached through addresses the caller kept are
    // the caller's classes of it, which the callee cannot see: a recursive
    // walk over linked nodes.)
    if (readsAddressesInArguments(callee))
      return unsupported(call, "a function that is not inlined reads "
                               "addresses kept in memory it is given (a "
                               "recursive walk over linked nodes)");
    SmallVector<bool> args = llvm::map_to_vector(
        call.getOperands(), [&](Value v) { return w.wide.contains(v); });
    SmallVector<bool> results = llvm::map_to_vector(
        call.getResults(), [&](Value v) { return w.wide.contains(v); });
    if (result)
      results[*result] = true;
    LaneWidener::Widening *callee_ = widener.analyze(callee, args, results);
    if (!callee_)
      return failure();
    for (auto [i, wide] : llvm::enumerate(callee_->args))
      if (wide && isa<MemRefType, ct::TapeType>(call.getOperand(i).getType()))
        mark(call.getOperand(i));
    for (auto [i, wide] : llvm::enumerate(callee_->results))
      if (wide)
        mark(call.getResult(i));
    return success();
  }

  LaneWidener &widener;
  LaneWidener::Widening &w;
  SmallVector<Value> worklist;
  /// The classes of memory whose address is kept (their representatives,
  /// and the scalar type of the views) whose views carry lanes.
  DenseSet<std::pair<Value, Type>> wideClasses;
  /// The classes of memory roots (buildAddressClasses): each root's parent
  /// towards its class's representative, and what each class's addresses
  /// point to.
  bool addressClassesBuilt = false;
  DenseMap<Value, Value> addressClasses;
  DenseMap<Value, Value> heldBy;
};

/// Gives the analysed values their lane types in a copy of the function.
class LaneRewriter {
public:
  LaneRewriter(LaneWidener &widener, LaneWidener::Widening &w,
               func::FuncOp copy, IRMapping &mapping)
      : widener(widener), copy(copy), b(copy.getContext()) {
    for (Value value : w.wide) {
      Value mine = mapping.lookup(value);
      wide.insert(mine);
      originalTypes[mine] = mine.getType();
    }
  }

  LogicalResult run(ArrayRef<bool> wideResults) {
    copy.walk([&](Block *block) {
      for (BlockArgument arg : block->getArguments())
        if (wide.contains(arg))
          arg.setType(laneType(arg.getType()));
    });
    // The signature first: a recursive call inside takes it.
    SmallVector<Type> results(copy.getResultTypes());
    for (auto [i, wide] : llvm::enumerate(wideResults))
      if (wide)
        results[i] = laneType(results[i]);
    copy.setType(FunctionType::get(
        copy.getContext(), copy.getBody().front().getArgumentTypes(), results));
    SmallVector<Operation *> ops;
    SmallVector<func::ReturnOp> returns;
    copy.walk<WalkOrder::PreOrder>([&](Operation *op) {
      ops.push_back(op);
      if (auto ret = dyn_cast<func::ReturnOp>(op))
        returns.push_back(ret);
    });
    for (Operation *op : ops)
      if (op != copy && failed(rewrite(op)))
        return failure();
    // Returns last: they take the function's result types.
    for (func::ReturnOp ret : returns)
      for (OpOperand &operand : ret->getOpOperands())
        operand.set(
            toType(operand.get(), results[operand.getOperandNumber()], ret));
    return success();
  }

private:
  /// The lane type of `type`, a type of the function before widening.
  Type laneType(Type type) {
    if (isa<ct::TapeType>(type))
      return type;
    return ct::getLaneType(type, widener.lanes);
  }
  /// The type `value` had before widening.
  Type originalType(Value value) {
    Type type = originalTypes.lookup(value);
    return type ? type : value.getType();
  }

  /// `value` as `type`: broadcast when a value without lanes meets lanes
  /// (the new lanes innermost: a vector of lanes already is broadcast
  /// along a new leading dimension, then transposed).
  Value toType(Value value, Type type, Operation *before) {
    if (value.getType() == type || !isa<VectorType>(type))
      return value;
    b.setInsertionPoint(before);
    Location loc = value.getLoc();
    auto target = cast<VectorType>(type);
    auto inner = dyn_cast<VectorType>(value.getType());
    if (!inner)
      return vector::BroadcastOp::create(b, loc, target, value);
    SmallVector<int64_t> shape{target.getShape().back()};
    llvm::append_range(shape, inner.getShape());
    Value spread = vector::BroadcastOp::create(
        b, loc, VectorType::get(shape, inner.getElementType()), value);
    SmallVector<int64_t> order;
    for (int64_t d = 1; d < static_cast<int64_t>(shape.size()); ++d)
      order.push_back(d);
    order.push_back(0);
    return vector::TransposeOp::create(b, loc, spread, order);
  }

  /// Replaces `old` by `value`, which carries lanes if `old` did.
  void replace(Value old, Value value) {
    if (wide.contains(old)) {
      wide.insert(value);
      originalTypes[value] = originalType(old);
    }
    old.replaceAllUsesWith(value);
  }

  void setResultTypes(Operation *op) {
    for (Value result : op->getResults())
      if (wide.contains(result))
        result.setType(laneType(originalType(result)));
  }

  /// Whether `memory` is widened memory of rank one or more, accessed by
  /// vectors along its trailing lane dimension.
  bool hasLaneDimension(Value memory, size_t indices) {
    return wide.contains(memory) &&
           cast<MemRefType>(memory.getType()).getRank() ==
               static_cast<int64_t>(indices) + 1;
  }

  LogicalResult rewrite(Operation *op) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return rewriteLoad(load);
    if (auto store = dyn_cast<memref::StoreOp>(op))
      return rewriteStore(store);
    if (isa<ct::LoadAddressOp, ct::StoreAddressOp>(op))
      rewriteHolder(op);
    if (isa<memref::AllocOp, memref::AllocaOp, memref::CastOp, ub::PoisonOp,
            ct::LoadAddressOp, ct::PointerViewOp>(op)) {
      setResultTypes(op);
      return success();
    }
    if (isa<ct::TapePushOp, ct::TapePopOp, ct::TapeReserveOp>(op))
      return rewriteTape(op);
    if (isa<memref::SubViewOp, memref::ReinterpretCastOp>(op))
      return rewriteView(op);
    if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(op))
      return rewriteMetadata(meta);
    if (isa<scf::ForOp, scf::WhileOp, scf::IfOp, scf::IndexSwitchOp,
            scf::ExecuteRegionOp, scf::YieldOp, scf::ConditionOp>(op))
      return rewriteControlFlow(op);
    if (auto call = dyn_cast<func::CallOp>(op))
      return rewriteCall(call);
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      if (!wide.contains(select.getResult()))
        return success();
      Type lane = laneType(select.getType());
      select.getTrueValueMutable().set(
          toType(select.getTrueValue(), lane, select));
      select.getFalseValueMutable().set(
          toType(select.getFalseValue(), lane, select));
      setResultTypes(op);
      return success();
    }
    if (isa<vector::BroadcastOp, vector::ExtractOp, vector::InsertOp,
            vector::FromElementsOp, vector::ReductionOp>(op))
      return rewriteLaneOp(op);
    if (op->hasTrait<OpTrait::Elementwise>() &&
        llvm::any_of(op->getResults(),
                     [&](Value v) { return wide.contains(v); })) {
      for (OpOperand &operand : op->getOpOperands())
        if (!wide.contains(operand.get()) &&
            ct::isDifferentiableScalar(operand.get().getType()))
          operand.set(
              toType(operand.get(), laneType(operand.get().getType()), op));
      setResultTypes(op);
      return success();
    }
    return success();
  }

  /// A load of widened memory: a vector load of the lanes where the memory
  /// has a lane dimension, else the lane type.
  LogicalResult rewriteLoad(memref::LoadOp load) {
    Location loc = load.getLoc();
    Value memory = load.getMemRef();
    if (!wide.contains(memory))
      return success();
    Type lane = laneType(load.getType());
    if (!hasLaneDimension(memory, load.getIndices().size())) {
      load.getResult().setType(lane);
      return success();
    }
    b.setInsertionPoint(load);
    SmallVector<Value> indices(load.getIndices());
    indices.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    Value vector =
        vector::LoadOp::create(b, loc, cast<VectorType>(lane), memory, indices);
    replace(load.getResult(), vector);
    load.erase();
    return success();
  }

  /// A store into widened memory: of the value's lanes.
  LogicalResult rewriteStore(memref::StoreOp store) {
    Location loc = store.getLoc();
    Value memory = store.getMemRef();
    if (!wide.contains(memory))
      return success();
    Type lane = laneType(originalType(store.getValueToStore()));
    Value value = toType(store.getValueToStore(), lane, store);
    if (!hasLaneDimension(memory, store.getIndices().size())) {
      store->setOperand(0, value);
      return success();
    }
    b.setInsertionPoint(store);
    SmallVector<Value> indices(store.getIndices());
    indices.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    vector::StoreOp::create(b, loc, value, memory, indices);
    store.erase();
    return success();
  }

  /// Loops, branches and their terminators: what they carry, start from
  /// and yield takes the lane types.
  LogicalResult rewriteControlFlow(Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg] :
           llvm::zip(loop.getInitArgsMutable(), loop.getRegionIterArgs()))
        init.set(toType(init.get(), arg.getType(), loop));
      setResultTypes(op);
      return success();
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      for (auto [init, arg] :
           llvm::zip(loop.getInitsMutable(), loop.getBeforeArguments()))
        init.set(toType(init.get(), arg.getType(), loop));
      setResultTypes(op);
      return success();
    }
    if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(op)) {
      setResultTypes(op);
      return success();
    }
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = op->getParentOp();
      ValueRange targets = parent->getResults();
      if (auto loop = dyn_cast<scf::WhileOp>(parent))
        targets = loop.getBeforeArguments();
      for (auto [operand, target] : llvm::zip(yield->getOpOperands(), targets))
        operand.set(toType(operand.get(), target.getType(), yield));
      return success();
    }
    if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
      auto loop = cast<scf::WhileOp>(op->getParentOp());
      for (auto [operand, target] :
           llvm::zip(condition.getArgsMutable(), loop.getAfterArguments()))
        operand.set(toType(operand.get(), target.getType(), condition));
      return success();
    }
    return success();
  }

  /// The lane ops of code that is itself a vector-mode derivative, with the
  /// new lanes innermost: a broadcast spreads lanes along the old ones, an
  /// extraction or insertion moves the new lanes of one old lane, a vector
  /// of K old lanes is K insertions, and the sum over the old lanes adds
  /// their K vectors of new lanes.
  LogicalResult rewriteLaneOp(Operation *op) {
    Value result = op->getResult(0);
    if (!wide.contains(result))
      return success();
    Location loc = op->getLoc();
    auto type = cast<VectorType>(laneType(originalType(result)));
    b.setInsertionPoint(op);
    if (auto insert = dyn_cast<vector::InsertOp>(op)) {
      Value lane = toType(insert.getValueToStore(),
                          laneType(originalType(insert.getValueToStore())), op);
      Value into = toType(insert.getDest(), type, op);
      b.setInsertionPoint(op);
      replace(result, vector::InsertOp::create(b, loc, lane, into,
                                               insert.getMixedPosition()));
      op->erase();
      return success();
    }
    if (auto elements = dyn_cast<vector::FromElementsOp>(op)) {
      if (elements.getType().getRank() != 1)
        return unsupported(op);
      Value made = buildZero(b, loc, type);
      for (auto [k, element] : llvm::enumerate(elements.getElements())) {
        Value lane = toType(element, laneType(originalType(element)), op);
        b.setInsertionPoint(op);
        made = vector::InsertOp::create(b, loc, lane, made,
                                        static_cast<int64_t>(k));
      }
      replace(result, made);
      op->erase();
      return success();
    }
    if (auto sum = dyn_cast<vector::ReductionOp>(op)) {
      if (sum.getKind() != vector::CombiningKind::ADD ||
          cast<VectorType>(originalType(sum.getVector())).getRank() != 1)
        return unsupported(op, "a reduction other than a sum of lanes");
      // Over the old lanes (the outer dimension), one sum per new lane.
      Value lanes =
          toType(sum.getVector(), laneType(originalType(sum.getVector())), op);
      b.setInsertionPoint(op);
      Value total = sumOverLeading(b, loc, lanes, type);
      if (Value acc = sum.getAcc())
        total = arith::AddFOp::create(b, loc, total, toType(acc, type, op));
      replace(result, total);
      op->erase();
      return success();
    }
    // A broadcast of a scalar with lanes, one old lane: the operand has its
    // lanes already; the result takes its lane type.
    setResultTypes(op);
    return success();
  }

  /// A tape that carries lanes holds each lane in a slot of its own: a push
  /// of K lanes is K pushes, a pop K pops (last lane first).
  LogicalResult rewriteTape(Operation *op) {
    Value tape = op->getOperand(0);
    if (!wide.contains(tape))
      return success();
    Location loc = op->getLoc();
    int64_t lanes = widener.lanes;
    b.setInsertionPoint(op);
    if (auto reserve = dyn_cast<ct::TapeReserveOp>(op)) {
      reserve.getCountMutable().set(
          arith::MulIOp::create(b, loc, reserve.getCount(),
                                arith::ConstantIndexOp::create(b, loc, lanes)));
      return success();
    }
    if (auto push = dyn_cast<ct::TapePushOp>(op)) {
      Type scalar = getElementTypeOrSelf(push.getValue().getType());
      if (!isa<FloatType>(scalar))
        return unsupported(op, "a tape mixes derivatives with other values");
      Value value =
          toType(push.getValue(), VectorType::get({lanes}, scalar), push);
      b.setInsertionPoint(push);
      for (int64_t k = 0; k < lanes; ++k)
        ct::TapePushOp::create(b, loc, tape,
                               vector::ExtractOp::create(b, loc, value, k));
      push.erase();
      return success();
    }
    auto pop = cast<ct::TapePopOp>(op);
    Type scalar = pop.getType();
    if (!isa<FloatType>(scalar))
      return unsupported(op, "a tape mixes derivatives with other values");
    SmallVector<Value> values(lanes);
    for (int64_t k = lanes - 1; k >= 0; --k)
      values[k] = ct::TapePopOp::create(b, loc, scalar, tape);
    Value vector = vector::FromElementsOp::create(
        b, loc, VectorType::get({lanes}, scalar), values);
    replace(pop.getValue(), vector);
    pop.erase();
    return success();
  }

  /// The metadata of widened memory: its sizes but the lanes', its strides
  /// in elements of the original, and its offset as it is, for the view of
  /// the same memory that is its only reader (rewriteView keeps it).
  LogicalResult rewriteMetadata(memref::ExtractStridedMetadataOp meta) {
    if (!wide.contains(meta.getSource()))
      return success();
    Location loc = meta.getLoc();
    b.setInsertionPoint(meta);
    auto widened =
        memref::ExtractStridedMetadataOp::create(b, loc, meta.getSource());
    Value lanes = arith::ConstantIndexOp::create(b, loc, widener.lanes);
    meta.getOffset().replaceAllUsesWith(widened.getOffset());
    unscaledOffsets.insert(widened.getOffset());
    for (auto [size, wideSize] : llvm::zip(meta.getSizes(), widened.getSizes()))
      size.replaceAllUsesWith(wideSize);
    for (auto [stride, wideStride] :
         llvm::zip(meta.getStrides(), widened.getStrides()))
      stride.replaceAllUsesWith(
          arith::DivUIOp::create(b, loc, wideStride, lanes).getResult());
    meta.erase();
    return success();
  }

  /// An address slot of a holder with lanes is its first lane: the op
  /// reads or writes the holder's view of lane 0.
  void rewriteHolder(Operation *op) {
    OpOperand &holder =
        isa<ct::StoreAddressOp>(op) ? op->getOpOperand(1) : op->getOpOperand(0);
    if (!wide.contains(holder.get()))
      return;
    auto type = cast<MemRefType>(holder.get().getType());
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    OpFoldResult slots =
        type.isDynamicDim(0)
            ? OpFoldResult(memref::DimOp::create(b, loc, holder.get(), 0))
            : b.getIndexAttr(type.getDimSize(0));
    SmallVector<OpFoldResult> offsets = {zero, zero}, sizes = {slots, one},
                              strides = {one, one};
    auto firstLane = memref::SubViewOp::inferRankReducedResultType(
        {type.getDimSize(0)}, type, offsets, sizes, strides);
    holder.set(memref::SubViewOp::create(b, loc, firstLane, holder.get(),
                                         offsets, sizes, strides));
  }

  /// A view of widened memory views its lanes too: all of them, at the
  /// lane-strided offsets.
  LogicalResult rewriteView(Operation *op) {
    Value result = op->getResult(0);
    if (!wide.contains(result))
      return success();
    Location loc = op->getLoc();
    auto type = dyn_cast_or_null<MemRefType>(laneType(result.getType()));
    if (!type)
      return unsupported(op);
    b.setInsertionPoint(op);
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1),
                 lanes = b.getIndexAttr(widener.lanes);
    Value replacement;
    if (auto view = dyn_cast<memref::SubViewOp>(op)) {
      SmallVector<OpFoldResult> offsets = view.getMixedOffsets(),
                                sizes = view.getMixedSizes(),
                                strides = view.getMixedStrides();
      offsets.push_back(zero);
      sizes.push_back(lanes);
      strides.push_back(one);
      replacement = memref::SubViewOp::create(b, loc, type, view.getSource(),
                                              offsets, sizes, strides);
    } else {
      auto cast_ = cast<memref::ReinterpretCastOp>(op);
      auto times = [&](OpFoldResult x) -> OpFoldResult {
        if (auto value = dyn_cast<Value>(x); unscaledOffsets.contains(value))
          return x; // the widened memory's own offset
        if (std::optional<int64_t> known = getConstantIntValue(x))
          return b.getIndexAttr(*known * widener.lanes);
        return arith::MulIOp::create(
                   b, loc, cast<Value>(x),
                   arith::ConstantIndexOp::create(b, loc, widener.lanes))
            .getResult();
      };
      SmallVector<OpFoldResult> sizes = cast_.getMixedSizes(), strides;
      sizes.push_back(lanes);
      for (OpFoldResult stride : cast_.getMixedStrides())
        strides.push_back(times(stride));
      strides.push_back(one);
      replacement = memref::ReinterpretCastOp::create(
          b, loc, type, cast_.getSource(), times(cast_.getMixedOffsets()[0]),
          sizes, strides);
    }
    replace(result, replacement);
    op->erase();
    return success();
  }

  LogicalResult rewriteCall(func::CallOp call) {
    SmallVector<bool> args = llvm::map_to_vector(
        call.getOperands(), [&](Value v) { return wide.contains(v); });
    SmallVector<bool> results = llvm::map_to_vector(
        call.getResults(), [&](Value v) { return wide.contains(v); });
    if (llvm::none_of(args, [](bool b) { return b; }) &&
        llvm::none_of(results, [](bool b) { return b; }))
      return success();
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    func::FuncOp widened = widener.widen(callee, args, results);
    if (!widened)
      return failure();
    SmallVector<Value> operands;
    for (auto [operand, type] :
         llvm::zip(call.getOperands(), widened.getArgumentTypes()))
      operands.push_back(toType(operand, type, call));
    b.setInsertionPoint(call);
    auto replacement =
        func::CallOp::create(b, call.getLoc(), widened, operands);
    for (auto [old, value] :
         llvm::zip(call.getResults(), replacement.getResults()))
      replace(old, value);
    call.erase();
    return success();
  }

  LaneWidener &widener;
  func::FuncOp copy;
  OpBuilder b;
  DenseSet<Value> wide;
  /// The types of the values that carry lanes, before widening.
  DenseMap<Value, Type> originalTypes;
  /// Offsets read from widened memory, in its elements already.
  DenseSet<Value> unscaledOffsets;
};

} // namespace cotangent::ad

LaneWidener::LaneWidener(SymbolTable &symbols, int64_t lanes)
    : symbols(symbols), lanes(lanes) {}

LaneWidener::~LaneWidener() = default;

LaneWidener::Widening *LaneWidener::analyze(func::FuncOp function,
                                            ArrayRef<bool> args,
                                            ArrayRef<bool> results) {
  auto key = std::make_pair(function.getOperation(), maskKey(args, results));
  auto [it, inserted] = widenings.try_emplace(key);
  if (!inserted) {
    // A recursive call sees what is known so far; the analysis is then
    // repeated until what the calls saw is what it found.
    if (it->second->analyzing)
      it->second->recursive = true;
    return it->second.get();
  }
  it->second = std::make_unique<Widening>();
  Widening &w = *it->second;
  // Lanes of lanes: a vector-mode derivative's whole-lane accesses become
  // element accesses, which gain the new lanes like any.
  ct::scalarizeLaneAccesses(function);
  // A value stored next to a tangent and read back (a custom JVP rule's
  // ct::dual result) is that value, not a read of memory with lanes.
  forwardStores(function);
  splitMemoryOfNothing(function);
  // Memory without derivatives kept as its own shadow, which accesses test
  // for at run time, has no lanes to give.
  Operation *ownShadowTest = nullptr;
  function.walk([&](memref::ExtractAlignedPointerAsIndexOp address) {
    if (!ownShadowTest && address->hasAttr(kOwnShadowTest))
      ownShadowTest = address;
  });
  if (ownShadowTest) {
    (void)unsupported(ownShadowTest,
                      "memory without derivatives (a parameter left out of "
                      "ct::wrt, a constant table) is kept beside memory with "
                      "derivatives, through addresses in memory");
    return nullptr;
  }
  w.function = function;
  w.args.assign(args.begin(), args.end());
  w.results.assign(results.begin(), results.end());
  while (true) {
    SmallVector<bool> seenArgs(w.args), seenResults(w.results);
    w.recursive = false;
    w.wide.clear();
    if (failed(LaneAnalysis(*this, w).run()))
      return nullptr;
    if (!w.recursive ||
        (ArrayRef<bool>(w.args) == ArrayRef<bool>(seenArgs) &&
         ArrayRef<bool>(w.results) == ArrayRef<bool>(seenResults)))
      break;
  }
  w.analyzing = false;
  return &w;
}

func::FuncOp LaneWidener::widen(func::FuncOp function, ArrayRef<bool> wideArgs,
                                ArrayRef<bool> wideResults) {
  Widening *w = analyze(function, wideArgs, wideResults);
  // Memory the analysis widened beyond the choice: analyse that choice,
  // whose widening is a fixpoint.
  if (w && (ArrayRef<bool>(w->args) != wideArgs ||
            ArrayRef<bool>(w->results) != wideResults)) {
    SmallVector<bool> args(w->args), results(w->results);
    w = analyze(function, args, results);
  }
  return w ? materialize(*w) : func::FuncOp();
}

func::FuncOp LaneWidener::materialize(Widening &w) {
  if (w.widened)
    return w.widened;
  IRMapping mapping;
  auto copy = cast<func::FuncOp>(w.function->clone(mapping));
  std::string name = (w.function.getSymName() + ".lanes" + Twine(lanes) + "." +
                      maskKey(w.args, w.results))
                         .str();
  copy.setSymName(name);
  copy.setPrivate();
  symbols.insert(copy, std::next(w.function->getIterator()));
  w.widened = copy;
  if (failed(LaneRewriter(*this, w, copy, mapping).run(w.results)))
    return w.widened = func::FuncOp();
  return copy;
}
