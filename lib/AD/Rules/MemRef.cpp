//===- MemRef.cpp - Differentiating memref ops ----------------------------===//
//
// Memory carries derivatives in a shadow of the same shape: loads read the
// tangent (forward) or accumulate the adjoint (reverse) at the same element,
// stores write the tangent or hand the adjoint to the stored value, and
// allocations and views get shadows alike.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "DerivativeRegistry.h"
#include "ForwardMode/ForwardEmitter.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Rules/ScalarModes.h"
#include "Utils/IRBuilders.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/HeapFunctions.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

namespace {

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

/// A number with a derivative inside a library object kept as compiled
/// (whose bytes have no shadow) is an error at its load or store.
LogicalResult refuseNumberInLibraryObject(Operation *op) {
  return op->emitError()
         << "this number lies inside a library object that differentiable "
            "code keeps as the library compiled it (a std::pair or "
            "std::tuple holding a std::string, say), where it cannot carry "
            "a derivative, as it must here; keep numbers that depend on "
            "what is being differentiated in a struct of your own, or stop "
            "the derivative with ct::stop_gradient";
}

Value buildNot(OpBuilder &b, Location loc, Value condition) {
  return arith::XOrIOp::create(
      b, loc, condition, arith::ConstantIntOp::create(b, loc, 1, /*width=*/1));
}

/// In the forward code, whether the shadow `s` of `memory` (`primal` there)
/// is the primal memory itself (kept as its own shadow: it has no
/// derivative); null where the shadow cannot be
/// (ActivityAnalysis::mayBeOwnShadow).
Value ownShadowInForward(OpBuilder &b, Location loc, ForwardEmitter &emitter,
                         Value memory, Value primal, Value s) {
  if (!emitter.getActivity().mayBeOwnShadow(memory))
    return nullptr;
  return buildIsOwnShadow(b, loc, primal, s);
}

/// The same in the reverse code, where the primal is recomputed or taped.
Value ownShadowInReverse(OpBuilder &b, Location loc, ReverseEmitter &emitter,
                         Value memory, Value s) {
  if (!emitter.getActivity().mayBeOwnShadow(memory))
    return nullptr;
  return buildIsOwnShadow(b, loc, emitter.primalInReverse(memory), s);
}

/// Builds `access` (of a shadow) unless `own` (an i1; null: never) says the
/// shadow is primal memory kept as its own shadow; there `onOwn`, if given.
void unlessOwnShadow(OpBuilder &b, Location loc, Value own,
                     function_ref<void(OpBuilder &, Location)> access,
                     function_ref<void(OpBuilder &, Location)> onOwn = {}) {
  if (!own)
    return access(b, loc);
  auto yielding = [](function_ref<void(OpBuilder &, Location)> build) {
    return [build](OpBuilder &b, Location loc) {
      build(b, loc);
      scf::YieldOp::create(b, loc);
    };
  };
  if (onOwn)
    scf::IfOp::create(b, loc, own, yielding(onOwn), yielding(access));
  else
    scf::IfOp::create(b, loc, buildNot(b, loc, own), yielding(access));
}

/// What a store of a value with a derivative into primal memory kept as its
/// own shadow builds there: if the memory is read back into an output, the
/// derivative would be lost, an error when it happens (memory known to be
/// constant is refused when compiling: refuseDerivativesInConstantMemory).
function_ref<void(OpBuilder &, Location)>
lostDerivativeCheck(Operation *store, bool valueIsActive,
                    const ActivityAnalysis &activity) {
  auto memory = cast<memref::StoreOp>(store).getMemRef();
  if (!valueIsActive || !activity.isUsefulMemory(memory))
    return {};
  static constexpr auto abort = [](OpBuilder &b, Location loc) {
    std::string where;
    if (auto file = loc->findInstanceOf<FileLineColLoc>())
      where =
          (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ": ")
              .str();
    ct::AbortOp::create(
        b, loc,
        where + "a value that carries a derivative is stored, through an "
                "address kept in memory, into memory that is constant here "
                "(a parameter not selected for differentiation); select it, "
                "or copy it into a local buffer first");
  };
  return abort;
}

struct LoadModel
    : public ActivityOpInterface::ExternalModel<LoadModel, memref::LoadOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto load = cast<memref::LoadOp>(op);
    flow.push_back({load.getMemRef(), load.getResult()});
  }
};

