//===- CT.cpp - Differentiating ct ops ------------------------------------===//
//
// Identity markers, gradient stops, and the tapes of generated reverse-mode
// code (forward mode over them is a Hessian-vector product: a tape's shadow
// carries the tangents of what it holds; reverse mode over them is a second
// derivative by reverse over reverse: a tape's adjoint is a tape of
// adjoints, read in the opposite order).
//
//===----------------------------------------------------------------------===//

#include "DerivativeRegistry.h"
#include "ForwardMode/ForwardEmitter.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Rules/ScalarModes.h"
#include "Utils/TapedAddresses.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

namespace {

/// Derivatives flow through ct.pass_through unchanged, from its input (not
/// from the value it returns, whose own derivative is dropped).
struct PassThroughModel
    : public ActivityOpInterface::ExternalModel<PassThroughModel,
                                                ct::PassThroughOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto pass = cast<ct::PassThroughOp>(op);
    flow.push_back({pass.getInput(), pass.getResult()});
  }
};

struct PassThroughForward
    : public ForwardModeOpInterface::ExternalModel<PassThroughForward,
                                                   ct::PassThroughOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    emitter.clonePrimal(b, *op);
    auto pass = cast<ct::PassThroughOp>(op);
    if (emitter.isActive(pass.getResult()))
      emitter.setTangent(pass.getResult(),
                         emitter.tangent(b, op->getLoc(), pass.getInput()));
    return success();
  }
};

struct PassThroughReverse
    : public ReverseModeOpInterface::ExternalModel<PassThroughReverse,
                                                   ct::PassThroughOp> {
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    auto pass = cast<ct::PassThroughOp>(op);
    Location loc = op->getLoc();
    emitter.accumulate(b, loc, pass.getInput(),
                       emitter.readAndZero(b, loc, pass.getResult()));
    return success();
  }
};

/// No derivative flows through ct.stop_gradient.
struct StopGradientModel
    : public ActivityOpInterface::ExternalModel<StopGradientModel,
                                                ct::StopGradientOp> {
  void getDerivativeFlow(Operation *, SmallVectorImpl<DerivativeFlow> &) const {
  }
};

//===----------------------------------------------------------------------===//
// Tapes
//===----------------------------------------------------------------------===//

/// A tape's contents are memory: what is pushed flows into it, what is
/// popped out of it.
struct PushModel
    : public ActivityOpInterface::ExternalModel<PushModel, ct::TapePushOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto push = cast<ct::TapePushOp>(op);
    flow.push_back({push.getValue(), push.getTape()});
  }
};

struct PopModel
    : public ActivityOpInterface::ExternalModel<PopModel, ct::TapePopOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto pop = cast<ct::TapePopOp>(op);
    flow.push_back({pop.getTape(), pop.getValue()});
  }
};

/// The shadow tape is made, sized and freed with the tape, and receives the
/// tangents of what is pushed in the same order. Addresses of shadows
/// travel on the tape itself, beside the addresses they pair with
/// (Utils/TapedAddresses.h).
struct TapeForward {
  static LogicalResult emit(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) {
    auto hasShadow = [&](Value memory) { return emitter.hasShadow(memory); };
    if (auto pop = dyn_cast<ct::TapePopOp>(op)) {
      FailureOr<Value> shadow =
          popShadowAddress(b, pop, emitter.lookup(pop.getTape()), hasShadow);
      if (failed(shadow))
        return failure();
      if (*shadow)
        emitter.setTangent(getRebuiltView(pop).getResult(), *shadow);
    }
    emitter.clonePrimal(b, *op);
    if (auto push = dyn_cast<ct::TapePushOp>(op);
        push && failed(pushShadowAddress(
                    b, push, emitter.lookup(push.getTape()), hasShadow,
                    [&](Value memory) { return emitter.shadow(memory); })))
      return failure();
    Location loc = op->getLoc();
    if (isa<ct::TapeInitOp>(op)) {
      if (emitter.hasShadow(op->getResult(0)))
        emitter.setTangent(op->getResult(0), b.clone(*op)->getResult(0));
      return success();
    }
    Value s = emitter.shadow(op->getOperand(0));
    if (!s)
      return success();
    if (auto push = dyn_cast<ct::TapePushOp>(op)) {
      if (ct::isDifferentiableScalar(push.getValue().getType()))
        ct::TapePushOp::create(b, loc, s,
                               emitter.tangent(b, loc, push.getValue()));
    } else if (auto pop = dyn_cast<ct::TapePopOp>(op)) {
      if (ct::isDifferentiableScalar(pop.getType())) {
        Value t = ct::TapePopOp::create(b, loc, pop.getType(), s);
        if (emitter.isActive(pop.getValue()))
          emitter.setTangent(pop.getValue(), t);
      }
    } else if (auto reserve = dyn_cast<ct::TapeReserveOp>(op)) {
      ct::TapeReserveOp::create(b, loc, s, emitter.lookup(reserve.getCount()));
    } else if (isa<ct::TapeFreeOp>(op)) {
      ct::TapeFreeOp::create(b, loc, s);
    }
    return success();
  }
};

