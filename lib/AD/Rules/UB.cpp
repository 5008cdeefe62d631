//===- UB.cpp - Derivative rules of the ub dialect ------------------------===//
//
// `ub.poison` stands for a value no path computed: what a region yields
// where the value it carries out was not made (a place chosen in a loop
// with an early exit, after structuring). Its tangent is poison too: no
// execution reads it. Its shadow in reverse mode is made where it is
// needed (ReverseEmitter::shadowInReverse).
//
//===----------------------------------------------------------------------===//

#include "ForwardMode/ForwardEmitter.h"
#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace cotangent::ad;

namespace {

struct PoisonModel
    : public ActivityOpInterface::ExternalModel<PoisonModel, ub::PoisonOp> {
  void getDerivativeFlow(Operation *, SmallVectorImpl<DerivativeFlow> &) const {
  }
};

struct PoisonForward
    : public ForwardModeOpInterface::ExternalModel<PoisonForward,
                                                   ub::PoisonOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    emitter.clonePrimal(b, *op);
    Value result = op->getResult(0);
    if (emitter.carriesTangent(result))
      emitter.setTangent(
          result, ub::PoisonOp::create(b, op->getLoc(), result.getType()));
    return success();
  }
};

} // namespace

void cotangent::ad::registerUBDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, ub::UBDialect *) {
    ub::PoisonOp::attachInterface<PoisonModel, PoisonForward>(*context);
  });
}