struct LoadForward
    : public ForwardModeOpInterface::ExternalModel<LoadForward,
                                                   memref::LoadOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto load = cast<memref::LoadOp>(op);
    if (emitter.isActive(load.getResult()) && liesInBytes(load.getMemRef()))
      return refuseNumberInLibraryObject(op);
    auto clone = cast<memref::LoadOp>(emitter.clonePrimal(b, *op));
    if (!emitter.isActive(load.getResult()))
      return success();
    Location loc = op->getLoc();
    Value s = emitter.shadow(load.getMemRef());
    Value tangent = memref::LoadOp::create(b, loc, s, clone.getIndices());
    // Primal memory kept as its own shadow has no derivative.
    if (Value own = ownShadowInForward(b, loc, emitter, load.getMemRef(),
                                       clone.getMemRef(), s))
      tangent = arith::SelectOp::create(
          b, loc, own, buildZero(b, loc, tangent.getType()), tangent);
    emitter.setTangent(load.getResult(), tangent);
    return success();
  }
};

struct LoadReverse
    : public ReverseModeOpInterface::ExternalModel<LoadReverse,
                                                   memref::LoadOp> {
  /// The element's shadow receives the result's adjoint.
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    auto load = cast<memref::LoadOp>(op);
    if (liesInBytes(load.getMemRef())) {
      emitter.markFailed();
      return refuseNumberInLibraryObject(op);
    }
    Location loc = op->getLoc();
    Value adjoint = emitter.readAndZero(b, loc, load.getResult());
    FailureOr<ReverseEmitter::ShadowElement> element =
        emitter.shadowElement(*op, load.getMemRef(), load.getIndices());
    if (failed(element))
      return failure();
    Value s = element->shadow;
    ArrayRef<Value> indices = element->indices;
    auto accumulate = [&](OpBuilder &b, Location loc) {
      Value old = memref::LoadOp::create(b, loc, s, indices);
      memref::StoreOp::create(b, loc, buildAdjointSum(b, loc, old, adjoint), s,
                              indices);
    };
    unlessOwnShadow(b, loc,
                    ownShadowInReverse(b, loc, emitter, load.getMemRef(), s),
                    accumulate);
    return success(!emitter.hadFailure());
  }
};

struct StoreModel
    : public ActivityOpInterface::ExternalModel<StoreModel, memref::StoreOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto store = cast<memref::StoreOp>(op);
    flow.push_back({store.getValueToStore(), store.getMemRef()});
  }
};

struct StoreForward
    : public ForwardModeOpInterface::ExternalModel<StoreForward,
                                                   memref::StoreOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto store = cast<memref::StoreOp>(op);
    auto clone = cast<memref::StoreOp>(emitter.clonePrimal(b, *op));
    Location loc = op->getLoc();
    if (!emitter.getActivity().storesDerivative(op))
      return success();
    if (liesInBytes(store.getMemRef()) &&
        emitter.isActive(store.getValueToStore()))
      return refuseNumberInLibraryObject(op);
    Value s = emitter.shadow(store.getMemRef());
    if (!s)
      return success();
    Value tangent = emitter.tangent(b, loc, store.getValueToStore());
    const ActivityAnalysis &activity = emitter.getActivity();
    Value own = ownShadowInForward(b, loc, emitter, store.getMemRef(),
                                   clone.getMemRef(), s);
    unlessOwnShadow(
        b, loc, own,
        [&](OpBuilder &b, Location loc) {
          memref::StoreOp::create(b, loc, tangent, s, clone.getIndices());
        },
        lostDerivativeCheck(op, emitter.isActive(store.getValueToStore()),
                            activity));
    return success();
  }
};

