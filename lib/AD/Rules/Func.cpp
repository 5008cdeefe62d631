//===- Func.cpp - Differentiating calls -----------------------------------===//
//
// A call of a function is differentiated by calling its derivative: the
// callee's jvp in forward mode; in reverse mode its fwd half (which records
// on the caller's tape) in the forward sweep and its rev half in the
// reverse sweep, or its pullback at once when the result's adjoint is known
// before the call (an eager call). Custom rules bound to the callee replace
// the generated derivatives.
//
//===----------------------------------------------------------------------===//

#include "Analysis/CallActivity.h"
#include "Checkpointing/Checkpoints.h"
#include "DerivativeRegistry.h"
#include "ForwardMode/ForwardEmitter.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Rules/RuleMemory.h"
#include "Rules/ScalarModes.h"
#include "Utils/IRBuilders.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

namespace {

static bool isConstant(ct::Activity a) { return a == ct::Activity::Constant; }

/// Reports a call of a function compiled elsewhere (ct.external, no rule)
/// that a derivative would have to cross, in the user's terms: what carries
/// the derivative, and the ways out.
/// Notes at the calls that led to `op`'s function when it is a library's
/// (ct.call_chain), up to the user's line.
static void noteCallChain(InFlightDiagnostic &diag, Operation *op) {
  auto function = op->getParentOfType<func::FuncOp>();
  auto chain = function ? function->getAttrOfType<ArrayAttr>(ct::kCallChainAttr)
                        : nullptr;
  if (!chain)
    return;
  for (auto call : chain.getAsRange<ArrayAttr>())
    diag.attachNote(cast<LocationAttr>(call[1]))
        << "in call to '" << cast<StringAttr>(call[0]).getValue()
        << "' from here";
}

static LogicalResult refuseExternalCall(func::CallOp call, func::FuncOp callee,
                                        ArrayRef<ct::Activity> activities,
                                        bool activeResult) {
  auto name = callee->getAttrOfType<StringAttr>("ct.source_name");
  auto params = callee->getAttrOfType<ArrayAttr>("ct.param_names");
  InFlightDiagnostic diag = call.emitError()
                            << "'" << (name ? name.getValue() : "?") << "' ";
  noteCallChain(diag, call);
  // A custom rule (or a function bound to one) that differentiable code
  // cannot express runs as compiled: a higher derivative needs its rule.
  if (auto why = callee->getAttrOfType<StringAttr>(ct::kNotLoweredAttr))
    return diag << "runs as C++ compiled as written, not as differentiable "
                   "code ("
                << why.getValue()
                << "), so no derivative can flow through it, as one must "
                   "here (a derivative of a derivative through a custom "
                   "rule goes through the rule); give it a custom "
                   "derivative rule of its own (CT_CUSTOM_GRADIENT or "
                   "CT_CUSTOM_VJP for reverse mode, CT_CUSTOM_JVP for "
                   "forward mode), or write it as code differentiable code "
                   "can express";
  // A library object kept as compiled (std::map, std::string, ...): what
  // went into it cannot come back out with a derivative.
  if (auto object = callee->getAttrOfType<StringAttr>(ct::kLibraryObjectAttr))
    return diag << "works on a '" << object.getValue()
                << "', which differentiable code keeps as the library "
                   "compiled it, and a derivative would have to come out "
                   "of it here: a value that depends on what is being "
                   "differentiated went into it (stored through a reference "
                   "it gave, or passed to one of its functions); keep such "
                   "values in a std::vector or an array, or stop the "
                   "derivative with ct::stop_gradient before they go in";
  if (auto why = callee->getAttrOfType<StringAttr>(ct::kLibraryCodeAttr))
    return diag << "runs as the library compiled it, not as differentiable "
                   "code ("
                << why.getValue()
                << "), so no derivative can flow through it, as one must "
                   "here; give it a custom derivative rule (CT_CUSTOM_GRADIENT "
                   "or CT_CUSTOM_VJP for reverse mode, CT_CUSTOM_JVP for "
                   "forward mode), or stop the derivative with "
                   "ct::stop_gradient";
  diag << "has no visible body, and a derivative would have to flow "
          "through this call: ";
  if (activeResult) {
    diag << "its result depends on what is being differentiated";
  } else {
    diag << "it is given memory that holds derivatives and may write it";
    for (auto [i, a] : llvm::enumerate(activities))
      if (a == ct::Activity::Duplicated && params && i < params.size()) {
        diag << " (argument '" << cast<StringAttr>(params[i]).getValue()
             << "'; a pointer or reference to const would only be read)";
        break;
      }
  }
  return diag << "; define it in this file, mark it [[ct::differentiable]] "
                 "where it is defined, or give it a custom derivative rule "
                 "(CT_CUSTOM_GRADIENT or CT_CUSTOM_VJP for reverse mode, "
                 "CT_CUSTOM_JVP for forward mode), or stop the derivative "
                 "with ct::stop_gradient";
}

/// Whether `call` of code compiled elsewhere returns a reference into
/// memory that carries derivatives (one a library object holds), which no
/// derivative of the call can give.
static bool returnsMemoryWithDerivatives(func::CallOp call,
                                         const ActivityAnalysis &activity) {
  return llvm::any_of(call.getResults(), [&](Value result) {
    return isa<MemRefType>(result.getType()) && activity.hasShadow(result);
  });
}

struct CallForward
    : public ForwardModeOpInterface::ExternalModel<CallForward, func::CallOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto call = cast<func::CallOp>(op);
    // (Constant memory given to a function keeping addresses: see
    // CallReverse.)
    if (emitter.getActivity().getConstantGivenToAddressKeeper() == op &&
        failed(emitter.getActivity().refuseCallGivenOwnShadow(op)))
      return failure();
    SmallVector<ct::Activity> activities =
        getCallActivities(call, emitter.getActivity());
    if (returnsMemoryWithDerivatives(call, emitter.getActivity()))
      if (func::FuncOp callee =
              emitter.getRegistry().lookupFunction(call.getCalleeAttr());
          callee && callee->hasAttr(ct::kExternalAttr))
        return refuseExternalCall(call, callee, activities,
                                  /*activeResult=*/true);
    // Without active results or memory with tangents, the call reaches
    // nothing differentiable, whatever its active scalar arguments.
    if (!llvm::is_contained(activities, ct::Activity::Duplicated) &&
        llvm::none_of(call.getResults(),
                      [&](Value r) { return emitter.isActive(r); })) {
      emitter.clonePrimal(b, *op);
      return success();
    }
    DerivativeRegistry &registry = emitter.getRegistry();
    func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
    if (!callee)
      return op->emitError("cannot differentiate a call of @")
             << call.getCallee() << ": it is not a func.func in this module";
    ct::CustomJvpOp rule = registry.getCustomJvp(callee);
    if (!rule && callee->hasAttr(ct::kExternalAttr))
      return refuseExternalCall(call, callee, activities,
                                llvm::any_of(call.getResults(), [&](Value r) {
                                  return emitter.isActive(r);
                                }));
    // A custom rule takes every argument with its default activity.
    FlatSymbolRefAttr target;
    if (rule) {
      target = rule.getJvpAttr();
      activities = ct::getDefaultActivities(callee.getFunctionType());
    } else {
      target = FlatSymbolRefAttr::get(
          registry.get(callee, DerivativeKind::Jvp, activities)
              .getSymNameAttr());
    }
    return emitJvpCall(b, call, target, activities, emitter);
  }

  /// Calls `target` with the primal operands, then the tangents (constant
  /// ones zero, missing shadows scratch buffers freed after the call).
  static LogicalResult emitJvpCall(OpBuilder &b, func::CallOp op,
                                   FlatSymbolRefAttr target,
                                   ArrayRef<ct::Activity> activities,
                                   ForwardEmitter &emitter) {
    Location loc = op.getLoc();
    SmallVector<Value> operands = llvm::map_to_vector(
        op.getOperands(), [&](Value v) { return emitter.lookup(v); });
    SmallVector<Value> scratch;
    for (auto [operand, a] : llvm::zip_equal(op.getOperands(), activities)) {
      if (a == ct::Activity::Active) {
        operands.push_back(emitter.tangent(b, loc, operand));
      } else if (a == ct::Activity::Duplicated) {
        Value s = emitter.shadow(operand);
        if (!s) {
          s = buildScratchShadow(b, loc, emitter.lookup(operand));
          scratch.push_back(s);
        }
        operands.push_back(s);
      }
    }
    SmallVector<Type> resultTypes(op.getResultTypes());
    for (Type type : op.getResultTypes())
      if (ct::isDifferentiableScalar(type))
        resultTypes.push_back(type);
    auto call = func::CallOp::create(b, loc, target, resultTypes, operands);
    // The tangent loop of a checkpointed for loop is checkpointed too, for
    // reverse mode over forward mode (Hessian-vector products).
    if (Attribute snapshots = op->getAttr(kCheckpointSnapshots);
        snapshots && isa<scf::ForOp>(op->getParentOp())) {
      call->setAttr(kCheckpointSnapshots, snapshots);
      call.setNoInline(true);
    }
    for (Value s : scratch)
      buildScratchFree(b, loc, s);
    unsigned nextTangent = op.getNumResults();
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      emitter.getMapping().map(result, call.getResult(i));
      if (ct::isDifferentiableScalar(result.getType())) {
        Value t = call.getResult(nextTangent++);
        if (emitter.isActive(result))
          emitter.setTangent(result, t);
      }
    }
    return success();
  }
};

