//===- Addresses.cpp - Differentiating addresses kept in memory -----------===//
//
// Shadow memory holds shadow addresses (docs/Memory.md): where the primal
// stores the address of memory in a slot, the holder's shadow gets the
// address of that memory's shadow in the same slot, and a load of an
// address has as shadow the view the holder's shadow has there. Addresses
// carry no adjoint: reverse mode does all of this in the forward sweep,
// and the reverse code gets the shadows as it gets forward values. The
// size of an allocation (realloc's old block) counts what the block and its
// shadow both hold.
//
//===----------------------------------------------------------------------===//

#include "DerivativeRegistry.h"
#include "ForwardMode/ForwardEmitter.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Utils/IRBuilders.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

namespace {

constexpr llvm::StringLiteral kShadowUnavailable =
    "cannot differentiate: the derivative of memory whose address is kept "
    "in memory is not available here: the memory is excluded from "
    "differentiation (by ct::wrt, or a constant parameter), or this is a "
    "derivative of code that keeps addresses, differentiated again "
    "(ct::hvp, derivatives of derivatives), which is not supported yet";

/// Holding the address of varied memory makes the holder varied; a holder
/// whose loaded memory is useful is useful.
struct StoreAddressModel
    : public ActivityOpInterface::ExternalModel<StoreAddressModel,
                                                ct::StoreAddressOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto store = cast<ct::StoreAddressOp>(op);
    flow.push_back({store.getView(), store.getHolder()});
  }
};

struct LoadAddressModel
    : public ActivityOpInterface::ExternalModel<LoadAddressModel,
                                                ct::LoadAddressOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto load = cast<ct::LoadAddressOp>(op);
    flow.push_back({load.getHolder(), load.getView()});
  }
};

/// Whether `view` carries no derivative, so that a shadow holder keeps its
/// own address: the null pointer (a C pointer view of address 0), memory
/// of integers (an index list kept beside memory of numbers), or memory
/// without a shadow (constant memory, beside memory with derivatives:
/// accesses through shadow views check for it, MemRef.cpp).
bool isOwnShadow(Value view, const ActivityAnalysis &activity) {
  return !ct::isDifferentiableMemRef(view.getType()) ||
         isNullPointerView(view) || !activity.hasShadow(view);
}

/// Whether `load` reads an address from memory without a shadow while the
/// view it gives has one (memory whose address is kept is marked as one):
/// what is held there is memory without derivatives, its own shadow.
bool loadsOwnShadow(ct::LoadAddressOp load, const ActivityAnalysis &activity) {
  return !activity.hasShadow(load.getHolder()) &&
         ct::isDifferentiableMemRef(load.getView().getType());
}

struct StoreAddressForward
    : public ForwardModeOpInterface::ExternalModel<StoreAddressForward,
                                                   ct::StoreAddressOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto store = cast<ct::StoreAddressOp>(op);
    auto clone = cast<ct::StoreAddressOp>(emitter.clonePrimal(b, *op));
    Value holder = emitter.shadow(store.getHolder());
    if (!holder)
      return success();
    if (!emitter.hasShadow(store.getView()) &&
        failed(emitter.getActivity().refuseCallGivenOwnShadow(store)))
      return failure();
    Value view = isOwnShadow(store.getView(), emitter.getActivity())
                     ? clone.getView()
                     : emitter.shadow(store.getView());
    if (!view)
      return op->emitError(kShadowUnavailable);
    ct::StoreAddressOp::create(b, op->getLoc(), view, holder, clone.getIndex());
    return success();
  }
};

struct LoadAddressForward
    : public ForwardModeOpInterface::ExternalModel<LoadAddressForward,
                                                   ct::LoadAddressOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto load = cast<ct::LoadAddressOp>(op);
    auto clone = cast<ct::LoadAddressOp>(emitter.clonePrimal(b, *op));
    if (!emitter.hasShadow(load.getView()))
      return success();
    // Memory without derivatives held the address (loadsOwnShadow).
    if (loadsOwnShadow(load, emitter.getActivity())) {
      if (failed(emitter.getActivity().refuseCallGivenOwnShadow(load)))
        return failure();
      emitter.setTangent(load.getView(), clone.getView());
      return success();
    }
    Value holder = emitter.shadow(load.getHolder());
    if (!holder)
      return op->emitError(kShadowUnavailable);
    emitter.setTangent(load.getView(),
                       ct::LoadAddressOp::create(b, op->getLoc(),
                                                 load.getView().getType(),
                                                 holder, clone.getIndex()));
    return success();
  }
};

