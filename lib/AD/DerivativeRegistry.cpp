//===- DerivativeRegistry.cpp - Generated derivative functions ------------===//

#include "DerivativeRegistry.h"
#include "Analysis/CallActivity.h"
#include "Checkpointing/Checkpoints.h"
#include "VectorMode/Lanes.h"
#include "cotangent/Dialect/CT/IR/LaneAccesses.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

FunctionType ad::getDerivativeType(FunctionType type, DerivativeKind kind,
                                   ArrayRef<ct::Activity> activities,
                                   bool forwardTakesShadows) {
  MLIRContext *context = type.getContext();
  SmallVector<Type> inputs(type.getInputs());
  SmallVector<Type> results;
  auto tape = ct::TapeType::get(context);
  if (kind == DerivativeKind::Jvp) {
    ct::ForwardSignature sig = ct::getForwardSignature(type, activities);
    llvm::append_range(inputs, sig.tangents);
    llvm::append_range(results, type.getResults());
    llvm::append_range(results, sig.resultTangents);
    return FunctionType::get(context, inputs, results);
  }
  ct::ReverseSignature sig = ct::getReverseSignature(type, activities);
  switch (kind) {
  case DerivativeKind::Pullback:
    llvm::append_range(inputs, sig.seeds);
    llvm::append_range(inputs, sig.shadows);
    llvm::append_range(results, type.getResults());
    llvm::append_range(results, sig.adjoints);
    break;
  case DerivativeKind::Forward:
    inputs.push_back(tape);
    if (forwardTakesShadows)
      llvm::append_range(inputs, sig.shadows);
    llvm::append_range(results, type.getResults());
    break;
  case DerivativeKind::Reverse:
    inputs.push_back(tape);
    llvm::append_range(inputs, sig.seeds);
    llvm::append_range(inputs, sig.shadows);
    llvm::append_range(results, sig.adjoints);
    break;
  case DerivativeKind::Jvp:
    llvm_unreachable("handled above");
  }
  return FunctionType::get(context, inputs, results);
}

static StringRef getKindName(DerivativeKind kind) {
  switch (kind) {
  case DerivativeKind::Pullback:
    return "pullback";
  case DerivativeKind::Forward:
    return "fwd";
  case DerivativeKind::Reverse:
    return "rev";
  case DerivativeKind::Jvp:
    return "jvp";
  }
  llvm_unreachable("unknown derivative kind");
}

DerivativeRegistry::DerivativeRegistry(ModuleOp module,
                                       ReverseStrategies strategies,
                                       Cleanup cleanup)
    : module(module), strategies(strategies), cleanup(std::move(cleanup)),
      symbols(module), forwardShadowNeeds(module) {
  for (auto rule : module.getOps<ct::CustomGradientOp>())
    reverseRules[lookupFunction(rule.getFunctionAttr())] = rule;
  for (auto rule : module.getOps<ct::CustomVjpOp>())
    reverseRules[lookupFunction(rule.getFunctionAttr())] = rule;
  for (auto rule : module.getOps<ct::CustomJvpOp>())
    customJvps[lookupFunction(rule.getFunctionAttr())] = rule;
}

func::FuncOp DerivativeRegistry::lookupFunction(FlatSymbolRefAttr name) {
  return symbols.lookup<func::FuncOp>(name.getValue());
}

Operation *DerivativeRegistry::getReverseRule(func::FuncOp f) {
  return reverseRules.lookup(f);
}

ct::CustomJvpOp DerivativeRegistry::getCustomJvp(func::FuncOp f) {
  return customJvps.lookup(f);
}

static std::string getDerivativeName(func::FuncOp primal, DerivativeKind kind,
                                     ArrayRef<ct::Activity> activities) {
  std::string name =
      (primal.getSymName() + "." + getKindName(kind) + ".").str();
  for (ct::Activity activity : activities)
    name += activity == ct::Activity::Active       ? 'a'
            : activity == ct::Activity::Duplicated ? 'd'
                                                   : 'c';
  return name;
}

