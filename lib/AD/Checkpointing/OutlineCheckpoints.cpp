//===- OutlineCheckpoints.cpp - Checkpointed loop bodies as functions -----===//
//
// Reverse mode reruns the iterations of a checkpointed loop from snapshots
// of its state: a body that is one call of a function, taking whole buffers,
// lets it rerun an iteration (the function) or reverse one (its combined
// pullback) on copies of those buffers.
//
//===----------------------------------------------------------------------===//

#include "Checkpointing/OutlineCheckpoints.h"
#include "Analysis/CallActivity.h"
#include "Checkpointing/Checkpoints.h"
#include "Checkpointing/RerunEffects.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/OutsideVariables.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-outline-checkpoints"

namespace cotangent::ad {
#define GEN_PASS_DEF_OUTLINECHECKPOINTS
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;

namespace {

/// Whether `op` is remade inside the outlined function rather than passed
/// in: a constant (which its users then see), or a view of memory made
/// from other memory and index values, touching none.
bool isRemade(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<memref::SubViewOp, memref::CastOp, memref::ReinterpretCastOp,
             memref::ExpandShapeOp, memref::CollapseShapeOp>(op);
}

/// The values defined outside `loop` that its regions use; constants and
/// views among them are left out (views replaced by the memory they view
/// and their index operands), and `remade` gets those, definitions first.
SetVector<Value> getCapturedValues(Operation *loop,
                                   SmallVectorImpl<Operation *> &remadeOps) {
  SetVector<Value> used;
  getUsedValuesDefinedAbove(loop->getRegions(), used);
  SetVector<Value> captured;
  SetVector<Operation *> remade;
  std::function<void(Value)> add = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (def && isRemade(def)) {
      if (remade.contains(def))
        return;
      for (Value operand : def->getOperands())
        add(operand);
      remade.insert(def);
      return;
    }
    captured.insert(value);
  };
  for (Value value : used)
    add(value);
  remadeOps.assign(remade.begin(), remade.end());
  return captured;
}

/// A private function next to `parent` taking `leading` (the values of
/// `args`, a block of the loop) then the `captured` values, returning
/// `outputs`; its entry block gets clones of `remade`, and `mapping` maps
/// `args` and `captured` to its arguments.
func::FuncOp createIteration(func::FuncOp parent, Location loc, Block *args,
                             const SetVector<Value> &captured,
                             TypeRange outputs, ArrayRef<Operation *> remade,
                             SymbolTable &symbols, IRMapping &mapping) {
  SmallVector<Type> inputs(args->getArgumentTypes());
  for (Value value : captured)
    inputs.push_back(value.getType());
  OpBuilder b(parent);
  auto function = func::FuncOp::create(
      b, loc, (parent.getSymName() + ".checkpointed").str(),
      b.getFunctionType(inputs, outputs));
  function.setPrivate();
  symbols.insert(function);
  if (auto names = parent->getAttr("ct.source_name"))
    function->setAttr("ct.source_name", names);
  Block *entry = function.addEntryBlock();
  mapping.map(args->getArguments(),
              entry->getArguments().take_front(args->getNumArguments()));
  mapping.map(captured.getArrayRef(),
              entry->getArguments().drop_front(args->getNumArguments()));
  OpBuilder inner = OpBuilder::atBlockEnd(entry);
  for (Operation *op : remade)
    inner.clone(*op, mapping);
  return function;
}

} // namespace

/// Whether every use of memory `root`, and of the memory made from it (its
/// views, which may be made anywhere: a cast hoisted out of a loop), is
/// inside `region`.
static bool isUsedOnlyIn(Value root, Operation *region) {
  SmallVector<Value> views{root};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (isa<ViewLikeOpInterface>(user)) {
        views.push_back(user->getResult(0));
        continue;
      }
      if (!region->isProperAncestor(user))
        return false;
      if (!isa<CallOpInterface>(user))
        for (Value result : user->getResults())
          if (isa<MemRefType>(result.getType()))
            views.push_back(result);
    }
  }
  return true;
}