/// The shadow address a store into the caller's shadow memory replaced,
/// which the reverse sweep puts back.
struct ReplacedShadowAddress : ReverseEmitter::OpState {
  Value old;
};

/// The forward sweep stores the shadow's address where the primal stores
/// the address. A shadow holder of the caller's gets its old address back
/// in the reverse sweep (the memory stored there, if the function made it,
/// is freed by then): the caller's derivative object designates the
/// derivatives of the memory it designated when the function was called
/// (a std::vector the function grew: its initial contents).
struct StoreAddressReverse
    : public ReverseModeOpInterface::ExternalModel<StoreAddressReverse,
                                                   ct::StoreAddressOp> {
  static bool restoresShadow(ct::StoreAddressOp store,
                             ReverseEmitter &emitter) {
    return emitter.hasShadow(store.getHolder()) &&
           ct::isCallerMemory(store.getHolder());
  }
  bool needsReverse(Operation *op, ReverseEmitter &emitter) const {
    return restoresShadow(cast<ct::StoreAddressOp>(op), emitter);
  }
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    auto store = cast<ct::StoreAddressOp>(op);
    auto clone =
        cast<ct::StoreAddressOp>(b.clone(*op, emitter.getForwardMapping()));
    if (!emitter.hasShadow(store.getHolder()))
      return success();
    if (!emitter.hasShadow(store.getView()) &&
        failed(emitter.getActivity().refuseCallGivenOwnShadow(store))) {
      emitter.markFailed();
      return failure();
    }
    Value holder = emitter.shadowInForward(b, store.getHolder());
    Value view = isOwnShadow(store.getView(), emitter.getActivity())
                     ? clone.getView()
                     : emitter.shadowInForward(b, store.getView(),
                                               /*ownWhereNone=*/true);
    if (!holder || !view)
      return emitter.failWith(
          op, view || !emitter.hasShadow(store.getView())
                  ? kShadowUnavailable
                  : "cannot differentiate in reverse mode: the address of "
                    "memory created inside a loop or branch is stored in "
                    "memory; create it outside");
    if (restoresShadow(store, emitter)) {
      // (Of memory of any size: only its address goes back.)
      auto type = cast<MemRefType>(view.getType());
      auto anySize = MemRefType::get(
          {ShapedType::kDynamic}, type.getElementType(),
          StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}));
      emitter.getOpState<ReplacedShadowAddress>(op).old =
          ct::LoadAddressOp::create(b, op->getLoc(), anySize, holder,
                                    clone.getIndex());
    }
    ct::StoreAddressOp::create(b, op->getLoc(), view, holder, clone.getIndex());
    return success();
  }
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    auto store = cast<ct::StoreAddressOp>(op);
    auto *replaced = emitter.lookupOpState<ReplacedShadowAddress>(op);
    if (!replaced || !replaced->old)
      return success();
    Value old =
        emitter.fromForward(op->getBlock(), replaced->old, replaced->old);
    Value holder = emitter.shadowInReverse(store.getHolder());
    if (!holder)
      return emitter.failWith(op, kShadowUnavailable);
    ct::StoreAddressOp::create(b, op->getLoc(), old, holder,
                               emitter.primalInReverse(store.getIndex()));
    return success(!emitter.hadFailure());
  }
};

struct LoadAddressReverse
    : public ReverseModeOpInterface::ExternalModel<LoadAddressReverse,
                                                   ct::LoadAddressOp> {
  bool needsReverse(Operation *, ReverseEmitter &) const { return false; }
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    auto load = cast<ct::LoadAddressOp>(op);
    auto clone =
        cast<ct::LoadAddressOp>(b.clone(*op, emitter.getForwardMapping()));
    if (!emitter.hasShadow(load.getView()))
      return success();
    if (loadsOwnShadow(load, emitter.getActivity())) {
      if (failed(emitter.getActivity().refuseCallGivenOwnShadow(load))) {
        emitter.markFailed();
        return failure();
      }
      emitter.setShadowInForward(load.getView(), clone.getView());
      return success();
    }
    Value holder = emitter.shadowInForward(b, load.getHolder());
    if (!holder)
      return emitter.failWith(op, kShadowUnavailable);
    emitter.setShadowInForward(
        load.getView(),
        ct::LoadAddressOp::create(b, op->getLoc(), load.getView().getType(),
                                  holder, clone.getIndex()));
    return success();
  }
  LogicalResult emitReverse(Operation *, OpBuilder &, ReverseEmitter &) const {
    return success();
  }
};