func::FuncOp DerivativeRegistry::declare(func::FuncOp primal,
                                         DerivativeKind kind,
                                         ArrayRef<ct::Activity> activities) {
  OpBuilder builder(module.getContext());
  builder.setInsertionPointAfter(primal);
  auto derivative = func::FuncOp::create(
      builder, primal.getLoc(), getDerivativeName(primal, kind, activities),
      getDerivativeType(primal.getFunctionType(), kind, activities,
                        kind == DerivativeKind::Forward &&
                            forwardShadowNeeds.needsArgumentShadows(primal)));
  derivative.setPrivate();
  // A derivative takes the primal's arguments first, and writes what the
  // primal writes: a copy the primal writes is one it writes
  // (isWrittenOwnCopy; its body is generated later).
  // It calls what the primal calls.
  if (primal->hasAttr(ct::kCallsExternalAttr))
    derivative->setAttr(ct::kCallsExternalAttr, builder.getUnitAttr());
  unsigned numArgs = primal.getNumArguments();
  for (unsigned i = 0; i < numArgs; ++i)
    if (isWrittenOwnCopy(primal, i))
      derivative.setArgAttr(i, ct::kByValueAttr, builder.getUnitAttr());
  // So is the tangent of such a copy: scratch its caller gave it.
  if (kind == DerivativeKind::Jvp)
    for (auto [k, arg] : llvm::enumerate(
             ct::getForwardSignature(primal.getFunctionType(), activities)
                 .tangentArgs))
      if (isWrittenOwnCopy(primal, arg))
        derivative.setArgAttr(numArgs + k, ct::kByValueAttr,
                              builder.getUnitAttr());
  // The tangent code of a [[ct::checkpoint]] function is rerun, not
  // recorded, by reverse mode over it too (a Hessian-vector product); it
  // keeps the function's C++ name for messages.
  if (kind == DerivativeKind::Jvp && primal->hasAttr("ct.checkpoint")) {
    derivative->setAttr("ct.checkpoint", builder.getUnitAttr());
    if (Attribute name = primal->getAttr("ct.source_name"))
      derivative->setAttr("ct.source_name", name);
  }
  symbols.insert(derivative);
  jobs[derivative] = Job{primal, kind, SmallVector<ct::Activity>(activities)};
  return derivative;
}

func::FuncOp DerivativeRegistry::get(func::FuncOp primal, DerivativeKind kind,
                                     ArrayRef<ct::Activity> activities) {
  if (auto existing = symbols.lookup<func::FuncOp>(
          getDerivativeName(primal, kind, activities)))
    return existing;
  if (kind != DerivativeKind::Forward && kind != DerivativeKind::Reverse)
    return declare(primal, kind, activities);
  func::FuncOp forward = declare(primal, DerivativeKind::Forward, activities);
  func::FuncOp reverse = declare(primal, DerivativeKind::Reverse, activities);
  jobs[forward].partner = reverse;
  jobs[reverse].partner = forward;
  return kind == DerivativeKind::Forward ? forward : reverse;
}

