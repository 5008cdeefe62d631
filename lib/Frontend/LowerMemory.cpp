//===- LowerMemory.cpp - Addresses: lvalues, pointers, aggregates ---------===//
//
// An object is a run of scalars in a 1-D memref (see Layout). An lvalue is
// the address of its first scalar; a field adds its offset, an array
// element its index times the element's size, `p + k` k times the
// pointee's size. Aggregates are built in place: an initializer writes
// straight into the object it initializes.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecordLayout.h"

using namespace mlir;

/// What a pointer expression that is none of those lowered is told.
static constexpr const char *kUnsupportedPointer =
    "this pointer cannot be differentiated; use pointer parameters, arrays, "
    "and offsets from them";

namespace cotangent::frontend {

//===----------------------------------------------------------------------===//
// Addresses
//===----------------------------------------------------------------------===//

Address FunctionLowering::offsetBy(Address address, Value delta, Location l) {
  if (matchPattern(delta, m_Zero()))
    return address;
  if (matchPattern(address.offset, m_Zero()))
    return Address{address.memref, delta};
  return Address{address.memref,
                 arith::AddIOp::create(b, l, address.offset, delta)};
}

Address FunctionLowering::moveBy(Address address, Value delta, bool backwards,
                                 Location l) {
  if (!backwards)
    return offsetBy(address, delta, l);
  return Address{address.memref,
                 arith::SubIOp::create(b, l, address.offset, delta)};
}

Address FunctionLowering::newIndexSlot(Value initial, Location l) {
  // At the function entry, so that SROA and mem2reg see it.
  OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
  Value slot = memref::AllocaOp::create(entry, l,
                                        MemRefType::get({1}, b.getIndexType()));
  // The slot's index too: the slot outlives the block that asked for it
  // (a pointer bound in a branch of a function inlined here).
  Address place{slot, arith::ConstantIndexOp::create(entry, l, 0)};
  store(initial, place, l);
  return place;
}

Address FunctionLowering::offsetBy(Address address, int64_t delta, Location l) {
  if (delta == 0)
    return address;
  return offsetBy(address, constantIndex(delta, l), l);
}

std::optional<Address>
FunctionLowering::unpacked(std::optional<Address> address,
                           const clang::Stmt *where) {
  if (!address || !address->packedType)
    return address;
  // (A view of integers over a float's slot would bypass its derivative.)
  if (address->bitsShared)
    return unsupported<std::optional<Address>>(
        where, "a member of a union that shares its bits with a "
               "floating-point member cannot be addressed or bound to a "
               "reference; read and write it by name");
  // Addressed, an integer packed among wider slots is an element of a view
  // of its own scalars over its slot (C++ aligns it to its size).
  Location l = loc(where);
  auto view =
      ct::RetypeViewOp::create(b, l, getPointerType(address->packedType),
                               address->memref, address->offset);
  return Address{
      view, constantIndex(address->packedByte / (address->packedBits / 8), l)};
}

std::optional<Address>
FunctionLowering::fieldAddress(Address object, const clang::FieldDecl *field,
                               const clang::Stmt *where) {
  Location l = loc(where);
  Address place = offsetBy(object, module.getFieldOffset(field), l);
  clang::QualType type = field->getType();
  if (isObjectPointer(type) || type->isReferenceType() || isVector(type) ||
      ModuleLowering::isClosureClass(type->getAsCXXRecordDecl()) ||
      !getUniquePointee(type).isNull() ||
      !ModuleLowering::getSharedPointee(type).isNull())
    return place; // an indirect field's first slot
  // An integer field among wider slots: its bytes in the slot.
  std::optional<Layout> record =
      layoutOf(ast.getCanonicalTagType(field->getParent()), where);
  std::optional<Layout> own = layoutOf(field->getType(), where);
  if (!record || !own)
    return std::nullopt;
  if (own->scalar != record->scalar) {
    uint64_t bits = ast.getASTRecordLayout(field->getParent())
                        .getFieldOffset(field->getFieldIndex());
    uint64_t slotBits = ast.getTypeSize(record->scalarType);
    // An array or struct of integers, or a narrower floating-point part
    // (`float` among `double`s): a view of its own scalars from the slot
    // where it starts. So is an integer where slots hold such parts: its
    // slot's other bytes carry derivatives, which writing the whole slot
    // would clear; and an integer (or a class of one) wider than a
    // floating-point slot (Eigen's `long` sizes among `float`s).
    if (own->size != 1 || type->isArrayType() || isa<FloatType>(own->scalar) ||
        !record->narrow.empty() ||
        (isa<FloatType>(record->scalar) && isa<IntegerType>(own->scalar) &&
         ast.getTypeSize(type) > slotBits)) {
      auto view = ct::RetypeViewOp::create(b, l, getPointerType(own->scalar),
                                           place.memref, place.offset);
      uint64_t scalarBits = ast.getTypeSize(own->scalarType);
      return Address{
          view, constantIndex(
                    static_cast<int64_t>((bits % slotBits) / scalarBits), l)};
    }
    place.packedType = own->scalar;
    place.packedBits = ast.getTypeSize(field->getType());
    place.packedByte = (bits % slotBits) / 8;
    // (A state union's marker never meets its value's bits.)
    place.bitsShared = ModuleLowering::isOverlayUnion(field->getParent()) &&
                       isa<FloatType>(record->scalar);
  }
  return place;
}

std::optional<Address> FunctionLowering::choosePlace(
    const clang::ConditionalOperator *expr,
    std::optional<Address> (FunctionLowering::*arm)(const clang::Expr *)) {
  Location l = loc(expr);
  Value cond = lowerRValue(expr->getCond());
  if (!cond)
    return std::nullopt;
  cond = toBool(cond, expr->getCond()->getType(), l);
  std::optional<Address> onTrue = (this->*arm)(expr->getTrueExpr());
  std::optional<Address> onFalse = (this->*arm)(expr->getFalseExpr());
  if (!onTrue || !onFalse)
    return std::nullopt;
  return chooseAddress(cond, *onTrue, *onFalse, l);
}

Address FunctionLowering::chooseAddress(Value cond, Address onTrue,
                                        Address onFalse, Location l) {
  auto asPointer = [&](Address address) {
    auto type = cast<MemRefType>(address.memref.getType());
    MemRefType pointerType = getPointerType(type.getElementType());
    if (type != pointerType)
      address.memref =
          memref::CastOp::create(b, l, pointerType, address.memref);
    return address;
  };
  if (onTrue.memref.getType() != onFalse.memref.getType()) {
    onTrue = asPointer(onTrue);
    onFalse = asPointer(onFalse);
  }
  Value memref =
      onTrue.memref == onFalse.memref
          ? onTrue.memref
          : arith::SelectOp::create(b, l, cond, onTrue.memref, onFalse.memref)
                .getResult();
  return Address{memref, arith::SelectOp::create(b, l, cond, onTrue.offset,
                                                 onFalse.offset)};
}

std::optional<Address>
FunctionLowering::unpackedLValue(const clang::Expr *arm) {
  return unpacked(lowerLValue(arm), arm);
}

std::optional<Address> FunctionLowering::lowerConditionalLValue(
    const clang::ConditionalOperator *expr) {
  if (const clang::Expr *other = nullptr; lowerThrowingArm(expr, other))
    return other ? unpackedLValue(other) : std::nullopt;
  // Arms without side effects are both evaluated and one chosen with
  // selects, which the AD engine follows (the shadow is the same choice
  // between the arms' shadows).
  if (!expr->getTrueExpr()->HasSideEffects(ast) &&
      !expr->getFalseExpr()->HasSideEffects(ast))
    return choosePlace(expr, &FunctionLowering::unpackedLValue);
  return lowerConditionalPlaceWithEffects(expr);
}

FunctionLowering::PlaceMerge FunctionLowering::beginPlaceMerge(Type scalar) {
  PlaceMerge merge;
  merge.pointerType = getPointerType(scalar);
  for (Block &block : *b.getInsertionBlock()->getParent())
    merge.before.insert(&block);
  return merge;
}

void FunctionLowering::passPlace(PlaceMerge &merge, Address place,
                                 SmallVectorImpl<Value> &passed, Location at) {
  if (place.memref.getType() != merge.pointerType)
    place.memref =
        memref::CastOp::create(b, at, merge.pointerType, place.memref);
  passed.push_back(place.memref);
  passed.push_back(place.offset);
  auto definedBefore = [&](Value value) {
    return merge.before.contains(value.getParentBlock());
  };
  Value first = constantIndex(merge.candidates.size(), at);
  auto known = placeChoices.find(place.memref);
  if (known != placeChoices.end() &&
      llvm::all_of(known->second.candidates, definedBefore)) {
    llvm::append_range(merge.candidates, known->second.candidates);
    passed.push_back(arith::AddIOp::create(b, at, first, known->second.which));
    return;
  }
  Value memory = place.memref;
  while (auto cast = memory.getDefiningOp<memref::CastOp>())
    memory = cast.getSource();
  if (!definedBefore(memory))
    if (Value early = readBeforeBranches(merge, memory))
      memory = early;
  if (!definedBefore(memory) && merge.keepsMadeAddresses) {
    if (!merge.slot)
      merge.slot = newAddressSlot(at);
    keepAddress(place, Address{merge.slot, constantIndex(0, at)}, at);
    passed[passed.size() - 2] = ub::PoisonOp::create(b, at, merge.pointerType);
    passed.back() = constantIndex(0, at);
    merge.candidates.push_back(nullptr);
    passed.push_back(first);
    return;
  }
  merge.selectable &= definedBefore(memory);
  merge.candidates.push_back(memory);
  passed.push_back(first);
}

Value FunctionLowering::readBeforeBranches(PlaceMerge &merge, Value memory) {
  auto load = memory.getDefiningOp<ct::LoadAddressOp>();
  std::optional<int64_t> slot =
      load ? getConstantIntValue(load.getIndex()) : std::nullopt;
  if (!merge.origin || !load || load.getHolder() != merge.object || !slot ||
      *slot < 0 || *slot >= merge.readableSlots)
    return nullptr;
  OpBuilder early(merge.origin->getTerminator());
  Location l = load.getLoc();
  Value view = ct::LoadAddressOp::create(
      early, l, load.getType(), load.getHolder(),
      arith::ConstantIndexOp::create(early, l, *slot));
  // (The branch's read stays, unused, for what the lowering recorded of
  // it; the clean-up drops it.)
  load.getResult().replaceAllUsesWith(view);
  return view;
}

Address FunctionLowering::endPlaceMerge(PlaceMerge &merge, Block *joined,
                                        Location l) {
  Value offset = joined->getArgument(1);
  if (!merge.selectable)
    return Address{joined->getArgument(0), offset};
  auto asPointerMemory = [&](Value memory) -> Value {
    return memory.getType() == merge.pointerType
               ? memory
               : memref::CastOp::create(b, l, merge.pointerType, memory);
  };
  Value which = joined->getArgument(2);
  if (merge.slot) {
    // (Offset 0 for those: the address kept is the place's own.)
    Value kept = ct::LoadAddressOp::create(b, l, merge.pointerType, merge.slot,
                                           constantIndex(0, l));
    for (Value &candidate : merge.candidates)
      if (!candidate)
        candidate = kept;
  }
  Value chosen = asPointerMemory(merge.candidates.back());
  for (int k = static_cast<int>(merge.candidates.size()) - 2; k >= 0; --k) {
    Value isK = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, which,
                                      constantIndex(k, l));
    chosen = arith::SelectOp::create(
        b, l, isK, asPointerMemory(merge.candidates[k]), chosen);
  }
  placeChoices[chosen] = {merge.candidates, which};
  return Address{chosen, offset};
}

