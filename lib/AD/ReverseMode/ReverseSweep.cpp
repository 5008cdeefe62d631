//===- ReverseSweep.cpp - The reverse sweep of reverse mode ---------------===//
//
// Walks every primal block backwards and asks each op that needs it for its
// reverse (its ReverseModeOpInterface model, lib/AD/Rules), which
// propagates adjoints from its results to its operands.
//
//===----------------------------------------------------------------------===//

#include "DerivativeRegistry.h"
#include "ReverseMode/ReverseEmitter.h"
using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

bool ReverseEmitter::needsReverse(Operation &op) {
  if (auto model = dyn_cast<ReverseModeOpInterface>(op))
    return model.needsReverse(*this);
  return needsReverseByDefault(&op);
}

bool ReverseEmitter::needsReverseByDefault(Operation *op) {
  if (llvm::any_of(op->getResults(),
                   [&](Value r) { return activity.isActive(r); }))
    return true;
  for (Region &region : op->getRegions())
    for (Operation &inner : region.getOps())
      if (needsReverse(inner))
        return true;
  return false;
}

LogicalResult ReverseEmitter::reverseOp(OpBuilder &b, Operation &op) {
  if (auto model = dyn_cast<ReverseModeOpInterface>(op))
    return model.emitReverse(b, *this);
  return fail(&op, "no derivative rule; bind a custom rule to the enclosing "
                   "function or stop the gradient with ct::stop_gradient");
}

LogicalResult ReverseEmitter::reverseBlock(OpBuilder &b, Block &block) {
  // Eager loops and eager calls were undone in the forward sweep.
  for (Operation &op : llvm::reverse(block.without_terminator()))
    if (needsReverse(op) && !loops.isEager(&op) && !eagerCalls.contains(&op) &&
        failed(reverseOp(b, op)))
      return failure();
  for (Value buffer : freedAtReverseEnd.lookup(&block))
    memref::DeallocOp::create(b, buffer.getLoc(), buffer);
  for (Value scratch : scratchFreedAtReverseEnd.lookup(&block))
    buildScratchFree(b, scratch.getLoc(), scratch);
  return success(!hadError);
}

FailureOr<ReverseEmitter::ShadowElement>
ReverseEmitter::shadowElement(Operation &op, Value memref, ValueRange indices) {
  Value s = shadowInReverse(memref);
  if (!s) {
    if (!hadError)
      (void)fail(&op, "its memory has no derivative, but the value is active "
                      "(internal error)");
    return failure();
  }
  return ShadowElement{s, llvm::map_to_vector(indices, [&](Value v) {
                         return primalInReverse(v);
                       })};
}