/// A C pointer viewed (the null pointer kept in memory): no derivative of
/// its own; its shadow, where one is asked for, is itself (isOwnShadow).
struct PointerViewModel
    : public ActivityOpInterface::ExternalModel<PointerViewModel,
                                                ct::PointerViewOp> {
  void getDerivativeFlow(Operation *, SmallVectorImpl<DerivativeFlow> &) const {
  }
};

struct PointerViewForward
    : public ForwardModeOpInterface::ExternalModel<PointerViewForward,
                                                   ct::PointerViewOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    emitter.clonePrimal(b, *op);
    return success();
  }
};

struct PointerViewReverse
    : public ReverseModeOpInterface::ExternalModel<PointerViewReverse,
                                                   ct::PointerViewOp> {
  bool needsReverse(Operation *, ReverseEmitter &) const { return false; }
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    b.clone(*op, emitter.getForwardMapping());
    return success();
  }
  LogicalResult emitReverse(Operation *, OpBuilder &, ReverseEmitter &) const {
    return success();
  }
};

/// How many scalars the heap memory holds carries no derivative; where the
/// memory has a shadow, the count is of what both hold (the allocator may
/// give the block a few scalars more than asked for, and not necessarily
/// its shadow), so that a copy bounded by it stays inside the shadow too.
struct AllocationSizeModel
    : public ActivityOpInterface::ExternalModel<AllocationSizeModel,
                                                ct::AllocationSizeOp> {
  void getDerivativeFlow(Operation *, SmallVectorImpl<DerivativeFlow> &) const {
  }
};

/// min(`primal`, the count `shadow` holds).
Value heldByBoth(OpBuilder &b, Location loc, Value primal, Value shadow) {
  if (!shadow)
    return primal;
  Value held = ct::AllocationSizeOp::create(b, loc, shadow);
  return arith::MinUIOp::create(b, loc, primal, held);
}

struct AllocationSizeForward
    : public ForwardModeOpInterface::ExternalModel<AllocationSizeForward,
                                                   ct::AllocationSizeOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto size = cast<ct::AllocationSizeOp>(op);
    auto clone = cast<ct::AllocationSizeOp>(emitter.clonePrimal(b, *op));
    Value shadow = emitter.hasShadow(size.getMemory())
                       ? emitter.shadow(size.getMemory())
                       : nullptr;
    emitter.getMapping().map(
        size.getCount(), heldByBoth(b, op->getLoc(), clone.getCount(), shadow));
    return success();
  }
};

struct AllocationSizeReverse
    : public ReverseModeOpInterface::ExternalModel<AllocationSizeReverse,
                                                   ct::AllocationSizeOp> {
  bool needsReverse(Operation *, ReverseEmitter &) const { return false; }
  LogicalResult emitForwardSweep(Operation *op, OpBuilder &b,
                                 ReverseEmitter &emitter) const {
    auto size = cast<ct::AllocationSizeOp>(op);
    auto clone =
        cast<ct::AllocationSizeOp>(b.clone(*op, emitter.getForwardMapping()));
    Value shadow = emitter.hasShadow(size.getMemory())
                       ? emitter.shadowInForward(b, size.getMemory())
                       : nullptr;
    emitter.getForwardMapping().map(
        size.getCount(), heldByBoth(b, op->getLoc(), clone.getCount(), shadow));
    return success();
  }
  LogicalResult emitReverse(Operation *, OpBuilder &, ReverseEmitter &) const {
    return success();
  }
};

} // namespace

void ad::registerAddressDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, ct::CTDialect *) {
    ct::StoreAddressOp::attachInterface<StoreAddressModel, StoreAddressForward,
                                        StoreAddressReverse>(*context);
    ct::LoadAddressOp::attachInterface<LoadAddressModel, LoadAddressForward,
                                       LoadAddressReverse>(*context);
    ct::PointerViewOp::attachInterface<PointerViewModel, PointerViewForward,
                                       PointerViewReverse>(*context);
    ct::AllocationSizeOp::attachInterface<
        AllocationSizeModel, AllocationSizeForward, AllocationSizeReverse>(
        *context);
  });
}