struct StoreReverse
    : public ReverseModeOpInterface::ExternalModel<StoreReverse,
                                                   memref::StoreOp> {
  bool needsReverse(Operation *op, ReverseEmitter &emitter) const {
    return emitter.getActivity().storesDerivative(op);
  }
  /// The stored value takes the element's adjoint, which the store
  /// overwrote: the element's shadow restarts from zero.
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    auto store = cast<memref::StoreOp>(op);
    if (liesInBytes(store.getMemRef()) &&
        emitter.getActivity().isActive(store.getValueToStore())) {
      emitter.markFailed();
      return refuseNumberInLibraryObject(op);
    }
    Location loc = op->getLoc();
    FailureOr<ReverseEmitter::ShadowElement> element =
        emitter.shadowElement(*op, store.getMemRef(), store.getIndices());
    if (failed(element))
      return failure();
    Value s = element->shadow;
    ArrayRef<Value> indices = element->indices;
    // -0 like the slots: a load of the same element earlier in the primal
    // then adds its adjoint to -0, which folds away (+0 would not).
    Value adjoint = memref::LoadOp::create(b, loc, s, indices);
    Value zero = buildAdjointZero(b, loc, adjoint.getType());
    const ActivityAnalysis &activity = emitter.getActivity();
    Value own = ownShadowInReverse(b, loc, emitter, store.getMemRef(), s);
    unlessOwnShadow(
        b, loc, own,
        [&](OpBuilder &b, Location loc) {
          memref::StoreOp::create(b, loc, zero, s, indices);
        },
        lostDerivativeCheck(op, activity.isActive(store.getValueToStore()),
                            activity));
    if (own)
      adjoint = arith::SelectOp::create(b, loc, own, zero, adjoint);
    if (activity.isActive(store.getValueToStore()))
      emitter.accumulate(b, loc, store.getValueToStore(), adjoint);
    return success(!emitter.hadFailure());
  }
};

//===----------------------------------------------------------------------===//
// Allocations, frees and views
//===----------------------------------------------------------------------===//

/// Shadows of local buffers and their views, made in the forward sweep where
/// the reverse sweep can use forward values directly.
void buildShadowInForwardSweep(OpBuilder &b, Operation &op,
                               ReverseEmitter &emitter) {
  Level &level = emitter.getLevel(op.getBlock());
  if (!level.direct || op.getNumResults() != 1 ||
      !isShadowedType(op.getResult(0).getType()) ||
      !emitter.getActivity().hasShadow(op.getResult(0)))
    return;
  Value result = op.getResult(0);
  if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
    // Cloning with the forward values themselves would remap the result.
    IRMapping mapping = emitter.getForwardMapping();
    Operation *shadow = b.clone(op, mapping);
    // Reverse mode's shadows are the engine's own memory, made and freed
    // by operator new and delete (HeapFunctions.h).
    shadow->removeAttr(ct::kHeapFunctionAttr);
    Value s = shadow->getResult(0);
    buildZeroFill(b, op.getLoc(), s);
    level.shadows[result] = s;
  } else if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
    Value sourceShadow = emitter.shadowInReverse(view.getViewSource());
    if (!sourceShadow)
      return; // reported
    IRMapping mapping = emitter.getForwardMapping();
    mapping.map(view.getViewSource(), sourceShadow);
    level.shadows[result] = b.clone(op, mapping)->getResult(0);
  }
}

/// Whether `op`, an allocation, is a buffer whose address is kept in
/// memory, or that keeps addresses, or that a loop carries to a later
/// iteration or out (an object an early `return` reads), or that a branch
/// chooses beside such a buffer, made where the reverse code does not use
/// forward values directly (a loop, a branch, the forward half of a split
/// callee): the reverse code would make its shadow too late for the
/// forward sweep to keep or read shadow addresses, or in the reverse of one
/// iteration only.
bool isKeptInNestedLevel(Operation &op, ReverseEmitter &emitter) {
  Value result = op.getResult(0);
  return !emitter.getLevel(op.getBlock()).direct &&
         emitter.getActivity().hasShadow(result) &&
         (isAddressStored(result) || holdsAddresses(result) ||
          isCarriedOutOfLoop(result) || isChosenBesideLoopCarried(result));
}

