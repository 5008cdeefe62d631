//===- CheckpointedCalls.cpp - Reverse mode of [[ct::checkpoint]] calls ---===//
//
// A call of a function marked ct.checkpoint records nothing of what the
// callee computes. The forward sweep pushes the elements of the memory the
// callee may change, or reads and the caller changes afterwards (the rest
// it reads is unchanged when the reverse sweep runs), and runs the callee.
// The reverse sweep pops them into fresh copies and calls the callee's
// combined pullback on those copies: the callee runs again, recording its
// own tape, and is undone at once. The copies go through the tape, so a
// checkpointed call may sit anywhere: in loops, branches, other callees.
//
//===----------------------------------------------------------------------===//

#include "Analysis/CallActivity.h"
#include "Checkpointing/CheckpointMemory.h"
#include "Checkpointing/Checkpoints.h"
#include "Checkpointing/RerunEffects.h"
#include "DerivativeRegistry.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Utils/IRBuilders.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

LogicalResult ad::forwardCheckpointedCall(OpBuilder &b, func::CallOp call,
                                          func::FuncOp callee,
                                          ReverseEmitter &e) {
  Location loc = call.getLoc();
  IRMapping &fwd = e.getForwardMapping();
  std::string name = describeFunction(callee);
  // Rerunning it in the reverse sweep would call that code again (harmless
  // where it acts only on library objects the callee makes).
  if (callee->hasAttr(ct::kCallsExternalAttr) &&
      !actsOnlyOnOwnObjects(call, [](Value) { return false; })) {
    e.markFailed();
    return call.emitError("cannot checkpoint the call of '")
           << name << "': it calls code compiled elsewhere, which rerunning "
           << "it in the reverse sweep would call again "
           << kExternalCodeRunTwice << "; remove [[ct::checkpoint]] from '"
           << name << "'";
  }
  // A generated callee (forward mode's) gets its body now: the analyses
  // read it.
  if (failed(e.getRegistry().generateNow(callee)))
    return failure();
  IRMapping known;
  for (auto [operand, arg] :
       llvm::zip(call.getOperands(), callee.getArguments()))
    if (operand.getType().isIntOrIndex())
      known.map(arg, fwd.lookup(operand));
  SmallVector<KeptOperand> buffers;
  for (auto [i, root] : llvm::enumerate(call.getOperands())) {
    auto type = dyn_cast<MemRefType>(root.getType());
    if (!type)
      continue;
    if (!mayWriteArgument(callee, i) &&
        e.getPullbackMemory().keepsContentsAfter(root, call))
      continue;
    if (!type.getElementType().isIntOrIndexOrFloat()) {
      e.markFailed();
      return call.emitError("cannot checkpoint the call of '")
             << name << "': it changes " << describeMemory(root)
             << ", which holds pointers; remove [[ct::checkpoint]] from '"
             << name << "'";
    }
    Value rootNow = fwd.lookup(root);
    FailureOr<KeptElements> kept =
        buildKeptElements(b, loc, callee, i, root, rootNow, known, {}, call,
                          "cannot checkpoint the call of '" + name + "'",
                          "remove [[ct::checkpoint]] from '" + name + "'");
    if (failed(kept)) {
      e.markFailed();
      return failure();
    }
    pushKeptElements(b, loc, rootNow, *kept, e.getForwardTape(loc));
    buffers.push_back({unsigned(i), kept->first, kept->count});
  }
  SmallVector<Value> operands = llvm::map_to_vector(
      call.getOperands(), [&](Value v) { return fwd.lookup(v); });
  auto primal = func::CallOp::create(b, loc, callee, operands);
  fwd.map(call.getResults(), primal.getResults());
  e.getOpState<CheckpointedCallState>(call).buffers = std::move(buffers);
  return success();
}

LogicalResult ad::reverseCheckpointedCall(OpBuilder &b, func::CallOp call,
                                          func::FuncOp callee,
                                          ReverseEmitter &e) {
  Location loc = call.getLoc();
  Block *block = call->getBlock();
  SmallVector<Value> operands = llvm::map_to_vector(
      call.getOperands(), [&](Value v) { return e.primalInReverse(v); });
  SmallVector<Value> copies = popKeptOperands(
      b, loc, block, e.getOpState<CheckpointedCallState>(call).buffers,
      operands, e);
  SmallVector<ct::Activity> activities =
      getCallActivities(call, e.getActivity());
  func::FuncOp pullback =
      e.getRegistry().get(callee, DerivativeKind::Pullback, activities);
  for (Value result : call.getResults())
    if (ct::isDifferentiableScalar(result.getType()))
      operands.push_back(e.getActivity().isActive(result)
                             ? e.readAndZero(b, loc, result)
                             : buildZero(b, loc, result.getType()));
  SmallVector<Value> scratch;
  llvm::append_range(operands,
                     buildCallShadows(b, loc, call, activities, e, scratch));
  auto rerun = func::CallOp::create(b, loc, pullback, operands);
  for (Value s : scratch)
    buildScratchFree(b, loc, s);
  for (Value copy : copies)
    memref::DeallocOp::create(b, loc, copy);
  e.accumulateCallAdjoints(b, loc, call.getOperands(), activities,
                           rerun.getResults().drop_front(call.getNumResults()));
  return success(!e.hadFailure());
}

void ad::pushKeptElements(OpBuilder &b, Location loc, Value rootNow,
                          KeptElements kept, Value tape) {
  Value flat = flatten(b, loc, rootNow);
  auto loop = scf::ForOp::create(b, loc, indexConstant(b, loc, 0), kept.count,
                                 indexConstant(b, loc, 1));
  OpBuilder inner = OpBuilder::atBlockBegin(loop.getBody());
  Value at =
      arith::AddIOp::create(inner, loc, kept.first, loop.getInductionVar());
  Value element = memref::LoadOp::create(inner, loc, flat, ValueRange{at});
  ct::TapePushOp::create(inner, loc, tape, element);
}

SmallVector<Value> ad::popKeptOperands(OpBuilder &b, Location loc, Block *block,
                                       ArrayRef<KeptOperand> kept,
                                       SmallVectorImpl<Value> &operands,
                                       ReverseEmitter &e) {
  // The copies, last pushed first popped.
  SmallVector<Value> copies;
  // Constants are made again rather than taped.
  auto fromForward = [&](Value v) -> Value {
    if (Operation *def = v.getDefiningOp();
        def && def->hasTrait<OpTrait::ConstantLike>())
      return b.clone(*def)->getResult(0);
    return e.fromForward(block, v, v);
  };
  for (const KeptOperand &buffer : llvm::reverse(kept)) {
    Value first = fromForward(buffer.first);
    Value count = fromForward(buffer.count);
    WorkingCopy copy = buildWorkingCopy(b, loc, operands[buffer.operand],
                                        KeptElements{first, count});
    auto loop = scf::ForOp::create(b, loc, indexConstant(b, loc, 0), count,
                                   indexConstant(b, loc, 1));
    OpBuilder inner = OpBuilder::atBlockBegin(loop.getBody());
    Value last =
        arith::SubIOp::create(inner, loc, count, indexConstant(inner, loc, 1));
    Value k = arith::SubIOp::create(inner, loc, last, loop.getInductionVar());
    auto elementType = cast<MemRefType>(copy.flat.getType()).getElementType();
    Value element =
        ct::TapePopOp::create(inner, loc, elementType, e.getReverseTape());
    memref::StoreOp::create(inner, loc, element, copy.flat, ValueRange{k});
    operands[buffer.operand] = copy.view;
    copies.push_back(copy.flat);
  }
  return copies;
}
