//===- Differentiate.cpp - The ct-differentiate pass ----------------------===//

#include "Analysis/CallActivity.h"
#include "Analysis/ReseatedMemory.h"
#include "DerivativeRegistry.h"
#include "Utils/IRBuilders.h"
#include "VectorMode/Lanes.h"
#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-differentiate"

namespace cotangent::ad {
#define GEN_PASS_DEF_DIFFERENTIATE
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

struct DifferentiatePass
    : public ad::impl::DifferentiateBase<DifferentiatePass> {
  using DifferentiateBase::DifferentiateBase;

  void runOnOperation() override;

  /// Reports active scalar parameters that cannot influence the result.
  LogicalResult checkConnected(Operation *request, func::FuncOp callee,
                               ArrayRef<ct::Activity> activities);
  /// Reports the memory parameters of a reverse-mode request that the
  /// function re-points to other memory (ReseatedMemory.h), at the
  /// request's location `loc`.
  LogicalResult checkReseatedMemory(Location loc, func::FuncOp callee,
                                    ArrayRef<ct::Activity> activities);
  /// The reverse-mode requests, checked by checkReseatedMemory once their
  /// derivatives are generated (the errors of growing the caller's vectors
  /// there say more).
  struct ReverseRequest {
    Location loc;
    func::FuncOp callee;
    SmallVector<ct::Activity> activities;
  };
  SmallVector<ReverseRequest> reverseRequests;
  /// Checks one request and replaces it with a call of its derivative
  /// (lowerRequest), once: `handled` holds those handled ahead of their
  /// turn (the forward-mode requests inside a reverse-mode request's
  /// callee, an HVP's direction, whose calls reverse mode reads).
  LogicalResult handleRequest(DerivativeRegistry &registry, Operation *request);
  DenseSet<Operation *> handled;
  /// Replaces one request with a call of its derivative; a vector-mode
  /// request waits in `laneRequests` until the derivative is generated.
  LogicalResult lowerRequest(DerivativeRegistry &registry, Operation *request,
                             func::FuncOp callee,
                             ArrayRef<ct::Activity> activities);
  /// Replaces the vector-mode requests with calls of their derivatives
  /// widened to their lanes.
  LogicalResult lowerLaneRequests(DerivativeRegistry &registry);

  struct LaneRequest {
    Operation *request;
    func::FuncOp derivative;
    SmallVector<Value> operands;
  };
  SmallVector<LaneRequest> laneRequests;
  /// The functions each function calls or requests a derivative of, as the
  /// frontend made them: a vector-mode request inside what another one
  /// differentiates is widened first (its call is what gets widened again).
  DenseMap<Operation *, SmallVector<Operation *>> primalCallees;
  bool reaches(Operation *from, Operation *to);
  /// Whether `from`, or a function it reaches, still holds a request (one
  /// not handled yet, or a vector-mode one waiting for its widening).
  bool reachesPendingRequest(Operation *from);
  SmallVector<LaneRequest *> orderLaneRequests();
};

} // namespace

/// The C++ name of parameter `i` of `callee` and of `callee`, as the
/// frontend recorded them: "parameter 'x' of 'f'".
static std::string describeParameter(func::FuncOp callee, unsigned i) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto names = callee->getAttrOfType<ArrayAttr>("ct.param_names");
  StringAttr paramName =
      names && i < names.size() ? dyn_cast<StringAttr>(names[i]) : nullptr;
  if (paramName && !paramName.getValue().empty())
    os << "parameter '" << paramName.getValue() << "'";
  else
    os << "parameter #" << i;
  if (auto name = callee->getAttrOfType<StringAttr>("ct.source_name"))
    os << " of '" << name.getValue() << "'";
  else
    os << " of @" << callee.getSymName();
  return text;
}

LogicalResult
DifferentiatePass::checkConnected(Operation *request, func::FuncOp callee,
                                  ArrayRef<ct::Activity> activities) {
  if (unconnected == "zero" || callee.isExternal())
    return success();
  ActivityAnalysis analysis(callee, activities);
  bool ok = true;
  for (auto [i, activity] : llvm::enumerate(activities)) {
    if (activity != ct::Activity::Active || analysis.isArgumentConnected(i))
      continue;
    auto diag =
        unconnected == "error" ? request->emitError() : request->emitWarning();
    diag << describeParameter(callee, i)
         << " does not influence its result; its derivative is zero";
    diag.attachNote(callee.getArgument(i).getLoc())
        << "parameter declared here";
    ok &= unconnected != "error";
  }
  return success(ok);
}