std::optional<Address> FunctionLowering::lowerConditionalPlaceWithEffects(
    const clang::ConditionalOperator *expr) {
  // Arms with side effects run in branches, which pass out the offset and
  // which of the candidate places was chosen (see PlaceChoice): memory
  // defined before the conditional is then chosen with selects after it.
  // (A place whose memory the arm itself makes is passed out as it is.)
  Location l = loc(expr);
  std::optional<Layout> layout = layoutOf(expr->getType(), expr);
  if (!layout)
    return std::nullopt;
  PlaceMerge merge = beginPlaceMerge(layout->scalar);
  Block *joined = emitConditional(
      expr, merge.types(b),
      [&](const clang::Expr *arm, SmallVectorImpl<Value> &passed) {
        std::optional<Address> place = unpacked(lowerLValue(arm), arm);
        if (!place)
          return false;
        passPlace(merge, *place, passed, loc(arm));
        return true;
      });
  if (!joined)
    return std::nullopt;
  return endPlaceMerge(merge, joined, l);
}

std::optional<Address> FunctionLowering::choosePointerWithEffects(
    const clang::ConditionalOperator *expr) {
  // Arms with side effects (`c ? new T[n] : nullptr`) run in branches; each
  // keeps the address it gives in a slot of its own (docs/Memory.md), read
  // after them. (Untyped memory has no type to keep it as.)
  if (expr->getType()->isVoidPointerType())
    return unsupported<std::optional<Address>>(
        expr, "a choice between 'void *' values made by calls (`c ? "
              "malloc(a) : malloc(b)`) cannot be differentiated; cast each "
              "to the type it holds first");
  std::optional<Layout> pointee =
      layoutOf(expr->getType()->getPointeeType(), expr);
  if (!pointee)
    return std::nullopt;
  return choosePointerWithEffects(
      expr, pointee->scalar,
      [&](const clang::Expr *arm) { return lowerPointer(arm); });
}

std::optional<Address> FunctionLowering::choosePointerWithEffects(
    const clang::ConditionalOperator *expr, Type scalar,
    function_ref<std::optional<Address>(const clang::Expr *)> lowerArm) {
  Location l = loc(expr);
  Value slot = newAddressSlot(l);
  if (parallelBodyDepth > 0)
    slot.getDefiningOp()->setAttr(ct::kIterationLocal, b.getUnitAttr());
  Block *merge = emitConditional(
      expr, {}, [&](const clang::Expr *arm, SmallVectorImpl<Value> &) {
        std::optional<Address> pointer = lowerArm(arm);
        if (!pointer)
          return false;
        keepAddress(*pointer, Address{slot, constantIndex(0, loc(arm))},
                    loc(arm));
        return true;
      });
  if (!merge)
    return std::nullopt;
  Value view = ct::LoadAddressOp::create(b, l, getPointerType(scalar), slot,
                                         constantIndex(0, l));
  return Address{view, constantIndex(0, l)};
}

Value FunctionLowering::scalarsFrom(Address address, Location l) {
  return arith::SubIOp::create(
      b, l, memref::DimOp::create(b, l, address.memref, 0), address.offset);
}

Address FunctionLowering::nullAddress(Type scalar, Location l) {
  Value empty = memref::AllocaOp::create(b, l, MemRefType::get({0}, scalar));
  Value null = memref::CastOp::create(b, l, getPointerType(scalar), empty);
  nullPointers.insert(null);
  return Address{null, constantIndex(0, l)};
}

Value FunctionLowering::materializeAddress(Address address, Location l) {
  if (!nullPointers.contains(address.memref))
    return materialize(address, l);
  // Kept in memory, `nullptr` is the address 0 (which `delete` and tests
  // of the pointer see as C++ does).
  Value zero = mlir::LLVM::ZeroOp::create(
      b, l, mlir::LLVM::LLVMPointerType::get(b.getContext()));
  return ct::PointerViewOp::create(b, l, address.memref.getType(), zero);
}

