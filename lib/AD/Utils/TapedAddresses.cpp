//===- TapedAddresses.cpp - Addresses the reverse sweep reads back --------===//

#include "Utils/TapedAddresses.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <atomic>

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

IntegerAttr ad::getNewTapedAddressPair(Builder &b) {
  static std::atomic<int64_t> next{0};
  return b.getI64IntegerAttr(next++);
}

bool ad::isTapedAddressView(Value view) {
  auto pointer = view.getDefiningOp<ct::PointerViewOp>();
  return pointer && pointer->hasAttr(kTapedAddress);
}

memref::ExtractAlignedPointerAsIndexOp
ad::getTapedAddress(ct::TapePushOp push) {
  auto address =
      push.getValue().getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>();
  return address && address->hasAttr(kTapedAddress) ? address : nullptr;
}

/// The only user of `value`, if it is of type OpT.
template <typename OpT> static OpT getOnlyUser(Value value) {
  return value.hasOneUse() ? dyn_cast<OpT>(*value.getUsers().begin()) : nullptr;
}

ct::PointerViewOp ad::getRebuiltView(ct::TapePopOp pop) {
  auto integer = getOnlyUser<arith::IndexCastOp>(pop.getValue());
  auto pointer =
      integer ? getOnlyUser<LLVM::IntToPtrOp>(integer.getOut()) : nullptr;
  auto view =
      pointer ? getOnlyUser<ct::PointerViewOp>(pointer.getRes()) : nullptr;
  return view && view->hasAttr(kTapedAddress) ? view : nullptr;
}

ct::PointerViewOp
ad::getRebuiltView(memref::ExtractAlignedPointerAsIndexOp address) {
  Attribute pair = address->getAttr(kTapedAddress);
  auto function = address->getParentOfType<func::FuncOp>();
  ct::PointerViewOp found;
  if (pair && function)
    function.walk([&](ct::PointerViewOp view) {
      if (view->getAttr(kTapedAddress) != pair)
        return WalkResult::advance();
      found = view;
      return WalkResult::interrupt();
    });
  return found;
}

Value ad::buildViewOfAddress(OpBuilder &b, Location loc, Value address,
                             MemRefType type, IntegerAttr pair) {
  Value integer = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  Value pointer = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), integer);
  // (Memory with the lanes of vector mode, differentiated again, keeps its
  // static lane dimension: a row-major 2-D view.)
  SmallVector<int64_t> shape(type.getShape()), strides(type.getRank(), 1);
  shape[0] = ShapedType::kDynamic;
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  auto viewed = ct::PointerViewOp::create(
      b, loc,
      MemRefType::get(shape, type.getElementType(),
                      StridedLayoutAttr::get(b.getContext(),
                                             ShapedType::kDynamic, strides)),
      pointer);
  viewed->setAttr(kTapedAddress, pair);
  if (viewed.getType() == type)
    return viewed;
  return memref::CastOp::create(b, loc, type, viewed);
}

/// The number of the pair of a shadow's address and view, from that of the
/// address it travels with: the same in the push and the pop, unique in the
/// function (the counter stays far below 2^40), and again for a shadow's
/// shadow (a third derivative).
static IntegerAttr getShadowPair(IntegerAttr pair) {
  return IntegerAttr::get(pair.getType(), pair.getInt() + (int64_t(1) << 40));
}

static constexpr llvm::StringLiteral kUnsupported =
    "cannot differentiate this derivative again: it keeps the address of "
    "this memory for its reverse sweep, and ";

LogicalResult ad::pushShadowAddress(OpBuilder &b, ct::TapePushOp push,
                                    Value tape,
                                    function_ref<bool(Value)> hasShadow,
                                    function_ref<Value(Value)> shadowOf) {
  memref::ExtractAlignedPointerAsIndexOp address = getTapedAddress(push);
  ct::PointerViewOp view = address ? getRebuiltView(address) : nullptr;
  if (!view || !hasShadow(view.getResult()))
    return success();
  Value shadow = shadowOf(address.getSource());
  if (!shadow)
    return emitError(view.getLoc(), kUnsupported)
           << "the derivative of this memory is not available where its "
              "address is kept";
  auto shadowAddress =
      memref::ExtractAlignedPointerAsIndexOp::create(b, push.getLoc(), shadow);
  shadowAddress->setAttr(
      kTapedAddress,
      getShadowPair(view->getAttrOfType<IntegerAttr>(kTapedAddress)));
  ct::TapePushOp::create(b, push.getLoc(), tape, shadowAddress);
  return success();
}

FailureOr<Value> ad::popShadowAddress(OpBuilder &b, ct::TapePopOp pop,
                                      Value tape,
                                      function_ref<bool(Value)> hasShadow) {
  ct::PointerViewOp view = getRebuiltView(pop);
  if (!view || !hasShadow(view.getResult()))
    return Value();
  auto pair = view->getAttrOfType<IntegerAttr>(kTapedAddress);
  bool paired = false;
  pop->getParentOfType<func::FuncOp>().walk(
      [&](memref::ExtractAlignedPointerAsIndexOp address) {
        paired |= address->getAttr(kTapedAddress) == pair;
      });
  if (!paired)
    return emitError(view.getLoc(), kUnsupported)
           << "another function takes it (the first half of a derivative "
              "split in two, called by another derivative, or of a "
              "recursive function)";
  Location loc = pop.getLoc();
  Value address = ct::TapePopOp::create(b, loc, b.getIndexType(), tape);
  return buildViewOfAddress(b, loc, address, view.getType(),
                            getShadowPair(pair));
}