LogicalResult
DifferentiatePass::checkReseatedMemory(Location loc, func::FuncOp callee,
                                       ArrayRef<ct::Activity> activities) {
  SymbolTableCollection symbols;
  bool ok = true;
  for (auto [i, activity] : llvm::enumerate(activities)) {
    if (activity != ct::Activity::Duplicated)
      continue;
    Operation *store = findReseatingStore(callee, i, symbols);
    if (!store)
      continue;
    InFlightDiagnostic diag = emitError(loc);
    diag << "reverse mode: " << describeParameter(callee, i)
         << " is made to designate other memory (a pointer it holds is "
            "given a new object, a local, a global or null), so the "
            "seeds of its final contents have no place in its derivative "
            "argument, which designates the initial memory; write the new "
            "contents into the memory it designates, return the new object "
            "as the result, or use forward mode (ct::jvp)";
    diag.attachNote(store->getLoc()) << "the pointer is stored here";
    ok = false;
  }
  return success(ok);
}

/// Aggregates passed by value (ct.by_value: the callee's own copies) that
/// a request leaves constant but the callee may write: they take part as
/// dup arguments with a zeroed scratch shadow, so that what the callee
/// stores into its copy carries its derivative there, like a local's.
static SmallVector<bool>
getOwnCopiesToShadow(func::FuncOp callee, ArrayRef<ct::Activity> activities) {
  SmallVector<bool> shadowed(activities.size(), false);
  for (auto [i, activity] : llvm::enumerate(activities))
    shadowed[i] =
        activity == ct::Activity::Constant && isWrittenOwnCopy(callee, i);
  return shadowed;
}

/// `shadows` (one per dup argument of `activities`, in order) with a new
/// scratch shadow where `added` marks an argument made dup, freed after the
/// call (`scratch`).
static SmallVector<Value>
insertScratchShadows(OpBuilder &b, Location loc, ValueRange shadows,
                     ValueRange inputs, ArrayRef<ct::Activity> activities,
                     ArrayRef<bool> added, bool tangents,
                     SmallVectorImpl<Value> &scratch) {
  SmallVector<Value> result;
  auto next = shadows.begin();
  for (auto [i, activity] : llvm::enumerate(activities)) {
    if (added[i]) {
      scratch.push_back(buildScratchShadow(b, loc, inputs[i]));
      result.push_back(scratch.back());
    } else if (activity == ct::Activity::Duplicated ||
               (tangents && activity == ct::Activity::Active)) {
      result.push_back(*next++);
    }
  }
  return result;
}

/// Constant memory a request gives (a parameter left out of ct::wrt, an
/// HVP's direction, which the forward-mode code it differentiates keeps
/// beside its tangents) where the callee keeps its address with addresses
/// of memory with derivatives and gives memory read through them to a
/// function that is not inlined, which could not tell the two apart: each
/// constant memory argument then takes part as a dup argument with a
/// zeroed scratch shadow (or tangent), its derivative discarded, and
/// nothing is kept beside memory with derivatives.
static LogicalResult
shadowConstantMemoryKeptInShadows(DerivativeRegistry &registry,
                                  func::FuncOp callee,
                                  ArrayRef<ct::Activity> requested,
                                  bool prepare, SmallVectorImpl<bool> &added) {
  // (Where `prepare`, a reverse-mode request's callee is analysed as
  // reverse mode differentiates it: the forward-mode code it calls inlined;
  // the caller says so only once the requests it reaches are calls.)
  if (prepare && failed(registry.prepareForReverse(callee)))
    return failure();
  if (callee.isExternal())
    return success();
  SmallVector<ct::Activity> activities(requested);
  for (auto [i, add] : llvm::enumerate(added))
    if (add)
      activities[i] = ct::Activity::Duplicated;
  if (!ActivityAnalysis(callee, activities).getCallGivenOwnShadow())
    return success();
  for (auto [i, activity] : llvm::enumerate(activities))
    if (activity == ct::Activity::Constant &&
        ct::isDifferentiableMemRef(callee.getArgumentTypes()[i]) &&
        canBuildScratchBuffer(cast<MemRefType>(callee.getArgumentTypes()[i])))
      added[i] = true;
  return success();
}

LogicalResult DifferentiatePass::handleRequest(DerivativeRegistry &registry,
                                               Operation *request) {
  handled.insert(request);
  auto callee = registry.lookupFunction(
      request->getAttrOfType<FlatSymbolRefAttr>("callee"));
  if (!callee)
    return request->emitError("can only differentiate a func.func");
  SmallVector<ct::Activity> activities = llvm::map_to_vector(
      request->getAttrOfType<ArrayAttr>("activity"),
      [](Attribute a) { return cast<ct::ActivityAttr>(a).getValue(); });
  if (failed(checkConnected(request, callee, activities)))
    return failure();
  if (isa<ct::GradientOp, ct::PullbackOp>(request)) {
    reverseRequests.push_back({request->getLoc(), callee, activities});
    SmallVector<Operation *> inner;
    callee.walk([&](ct::JvpOp op) { inner.push_back(op); });
    for (Operation *op : inner)
      if (!handled.contains(op) && failed(handleRequest(registry, op)))
        return failure();
  }
  return lowerRequest(registry, request, callee, activities);
}