Value FunctionLowering::materialize(Address address, Location l) {
  assert(!address.packedType && "packed fields are refused where addressed");
  auto type = cast<MemRefType>(address.memref.getType());
  MemRefType pointerType = getPointerType(type.getElementType());
  Value memref = address.memref;
  // One past the end of an array of known size (`a + n`, std::end(a)): an
  // empty view there. (A subview at that offset would be folded into one
  // that the verifier rejects as out of bounds; a reinterpret_cast is not
  // checked.)
  if (std::optional<int64_t> offset = staticOffset(address.offset);
      offset && type.hasStaticShape() && type.getLayout().isIdentity() &&
      *offset == type.getDimSize(0)) {
    Value end = memref::ReinterpretCastOp::create(
        b, l,
        MemRefType::get({0}, type.getElementType(),
                        StridedLayoutAttr::get(b.getContext(), *offset, {1})),
        memref, *offset, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1});
    return memref::CastOp::create(b, l, pointerType, end);
  }
  if (type != pointerType)
    memref = memref::CastOp::create(b, l, pointerType, memref);
  if (matchPattern(address.offset, m_Zero()))
    return memref;
  // A view from the element to the end of the memory.
  Value size = scalarsFrom(Address{memref, address.offset}, l);
  return memref::SubViewOp::create(
      b, l, memref, ArrayRef<OpFoldResult>{address.offset},
      ArrayRef<OpFoldResult>{size}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

std::optional<Address> FunctionLowering::allocate(clang::QualType type,
                                                  clang::SourceRange range,
                                                  const Twine &what) {
  std::optional<Layout> layout = module.getLayout(type, range, what);
  if (!layout)
    return std::nullopt;
  return allocateSlots(*layout, ast.getTypeAlignInChars(type).getQuantity(),
                       module.getLoc(range.getBegin()));
}

Address FunctionLowering::allocateSlots(const Layout &layout, int64_t alignment,
                                        Location l) {
  // At the function entry, so that SROA and mem2reg see every slot.
  OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
  auto memref = memref::AllocaOp::create(
      entry, l, MemRefType::get({layout.size}, layout.scalar));
  // Aligned as C++ aligns the type where that is more than its scalars'
  // alignment (bytes of a library object kept as compiled, Eigen's
  // fixed-size storage of SIMD packets: code may check it).
  if (alignment > 1 && (layout.scalar.isInteger(8) ||
                        alignment * 8 > layout.scalar.getIntOrFloatBitWidth()))
    memref.setAlignment(alignment);
  // Declared in a parallel loop's body: one per iteration.
  if (parallelBodyDepth > 0)
    memref->setAttr(cotangent::ct::kIterationLocal, b.getUnitAttr());
  return Address{memref, arith::ConstantIndexOp::create(entry, l, 0)};
}

std::optional<Address>
FunctionLowering::materializeTemporary(const clang::Expr *expr) {
  if (isVector(expr->getType()))
    return createVector(expr, expr->getType(), expr->getSourceRange());
  std::optional<Address> place =
      allocate(expr->getType(), expr->getSourceRange(), "this temporary");
  if (!place || !initialize(expr, expr->getType(), *place))
    return std::nullopt;
  destroyAtScopeEnd(expr->getType(), *place, expr);
  return place;
}

/// Runs `body(i)` for i in [0, count): unrolled when short, a loop
/// otherwise.
template <typename Body>
static void forEachIndex(OpBuilder &b, Location l, int64_t count, Body body) {
  // Short enough to write out (a 4x4 matrix): no loop for later passes to
  // unroll.
  constexpr int64_t kMaxWrittenOut = 16;
  if (count <= kMaxWrittenOut) {
    for (int64_t i = 0; i < count; ++i)
      body(arith::ConstantIndexOp::create(b, l, i).getResult());
    return;
  }
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Value end = arith::ConstantIndexOp::create(b, l, count);
  Value one = arith::ConstantIndexOp::create(b, l, 1);
  auto loop = scf::ForOp::create(b, l, zero, end, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

void FunctionLowering::copy(Address dest, Address source, int64_t size,
                            Location l) {
  forEachIndex(b, l, size, [&](Value i) {
    store(load(offsetBy(source, i, l), l), offsetBy(dest, i, l), l);
  });
}

void FunctionLowering::copy(Address dest, Address source, Value size,
                            Location l) {
  auto loop =
      scf::ForOp::create(b, l, constantIndex(0, l), size, constantIndex(1, l));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value i = loop.getInductionVar();
  store(load(offsetBy(source, i, l), l), offsetBy(dest, i, l), l);
}

void FunctionLowering::copySlots(Address dest, Address source,
                                 const Layout &layout, int64_t first,
                                 int64_t end, Location l) {
  unsigned slotBits = layout.scalar.getIntOrFloatBitWidth();
  int64_t at = first;
  auto copyTo = [&](int64_t stop, Type narrow) {
    if (stop <= at)
      return;
    if (!narrow) {
      copy(offsetBy(dest, at, l), offsetBy(source, at, l), stop - at, l);
    } else {
      // The run's bytes as its own scalars, so that their adjoints add
      // as such in reverse mode.
      auto view = [&](Address object) {
        Address slot = offsetBy(object, at, l);
        return Address{ct::RetypeViewOp::create(b, l, getPointerType(narrow),
                                                slot.memref, slot.offset),
                       constantIndex(0, l)};
      };
      copy(view(dest), view(source),
           (stop - at) * slotBits / narrow.getIntOrFloatBitWidth(), l);
    }
    at = stop;
  };
  for (const Layout::NarrowRun &run : layout.narrow) {
    int64_t runEnd = std::min(end, run.slot + run.slots);
    if (runEnd <= at)
      continue;
    copyTo(std::min(run.slot, end), nullptr);
    copyTo(runEnd, run.scalar);
  }
  copyTo(end, nullptr);
}

void FunctionLowering::copyKeepingAddresses(
    Address dest, Address source, const Layout &element,
    ArrayRef<const Layout::IndirectField *> kept, Location l) {
  for (int64_t slot = 0; slot < element.size;) {
    const auto *field =
        llvm::find_if(kept, [&](const Layout::IndirectField *candidate) {
          return candidate->slot == slot;
        });
    if (field != kept.end()) {
      clang::QualType type = (*field)->type;
      std::optional<Layout> pointee = module.tryGetLayout(
          type->isReferenceType() ? type.getNonReferenceType()
                                  : type->getPointeeType());
      Address from = offsetBy(source, slot, l);
      Value view = ct::LoadAddressOp::create(
          b, l, getPointerType(pointee ? pointee->scalar : b.getF64Type()),
          from.memref, from.offset);
      keepAddress(Address{view, constantIndex(0, l)}, offsetBy(dest, slot, l),
                  l);
      slot += (*field)->slots;
      continue;
    }
    int64_t end = slot + 1;
    while (end < element.size &&
           llvm::none_of(
               kept, [&](const auto *next) { return next->slot == end; }))
      ++end;
    copySlots(dest, source, element, slot, end, l);
    slot = end;
  }
}

void FunctionLowering::copyGrowingElement(Address dest, Address source,
                                          const Layout &element, Location l) {
  SmallVector<const Layout::IndirectField *> all;
  for (const Layout::IndirectField &field : element.indirect)
    all.push_back(&field);
  copyKeepingAddresses(dest, source, element, all, l);
}

bool FunctionLowering::copyAddresses(Address dest, Address source,
                                     Value scalars, const Layout &element,
                                     Location l) {
  // Pointers kept as addresses (AddressHolders.cpp) are copied as such:
  // their bits copied as numbers would have their shadows added as
  // adjoints in reverse mode. The copy keeps addresses where its source
  // does.
  Value from = memoryRoot(source.memref), to = memoryRoot(dest.memref);
  SmallVector<const Layout::IndirectField *> kept;
  for (const Layout::IndirectField &field : element.indirect)
    if (keepsAddressIn(from, field.decl))
      kept.push_back(&field);
  if (kept.empty())
    return false;
  for (const Layout::IndirectField *field : kept)
    keepAddressAt(to, field->decl);
  Value size = constantIndex(element.size, l);
  Value count = arith::DivUIOp::create(b, l, scalars, size);
  forEachIndex(b, l, count, [&](Value i) {
    Value first = arith::MulIOp::create(b, l, i, size);
    copyKeepingAddresses(offsetBy(dest, first, l), offsetBy(source, first, l),
                         element, kept, l);
  });
  return true;
}

void FunctionLowering::copyElements(Address dest, Address source, Value scalars,
                                    const Layout &element, Location l) {
  if (copyAddresses(dest, source, scalars, element, l))
    return;
  if (element.narrow.empty()) {
    copy(dest, source, scalars, l);
    return;
  }
  Value size = constantIndex(element.size, l);
  Value count = arith::DivUIOp::create(b, l, scalars, size);
  auto loop =
      scf::ForOp::create(b, l, constantIndex(0, l), count, constantIndex(1, l));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value first = arith::MulIOp::create(b, l, loop.getInductionVar(), size);
  copySlots(offsetBy(dest, first, l), offsetBy(source, first, l), element, 0,
            element.size, l);
}

void FunctionLowering::copyElements(Address dest, Address source,
                                    int64_t scalars, const Layout &element,
                                    Location l) {
  if (element.narrow.empty() && element.indirect.empty())
    copy(dest, source, scalars, l);
  else
    copyElements(dest, source, constantIndex(scalars, l), element, l);
}

void FunctionLowering::fillZero(Address dest, const Layout &layout,
                                Location l) {
  Value zero = arith::ConstantOp::create(b, l, layout.scalar,
                                         b.getZeroAttr(layout.scalar));
  forEachIndex(b, l, layout.size,
               [&](Value i) { store(zero, offsetBy(dest, i, l), l); });
}

//===----------------------------------------------------------------------===//
// Lvalues
//===----------------------------------------------------------------------===//

std::optional<Address>
FunctionLowering::lowerNamedPlace(const clang::DeclRefExpr *ref) {
  using Result = std::optional<Address>;
  const clang::Expr *expr = ref;
  Location l = loc(expr);
  const clang::ValueDecl *var = ref->getDecl();
  if (vectorSizes.count(var))
    return currentElements(var, l);
  if (auto held = vectorObjectReferences.find(var);
      held != vectorObjectReferences.end())
    return viewVectorInMemory(held->second,
                              var->getType().getNonReferenceType(), expr);
  if (const clang::VarDecl *outside = outsideVectorOf(expr))
    return outsideVectorElements(outside, expr);
  if (std::optional<Address> growing = namedGrowingElements(var, l))
    return growing;
  if (auto it = places.find(var); it != places.end())
    return it->second;
  // A structured binding (`auto [a, b] = pair`): the part it names.
  if (const auto *binding = dyn_cast<clang::BindingDecl>(var)) {
    if (invalid.count(binding->getDecomposedDecl()))
      return std::nullopt; // the declaration's error said it all
    if (const clang::Expr *part = binding->getBinding())
      return lowerLValue(part);
    return unsupported<Result>(expr, "this structured binding cannot be "
                                     "differentiated");
  }
  if (invalid.count(var))
    return std::nullopt;
  if (auto pointer = pointers.find(var); pointer != pointers.end()) {
    // A variable keeping its address in a slot is that slot.
    if (pointer->second.addressSlot)
      return Address{pointer->second.addressSlot, constantIndex(0, l)};
    return unsupported<Result>(expr, "a pointer variable can be read, "
                                     "offset and assigned, but not "
                                     "addressed or bound to a reference");
  }
  if (const auto *global = dyn_cast<clang::VarDecl>(var);
      global && !global->hasLocalStorage())
    return constantGlobal(global, expr->getSourceRange());
  return unsupported<Result>(expr, "this name cannot be used in a "
                                   "differentiable function");
}

std::optional<Address>
FunctionLowering::lowerMemberPlace(const clang::MemberExpr *member) {
  using Result = std::optional<Address>;
  const clang::Expr *expr = member;
  if (const clang::VarDecl *outside = outsideVectorOf(expr))
    return outsideVectorElements(outside, expr);
  if (const auto *global = dyn_cast<clang::VarDecl>(member->getMemberDecl()))
    return constantGlobal(global, expr->getSourceRange()); // static member
  const auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
  if (!field)
    return unsupported<Result>(expr, "this member cannot be used in "
                                     "differentiable functions");
  if (field->getType()->isReferenceType() || isVector(field->getType()))
    return lowerIndirectField(member);
  std::optional<Address> base = member->isArrow()
                                    ? lowerPointer(member->getBase())
                                    : lowerLValue(member->getBase());
  if (!base)
    return std::nullopt;
  return fieldAddress(*base, field, expr);
}

std::optional<Address>
FunctionLowering::lowerSubscriptPlace(const clang::ArraySubscriptExpr *expr) {
  if (expr->getBase()->getType()->isVectorType())
    return lowerVectorLane(expr);
  Location l = loc(expr);
  // An array of vectors is indexed where it is: a pointer to its vectors
  // would designate their addresses, which no other pointer to a vector
  // does (lowerPointerCast).
  const auto *decay = dyn_cast<clang::ImplicitCastExpr>(strip(expr->getBase()));
  std::optional<Address> base =
      decay && decay->getCastKind() == clang::CK_ArrayToPointerDecay
          ? lowerLValue(decay->getSubExpr())
          : lowerPointer(expr->getBase());
  Value i = lowerRValue(expr->getIdx());
  if (!base || !i)
    return std::nullopt;
  i = index(i, expr->getIdx()->getType(), l);
  // A row of an array of variable length (`a[i]` of `double a[n][m]`):
  // m elements, as its declaration evaluated m.
  if (expr->getType()->isArrayType() &&
      expr->getType()->isVariablyModifiedType()) {
    Value scalars =
        variableArrayScalars(expr->getType(), l, expr->getSourceRange());
    if (!scalars)
      return std::nullopt;
    return offsetBy(*base, arith::MulIOp::create(b, l, i, scalars), l);
  }
  std::optional<Layout> element = elementLayoutOf(expr->getType(), expr);
  if (!element)
    return std::nullopt;
  if (element->size != 1)
    i = arith::MulIOp::create(b, l, i, constantIndex(element->size, l));
  return offsetBy(*base, i, l);
}

/// Whether `expr` is `*p` of a pointer variable that keepsVectorAddress.
static bool derefsVectorAddressHolder(const clang::Expr *expr) {
  const auto *deref = dyn_cast<clang::UnaryOperator>(expr);
  return deref && deref->getOpcode() == clang::UO_Deref &&
         readsVectorAddressHolder(deref->getSubExpr());
}

std::optional<Address> FunctionLowering::lowerLValue(const clang::Expr *expr) {
  using Result = std::optional<Address>;
  expr = strip(expr);
  Location l = loc(expr);
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    return lowerNamedPlace(ref);
  // A row of a vector of vectors, or a vector a (smart) pointer keeps the
  // address of, seen as the memref model sees a vector.
  if (isRowExpr(expr) || isOwnedVectorAccess(expr, clang::OO_Star) ||
      derefsVectorAddressHolder(expr)) {
    std::optional<Address> holder = lowerVectorHolder(expr);
    return holder ? viewVectorInMemory(*holder, expr->getType(), expr)
                  : std::nullopt;
  }
  if (const auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr))
    return lowerSubscriptPlace(subscript);
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr)) {
    if (unary->getOpcode() == clang::UO_Deref)
      return lowerPointer(unary->getSubExpr());
    if (unary->getOpcode() == clang::UO_Real ||
        unary->getOpcode() == clang::UO_Imag)
      return lowerComplexPart(unary);
    if (unary->isPrefix() && unary->isIncrementDecrementOp()) {
      std::optional<Address> place = lowerLValue(unary->getSubExpr());
      if (place)
        increment(unary, *place);
      return place;
    }
  }
  if (const auto *member = dyn_cast<clang::MemberExpr>(expr))
    return lowerMemberPlace(member);
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    if (binary->getOpcode() == clang::BO_Comma) {
      lowerDiscarded(binary->getLHS());
      return lowerLValue(binary->getRHS());
    }
    if (binary->isAssignmentOp() &&
        binary->getLHS()->getType()->isAnyComplexType())
      return lowerComplexAssignment(binary);
    if (binary->isAssignmentOp() && binary->getLHS()->getType()->isVectorType())
      return lowerVectorAssignment(binary);
    if (binary->isAssignmentOp())
      return lowerScalarAssignment(binary);
    if (binary->isPtrMemOp())
      return lowerMemberAccess(binary);
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(expr)) {
    // `std::forward<It>(pair.first)` as a place: the field's (a call's
    // result stands for the pointer it holds, lowerCall).
    if (const clang::Expr *moved = castToReferenceArgument(call);
        moved && isa<clang::MemberExpr, clang::ArraySubscriptExpr>(
                     strip(moved)->IgnoreImpCasts()))
      return lowerLValue(moved);
    std::optional<CallResult> result = lowerCall(call, std::nullopt);
    if (!result)
      return std::nullopt;
    if (result->address)
      return result->address;
    return unsupported<Result>(expr, "this call does not designate memory");
  }
  if (const auto *cast = dyn_cast<clang::CastExpr>(expr)) {
    switch (cast->getCastKind()) {
    case clang::CK_NoOp:
    // `operator double&()` called (a reference wrapper read or written):
    // the place its call returns.
    case clang::CK_UserDefinedConversion:
      return lowerLValue(cast->getSubExpr());
    case clang::CK_DerivedToBase:
    case clang::CK_UncheckedDerivedToBase: {
      std::optional<Address> derived = lowerLValue(cast->getSubExpr());
      if (!derived)
        return std::nullopt;
      return basePlace(*derived, cast, l);
    }
    case clang::CK_BaseToDerived: {
      std::optional<Address> base = lowerLValue(cast->getSubExpr());
      if (!base)
        return std::nullopt;
      return derivedPlace(*base, cast, l);
    }
    default:
      break;
    }
  }
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return temporary->getSubExpr()->isGLValue()
               ? lowerLValue(temporary->getSubExpr())
               : materializeTemporary(temporary->getSubExpr());
  if (const auto *conditional = dyn_cast<clang::ConditionalOperator>(expr))
    return lowerConditionalLValue(conditional);
  if (const auto *literal = dyn_cast<clang::StringLiteral>(expr))
    return lowerStringLiteral(literal);
  // A default argument bound to a reference parameter (a comparator, an
  // allocator): the place of its value.
  if (const auto *defaultArg = dyn_cast<clang::CXXDefaultArgExpr>(expr))
    return lowerLValue(defaultArg->getExpr());
  return unsupported<Result>(expr, "cannot take the address of this "
                                   "expression in a differentiable function");
}