/// The residuals a call's ct.custom_vjp rule returned in the forward sweep,
/// for its backward half.
struct CustomVjpResiduals : reverse::ReverseEmitter::OpState {
  SmallVector<Value> values;
};

struct CallReverse
    : public ReverseModeOpInterface::ExternalModel<CallReverse, func::CallOp> {
  /// A call matters to reverse mode through its active results or the
  /// memory with shadows it is given; active scalar arguments alone reach
  /// nothing differentiable, and nor does memory given a scratch shadow.
  bool needsReverse(Operation *op, ReverseEmitter &emitter) const {
    const ActivityAnalysis &activity = emitter.getActivity();
    return llvm::any_of(op->getResults(),
                        [&](Value r) { return activity.isActive(r); }) ||
           passesDerivativeMemory(cast<func::CallOp>(op), activity);
  }

  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    auto call = cast<func::CallOp>(op);
    if (returnsMemoryWithDerivatives(call, emitter.getActivity()))
      if (func::FuncOp callee =
              emitter.getRegistry().lookupFunction(call.getCalleeAttr());
          callee && callee->hasAttr(ct::kExternalAttr)) {
        emitter.markFailed();
        return refuseExternalCall(
            call, callee, getCallActivities(call, emitter.getActivity()),
            /*activeResult=*/true);
      }
    // (Constant memory given to a function keeping addresses: reads of
    // what it keeps cannot leave the function unchecked.)
    const ActivityAnalysis &activity = emitter.getActivity();
    if (activity.getConstantGivenToAddressKeeper() == op &&
        failed(activity.refuseCallGivenOwnShadow(op))) {
      emitter.markFailed();
      return failure();
    }
    if (!needsReverse(op, emitter))
      return emitClonedForward(op, b, emitter);
    if (emitter.tryEagerCall(b, call))
      return success();
    DerivativeRegistry &registry = emitter.getRegistry();
    func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
    Operation *rule = callee ? registry.getReverseRule(callee) : nullptr;
    IRMapping &forwardValues = emitter.getForwardMapping();
    SmallVector<Value> operands = llvm::map_to_vector(
        call.getOperands(), [&](Value v) { return forwardValues.lookup(v); });
    Location loc = op->getLoc();
    if (auto vjp = dyn_cast_or_null<ct::CustomVjpOp>(rule)) {
      // The rule's forward half returns the results, then residuals that
      // its backward half needs.
      func::FuncOp forward = registry.lookupFunction(vjp.getForwardAttr());
      auto fwdCall = func::CallOp::create(b, loc, forward, operands);
      unsigned numResults = call.getNumResults();
      forwardValues.map(call.getResults(),
                        fwdCall.getResults().take_front(numResults));
      emitter.getOpState<CustomVjpResiduals>(call).values = llvm::to_vector(
          ValueRange(fwdCall.getResults().drop_front(numResults)));
      // Memory residuals belong to the rule until its backward half.
      for (Value residual : fwdCall.getResults().drop_front(numResults))
        if (isa<MemRefType>(residual.getType()))
          emitter.keepForReverse(residual);
      return keepRuleMemory(b, callee, call, emitter);
    }
    if (!rule && callee && callee->hasAttr(ct::kExternalAttr)) {
      emitter.markFailed();
      return refuseExternalCall(call, callee,
                                getCallActivities(call, emitter.getActivity()),
                                llvm::any_of(call.getResults(), [&](Value r) {
                                  return emitter.getActivity().isActive(r);
                                }));
    }
    if (!callee)
      return emitClonedForward(op, b, emitter);
    if (rule) {
      if (failed(emitClonedForward(op, b, emitter)))
        return failure();
      return keepRuleMemory(b, callee, call, emitter);
    }
    if (callee->hasAttr("ct.checkpoint"))
      return forwardCheckpointedCall(b, call, callee, emitter);
    SmallVector<ct::Activity> activities =
        getCallActivities(call, emitter.getActivity());
    func::FuncOp forward =
        registry.get(callee, DerivativeKind::Forward, activities);
    operands.push_back(emitter.getForwardTape(loc));
    if (takesShadowsInForward(forward, call.getNumOperands()) &&
        failed(appendShadowsInForward(b, call, activities, emitter, operands)))
      return failure();
    auto fwdCall = func::CallOp::create(b, loc, forward, operands);
    forwardValues.map(call.getResults(), fwdCall.getResults());
    return success();
  }

  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    auto call = cast<func::CallOp>(op);
    DerivativeRegistry &registry = emitter.getRegistry();
    func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr());
    if (!callee)
      return emitter.fail(op, "the callee is not a func.func in this module");
    if (emitter.lookupOpState<CheckpointedCallState>(call))
      return reverseCheckpointedCall(b, call, callee, emitter);
    SmallVector<ct::Activity> activities =
        getCallActivities(call, emitter.getActivity());
    // A rule takes every argument with its default activity.
    Operation *rule = registry.getReverseRule(callee);
    if (rule)
      activities = ct::getDefaultActivities(callee.getFunctionType());
    FlatSymbolRefAttr target;
    if (auto gradient = dyn_cast_or_null<ct::CustomGradientOp>(rule))
      target = gradient.getPullbackAttr();
    else if (auto vjp = dyn_cast_or_null<ct::CustomVjpOp>(rule))
      target = vjp.getBackwardAttr();
    else
      target = FlatSymbolRefAttr::get(
          registry.get(callee, DerivativeKind::Reverse, activities)
              .getSymNameAttr());
    return emitReverseCall(b, call, rule, target, activities, emitter);
  }

  /// Appends to `operands` of a call of a forward half that keeps
  /// addresses in its arguments' memory the shadows of the call's dup
  /// operands, as the forward sweep has them.
  static LogicalResult appendShadowsInForward(OpBuilder &b, func::CallOp call,
                                              ArrayRef<ct::Activity> activities,
                                              ReverseEmitter &emitter,
                                              SmallVector<Value> &operands) {
    for (auto [operand, a] : llvm::zip_equal(call.getOperands(), activities)) {
      if (a != ct::Activity::Duplicated)
        continue;
      Value shadow = emitter.shadowInForward(b, operand);
      if (!shadow)
        return emitter.failWith(
            call, "cannot differentiate in reverse mode: this call keeps "
                  "addresses in memory it is given, whose derivative is "
                  "not available here (memory made in a loop or branch that "
                  "holds no addresses itself); create it outside");
      operands.push_back(shadow);
    }
    return success();
  }

  /// Calls `target` with what the rev half (or the rule's backward
  /// function) takes: a VJP rule's residuals, the primal operands, the
  /// tape (rev halves only), the results' seeds, the shadows; accumulates
  /// the adjoints.
  static LogicalResult emitReverseCall(OpBuilder &b, func::CallOp op,
                                       Operation *rule,
                                       FlatSymbolRefAttr target,
                                       ArrayRef<ct::Activity> activities,
                                       ReverseEmitter &emitter) {
    Location loc = op.getLoc();
    SmallVector<Value> operands;
    if (isa_and_nonnull<ct::CustomVjpOp>(rule))
      for (Value residual : emitter.getOpState<CustomVjpResiduals>(op).values)
        operands.push_back(
            emitter.fromForward(op->getBlock(), residual, residual));
    // (A rule reads its arguments' memory as the call left it.)
    SmallVector<Value> primals = llvm::map_to_vector(
        op.getOperands(), [&](Value v) { return emitter.primalInReverse(v); });
    SmallVector<Value> copies;
    if (rule)
      copies = restoreRuleMemory(b, op, primals, emitter);
    llvm::append_range(operands, primals);
    if (!rule)
      operands.push_back(emitter.getReverseTape());
    for (Value result : op.getResults())
      if (ct::isDifferentiableScalar(result.getType()))
        operands.push_back(emitter.getActivity().isActive(result)
                               ? emitter.readAndZero(b, loc, result)
                               : buildZero(b, loc, result.getType()));
    SmallVector<Value> scratch;
    llvm::append_range(
        operands, buildCallShadows(b, loc, op, activities, emitter, scratch));
    SmallVector<Type> adjointTypes;
    for (auto [operand, a] : llvm::zip_equal(op.getOperands(), activities))
      if (a == ct::Activity::Active)
        adjointTypes.push_back(operand.getType());
    auto call = func::CallOp::create(b, loc, target, adjointTypes, operands);
    for (Value s : scratch)
      buildScratchFree(b, loc, s);
    for (Value copy : copies)
      memref::DeallocOp::create(b, loc, copy);
    emitter.accumulateCallAdjoints(b, loc, op.getOperands(), activities,
                                   call.getResults());
    return success(!emitter.hadFailure());
  }
};

} // namespace

void ad::registerFuncDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, func::FuncDialect *) {
    func::CallOp::attachInterface<CallForward, CallReverse>(*context);
  });
}