LogicalResult
DifferentiatePass::lowerRequest(DerivativeRegistry &registry,
                                Operation *request, func::FuncOp callee,
                                ArrayRef<ct::Activity> requested) {
  OpBuilder b(request);
  Location loc = request->getLoc();
  auto lanes = request->getAttrOfType<IntegerAttr>("lanes");
  bool vector = lanes && lanes.getInt() > 1;
  SmallVector<bool> added(requested.size(), false);
  if (!vector) {
    added = getOwnCopiesToShadow(callee, requested);
    bool prepare = isa<ct::GradientOp, ct::PullbackOp>(request) &&
                   !reachesPendingRequest(callee);
    if (failed(shadowConstantMemoryKeptInShadows(registry, callee, requested,
                                                 prepare, added)))
      return failure();
  }
  SmallVector<ct::Activity> activities(requested);
  for (auto [i, add] : llvm::enumerate(added))
    if (add)
      activities[i] = ct::Activity::Duplicated;
  unsigned numInputs = callee.getNumArguments();
  ValueRange all = request->getOperands();
  ValueRange inputs = all.take_front(numInputs);
  SmallVector<Value> operands(inputs), scratch;
  func::FuncOp derivative;
  if (isa<ct::GradientOp, ct::PullbackOp>(request)) {
    derivative = registry.get(callee, DerivativeKind::Pullback, activities);
    ValueRange rest = all.drop_front(numInputs);
    if (isa<ct::GradientOp>(request)) {
      Type resultType = callee.getFunctionType().getResult(0);
      operands.push_back(arith::ConstantOp::create(
          b, loc, resultType, b.getFloatAttr(resultType, 1.0)));
    } else {
      unsigned numSeeds =
          ct::getReverseSignature(callee.getFunctionType(), requested)
              .seeds.size();
      llvm::append_range(operands, rest.take_front(numSeeds));
      rest = rest.drop_front(numSeeds);
    }
    llvm::append_range(
        operands, insertScratchShadows(b, loc, rest, inputs, requested, added,
                                       /*tangents=*/false, scratch));
  } else {
    derivative = registry.get(callee, DerivativeKind::Jvp, activities);
    llvm::append_range(operands,
                       insertScratchShadows(b, loc, all.drop_front(numInputs),
                                            inputs, requested, added,
                                            /*tangents=*/true, scratch));
  }
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << "the request at " << loc
                          << " calls @" << derivative.getSymName()
                          << (vector ? " (widened to lanes later)" : "")
                          << "\n");
  if (vector) {
    laneRequests.push_back({request, derivative, std::move(operands)});
    return success();
  }
  auto call = func::CallOp::create(b, loc, derivative, operands);
  for (Value buffer : scratch)
    buildScratchFree(b, loc, buffer);
  request->replaceAllUsesWith(call.getResults());
  request->erase();
  return success();
}

/// Generates `function` if it is a requested derivative, and what it calls,
/// transitively: what a widening reads.
static LogicalResult generateWithCallees(DerivativeRegistry &registry,
                                         func::FuncOp function) {
  SmallVector<func::FuncOp> worklist{function};
  DenseSet<Operation *> seen{function};
  while (!worklist.empty()) {
    func::FuncOp next = worklist.pop_back_val();
    if (failed(registry.generateNow(next)))
      return failure();
    next.walk([&](func::CallOp call) {
      if (func::FuncOp callee = registry.lookupFunction(call.getCalleeAttr()))
        if (seen.insert(callee).second)
          worklist.push_back(callee);
    });
  }
  return success();
}

bool DifferentiatePass::reaches(Operation *from, Operation *to) {
  SmallVector<Operation *> worklist{from};
  DenseSet<Operation *> seen{from};
  while (!worklist.empty()) {
    Operation *next = worklist.pop_back_val();
    if (next == to)
      return true;
    for (Operation *callee : primalCallees.lookup(next))
      if (seen.insert(callee).second)
        worklist.push_back(callee);
  }
  return false;
}