std::optional<Address>
FunctionLowering::lowerScalarAssignment(const clang::BinaryOperator *expr) {
  Location l = loc(expr);
  if (isObjectPointer(expr->getLHS()->getType()))
    return lowerPointerAssignment(expr);
  // C++17: the right operand is evaluated first.
  Value rhs = lowerRValue(expr->getRHS());
  std::optional<Address> place = lowerLValue(expr->getLHS());
  if (!place || !rhs)
    return std::nullopt;
  if (const auto *compound = dyn_cast<clang::CompoundAssignOperator>(expr)) {
    // x op= y computes in the computation type, then converts back.
    clang::QualType lhsType = expr->getLHS()->getType();
    clang::QualType computation = compound->getComputationLHSType();
    Value lhs = convert(load(*place, l), lhsType, computation, l);
    Value result = arithmetic(
        clang::BinaryOperator::getOpForCompoundAssignment(expr->getOpcode()),
        lhs, rhs, computation, l);
    rhs = convert(result, compound->getComputationResultType(), lhsType, l);
  }
  store(rhs, *place, l);
  return place;
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

/// `k` pointees further, in scalars.
static Value scaled(OpBuilder &b, Location l, Value k, int64_t pointeeSize) {
  if (pointeeSize == 1)
    return k;
  return arith::MulIOp::create(
      b, l, k, arith::ConstantIndexOp::create(b, l, pointeeSize));
}

bool FunctionLowering::isSameScalarReinterpretation(
    const clang::CastExpr *cast) {
  clang::QualType from = cast->getSubExpr()->getType()->getPointeeType();
  clang::QualType to = cast->getType()->getPointeeType();
  if (from.isNull() || to.isNull())
    return false;
  std::optional<Layout> source = module.tryGetLayout(from);
  std::optional<Layout> target = module.tryGetLayout(to);
  return source && target && source->scalar == target->scalar &&
         source->indirect.empty() && target->indirect.empty() &&
         source->size > 0 && target->size > 0;
}

std::optional<Address>
FunctionLowering::lowerPointerCast(const clang::CastExpr *cast) {
  using Result = std::optional<Address>;
  const clang::Expr *expr = cast;
  Location l = loc(expr);
  switch (cast->getCastKind()) {
  case clang::CK_LValueToRValue: {
    // A pointer read from memory: an element of an array or vector of
    // pointers.
    const clang::Expr *place = strip(cast->getSubExpr());
    // `std::move(p)`: the pointer p holds.
    if (const clang::Expr *moved = castToReferenceArgument(place))
      return lowerPointer(moved);
    const auto *call = dyn_cast<clang::CallExpr>(place);
    const auto *unary = dyn_cast<clang::UnaryOperator>(place);
    if (isa<clang::ArraySubscriptExpr>(place) || (call && call->isGLValue()) ||
        (unary && unary->getOpcode() == clang::UO_Deref))
      return loadStoredPointer(place);
    return lowerPointer(place);
  }
  case clang::CK_NoOp:
    return lowerPointer(cast->getSubExpr());
  case clang::CK_ArrayToPointerDecay:
    if (isVector(ast.getBaseElementType(cast->getSubExpr()->getType())
                     .getCanonicalType()))
      return unsupported<Result>(
          expr, "a pointer to the std::vectors of an array is not supported; "
                "index the array, or bind a reference to one of its vectors");
    return lowerLValue(cast->getSubExpr());
  case clang::CK_DerivedToBase:
  case clang::CK_UncheckedDerivedToBase: {
    std::optional<Address> derived = lowerPointer(cast->getSubExpr());
    if (!derived)
      return std::nullopt;
    return basePlace(*derived, cast, l);
  }
  case clang::CK_BaseToDerived: {
    std::optional<Address> base = lowerPointer(cast->getSubExpr());
    if (!base)
      return std::nullopt;
    return derivedPlace(*base, cast, l);
  }
  case clang::CK_BitCast:
    if (isFreshAllocation(cast))
      return lowerCAllocation(cast);
    // `void *` is the memory it points at, of that memory's type: a
    // pointer converted to it and back views the same scalars.
    if (cast->getType()->isVoidPointerType())
      return lowerPointer(cast->getSubExpr());
    if (cast->getSubExpr()->getType()->isVoidPointerType())
      return lowerVoidPointerCast(cast);
    // Objects made of the same scalars (a struct of doubles, a
    // std::array<double, N>, double[N], double) lie alike in memory: a
    // pointer to one views the other's scalars.
    if (isSameScalarReinterpretation(cast))
      return lowerPointer(cast->getSubExpr());
    break;
  case clang::CK_IntegralToPointer:
    // An object of an empty class has no data to read or write (a
    // functor called through a made-up address): any place will do.
    if (isEmptyClass(cast->getType()))
      return allocate(cast->getType()->getPointeeType(), cast->getSourceRange(),
                      "this object");
    return alignedUp(cast);
  case clang::CK_NullToPointer: {
    // `nullptr` for a pointer the callee does not follow (an optional
    // output left out, a `void *` a template takes to choose an overload):
    // memory of no elements, which no access may touch, as none may through
    // a null pointer.
    // (So is one to a type only declared: `Info *info = 0` that a library
    // tests before it follows.)
    if (cast->getType()->getPointeeType()->isVoidType() ||
        cast->getType()->getPointeeType()->isIncompleteType())
      return nullAddress(b.getI8Type(), l);
    // (A pointer to a std::vector designates its elements.)
    clang::QualType pointeeType = cast->getType()->getPointeeType();
    if (isVector(pointeeType.getCanonicalType()))
      pointeeType = ModuleLowering::getVectorElementType(pointeeType);
    std::optional<Layout> pointee = layoutOf(pointeeType, expr);
    if (!pointee)
      return std::nullopt;
    return nullAddress(pointee->scalar, l);
  }
  default:
    break;
  }
  return unsupported<Result>(
      expr, "converting '" + cast->getSubExpr()->getType().getAsString() +
                "' to '" + cast->getType().getAsString() +
                "' cannot be differentiated: differentiable code uses "
                "pointers of one element type per array");
}

bool FunctionLowering::reachesEveryChoice(const clang::ValueDecl *var,
                                          Value read) {
  // (A read lowered before a later choice is checked where that choice is
  // added: addArray.)
  // (Pointers to vectors: other pointers given memory made in a loop keep
  // its address, item 3 of docs/Memory.md, or are refused by their casts.)
  auto moving = movingPointers.find(var);
  if (moving == movingPointers.end() || !moving->second.group ||
      !read.getDefiningOp())
    return true;
  DominanceInfo dominance(function);
  return llvm::all_of(moving->second.arrays, [&](Value array) {
    return dominance.properlyDominates(array, read.getDefiningOp());
  });
}

std::optional<Address>
FunctionLowering::lowerNamedPointer(const clang::DeclRefExpr *ref) {
  using Result = std::optional<Address>;
  const clang::Expr *expr = ref;
  Location l = loc(expr);
  if (invalid.count(ref->getDecl()))
    return std::nullopt;
  if (auto it = pointers.find(ref->getDecl()); it != pointers.end()) {
    Value memory = pointerMemory(ref->getDecl(), it->second, l);
    if (!reachesEveryChoice(ref->getDecl(), memory))
      return unsupported<Result>(
          expr, "this pointer variable may designate memory known only "
                "inside the loop or branch where it was assigned (an "
                "element of a vector of vectors, or an array made there); "
                "read it there, or keep an index instead");
    return Address{memory, load(it->second.offsetSlot, l)};
  }
  if (auto it = fixedPointers.find(ref->getDecl()); it != fixedPointers.end())
    return it->second;
  // A structured binding of a pointer (`auto [p, q] = ends(a)`): the field
  // it names.
  if (const auto *binding = dyn_cast<clang::BindingDecl>(ref->getDecl());
      binding && binding->getBinding())
    return lowerPointer(binding->getBinding());
  // A helper's pointer parameter given a growing vector's address
  // (GrowingVectors.cpp): that vector's elements.
  if (std::optional<Address> growing = namedGrowingElements(ref->getDecl(), l))
    return growing;
  // A reference to a pointer (`double *&p`) or to a std::unique_ptr, or a
  // std::unique_ptr parameter by value (the caller's temporary, which the
  // Itanium ABI passes by address): the address in the place it is bound
  // to.
  clang::QualType type = ref->getDecl()->getType();
  if (type->isReferenceType() && type->getPointeeType()->isPointerType())
    return loadStoredPointer(expr);
  if (auto bound = places.find(ref->getDecl());
      bound != places.end() &&
      (type->isReferenceType() || isa<clang::ParmVarDecl>(ref->getDecl())) &&
      !ModuleLowering::getUniquePointee(type).isNull())
    return loadAddress(bound->second, ModuleLowering::getOwnedPointerType(type),
                       expr);
  return unsupported<Result>(expr, kUnsupportedPointer);
}

std::optional<Address> FunctionLowering::lowerPointer(const clang::Expr *expr) {
  using Result = std::optional<Address>;
  expr = strip(expr);
  // A default argument: the declaration's expression.
  if (const auto *defaultArg = dyn_cast<clang::CXXDefaultArgExpr>(expr))
    return lowerPointer(defaultArg->getExpr());
  // Braces around a pointer (`double *p{&x};`) are its value.
  if (const auto *list = dyn_cast<clang::InitListExpr>(expr);
      list && list->getNumInits() == 1 && expr->getType()->isPointerType())
    return lowerPointer(list->getInit(0));
  Location l = loc(expr);
  if (isIterator(expr->getType()))
    return lowerIterator(expr);
  // Other iterators are objects, not addresses of the elements they step
  // through (a std::reverse_iterator steps backward).
  if (ModuleLowering::isIteratorClass(expr->getType()))
    return unsupported<Result>(
        expr, "an iterator of type '" +
                  clang::TypeName::getFullyQualifiedName(
                      expr->getType().getUnqualifiedType(), ast,
                      ast.getPrintingPolicy()) +
                  "' cannot give a range of elements here; give the "
                  "range by pointers or the vector's own iterators "
                  "(begin(), end()), or copy the elements with a loop");
  // A pointer bound to a reference parameter (push_back(&x[i])): its value.
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return lowerPointer(temporary->getSubExpr());
  if (const clang::Expr *moved = castToReferenceArgument(expr))
    return lowerPointer(moved);
  // A std::unique_ptr temporary (a factory's result used at once): what it
  // owns.
  if (const auto *bound = dyn_cast<clang::CXXBindTemporaryExpr>(expr);
      bound && !ModuleLowering::getUniquePointee(bound->getType()).isNull())
    return lowerOwnedTemporary(bound);
  // An element of an array or vector of pointers, bound to a reference.
  if (isa<clang::ArraySubscriptExpr>(expr) ||
      (isa<clang::CallExpr>(expr) && expr->isGLValue()))
    return loadStoredPointer(expr);
  if (const auto *cast = dyn_cast<clang::CastExpr>(expr))
    return lowerPointerCast(cast);
  // `c ? p : q`: the same choice as between places.
  if (const auto *conditional = dyn_cast<clang::ConditionalOperator>(expr)) {
    if (conditional->getTrueExpr()->HasSideEffects(ast) ||
        conditional->getFalseExpr()->HasSideEffects(ast))
      return choosePointerWithEffects(conditional);
    return choosePlace(conditional, &FunctionLowering::lowerPointer);
  }
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    return lowerNamedPointer(ref);
  if (const auto *member = dyn_cast<clang::MemberExpr>(expr);
      member && isa<clang::FieldDecl>(member->getMemberDecl()))
    return lowerIndirectField(member);
  if (isa<clang::CXXThisExpr>(expr))
    return self;
  if (const auto *allocation = dyn_cast<clang::CXXNewExpr>(expr))
    return lowerNew(allocation);
  auto pointeeSize = [&](const clang::Expr *pointer) -> std::optional<int64_t> {
    std::optional<Layout> layout =
        layoutOf(pointer->getType()->getPointeeType(), pointer);
    return layout ? std::optional<int64_t>(layout->size) : std::nullopt;
  };
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr))
    return lowerPointerOperation(binary);
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr)) {
    if (unary->getOpcode() == clang::UO_AddrOf)
      return unpacked(lowerLValue(unary->getSubExpr()), expr);
    if (unary->isIncrementDecrementOp()) {
      // p++, --p on a pointer variable move its offset.
      std::optional<int64_t> size = pointeeSize(unary->getSubExpr());
      if (!size)
        return std::nullopt;
      return stepPointerVariable(unary->getSubExpr(), constantIndex(*size, l),
                                 unary->isDecrementOp(), unary->isPostfix());
    }
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(expr)) {
    // `void *p = malloc(n)`: bytes, typed by the cast that follows.
    if (isCAllocation(call))
      return lowerUntypedAllocation(call);
    std::optional<CallResult> result = lowerCall(call, std::nullopt);
    if (!result)
      return std::nullopt;
    return result->address;
  }
  return unsupported<Result>(expr, kUnsupportedPointer);
}

