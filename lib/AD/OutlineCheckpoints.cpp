//===- OutlineCheckpoints.cpp - Checkpointed loop bodies as functions -----===//
//
// Reverse mode reruns the iterations of a checkpointed loop from snapshots
// of its state: a body that is one call of a function, taking whole buffers,
// lets it rerun an iteration (the function) or reverse one (its combined
// pullback) on copies of those buffers.
//
//===----------------------------------------------------------------------===//

#include "Checkpoints.h"

#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

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

/// The values defined outside `loop` that its body uses; constants and
/// views among them are left out (views replaced by the memory they view
/// and their index operands), and `remade` gets those, definitions first.
SetVector<Value> getCapturedValues(scf::ForOp loop,
                                   SmallVectorImpl<Operation *> &remadeOps) {
  SetVector<Value> used;
  getUsedValuesDefinedAbove(loop.getRegion(), used);
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

/// Moves the body of `loop`, whose first op is `marker`, into a new
/// function next to `parent`.
LogicalResult outline(scf::ForOp loop, ct::CheckpointLoopOp marker,
                      func::FuncOp parent, SymbolTable &symbols) {
  for (Type type : loop.getResultTypes())
    if (isa<MemRefType>(type))
      return loop.emitError("cannot checkpoint this loop: it carries a "
                            "pointer from one iteration to the next; carry "
                            "an index instead, or remove '#pragma ct "
                            "checkpoint'");
  int64_t snapshots = marker.getSnapshots();
  marker.erase();
  SmallVector<Operation *> views;
  SetVector<Value> captured = getCapturedValues(loop, views);
  Block *body = loop.getBody();
  Location loc = loop.getLoc();

  SmallVector<Type> inputs(body->getArgumentTypes());
  for (Value value : captured)
    inputs.push_back(value.getType());
  OpBuilder b(parent);
  auto function = func::FuncOp::create(
      b, loc, (parent.getSymName() + ".checkpointed").str(),
      b.getFunctionType(inputs, loop.getResultTypes()));
  function.setPrivate();
  symbols.insert(function);
  if (auto names = parent->getAttr("ct.source_name"))
    function->setAttr("ct.source_name", names);
  Block *entry = function.addEntryBlock();
  IRMapping mapping;
  mapping.map(body->getArguments(),
              entry->getArguments().take_front(body->getNumArguments()));
  mapping.map(captured.getArrayRef(),
              entry->getArguments().drop_front(body->getNumArguments()));
  OpBuilder inner = OpBuilder::atBlockEnd(entry);
  for (Operation *view : views)
    inner.clone(*view, mapping);
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
      auto loop = dyn_cast<scf::ForOp>(marker->getParentOp());
      if (!loop) {
        marker->getParentOp()->emitError(
            "cannot checkpoint this loop: its trip count is not known when "
            "it starts (it has a 'break' or 'return', or its condition "
            "changes in ways other than counting); only counted loops are "
            "checkpointed: remove '#pragma ct checkpoint' or rewrite it as "
            "a counted 'for' loop");
        return signalPassFailure();
      }
      auto parent = loop->getParentOfType<func::FuncOp>();
      if (failed(outline(loop, marker, parent, symbols)))
        return signalPassFailure();
    }
  }
};

} // namespace