bool DifferentiatePass::reachesPendingRequest(Operation *from) {
  SmallVector<Operation *> worklist{from};
  DenseSet<Operation *> seen{from};
  while (!worklist.empty()) {
    Operation *next = worklist.pop_back_val();
    if (next->walk([](Operation *op) {
              return isa<ct::GradientOp, ct::PullbackOp, ct::JvpOp>(op)
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted())
      return true;
    for (Operation *callee : primalCallees.lookup(next))
      if (seen.insert(callee).second)
        worklist.push_back(callee);
  }
  return false;
}

SmallVector<DifferentiatePass::LaneRequest *>
DifferentiatePass::orderLaneRequests() {
  auto calleeOf = [&](LaneRequest &lane) -> Operation * {
    return SymbolTable::lookupNearestSymbolFrom(
        lane.request, lane.request->getAttrOfType<FlatSymbolRefAttr>("callee"));
  };
  SmallVector<LaneRequest *> order;
  DenseSet<LaneRequest *> placed;
  std::function<void(LaneRequest &)> place = [&](LaneRequest &lane) {
    if (!placed.insert(&lane).second)
      return;
    Operation *callee = calleeOf(lane);
    for (LaneRequest &inner : laneRequests)
      if (&inner != &lane && callee &&
          reaches(callee, inner.request->getParentOfType<func::FuncOp>()))
        place(inner);
    order.push_back(&lane);
  };
  for (LaneRequest &lane : laneRequests)
    place(lane);
  return order;
}

LogicalResult
DifferentiatePass::lowerLaneRequests(DerivativeRegistry &registry) {
  std::map<int64_t, LaneWidener> widenerOf;
  for (LaneRequest *next : orderLaneRequests()) {
    LaneRequest &lane = *next;
    // Now, before the derivatives of the functions that make the request
    // are generated (they differentiate its call).
    if (failed(generateWithCallees(registry, lane.derivative)))
      return failure();
    Operation *request = lane.request;
    int64_t lanes = cast<IntegerAttr>(request->getAttr("lanes")).getInt();
    auto [it, inserted] =
        widenerOf.try_emplace(lanes, registry.getSymbolTable(), lanes);
    // The derivative operands and results (seeds, tangents, shadows,
    // adjoints) carry the lanes; the primal's arguments and results do not.
    size_t inputs = cast<ArrayAttr>(request->getAttr("activity")).size();
    SmallVector<bool> wideArgs(lane.operands.size(), true);
    std::fill_n(wideArgs.begin(), inputs, false);
    SmallVector<bool> wideResults =
        llvm::map_to_vector(request->getResultTypes(),
                            [](Type type) { return isa<VectorType>(type); });
    func::FuncOp widened =
        it->second.widen(lane.derivative, wideArgs, wideResults);
    if (!widened)
      return failure();
    OpBuilder b(request);
    auto call =
        func::CallOp::create(b, request->getLoc(), widened, lane.operands);
    request->replaceAllUsesWith(call.getResults());
    request->erase();
  }
  laneRequests.clear();
  return success();
}

void DifferentiatePass::runOnOperation() {
  if (unconnected != "zero" && unconnected != "warn" &&
      unconnected != "error") {
    getOperation().emitError("unconnected must be zero, warn or error, not '")
        << unconnected << "'";
    return signalPassFailure();
  }
  ModuleOp module = getOperation();
  ReverseStrategies strategies;
  strategies.eagerLoops = eagerLoops;
  strategies.recomputeIterations = recomputeIterations;
  strategies.eagerCalls = eagerCalls;
  strategies.commutingIterations = commutingIterations;
  strategies.reloadMemory = reloadMemory;
  strategies.recomputeValues = recomputeValues;
  OpPassManager cleanupPipeline(func::FuncOp::getOperationName());
  buildForwardDerivativeCleanup(cleanupPipeline);
  DerivativeRegistry registry(module, strategies, [&](func::FuncOp function) {
    return runPipeline(cleanupPipeline, function);
  });
  registry.setProductOptions(ProductOptions{strongZero});
  SmallVector<Operation *> requests;
  module.walk([&](Operation *op) {
    if (isa<ct::GradientOp, ct::PullbackOp, ct::JvpOp>(op))
      requests.push_back(op);
  });
  module.walk([&](func::FuncOp function) {
    SmallVector<Operation *> &callees = primalCallees[function];
    function.walk([&](Operation *op) {
      auto name = op->getAttrOfType<FlatSymbolRefAttr>("callee");
      if (!name ||
          !isa<func::CallOp, ct::GradientOp, ct::PullbackOp, ct::JvpOp>(op))
        return;
      if (Operation *callee = SymbolTable::lookupNearestSymbolFrom(op, name))
        callees.push_back(callee);
    });
  });
  bool ok = true;
  for (Operation *request : requests)
    if (!handled.contains(request))
      ok &= succeeded(handleRequest(registry, request));
  handled.clear();
  // Ordinary requests are calls by now; vector-mode ones become calls of
  // widened derivatives before anything that calls them is differentiated.
  if (!ok || failed(lowerLaneRequests(registry)) ||
      failed(registry.generateAll()))
    return signalPassFailure();
  for (ReverseRequest &request : reverseRequests)
    ok &= succeeded(
        checkReseatedMemory(request.loc, request.callee, request.activities));
  reverseRequests.clear();
  if (!ok)
    return signalPassFailure();
}