std::optional<Address>
FunctionLowering::lowerPointerOperation(const clang::BinaryOperator *binary) {
  Location l = loc(binary);
  if (binary->isAdditiveOp()) {
    // p + k, k + p, p - k (a pointer difference is an integer, never
    // lowered here).
    bool pointerFirst = binary->getLHS()->getType()->isPointerType();
    const clang::Expr *pointerSide =
        pointerFirst ? binary->getLHS() : binary->getRHS();
    const clang::Expr *integerSide =
        pointerFirst ? binary->getRHS() : binary->getLHS();
    std::optional<Address> pointer = lowerPointer(pointerSide);
    Value k = lowerRValue(integerSide);
    std::optional<Layout> pointee =
        layoutOf(pointerSide->getType()->getPointeeType(), pointerSide);
    if (!pointer || !k || !pointee)
      return std::nullopt;
    k = scaled(b, l, index(k, integerSide->getType(), l), pointee->size);
    return moveBy(*pointer, k, binary->getOpcode() == clang::BO_Sub, l);
  }
  if (binary->isAssignmentOp())
    return lowerPointerAssignment(binary);
  if (binary->getOpcode() == clang::BO_Comma) {
    lowerDiscarded(binary->getLHS());
    return lowerPointer(binary->getRHS());
  }
  return unsupported<std::optional<Address>>(binary, kUnsupportedPointer);
}