/// Such a buffer's shadow is made beside it by the forward sweep (whose
/// address ops keep and read shadow addresses), on the heap (a stack
/// buffer's iteration is over when the reverse sweep needs it), and
/// reaches the reverse sweep, which frees it, as forward values do
/// (docs/Memory.md).
void buildKeptShadowInForwardSweep(OpBuilder &b, Operation &op,
                                   ReverseEmitter &emitter) {
  if (!isKeptInNestedLevel(op, emitter))
    return;
  IRMapping mapping = emitter.getForwardMapping();
  auto type = cast<MemRefType>(op.getResult(0).getType());
  ValueRange dynamic = isa<memref::AllocOp>(op)
                           ? cast<memref::AllocOp>(op).getDynamicSizes()
                           : cast<memref::AllocaOp>(op).getDynamicSizes();
  SmallVector<Value> sizes = llvm::map_to_vector(
      dynamic, [&](Value size) { return mapping.lookup(size); });
  Value s = memref::AllocOp::create(b, op.getLoc(), type, sizes);
  buildZeroFill(b, op.getLoc(), s);
  emitter.setShadowInForward(op.getResult(0), s);
}

template <typename Op>
struct AllocForward
    : public ForwardModeOpInterface::ExternalModel<AllocForward<Op>, Op> {
  /// The shadow is a zeroed buffer of the same shape.
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    emitter.clonePrimal(b, *op);
    if (!emitter.hasShadow(op->getResult(0)))
      return success();
    // Cloning with the mapping itself would remap the primal result.
    IRMapping shadowMapping = emitter.getMapping();
    Operation *shadowAlloc = b.clone(*op, shadowMapping);
    buildZeroFill(b, op->getLoc(), shadowAlloc->getResult(0));
    emitter.setTangent(op->getResult(0), shadowAlloc->getResult(0));
    return success();
  }
};

/// Heap buffers, and buffers kept in a nested level: the reverse of an
/// allocation frees the shadow.
template <typename Op>
struct AllocReverse
    : public ReverseModeOpInterface::ExternalModel<AllocReverse<Op>, Op> {
  bool needsReverse(Operation *op, ReverseEmitter &emitter) const {
    return (std::is_same_v<Op, memref::AllocOp> &&
            emitter.getActivity().hasShadow(op->getResult(0))) ||
           isKeptInNestedLevel(*op, emitter);
  }
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    // The caller's derivative vector would have to grow with it, and the
    // cotangents of its initial elements would have no place.
    if (op->hasAttr(ct::kGrowsCallerMemoryAttr) &&
        emitter.getActivity().hasShadow(op->getResult(0)))
      return op->emitError(
          "cannot differentiate in reverse mode: this grows a std::vector of "
          "the caller's whose elements carry derivatives, so the derivative "
          "vector given for it would have to grow too, leaving the "
          "cotangents of its first elements no place; grow a local copy and "
          "assign it back, or use forward mode (ct::jvp)");
    b.clone(*op, emitter.getForwardMapping());
    buildShadowInForwardSweep(b, *op, emitter);
    buildKeptShadowInForwardSweep(b, *op, emitter);
    return success();
  }
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    if (emitter.sharesChosenShadow(op->getResult(0)))
      return success(); // freed when the pullback returns
    if (Value s = emitter.shadowInReverse(op->getResult(0)))
      memref::DeallocOp::create(b, op->getLoc(), s);
    return success(!emitter.hadFailure());
  }
};