/// Whether a result of `loop` may be memory one of its iterations made (a
/// std::vector an early `return` reads), or chose among different memory:
/// the iteration a snapshot reruns would make it again, while the code
/// after the loop holds the first run's; the outlined iteration would
/// return a choice among its arguments.
bool ad::passesOutMemoryItChooses(Operation *loop) {
  return llvm::any_of(loop->getResults(), [&](Value result) {
    if (!isa<MemRefType>(result.getType()))
      return false;
    SmallVector<Value, 2> roots = ad::getMemoryRoots(result);
    return roots.size() > 1 || llvm::any_of(roots, [&](Value root) {
             return loop->isAncestor(root.getParentRegion()->getParentOp());
           });
  });
}

/// The first call in `loop` of code compiled elsewhere (directly or through
/// its callees) that acts on more than objects living in one iteration.
static func::CallOp findExternalCall(Operation *loop) {
  Operation *found = nullptr;
  // Library objects that live within an iteration (a table built and read
  // in it: their memory is used nowhere else, construction and destruction
  // included) are made again when it reruns: their functions act on
  // nothing else.
  auto livesInIteration = [&](Value root) {
    return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
               root.getDefiningOp()) &&
           isUsedOnlyIn(root, loop);
  };
  loop->walk([&](Operation *op) {
    if (!ad::callsExternalCode(op) ||
        ad::actsOnlyOnOwnObjects(op, livesInIteration))
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return cast_or_null<func::CallOp>(found);
}

Operation *ad::findRerunHazard(Operation *loop) {
  if (Operation *write = ct::findWriteOfOutsideVariable(loop))
    return write;
  return findExternalCall(loop);
}

namespace {

/// Refuses a checkpointed loop that calls code compiled elsewhere (directly
/// or through its callees): recomputing its iterations would call it again,
/// doubling its effects (a counter, a log line) or changing its results (a
/// random generator), so the derivative would be taken elsewhere.
LogicalResult refuseExternalCalls(Operation *loop) {
  if (Operation *write = ct::findWriteOfOutsideVariable(loop))
    return loop->emitError("cannot checkpoint this loop: it writes '")
           << ct::getVariableName(ct::getWrittenOutsideVariable(write))
           << "', a variable outside the function, which recomputing its "
              "iterations in the reverse sweep would write again; write it "
              "outside the loop, or remove '#pragma ct checkpoint'";
  func::CallOp call = findExternalCall(loop);
  if (!call)
    return success();
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  auto name = callee->getAttrOfType<StringAttr>("ct.source_name");
  InFlightDiagnostic diag =
      loop->emitError("cannot checkpoint this loop: it calls '")
      << (name ? name.getValue() : call.getCallee()) << "'";
  if (!callee->hasAttr(ct::kExternalAttr))
    diag << ", which calls code compiled elsewhere";
  else
    diag << ", compiled elsewhere";
  return diag << ", and recomputing its iterations in the reverse sweep "
                 "would call that again "
              << ad::kExternalCodeRunTwice
              << "; move the call out of the loop, or remove '#pragma ct "
                 "checkpoint'";
}

} // namespace

func::CallOp ad::outlineIterations(scf::ForOp loop, int64_t snapshots,
                                   func::FuncOp parent, SymbolTable &symbols) {
  SmallVector<Operation *> views;
  SetVector<Value> captured = getCapturedValues(loop, views);
  Block *body = loop.getBody();
  Location loc = loop.getLoc();

  IRMapping mapping;
  func::FuncOp function =
      createIteration(parent, loc, body, captured, loop.getResultTypes(), views,
                      symbols, mapping);
  OpBuilder inner = OpBuilder::atBlockEnd(&function.front());
  for (Operation &op : body->without_terminator())
    inner.clone(op, mapping);
  SmallVector<Value> results = llvm::map_to_vector(
      loop.getYieldedValues(), [&](Value v) { return mapping.lookup(v); });
  func::ReturnOp::create(inner, loc, results);

  // The loop calls it.
  SmallVector<Operation *> moved = llvm::map_to_vector(
      body->without_terminator(), [](Operation &op) { return &op; });
  Operation *yield = body->getTerminator();
  OpBuilder at(yield);
  SmallVector<Value> operands(body->getArguments());
  llvm::append_range(operands, captured);
  auto call = func::CallOp::create(at, loc, function, operands);
  call.setNoInline(true);
  call->setAttr(ad::kCheckpointSnapshots, at.getI64IntegerAttr(snapshots));
  yield->setOperands(call.getResults());
  for (Operation *op : llvm::reverse(moved))
    op->erase();
  return call;
}

namespace {

/// Moves the body of `loop` into a new function next to `parent`.
LogicalResult outline(scf::ForOp loop, int64_t snapshots, func::FuncOp parent,
                      SymbolTable &symbols) {
  for (Type type : loop.getResultTypes())
    if (isa<MemRefType>(type))
      return loop.emitError("cannot checkpoint this loop: it carries a "
                            "pointer from one iteration to the next; carry "
                            "an index instead, or remove '#pragma ct "
                            "checkpoint'");
  ad::outlineIterations(loop, snapshots, parent, symbols);
  return success();
}

/// A loop whose trip count is known only when it ends: one iteration, the
/// condition with the body when it holds, becomes the function `(carried...,
/// captured...) -> (continues, next carried..., results...)` (the results
/// are meaningful when it does not continue), and the loop calls it from its
/// condition region.
LogicalResult outline(scf::WhileOp loop, int64_t snapshots, func::FuncOp parent,
                      SymbolTable &symbols) {
  for (Type type : loop.getBeforeBody()->getArgumentTypes())
    if (isa<MemRefType>(type))
      return loop.emitError("cannot checkpoint this loop: it carries a "
                            "pointer from one iteration to the next; carry "
                            "an index instead, or remove '#pragma ct "
                            "checkpoint'");
  SmallVector<Operation *> remadeOps;
  SetVector<Value> captured = getCapturedValues(loop, remadeOps);
  Block *before = loop.getBeforeBody(), *after = loop.getAfterBody();
  Location loc = loop.getLoc();
  TypeRange carriedTypes = before->getArgumentTypes();
  TypeRange resultTypes = loop.getResultTypes();

  SmallVector<Type> outputs{OpBuilder(loop).getI1Type()};
  llvm::append_range(outputs, carriedTypes);
  llvm::append_range(outputs, resultTypes);
  IRMapping mapping;
  func::FuncOp function = createIteration(parent, loc, before, captured,
                                          outputs, remadeOps, symbols, mapping);
  Block *entry = &function.front();
  OpBuilder inner = OpBuilder::atBlockEnd(entry);
  for (Operation &op : before->without_terminator())
    inner.clone(op, mapping);
  scf::ConditionOp condition = loop.getConditionOp();
  Value holds = mapping.lookup(condition.getCondition());
  SmallVector<Value> passed = llvm::map_to_vector(
      condition.getArgs(), [&](Value v) { return mapping.lookup(v); });
  SmallVector<Type> branchTypes(carriedTypes);
  llvm::append_range(branchTypes, resultTypes);
  auto branch = scf::IfOp::create(inner, loc, branchTypes, holds,
                                  /*withElseRegion=*/true);
  {
    OpBuilder then = OpBuilder::atBlockBegin(branch.thenBlock());
    mapping.map(after->getArguments(), passed);
    for (Operation &op : after->without_terminator())
      then.clone(op, mapping);
    SmallVector<Value> yielded =
        llvm::map_to_vector(after->getTerminator()->getOperands(),
                            [&](Value v) { return mapping.lookup(v); });
    llvm::append_range(yielded, passed);
    scf::YieldOp::create(then, loc, yielded);
    // The loop ends: what it carries no longer matters.
    OpBuilder otherwise = OpBuilder::atBlockBegin(branch.elseBlock());
    SmallVector<Value> ended(
        entry->getArguments().take_front(before->getNumArguments()));
    llvm::append_range(ended, passed);
    scf::YieldOp::create(otherwise, loc, ended);
  }
  SmallVector<Value> returned{holds};
  llvm::append_range(returned, branch.getResults());
  func::ReturnOp::create(inner, loc, returned);

  // The loop calls it from its condition region.
  OpBuilder at(loop);
  SmallVector<Type> loopTypes(carriedTypes);
  llvm::append_range(loopTypes, resultTypes);
  auto replacement = scf::WhileOp::create(at, loc, loopTypes, loop.getInits());
  SmallVector<Location> carriedLocs(carriedTypes.size(), loc);
  Block *newBefore =
      at.createBlock(&replacement.getBefore(), {}, carriedTypes, carriedLocs);
  SmallVector<Value> operands(newBefore->getArguments());
  llvm::append_range(operands, captured);
  auto call = func::CallOp::create(at, loc, function, operands);
  call.setNoInline(true);
  call->setAttr(ad::kCheckpointSnapshots, at.getI64IntegerAttr(snapshots));
  scf::ConditionOp::create(at, loc, call.getResult(0),
                           call.getResults().drop_front());
  SmallVector<Location> loopLocs(loopTypes.size(), loc);
  Block *newAfter =
      at.createBlock(&replacement.getAfter(), {}, loopTypes, loopLocs);
  scf::YieldOp::create(
      at, loc, newAfter->getArguments().take_front(carriedTypes.size()));
  loop.replaceAllUsesWith(
      replacement.getResults().drop_front(carriedTypes.size()));
  loop.erase();
  return success();
}

struct OutlineCheckpointsPass
    : ad::impl::OutlineCheckpointsBase<OutlineCheckpointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<ct::CheckpointLoopOp> markers;
    module.walk([&](ct::CheckpointLoopOp op) { markers.push_back(op); });
    // Innermost first: an outer body takes the inner loop, already a call.
    for (ct::CheckpointLoopOp marker : llvm::reverse(markers)) {
      // The marker opens a for loop's body; for a while loop it may sit
      // deeper (a `for` with a `break` is a while loop whose condition
      // region holds the body). Fewer loops around it than in the C++: its
      // own was folded away (it ran at most once), nothing to checkpoint.
      Operation *loop = nullptr;
      int64_t loops = 0;
      for (Operation *at = marker->getParentOp(); at && !isa<func::FuncOp>(at);
           at = at->getParentOp())
        if (isa<scf::ForOp, scf::WhileOp>(at)) {
          loop = loop ? loop : at;
          ++loops;
        }
      int64_t snapshots = marker.getSnapshots();
      bool folded = loops < int64_t(marker.getDepth());
      auto parent = marker->getParentOfType<func::FuncOp>();
      marker.erase();
      if (folded)
        continue;
      if (loop && ad::passesOutMemoryItChooses(loop)) {
        loop->emitWarning("'#pragma ct checkpoint' ignored: the code after "
                          "this loop uses memory one of its iterations made "
                          "or chose (an early return reading it), which "
                          "snapshots do not keep; its iterations are "
                          "recorded as usual");
        continue;
      }
      if (loop && failed(refuseExternalCalls(loop)))
        return signalPassFailure();
      LLVM_DEBUG(if (loop) llvm::dbgs()
                 << "[" DEBUG_TYPE "] " << "the loop at " << loop->getLoc()
                 << " is outlined as one call per iteration, " << snapshots
                 << " snapshots (0: about the square root of its trips)"
                 << "\n");
      LogicalResult outlined = failure();
      if (auto forLoop = dyn_cast_or_null<scf::ForOp>(loop))
        outlined = outline(forLoop, snapshots, parent, symbols);
      else if (auto whileLoop = dyn_cast_or_null<scf::WhileOp>(loop))
        outlined = outline(whileLoop, snapshots, parent, symbols);
      if (failed(outlined))
        return signalPassFailure();
    }
  }
};

} // namespace