bool FunctionLowering::storePointerAt(const clang::Expr *place, Address pointer,
                                      const clang::Stmt *where) {
  if (const auto *member = dyn_cast<clang::MemberExpr>(strip(place))) {
    const auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    if (!field)
      return unsupported<bool>(where, "only pointer variables and fields "
                                      "can be assigned");
    std::optional<Address> slot = fieldSlot(member);
    return slot && bindIndirectField(*slot, pointer, where, field);
  }
  std::optional<Address> slot = lowerLValue(place);
  return slot && bindIndirectField(*slot, pointer, where, /*decl=*/nullptr);
}

std::optional<Address>
FunctionLowering::movedPointer(const clang::Expr *pointer,
                               const clang::Expr *count, bool backwards,
                               const clang::Stmt *where) {
  // (C++ evaluates the count of `p += k` before p.)
  Location l = loc(where);
  Value k = lowerRValue(count);
  std::optional<Address> from = lowerPointer(pointer);
  std::optional<Layout> pointee =
      layoutOf(pointer->getType()->getPointeeType(), where);
  if (!from || !k || !pointee)
    return std::nullopt;
  k = scaled(b, l, index(k, count->getType(), l), pointee->size);
  return moveBy(*from, k, backwards, l);
}

std::optional<Address>
FunctionLowering::lowerPointerAssignment(const clang::BinaryOperator *expr) {
  using Result = std::optional<Address>;
  Location l = loc(expr);
  const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(expr->getLHS()));
  if (ref && invalid.count(ref->getDecl()))
    return std::nullopt; // reported where it was declared
  auto it = ref ? pointers.find(ref->getDecl()) : pointers.end();
  // `T *p; p = e;`: the value p is declared with.
  if (ref && !refusesNewVector(ref->getDecl(), expr->getRHS()))
    return std::nullopt;
  if (const auto *var =
          ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      var && it == pointers.end() && !var->getInit() &&
      initializingAssignment(var) == expr) {
    std::optional<Address> pointer = lowerPointerValue(var, expr->getRHS());
    if (!pointer) {
      invalid.insert(var);
      return std::nullopt;
    }
    declarePointerVariable(var, *pointer, l);
    return pointer;
  }
  // A pointer field, an element of an array or vector of pointers, or the
  // pointer a reference is bound to: it designates what the right side
  // points to (`p += k`: where it pointed, moved).
  bool moves = expr->getOpcode() == clang::BO_AddAssign ||
               expr->getOpcode() == clang::BO_SubAssign;
  if (it == pointers.end() &&
      (expr->getOpcode() == clang::BO_Assign || moves) &&
      (!ref || ref->getDecl()->getType()->isReferenceType()) &&
      expr->getLHS()->isGLValue()) {
    std::optional<Address> pointer =
        moves ? movedPointer(expr->getLHS(), expr->getRHS(),
                             expr->getOpcode() == clang::BO_SubAssign, expr)
              : lowerPointer(expr->getRHS());
    if (!pointer || !storePointerAt(expr->getLHS(), *pointer, expr))
      return std::nullopt;
    return pointer;
  }
  if (it == pointers.end())
    return unsupported<Result>(expr, "only pointer variables and fields "
                                     "can be assigned");
  std::optional<Address> pointer;
  if (expr->getOpcode() == clang::BO_Assign)
    pointer = lowerPointerValue(ref->getDecl(), expr->getRHS());
  else if (moves)
    pointer = movedPointer(expr->getLHS(), expr->getRHS(),
                           expr->getOpcode() == clang::BO_SubAssign, expr);
  else
    return unsupported<Result>(expr, "this operator cannot be applied to a "
                                     "pointer");
  if (!pointer)
    return std::nullopt;
  if (expr->getOpcode() != clang::BO_Assign) {
    setPointer(it->second, *pointer, l); // moved within its array
    return pointer;
  }
  if (!movePointer(ref->getDecl(), *pointer, expr))
    return std::nullopt;
  return pointer;
}

