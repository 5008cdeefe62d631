//===- PackedFields.cpp - Integer fields inside slots of a wider type -----===//
//
// A struct mixing `double` and integer fields (`struct { int n; double w; }`)
// is laid out as in C++, in slots of its floating type: a double field is a
// slot, an integer or bool field is some bytes of one (the slot's bits,
// reinterpreted). Reading one extracts its bits, writing one replaces them
// and keeps the rest of the slot. Integers carry no derivative, so the
// slot's shadow never holds anything for them.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "clang/AST/RecordLayout.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
/// The slot's type as an integer of the same width.
IntegerType bitsOf(Type slot) {
  return IntegerType::get(slot.getContext(), slot.getIntOrFloatBitWidth());
}
} // namespace

Address FunctionLowering::basePart(Address object,
                                   const clang::CXXRecordDecl *derived,
                                   clang::QualType base, Location l) {
  Address place = offsetBy(object, module.getBaseOffset(derived, base), l);
  const clang::CXXRecordDecl *baseDecl = base->getAsCXXRecordDecl();
  if (object.packedType || !baseDecl || baseDecl->isEmpty())
    return place;
  // A base of integers among wider slots (a std::tuple's integer element):
  // its bytes in the slot, as for an integer field.
  std::optional<Layout> outer =
      module.tryGetLayout(ast.getCanonicalTagType(derived));
  std::optional<Layout> own = module.tryGetLayout(base);
  if (!outer || !own || own->scalar == outer->scalar)
    return place;
  uint64_t slotBits = ast.getTypeSize(outer->scalarType);
  uint64_t bits = 8 * ast.getASTRecordLayout(derived)
                          .getBaseClassOffset(baseDecl)
                          .getQuantity();
  // A base of a narrower floating-point type (std::tuple<float, double>'s
  // `float`), or any base where slots hold such parts: a view of its own
  // scalars where it starts (see fieldAddress); so is an integer base wider
  // than a floating-point slot.
  if (isa<FloatType>(own->scalar) || !outer->narrow.empty() ||
      (isa<FloatType>(outer->scalar) && isa<IntegerType>(own->scalar) &&
       own->size == 1 && ast.getTypeSize(base) > slotBits)) {
    auto view = ct::RetypeViewOp::create(b, l, getPointerType(own->scalar),
                                         place.memref, place.offset);
    uint64_t scalarBits = ast.getTypeSize(own->scalarType);
    return Address{
        view,
        constantIndex(static_cast<int64_t>((bits % slotBits) / scalarBits), l)};
  }
  if (!isa<IntegerType>(own->scalar) || own->size != 1)
    return place;
  place.packedType = own->scalar;
  place.packedBits = ast.getTypeSize(base);
  place.packedByte = (bits % slotBits) / 8;
  return place;
}

Address FunctionLowering::basePlace(Address derived,
                                    const clang::CastExpr *cast, Location l) {
  const clang::CXXRecordDecl *record =
      cast->getSubExpr()->getType()->getPointeeCXXRecordDecl();
  if (!record)
    record = cast->getSubExpr()->getType()->getAsCXXRecordDecl();
  Address place = derived;
  for (const clang::CXXBaseSpecifier *base : cast->path()) {
    place = basePart(place, record, base->getType(), l);
    record = base->getType()->getAsCXXRecordDecl();
  }
  return place;
}