LogicalResult DerivativeRegistry::generate(func::FuncOp derivative) {
  auto it = jobs.find(derivative);
  if (it == jobs.end() || it->second.state != Job::Pending)
    return success();
  it->second.state = Job::Running;
  Job job = it->second;
  if (job.partner)
    jobs[job.partner].state = Job::Running;
  // A derivative of a generated function needs that function's body first.
  if (job.kind == DerivativeKind::Pullback
          ? failed(prepareForReverse(job.primal))
          : failed(generate(job.primal)))
    return failure();
  // Vector mode's lanes (ct::lanes) are vectors of floats, differentiated
  // as such; its whole-lane memory accesses become element accesses, which
  // the memory analyses know.
  ct::scalarizeLaneAccesses(job.primal);
  // A split rule (residuals saved by its forward half) says nothing about
  // tangents; its body, if any, is what the user chose not to differentiate.
  auto vjp = dyn_cast_or_null<ct::CustomVjpOp>(getReverseRule(job.primal));
  if (job.kind == DerivativeKind::Jvp && vjp && !getCustomJvp(job.primal) &&
      !job.primal->hasAttr(ct::kForwardFromBodyAttr)) {
    InFlightDiagnostic diag = vjp.emitError("cannot differentiate ");
    if (auto name = job.primal->getAttrOfType<StringAttr>("ct.source_name"))
      diag << "'" << name.getValue() << "'";
    else
      diag << "@" << job.primal.getSymName();
    diag << " in forward mode (which ct::jvp and ct::hvp use): its "
            "CT_CUSTOM_VJP rule is for reverse mode only; bind a "
            "forward-mode rule too with CT_CUSTOM_JVP";
    return diag;
  }
  // With a custom rule, differentiate a function that just calls the primal:
  // differentiating the call is what uses the rule.
  bool hasRule = job.kind == DerivativeKind::Jvp
                     ? static_cast<bool>(getCustomJvp(job.primal))
                     : getReverseRule(job.primal) != nullptr;
  if (hasRule)
    job.primal = getCallWrapper(job.primal);
  else if (!job.primal.isExternal() && !job.primal.getBody().hasOneBlock())
    job.primal = getStructured(job.primal);
  if (!job.primal)
    return failure();
  if (job.primal.isExternal() && job.primal->hasAttr(ct::kImportedLastOrder)) {
    InFlightDiagnostic diag = job.primal.emitError() << "cannot differentiate ";
    if (auto name = job.primal->getAttrOfType<StringAttr>("ct.source_name"))
      diag << "'" << name.getValue() << "' ";
    return diag << "a third time: its body is in another translation unit, "
                   "which exports its derivatives to second order only; "
                   "define it in this translation unit (for instance "
                   "inline in its header) to differentiate it further";
  }
  if (job.primal.isExternal())
    return job.primal.emitError()
           << "cannot differentiate @" << job.primal.getSymName()
           << ": it has no body; bind a custom rule to it "
              "(ct.custom_gradient / ct.custom_jvp)";
  LogicalResult result = success();
  switch (job.kind) {
  case DerivativeKind::Jvp:
    result = emitJvp(*this, job.primal, derivative, job.activities);
    break;
  case DerivativeKind::Pullback:
    result =
        emitReverse(*this, job.primal, derivative, derivative, job.activities);
    break;
  case DerivativeKind::Forward:
    result =
        emitReverse(*this, job.primal, derivative, job.partner, job.activities);
    break;
  case DerivativeKind::Reverse:
    result =
        emitReverse(*this, job.primal, job.partner, derivative, job.activities);
    break;
  }
  jobs[derivative].state = Job::Done;
  if (job.partner)
    jobs[job.partner].state = Job::Done;
  return result;
}

LogicalResult DerivativeRegistry::prepareForReverse(func::FuncOp primal) {
  if (failed(generate(primal)))
    return failure();
  return inlineForwardDerivatives(primal);
}

LogicalResult DerivativeRegistry::generateNow(func::FuncOp function) {
  return generate(function);
}