//===----------------------------------------------------------------------===//
// Initialization
//===----------------------------------------------------------------------===//

bool FunctionLowering::initialize(const clang::Expr *init, clang::QualType type,
                                  Address dest, const clang::FieldDecl *field) {
  if (ModuleLowering::isClosureClass(type->getAsCXXRecordDecl()))
    return storeClosure(init, dest);
  // (A field's: a temporary std::function is the library's, since library
  // code it is given would find it empty.)
  if (field && isStdFunction(type))
    if (std::optional<bool> stored = storeStdFunction(init, type, dest))
      return *stored;
  if (!ModuleLowering::getSharedPointee(type).isNull())
    return initializeShared(init, type, dest);
  // A std::unique_ptr member: the address of what it owns.
  if (!getUniquePointee(type).isNull()) {
    std::optional<Address> owned = lowerOwnedSource(init, type);
    if (!owned)
      return false;
    keepAddress(*owned, dest, loc(init));
    return true;
  }
  // A pointer, iterator or reference field (or pointer element): what it
  // designates.
  if (isObjectPointer(type) || isIterator(type) || type->isReferenceType()) {
    std::optional<Address> target =
        type->isReferenceType() ? lowerLValue(init) : lowerPointer(init);
    return target && bindIndirectField(dest, *target, init, field);
  }
  if (ModuleLowering::keepsVectorInMemory(field))
    return initializeVectorInMemory(init, type, dest);
  if (isVector(type)) {
    // A vector field: its own memory, freed with the scope of the object.
    std::optional<Address> vector =
        createVector(init, type, init->getSourceRange());
    if (!vector || !bindIndirectField(dest, *vector, init, field))
      return false;
    if (PointerVariable *binding = indirectFieldAt(dest))
      binding->depth = controlDepth;
    return true;
  }
  if (isAggregate(type.getCanonicalType()))
    return initializeAggregate(init, dest);
  Value value = lowerRValue(init);
  if (!value)
    return false;
  if (type->isMemberPointerType())
    storeMemberPointer(value, type, dest, loc(init));
  else
    store(value, dest, loc(init));
  return true;
}

bool FunctionLowering::initializeFromList(const clang::InitListExpr *list,
                                          Address dest) {
  if (list->isTransparent())
    return initializeAggregate(list->getInit(0), dest);
  return initializeParts(
      list,
      llvm::ArrayRef<clang::Expr *>(
          const_cast<clang::InitListExpr *>(list)->getInits(),
          list->getNumInits()),
      list->getArrayFiller(), dest);
}

