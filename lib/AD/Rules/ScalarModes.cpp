//===- ScalarModes.cpp - Every mode from an op's partials -----------------===//

#include "ScalarModes.h"

#include "../ForwardEmitter.h"
#include "../ReverseEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

LogicalResult ad::emitScalarTangent(Operation *op, OpBuilder &b,
                                    ForwardEmitter &emitter) {
  emitter.clonePrimal(b, *op);
  if (!emitter.isActive(op->getResult(0)))
    return success();
  Location loc = op->getLoc();
  auto lookup = [&](Value v) { return emitter.lookup(v); };
  PrimalValues primals(op, lookup);
  SmallVector<Value> partials =
      cast<ScalarDerivativeOpInterface>(op).buildPartials(b, primals);
  Type type = op->getResult(0).getType();
  Value sum;
  for (auto [operand, partial] : llvm::zip_equal(op->getOperands(), partials)) {
    if (!partial || !emitter.isActive(operand))
      continue;
    Value t = buildFloatCast(b, loc, emitter.tangent(b, loc, operand), type);
    Value term = arith::MulFOp::create(b, loc, partial, t);
    sum = sum ? arith::AddFOp::create(b, loc, sum, term).getResult() : term;
  }
  emitter.setTangent(op->getResult(0), sum ? sum : buildZero(b, loc, type));
  return success();
}

LogicalResult ad::emitClonedForward(Operation *op, OpBuilder &b,
                                    ReverseEmitter &emitter) {
  b.clone(*op, emitter.forwardValues);
  return success();
}

bool ad::needsReverseByDefault(Operation *op, ReverseEmitter &emitter) {
  return emitter.needsReverseByDefault(op);
}

/// Erases the ops that computed `value` and nothing else (stand-ins stay).
static void eraseUnused(Value value) {
  // A set: an op listed twice would be erased the first time.
  llvm::SetVector<Operation *> worklist;
  if (Operation *def = value.getDefiningOp())
    worklist.insert(def);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (isa<UnrealizedConversionCastOp>(op) || !isPure(op) || !op->use_empty())
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.insert(def);
    op->erase();
  }
}

LogicalResult ad::emitScalarReverse(Operation *op, OpBuilder &b,
                                    ReverseEmitter &emitter) {
  Location loc = op->getLoc();
  Value adjoint = emitter.readAndZero(b, loc, op->getResult(0));
  // The rule builds every partial, but only those of active operands are
  // used. It gets stand-ins for the primal values, and only the stand-ins
  // that kept partials use are fetched: a primal value fetched in vain can
  // cost a tape entry (`h * k` with h constant needs h, not k).
  SmallVector<std::pair<Value, Value>> standIns; // (stand-in, primal)
  auto lookup = [&](Value primal) -> Value {
    for (auto [standIn, known] : standIns)
      if (known == primal)
        return standIn;
    Value standIn = UnrealizedConversionCastOp::create(
                        b, loc, primal.getType(), ValueRange{})
                        .getResult(0);
    standIns.push_back({standIn, primal});
    return standIn;
  };
  PrimalValues primals(op, lookup);
  SmallVector<Value> partials =
      cast<ScalarDerivativeOpInterface>(op).buildPartials(b, primals);
  for (auto [operand, partial] : llvm::zip_equal(op->getOperands(), partials)) {
    if (!partial)
      continue;
    if (emitter.activity.isActive(operand))
      emitter.accumulate(b, loc, operand,
                         arith::MulFOp::create(b, loc, partial, adjoint,
                                               arith::FastMathFlags::contract));
    else
      eraseUnused(partial);
  }
  for (auto [standIn, primal] : standIns) {
    if (!standIn.use_empty())
      standIn.replaceAllUsesWith(emitter.primalInReverse(primal));
    standIn.getDefiningOp()->erase();
  }
  return success(!emitter.hadError);
}