template <typename Op>
struct TapeForwardModel
    : public ForwardModeOpInterface::ExternalModel<TapeForwardModel<Op>, Op> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    return TapeForward::emit(op, b, emitter);
  }
};

/// Reverse mode over code that keeps a tape (a derivative differentiated
/// again): the tape's adjoint is a tape of adjoints, made where the reverse
/// code of the tape's block starts and freed by the reverse of its
/// tape_init. Reversed, each pop pushes the adjoint of the value it took
/// and each push pops the adjoint of the value it gave, so the adjoint tape
/// returns them last in, first out, exactly as they pair up. Every
/// differentiable scalar goes through it, active or not, so pushes and pops
/// stay paired; integers and flags carry no adjoint.
struct TapeInitReverse
    : public ReverseModeOpInterface::ExternalModel<TapeInitReverse,
                                                   ct::TapeInitOp> {
  bool needsReverse(Operation *op, ReverseEmitter &emitter) const {
    return emitter.getActivity().hasShadow(op->getResult(0));
  }
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    if (Value adjoints = emitter.shadowInReverse(op->getResult(0)))
      ct::TapeFreeOp::create(b, op->getLoc(), adjoints);
    return success(!emitter.hadFailure());
  }
};

struct TapePushReverse
    : public ReverseModeOpInterface::ExternalModel<TapePushReverse,
                                                   ct::TapePushOp> {
  bool needsReverse(Operation *op, ReverseEmitter &emitter) const {
    return emitter.getActivity().hasShadow(op->getOperand(0)) &&
           ct::isDifferentiableScalar(
               cast<ct::TapePushOp>(op).getValue().getType());
  }
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    auto push = cast<ct::TapePushOp>(b.clone(*op, emitter.getForwardMapping()));
    if (succeeded(pushShadowAddress(
            b, cast<ct::TapePushOp>(op), push.getTape(),
            [&](Value memory) {
              return emitter.getActivity().hasShadow(memory);
            },
            [&](Value memory) { return emitter.shadowInForward(b, memory); })))
      return success();
    emitter.markFailed();
    return failure();
  }
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    auto push = cast<ct::TapePushOp>(op);
    Value adjoints = emitter.shadowInReverse(push.getTape());
    if (!adjoints)
      return failure();
    Location loc = op->getLoc();
    Value value = push.getValue();
    Value adjoint = ct::TapePopOp::create(b, loc, value.getType(), adjoints);
    if (emitter.getActivity().isActive(value))
      emitter.accumulate(b, loc, value, adjoint);
    return success(!emitter.hadFailure());
  }
};

struct TapePopReverse
    : public ReverseModeOpInterface::ExternalModel<TapePopReverse,
                                                   ct::TapePopOp> {
  bool needsReverse(Operation *op, ReverseEmitter &emitter) const {
    return emitter.getActivity().hasShadow(op->getOperand(0)) &&
           ct::isDifferentiableScalar(cast<ct::TapePopOp>(op).getType());
  }
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    auto pop = cast<ct::TapePopOp>(op);
    FailureOr<Value> shadow = popShadowAddress(
        b, pop, emitter.getForwardMapping().lookup(pop.getTape()),
        [&](Value memory) { return emitter.getActivity().hasShadow(memory); });
    if (failed(shadow)) {
      emitter.markFailed();
      return failure();
    }
    if (*shadow)
      emitter.setShadowInForward(getRebuiltView(pop).getResult(), *shadow);
    b.clone(*op, emitter.getForwardMapping());
    return success();
  }
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    auto pop = cast<ct::TapePopOp>(op);
    Value adjoints = emitter.shadowInReverse(pop.getTape());
    if (!adjoints)
      return failure();
    Location loc = op->getLoc();
    Value value = pop.getValue();
    Value adjoint = emitter.getActivity().isActive(value)
                        ? emitter.readAndZero(b, loc, value)
                        : buildAdjointZero(b, loc, value.getType());
    ct::TapePushOp::create(b, loc, adjoints, adjoint);
    return success(!emitter.hadFailure());
  }
};

} // namespace

void ad::registerCTDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, ct::CTDialect *) {
    ct::PassThroughOp::attachInterface<PassThroughModel, PassThroughForward,
                                       PassThroughReverse>(*context);
    ct::StopGradientOp::attachInterface<StopGradientModel>(*context);
    ct::TapeInitOp::attachInterface<TapeForwardModel<ct::TapeInitOp>,
                                    TapeInitReverse>(*context);
    ct::TapePushOp::attachInterface<PushModel, TapeForwardModel<ct::TapePushOp>,
                                    TapePushReverse>(*context);
    ct::TapePopOp::attachInterface<PopModel, TapeForwardModel<ct::TapePopOp>,
                                   TapePopReverse>(*context);
    ct::TapeReserveOp::attachInterface<TapeForwardModel<ct::TapeReserveOp>>(
        *context);
    ct::TapeFreeOp::attachInterface<TapeForwardModel<ct::TapeFreeOp>>(*context);
  });
}
