//===- OutsideVectorCopies.cpp - Per-call copies of outside vectors -------===//
//
// See OutsideVectorCopies.h. The copy's memory comes from memref.alloc
// (C++'s operator new, as the vector operations the function runs on it
// allocate), so the function may grow and free it as its own.
//
//===----------------------------------------------------------------------===//

#include "OutsideVectorCopies.h"
#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/OutsideVariables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace cotangent::frontend {

std::optional<OutsideVector> OutsideVector::of(memref::GlobalOp global) {
  auto slots = global->getAttrOfType<DenseI64ArrayAttr>(ct::kVectorSlotsAttr);
  auto scalar = global->getAttrOfType<TypeAttr>(ct::kVectorScalarAttr);
  if (!slots || slots.size() != 3 || !scalar)
    return std::nullopt;
  return OutsideVector(slots[0], slots[1], slots[2], scalar.getValue());
}

Value OutsideVector::addressIn(OpBuilder &b, Location loc, Value holder,
                               int64_t slot) const {
  Value index = arith::ConstantIndexOp::create(b, loc, slot);
  Value view = ct::LoadAddressOp::create(b, loc, getPointerType(b.getI8Type()),
                                         holder, index);
  return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view);
}

Value OutsideVector::getStart(OpBuilder &b, Location loc, Value holder) const {
  return addressIn(b, loc, holder, first);
}

Value OutsideVector::getEnd(OpBuilder &b, Location loc, Value holder) const {
  return addressIn(b, loc, holder, end);
}

Value OutsideVector::scalarsUpTo(OpBuilder &b, Location loc, Value holder,
                                 int64_t slot) const {
  Value bytes = arith::SubIOp::create(b, loc, addressIn(b, loc, holder, slot),
                                      getStart(b, loc, holder));
  Value size = arith::ConstantIndexOp::create(
      b, loc, scalar.getIntOrFloatBitWidth() / 8);
  return arith::DivUIOp::create(b, loc, bytes, size);
}

Value OutsideVector::elements(OpBuilder &b, Location loc, Value holder) const {
  return ct::LoadAddressOp::create(
      b, loc, getPointerType(scalar), holder,
      arith::ConstantIndexOp::create(b, loc, first));
}

void OutsideVector::storeAddress(OpBuilder &b, Location loc, Value memory,
                                 Value count, Value holder,
                                 int64_t slot) const {
  Value rest = arith::SubIOp::create(
      b, loc, memref::DimOp::create(b, loc, memory, 0), count);
  Value view = memref::SubViewOp::create(
      b, loc, cast<MemRefType>(getPointerType(scalar)), memory,
      ArrayRef<OpFoldResult>{count}, ArrayRef<OpFoldResult>{rest},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  ct::StoreAddressOp::create(b, loc, view, holder,
                             arith::ConstantIndexOp::create(b, loc, slot));
}

void copyScalars(OpBuilder &b, Location loc, Value from, Value to, Value count,
                 bool cut) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, count, one);
  OpBuilder inside = OpBuilder::atBlockBegin(loop.getBody());
  Value i = loop.getInductionVar();
  Value value = memref::LoadOp::create(inside, loc, from, i);
  if (cut)
    value = ct::StopGradientOp::create(inside, loc, value);
  memref::StoreOp::create(inside, loc, value, to, i);
}

void OutsideVector::copyIn(OpBuilder &b, Location loc, Value variable,
                           Value copy) const {
  Value count = scalarsUpTo(b, loc, variable, end);
  Value memory = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, scalar),
      ValueRange{count});
  Value view = memref::CastOp::create(b, loc, getPointerType(scalar), memory);
  copyScalars(b, loc, elements(b, loc, variable), view, count, false);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  storeAddress(b, loc, view, zero, copy, first);
  storeAddress(b, loc, view, count, copy, end);
  storeAddress(b, loc, view, count, copy, capacity);
}

void OutsideVector::copyBack(OpBuilder &b, Location loc, Value copy,
                             Value variable) const {
  Value count = scalarsUpTo(b, loc, copy, end);
  Value room = scalarsUpTo(b, loc, variable, capacity);
  Value grows =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, count, room);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto ifGrows = scf::IfOp::create(b, loc, grows);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifGrows.thenBlock()->getTerminator());
    Value memory = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, scalar),
        ValueRange{count});
    memory.getDefiningOp()->setAttr(ct::kOutsideMemoryAttr, b.getUnitAttr());
    memref::DeallocOp::create(b, loc, elements(b, loc, variable));
    Value view = memref::CastOp::create(b, loc, getPointerType(scalar), memory);
    storeAddress(b, loc, view, zero, variable, first);
    storeAddress(b, loc, view, count, variable, capacity);
  }
  Value own = elements(b, loc, variable);
  Value made = elements(b, loc, copy);
  copyScalars(b, loc, made, own, count, true);
  storeAddress(b, loc, own, count, variable, end);
  memref::DeallocOp::create(b, loc, made);
}

} // namespace cotangent::frontend
