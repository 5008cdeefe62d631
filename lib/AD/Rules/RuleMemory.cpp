//===- RuleMemory.cpp - The memory a custom rule's pullback reads ---------===//
//
// The elements are kept as a [[ct::checkpoint]] call keeps what its callee
// needs (Checkpointing/CheckpointedCalls.cpp): pushed after the call, popped
// into a fresh copy that the rule's pullback reads. Memory the reverse code
// reaches itself and nothing changes after the call is passed as it is.
//
//===----------------------------------------------------------------------===//

#include "Rules/RuleMemory.h"
#include "Analysis/PullbackMemory.h"
#include "Checkpointing/CheckpointMemory.h"
#include "Checkpointing/Checkpoints.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

namespace {
/// Per call bound to a custom rule: the memory operands whose elements the
/// forward sweep pushed.
struct RuleMemoryState : ReverseEmitter::OpState {
  SmallVector<KeptOperand> buffers;
};
} // namespace

/// Whether an op that may run after `call` in `function` may write or free
/// the memory of `roots`: an op that writes through a view of one of them
/// (ActivityAnalysis::mayWrite), or through memory of unknown origin (an
/// address read back, which may designate any of them).
static bool mayBeWrittenAfter(ArrayRef<Value> roots, func::CallOp call,
                              func::FuncOp function,
                              ActivityAnalysis &activity) {
  auto isOurs = [&](Value root) { return llvm::is_contained(roots, root); };
  auto isKnownOther = [&](Value root) {
    return isa<BlockArgument>(root) ||
           isa_and_nonnull<memref::AllocOp, memref::AllocaOp,
                           memref::GetGlobalOp>(root.getDefiningOp());
  };
  WalkResult found = function.walk([&](Operation *op) {
    if (op->isAncestor(call) ||
        op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
        !mayRunAfter(op, call, function))
      return WalkResult::advance();
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      Value root = getMemoryRoot(operand);
      if ((isOurs(root) || !isKnownOther(root)) &&
          activity.mayWrite(op, operand))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Whether the reverse code reaches `operand`'s memory itself and nothing in
/// the function changes it after `call`: in a combined pullback, the
/// arguments and buffers of the body; in the reverse half of a split one,
/// the arguments, which its caller passes again. (PullbackMemory answers
/// for a combined pullback's own buffers and read-only arguments; this
/// covers arguments the call itself may write, such as a wrapper's one
/// call of a function compiled elsewhere. What a caller writes between
/// the halves is not seen.)
static bool isReachedUnchanged(Value operand, func::CallOp call,
                               ReverseEmitter &e) {
  func::FuncOp function = e.getPrimal();
  Block *body = &function.getBody().front();
  bool combined = e.getLevel(body).direct;
  SmallVector<Value, 2> roots = getMemoryRoots(operand);
  return !roots.empty() && llvm::all_of(roots, [&](Value root) {
    return root.getParentBlock() == body &&
           (combined || isa<BlockArgument>(root));
  }) && !mayBeWrittenAfter(roots, call, function, e.getActivity());
}

LogicalResult ad::keepRuleMemory(OpBuilder &b, func::FuncOp callee,
                                 func::CallOp call, ReverseEmitter &e) {
  // (A rule whose backward half reads only its own copies reads none of
  // this memory in the reverse sweep.)
  if (callee->hasAttr(ct::kRuleReadsOwnCopiesAttr))
    return success();
  Location loc = call.getLoc();
  IRMapping &fwd = e.getForwardMapping();
  // The callee's integer arguments bound the elements its body indexes.
  IRMapping known;
  if (!callee.isExternal())
    for (auto [operand, arg] :
         llvm::zip(call.getOperands(), callee.getArguments()))
      if (operand.getType().isIntOrIndex())
        known.map(arg, fwd.lookup(operand));
  std::string name = describeFunction(callee);
  SmallVector<KeptOperand> buffers;
  for (auto [i, operand] : llvm::enumerate(call.getOperands())) {
    if (!isa<MemRefType>(operand.getType()) ||
        e.getPullbackMemory().keepsContentsAfter(operand, call) ||
        isReachedUnchanged(operand, call, e))
      continue;
    Value now = fwd.lookup(operand);
    FailureOr<KeptElements> kept = buildKeptElements(
        b, loc, callee, i, operand, now, known, {}, call,
        "cannot differentiate in reverse mode: the custom rule of '" + name +
            "' reads its arguments' memory in the reverse sweep, after the "
            "code that follows the call may have changed it",
        "copy the elements it reads into a local array the code does not "
        "change before the call",
        "reads");
    if (failed(kept)) {
      e.markFailed();
      return failure();
    }
    pushKeptElements(b, loc, now, *kept, e.getForwardTape(loc));
    buffers.push_back({unsigned(i), kept->first, kept->count});
  }
  if (!buffers.empty())
    e.getOpState<RuleMemoryState>(call).buffers = std::move(buffers);
  return success();
}

SmallVector<Value> ad::restoreRuleMemory(OpBuilder &b, func::CallOp call,
                                         SmallVectorImpl<Value> &operands,
                                         ReverseEmitter &e) {
  auto *state = e.lookupOpState<RuleMemoryState>(call);
  if (!state)
    return {};
  return popKeptOperands(b, call.getLoc(), call->getBlock(), state->buffers,
                         operands, e);
}