std::optional<Address>
FunctionLowering::derivedPlace(Address base, const clang::CastExpr *cast,
                               Location l) {
  // `static_cast<Derived &>(base)`, as CRTP's `derived()` writes it: the
  // derived object begins where the path's base offsets, summed from the
  // derived class down, say.
  const clang::CXXRecordDecl *record =
      cast->getType()->isPointerType()
          ? cast->getType()->getPointeeCXXRecordDecl()
          : cast->getType()->getAsCXXRecordDecl();
  // (The base's memory must be the derived object's: of its slots, not a
  // packed integer's or a parameter of the base's own type.)
  std::optional<Layout> derived =
      record ? module.tryGetLayout(ast.getCanonicalTagType(record))
             : std::nullopt;
  if (!derived || base.packedType ||
      llvm::cast<MemRefType>(base.memref.getType()).getElementType() !=
          derived->scalar)
    return unsupported<std::optional<Address>>(
        cast, "this conversion to a derived class cannot be differentiated: "
              "the base's memory is not known to be part of a '" +
                  record->getQualifiedNameAsString() +
                  "'; pass the derived object");
  int64_t offset = 0;
  for (const clang::CXXBaseSpecifier *step : cast->path()) {
    offset += module.getBaseOffset(record, step->getType());
    record = step->getType()->getAsCXXRecordDecl();
  }
  if (offset == 0)
    return base;
  return offsetBy(base, -offset, l);
}

/// `value` as `type`, bit for bit: ct.bit_cast where the bits may be a
/// floating-point number's that carries a derivative, else arith.bitcast.
static Value reinterpret(OpBuilder &b, Location l, Type type, Value value,
                         bool shared) {
  if (value.getType() == type)
    return value;
  if (shared)
    return ct::BitCastOp::create(b, l, type, value);
  return arith::BitcastOp::create(b, l, type, value);
}

Value FunctionLowering::loadPacked(Address address, Location l) {
  Value slot = memref::LoadOp::create(b, l, address.memref, address.offset);
  IntegerType wide = bitsOf(slot.getType());
  Value bits = reinterpret(b, l, wide, slot, address.bitsShared);
  if (address.packedByte != 0)
    bits = arith::ShRUIOp::create(
        b, l, bits,
        arith::ConstantOp::create(
            b, l, wide, b.getIntegerAttr(wide, 8 * address.packedByte)));
  // (An integer as wide as the slot, among doubles: the slot's bits.)
  auto narrow = IntegerType::get(b.getContext(), address.packedBits);
  Value value = narrow == wide
                    ? bits
                    : arith::TruncIOp::create(b, l, narrow, bits).getResult();
  if (value.getType() != address.packedType) // bool: the lowest bit
    value = arith::TruncIOp::create(b, l, address.packedType, value);
  return value;
}

void FunctionLowering::storePacked(Value value, Address address, Location l) {
  Type slotType = cast<MemRefType>(address.memref.getType()).getElementType();
  IntegerType wide = bitsOf(slotType);
  auto narrow = IntegerType::get(b.getContext(), address.packedBits);
  if (value.getType() != narrow) // bool: 0 or 1 in a byte
    value = arith::ExtUIOp::create(b, l, narrow, value);
  if (narrow == wide) {
    // An integer as wide as the slot: the slot's bits.
    value = reinterpret(b, l, slotType, value, address.bitsShared);
    memref::StoreOp::create(b, l, value, address.memref, address.offset);
    return;
  }
  Value slot = memref::LoadOp::create(b, l, address.memref, address.offset);
  Value bits = reinterpret(b, l, wide, slot, address.bitsShared);
  unsigned shift = 8 * address.packedByte;
  llvm::APInt field = llvm::APInt::getBitsSet(wide.getWidth(), shift,
                                              shift + address.packedBits);
  Value kept = arith::AndIOp::create(
      b, l, bits,
      arith::ConstantOp::create(b, l, wide, b.getIntegerAttr(wide, ~field)));
  Value placed = arith::ExtUIOp::create(b, l, wide, value);
  if (shift != 0)
    placed = arith::ShLIOp::create(
        b, l, placed,
        arith::ConstantOp::create(b, l, wide, b.getIntegerAttr(wide, shift)));
  Value merged =
      reinterpret(b, l, slotType, arith::OrIOp::create(b, l, kept, placed),
                  address.bitsShared);
  memref::StoreOp::create(b, l, merged, address.memref, address.offset);
}

} // namespace cotangent::frontend