LogicalResult
DerivativeRegistry::inlineForwardDerivatives(func::FuncOp function) {
  SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
  function.walk([&](func::CallOp call) {
    auto callee = lookupFunction(call.getCalleeAttr());
    auto it = callee ? jobs.find(callee) : jobs.end();
    if (it != jobs.end() && it->second.kind == DerivativeKind::Jvp &&
        callee != function)
      calls.emplace_back(call, callee);
  });
  InlinerInterface interface(module.getContext());
  InlinerConfig config;
  for (auto [call, callee] : calls) {
    if (failed(generate(callee)))
      return failure();
    // Checkpointed code stays a call, for reverse mode to rerun.
    if (call->hasAttr(kCheckpointSnapshots) || callee->hasAttr("ct.checkpoint"))
      continue;
    // A recursive derivative stays a call (differentiated split).
    StringRef name = callee.getSymName();
    bool recursive = false;
    callee.walk(
        [&](func::CallOp inner) { recursive |= inner.getCallee() == name; });
    if (recursive || callee.isExternal())
      continue;
    if (succeeded(inlineCall(interface, config.getCloneCallback(), call, callee,
                             &callee.getBody(),
                             /*shouldCloneInlinedRegion=*/true)))
      call.erase();
  }
  // Forward-mode derivatives that stay calls (checkpointed ones, those the
  // inlined bodies call, and theirs in turn) are generated now: the
  // analyses of reverse mode read their bodies.
  SmallVector<func::FuncOp> remaining{function};
  DenseSet<Operation *> seen{function};
  while (!remaining.empty()) {
    func::FuncOp caller = remaining.pop_back_val();
    SmallVector<func::FuncOp> callees;
    caller.walk([&](func::CallOp call) {
      auto callee = lookupFunction(call.getCalleeAttr());
      auto it = callee ? jobs.find(callee) : jobs.end();
      if (it != jobs.end() && it->second.kind == DerivativeKind::Jvp &&
          seen.insert(callee).second)
        callees.push_back(callee);
    });
    for (func::FuncOp callee : callees) {
      if (failed(generate(callee)))
        return failure();
      remaining.push_back(callee);
    }
  }
  // Forward mode added tangent buffers after the pipeline's hoisting ran,
  // and products by constant partials (`1 * dx`) that hide, for instance,
  // a carried tangent being a sum.
  if (!calls.empty() && cleanup)
    return cleanup(function);
  return success();
}

func::FuncOp DerivativeRegistry::getStructured(func::FuncOp function) {
  std::string name = (function.getSymName() + ".structured").str();
  if (auto existing = symbols.lookup<func::FuncOp>(name))
    return existing;
  OpBuilder builder(module.getContext());
  builder.setInsertionPointAfter(function);
  auto copy = cast<func::FuncOp>(builder.clone(*function));
  copy.setSymName(name);
  copy.setPrivate();
  symbols.insert(copy);
  ControlFlowToSCFTransformation transformation;
  DominanceInfo dominance;
  if (failed(transformCFGToSCF(copy.getBody(), transformation, dominance)) ||
      !copy.getBody().hasOneBlock()) {
    function.emitError("cannot differentiate @")
        << function.getSymName()
        << ": its control flow could not be made structured; rewrite it "
           "with structured loops and branches";
    symbols.erase(copy);
    return nullptr;
  }
  return copy;
}

func::FuncOp DerivativeRegistry::getCallWrapper(func::FuncOp function) {
  std::string name = (function.getSymName() + ".call").str();
  if (auto existing = symbols.lookup<func::FuncOp>(name))
    return existing;
  OpBuilder builder(module.getContext());
  builder.setInsertionPointAfter(function);
  auto wrapper = func::FuncOp::create(builder, function.getLoc(), name,
                                      function.getFunctionType());
  wrapper.setPrivate();
  symbols.insert(wrapper);
  builder.setInsertionPointToStart(wrapper.addEntryBlock());
  auto call = func::CallOp::create(builder, function.getLoc(), function,
                                   wrapper.getArguments());
  func::ReturnOp::create(builder, function.getLoc(), call.getResults());
  return wrapper;
}

LogicalResult DerivativeRegistry::generateAll() {
  // Generating one job may add more; iterate by index over the MapVector.
  for (size_t i = 0; i < jobs.size(); ++i) {
    auto derivative = cast<func::FuncOp>(jobs.begin()[i].first);
    if (failed(generate(derivative)))
      return failure();
  }
  return success();
}