struct DeallocForward
    : public ForwardModeOpInterface::ExternalModel<DeallocForward,
                                                   memref::DeallocOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto clone = cast<memref::DeallocOp>(emitter.clonePrimal(b, *op));
    Value memory = cast<memref::DeallocOp>(op).getMemref();
    Value s = emitter.shadow(memory);
    if (!s)
      return success();
    // (Not again where the shadow is the primal memory itself.)
    Location loc = op->getLoc();
    Value own =
        ownShadowInForward(b, loc, emitter, memory, clone.getMemref(), s);
    // (Freed as the primal is: a tangent object's memory is the caller's,
    // made as the primal's was.)
    unlessOwnShadow(b, loc, own, [&](OpBuilder &b, Location loc) {
      auto freed = memref::DeallocOp::create(b, loc, s);
      for (StringRef name : {ct::kHeapFunctionAttr, ct::kHeapAlignmentAttr})
        if (Attribute value = op->getAttr(name))
          freed->setAttr(name, value);
    });
    return success();
  }
};

struct DeallocReverse
    : public ReverseModeOpInterface::ExternalModel<DeallocReverse,
                                                   memref::DeallocOp> {
  bool needsReverse(Operation *, ReverseEmitter &) const { return false; }
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    Value root = getMemoryRoot(cast<memref::DeallocOp>(op).getMemref());
    if (emitter.getPullbackMemory().isFreeDeferred(root))
      return success(); // freed when the pullback returns
    return emitClonedForward(op, b, emitter);
  }
  LogicalResult emitReverse(Operation *, OpBuilder &, ReverseEmitter &) const {
    return success();
  }
};

/// A view of memory with a shadow has the same view of the shadow (a view
/// of integers among floating-point slots has none).
template <typename Op>
struct ViewForward
    : public ForwardModeOpInterface::ExternalModel<ViewForward<Op>, Op> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    emitter.clonePrimal(b, *op);
    auto view = cast<ViewLikeOpInterface>(op);
    if (!isShadowedType(op->getResult(0).getType()))
      return success();
    if (Value s = emitter.shadow(view.getViewSource())) {
      IRMapping shadowMapping = emitter.getMapping();
      shadowMapping.map(view.getViewSource(), s);
      emitter.setTangent(op->getResult(0),
                         b.clone(*op, shadowMapping)->getResult(0));
    }
    return success();
  }
};

/// Views carry no adjoint of their own: the reverse code takes the same view
/// of the source's shadow where it needs one (shadowInReverse).
template <typename Op>
struct ViewReverse
    : public ReverseModeOpInterface::ExternalModel<ViewReverse<Op>, Op> {
  bool needsReverse(Operation *, ReverseEmitter &) const { return false; }
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    b.clone(*op, emitter.getForwardMapping());
    buildShadowInForwardSweep(b, *op, emitter);
    return success();
  }
  LogicalResult emitReverse(Operation *, OpBuilder &, ReverseEmitter &) const {
    return success();
  }
};

template <typename... Ops> void attachViewModels(MLIRContext *context) {
  (Ops::template attachInterface<ViewForward<Ops>, ViewReverse<Ops>>(*context),
   ...);
}

} // namespace

void ad::registerMemRefDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, memref::MemRefDialect *) {
    memref::LoadOp::attachInterface<LoadModel, LoadForward, LoadReverse>(
        *context);
    memref::StoreOp::attachInterface<StoreModel, StoreForward, StoreReverse>(
        *context);
    memref::AllocOp::attachInterface<AllocForward<memref::AllocOp>,
                                     AllocReverse<memref::AllocOp>>(*context);
    memref::AllocaOp::attachInterface<AllocForward<memref::AllocaOp>,
                                      AllocReverse<memref::AllocaOp>>(*context);
    memref::DeallocOp::attachInterface<DeallocForward, DeallocReverse>(
        *context);
    attachViewModels<memref::AssumeAlignmentOp, memref::CastOp,
                     memref::CollapseShapeOp, memref::ExpandShapeOp,
                     memref::ExtractStridedMetadataOp,
                     memref::MemorySpaceCastOp, memref::ReinterpretCastOp,
                     memref::ReshapeOp, memref::SubViewOp, memref::ViewOp>(
        context);
  });
  registry.addExtension(+[](MLIRContext *context, ct::CTDialect *) {
    attachViewModels<ct::RetypeViewOp>(context);
  });
}