bool FunctionLowering::initializeParts(const clang::Expr *init,
                                       ArrayRef<clang::Expr *> inits,
                                       const clang::Expr *filler,
                                       Address dest) {
  Location l = loc(init);
  clang::QualType type = init->getType().getCanonicalType();
  unsigned next = 0;
  auto part = [&](clang::QualType partType, Address at,
                  const clang::FieldDecl *field = nullptr) {
    // An array's vectors are kept in memory (rows, VectorRows.cpp).
    if (!field && isVector(partType)) {
      const clang::Expr *value = next < inits.size() ? inits[next++] : filler;
      if (value)
        return initializeVectorInMemory(value, partType, at);
      std::optional<VectorObject> vector = vectorObjectAt(at, partType, init);
      if (vector)
        clearVectorObject(*vector, l);
      return vector.has_value();
    }
    if (next < inits.size())
      return initialize(inits[next++], partType, at, field);
    if (filler)
      return initialize(filler, partType, at, field);
    if (isObjectPointer(partType))
      return true; // a null pointer field: never followed
    std::optional<Layout> layout = layoutOf(partType, init);
    if (layout)
      fillZero(at, *layout, l);
    return layout.has_value();
  };
  if (const auto *array = ast.getAsConstantArrayType(type)) {
    clang::QualType elementType = array->getElementType();
    std::optional<Layout> element = elementLayoutOf(elementType, init);
    if (!element)
      return false;
    for (uint64_t i = 0, e = array->getSize().getZExtValue(); i < e; ++i)
      if (!part(elementType, offsetBy(dest, i * element->size, l)))
        return false;
    return true;
  }
  const clang::RecordDecl *record = type->getAsRecordDecl();
  if (record->isUnion()) {
    // One member is initialized (the first, or the one designated); with
    // none, the union is zero.
    const clang::FieldDecl *chosen = nullptr;
    if (const auto *list = dyn_cast<clang::InitListExpr>(init))
      chosen = list->getInitializedFieldInUnion();
    else if (const auto *parens = dyn_cast<clang::CXXParenListInitExpr>(init))
      chosen = parens->getInitializedFieldInUnion();
    if (!chosen || inits.empty()) {
      std::optional<Layout> layout = layoutOf(type, init);
      if (layout)
        fillZero(dest, *layout, l);
      return layout.has_value();
    }
    std::optional<Address> at = fieldAddress(dest, chosen, init);
    return at && part(chosen->getType(), *at, chosen);
  }
  if (const auto *cxx = dyn_cast<clang::CXXRecordDecl>(record)) {
    for (const clang::CXXBaseSpecifier &base : cxx->bases()) {
      if (base.getType()->getAsCXXRecordDecl()->isEmpty()) {
        ++next;
        continue;
      }
      if (!part(base.getType(), basePart(dest, cxx, base.getType(), l)))
        return false;
    }
  }
  for (const clang::FieldDecl *field : record->fields()) {
    std::optional<Address> at = fieldAddress(dest, field, init);
    if (!at || !part(field->getType(), *at, field))
      return false;
  }
  return true;
}

bool FunctionLowering::initializeAggregate(const clang::Expr *init,
                                           Address dest) {
  init = strip(init);
  Location l = loc(init);
  clang::QualType type = init->getType().getCanonicalType();
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(init))
    return initializeAggregate(temporary->getSubExpr(), dest);
  if (const auto *bind = dyn_cast<clang::CXXBindTemporaryExpr>(init))
    return initializeAggregate(bind->getSubExpr(), dest);
  if (const auto *defaultArg = dyn_cast<clang::CXXDefaultArgExpr>(init))
    return initializeAggregate(defaultArg->getExpr(), dest);
  if (const auto *defaultInit = dyn_cast<clang::CXXDefaultInitExpr>(init))
    return initializeAggregate(defaultInit->getExpr(), dest);
  if (type->isAnyComplexType())
    return lowerComplexInto(init, dest);
  if (type->isVectorType())
    return lowerVectorInto(init, dest);
  // `return std::make_shared<T>(...)`: the model's object and block.
  if (const auto *call = dyn_cast<clang::CallExpr>(init);
      call && call->getDirectCallee() &&
      call->getDirectCallee()->isInStdNamespace() &&
      call->getDirectCallee()->getIdentifier() &&
      call->getDirectCallee()->getName() == "make_shared" &&
      !ModuleLowering::getSharedPointee(type).isNull())
    return initializeShared(init, type, dest);
  if (const auto *cast = dyn_cast<clang::CastExpr>(init)) {
    if (cast->getCastKind() == clang::CK_NoOp ||
        cast->getCastKind() == clang::CK_ConstructorConversion)
      return initializeAggregate(cast->getSubExpr(), dest);
  }
  if (const auto *arrayCopy = dyn_cast<clang::ArrayInitLoopExpr>(init)) {
    // An array copied element by element (a lambda's capture by copy, an
    // implicit copy constructor): a copy of the source array.
    const clang::Expr *source = arrayCopy->getCommonExpr()->getSourceExpr();
    std::optional<Address> from = source ? lowerLValue(source) : std::nullopt;
    std::optional<Layout> layout = layoutOf(type, init);
    if (!from || !layout)
      return false;
    if (!ModuleLowering::getVectorElementType(
             ast.getBaseElementType(type).getCanonicalType())
             .isNull()) {
      const auto *each = dyn_cast<clang::CXXConstructExpr>(
          arrayCopy->getSubExpr()->IgnoreImplicit());
      return copyVectorArray(
          dest, *from, type,
          each && each->getConstructor()->isMoveConstructor(), init);
    }
    return copyObject(dest, *from, *layout, init);
  }
  if (isa<clang::ImplicitValueInitExpr>(init)) {
    std::optional<Layout> layout = layoutOf(type, init);
    if (!layout)
      return false;
    if (!isEmptyClass(type))
      fillZero(dest, *layout, l);
    return true;
  }
  if (const auto *list = dyn_cast<clang::InitListExpr>(init))
    return initializeFromList(list, dest);
  // C++20's `T(a, b)` of an aggregate (std::make_unique<T>(a, b) of one).
  if (const auto *parens = dyn_cast<clang::CXXParenListInitExpr>(init))
    return initializeParts(init, parens->getInitExprs(),
                           parens->getArrayFiller(), dest);
  if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(init))
    return lowerConstruct(construct, dest);
  if (const auto *call = dyn_cast<clang::CallExpr>(init)) {
    std::optional<CallResult> result = lowerCall(call, dest);
    if (!result)
      return false;
    // A result made elsewhere than where it was asked for: copied there.
    if (!result->address || (result->address->memref == dest.memref &&
                             result->address->offset == dest.offset))
      return true;
    std::optional<Layout> layout = layoutOf(type, init);
    return layout && copyObject(dest, *result->address, *layout, init);
  }
  if (const auto *conditional = dyn_cast<clang::ConditionalOperator>(init))
    return emitConditional(
               conditional, {},
               [&](const clang::Expr *arm, SmallVectorImpl<Value> &) {
                 return initializeAggregate(arm, dest);
               }) != nullptr;
  if (init->isGLValue()) {
    std::optional<Address> source = lowerLValue(init);
    std::optional<Layout> layout = layoutOf(type, init);
    if (!source || !layout)
      return false;
    return copyObject(dest, *source, *layout, init);
  }
  return unsupportedInitialization(init);
}

bool FunctionLowering::unsupportedInitialization(const clang::Expr *init) {
  // (A lambda materialized for library code: a std::function's
  // constructor, std::visit.)
  if (isa<clang::LambdaExpr>(init->IgnoreImplicit()))
    return unsupported<bool>(
        init, "this lambda is given to library code (a std::function made "
              "inside the library, as a std::vector of them makes it, or "
              "std::visit), which would call it as compiled, without its "
              "derivative; call the lambda in the function, or keep named "
              "functions' pointers in the container");
  return unsupported<bool>(init, "this way of initializing a '" +
                                     init->getType().getAsString() +
                                     "' cannot be differentiated; assign "
                                     "its parts");
}

} // namespace cotangent::frontend
