//===- IndirectFields.cpp - Pointer, reference and vector fields ----------===//
//
// A struct's pointer, reference and std::vector fields designate memory
// elsewhere (a Ceres functor's `const double* x_`, a model's weights held
// by pointer). In the IR an object is its data slots; the slots of such a
// field are never read or written as numbers. Instead the lowering keeps,
// beside each object it knows, the memory each of its indirect fields
// designates, as it does for pointer variables: the memref (fixed at the
// field's first assignment) and a slot for the offset. The object is known
// by its memref and its offset there, a constant:
//  * a parameter of the function differentiated gets one extra argument
//    per indirect field, which the entry points view at the field's offset
//    in the caller's object (and in the derivative object, whose fields
//    designate the shadows, as the caller sets them);
//  * calls taking or returning such objects are inlined, so the callee
//    sees the caller's objects;
//  * a local object's fields are bound where they are initialized or
//    assigned, and copies of an object copy what its fields designate.
// Pointers in memory the function did not create (an array of pointers the
// caller passes, a pointer field of an object reached through one) are
// read as the addresses they are (ct.load_address, docs/Memory.md).
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "NodeResults.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace cotangent::frontend {

clang::QualType ModuleLowering::getParameterObject(clang::QualType type) {
  type = type.getCanonicalType();
  // (A function pointer is an address, not an object: FunctionPointers.cpp.)
  if (type->isFunctionPointerType())
    return clang::QualType();
  if (type->isReferenceType() || type->isPointerType())
    return type->getPointeeType();
  return isAggregate(type) ? type : clang::QualType();
}

bool ModuleLowering::appendIndirectTypes(clang::QualType type,
                                         clang::SourceRange range,
                                         const Twine &what,
                                         SmallVectorImpl<Type> &types) {
  clang::QualType object = getParameterObject(type);
  // Pointers in the caller's memory are read from it (loadAddress).
  if (!object.isNull() && object->isPointerType())
    return true;
  if (object.isNull() || object->isVoidType() ||
      !getVectorElementType(object).isNull() ||
      !getIteratorElementType(object).isNull())
    return true;
  std::optional<Layout> layout = getLayout(object, range, what);
  if (!layout)
    return false;
  for (const Layout::IndirectField &field : getArgumentFields(*layout)) {
    clang::QualType fieldType = field.type.getCanonicalType();
    Type memory;
    if (!getVectorElementType(fieldType).isNull()) {
      memory = getVectorType(fieldType, range, what);
    } else if (std::optional<Layout> pointee =
                   getLayout(fieldType->getPointeeType(), range, what)) {
      memory = getPointerType(pointee->scalar);
    }
    if (!memory)
      return false;
    types.push_back(memory);
  }
  return true;
}

SmallVector<Layout::IndirectField>
ModuleLowering::getArgumentFields(const Layout &layout) {
  SmallVector<Layout::IndirectField> fields;
  for (const Layout::IndirectField &field : layout.indirect) {
    clang::QualType type = field.type.getCanonicalType();
    if (field.inMemory || keepsAddress(field.decl))
      continue;
    if (getVectorElementType(type).isNull()) {
      std::optional<Layout> pointee = tryGetLayout(type->getPointeeType());
      if (pointee && !pointee->indirect.empty())
        continue;
    }
    fields.push_back(field);
  }
  return fields;
}

std::optional<int64_t> staticOffset(Value offset) {
  return staticOffsetIn(offset, {});
}

std::optional<int64_t> staticOffsetIn(Value offset,
                                      ArrayRef<std::pair<Value, bool>> choices,
                                      llvm::function_ref<Value(Value)> loaded) {
  if (std::optional<int64_t> constant = getConstantIntValue(offset))
    return constant;
  Operation *op = offset.getDefiningOp();
  if (!op)
    return std::nullopt;
  auto operand = [&](Value value) {
    return staticOffsetIn(value, choices, loaded);
  };
  if (auto choice = dyn_cast<arith::SelectOp>(op))
    for (auto [condition, holds] : choices)
      if (choice.getCondition() == condition)
        return operand(holds ? choice.getTrueValue() : choice.getFalseValue());
  if (isa<memref::LoadOp>(op) && loaded) {
    Value value = loaded(offset);
    return value ? operand(value) : std::nullopt;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op))
    return operand(op->getOperand(0));
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<int64_t> lhs = operand(op->getOperand(0));
  std::optional<int64_t> rhs = operand(op->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  if (isa<arith::AddIOp>(op))
    return *lhs + *rhs;
  if (isa<arith::SubIOp>(op))
    return *lhs - *rhs;
  return *lhs * *rhs;
}

bool FunctionLowering::holdsIndirectFields(clang::QualType type) {
  clang::QualType object = ModuleLowering::getParameterObject(type);
  if (object.isNull() || isVector(object) || isIterator(object) ||
      object->isPointerType() || object->isDependentType() ||
      object->isIncompleteType() || object->isVoidType() ||
      object->isFunctionType())
    return false;
  std::optional<Layout> layout = module.tryGetLayout(object);
  return layout && (!layout->indirect.empty() || !layout->closures.empty());
}

bool FunctionLowering::takesIndirectFields(const clang::FunctionDecl *callee) {
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
      method && method->isInstance() &&
      holdsIndirectFields(ast.getCanonicalTagType(method->getParent())))
    return true;
  if (holdsIndirectFields(callee->getReturnType()))
    return true;
  return llvm::any_of(callee->parameters(), [&](const clang::ParmVarDecl *p) {
    return holdsIndirectFields(p->getType());
  });
}

bool FunctionLowering::takesArgumentFields(const clang::FunctionDecl *callee) {
  auto givesMemory = [&](clang::QualType type) {
    clang::QualType object = ModuleLowering::getParameterObject(type);
    if (object.isNull() || !holdsIndirectFields(type))
      return false;
    std::optional<Layout> layout = module.tryGetLayout(object);
    return layout && !module.getArgumentFields(*layout).empty();
  };
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
      method && method->isInstance() &&
      givesMemory(ast.getCanonicalTagType(method->getParent())))
    return true;
  // (Linked nodes keep the addresses in their fields: NodeResults.h.)
  return (holdsIndirectFields(callee->getReturnType()) &&
          !returnsLinkedNode(callee)) ||
         llvm::any_of(callee->parameters(), [&](const clang::ParmVarDecl *p) {
           return givesMemory(p->getType());
         });
}

bool isEmptyClass(clang::QualType type) {
  type = type->isPointerType() || type->isReferenceType()
             ? type->getPointeeType()
             : type;
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  return record && record->hasDefinition() && record->isEmpty();
}

bool takesEmptyClassObjects(const clang::FunctionDecl *callee) {
  // An empty base designates the object it is part of (CRTP's `derived()`
  // casts it back), whose memory only the caller knows: its body, in place.
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
      method && method->isInstance() &&
      isEmptyClass(method->getFunctionObjectParameterType()))
    return true;
  return llvm::any_of(callee->parameters(), [](const clang::ParmVarDecl *p) {
    clang::QualType type = p->getType();
    return (type->isPointerType() || type->isReferenceType()) &&
           isEmptyClass(type);
  });
}

Value memoryRoot(Value memref) {
  while (Operation *op = memref.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(op))
      memref = view.getViewSource();
    else if (auto cast = dyn_cast<memref::CastOp>(op))
      memref = cast.getSource();
    else
      break;
  }
  return memref;
}

bool isOwnMemory(Value root) {
  return root.getDefiningOp<memref::AllocaOp>() ||
         root.getDefiningOp<memref::AllocOp>();
}

/// The integer as wide as the slots of `memref`, and the slot type.
static std::pair<IntegerType, Type> slotTypes(Value memref) {
  Type slot = cast<MemRefType>(memref.getType()).getElementType();
  return {IntegerType::get(slot.getContext(), slot.getIntOrFloatBitWidth()),
          slot};
}

/// How pointers into different arrays kept in an array become addresses
/// (AddressHolders.cpp), for the errors of the stores it does not see.
static std::string differentArraysWayOut() {
  return "where the function's own code does not name the array (a pointer "
         "to its elements, a helper); store such pointers by the array's "
         "name (`a[i] = p`, `a[i].f = p`, its initializer, `push_back`, a "
         "constructor's member initializers), and their addresses are kept";
}

std::optional<Address>
FunctionLowering::followIndirectSlot(Address slot, const clang::FieldDecl *decl,
                                     const clang::Stmt *where) {
  using Result = std::optional<Address>;
  Location l = loc(where);
  if (ModuleLowering::keepsAddress(decl))
    return loadAddress(slot, ModuleLowering::getAddressType(decl), where);
  if (decl && keepsAddressIn(memoryRoot(slot.memref), decl))
    return loadAddress(slot, decl->getType(), where);
  if (ModuleLowering::keepsVectorInMemory(decl))
    return viewVectorInMemory(slot, decl->getType(), where);
  std::optional<int64_t> offset = staticOffset(slot.offset);
  if (offset) {
    auto known = indirectFields.find({slot.memref, *offset});
    if (known != indirectFields.end() && known->second.sizeSlot.memref)
      return firstElements(known->second.memref, known->second.sizeSlot,
                           known->second.elementSize, l);
    if (known != indirectFields.end() && known->second.fixedOffset)
      return Address{known->second.memref,
                     constantIndex(*known->second.fixedOffset, l)};
    if (known != indirectFields.end())
      return Address{known->second.memref, load(known->second.offsetSlot, l)};
  }
  Value root = memoryRoot(slot.memref);
  std::string name = decl ? "the field '" + decl->getName().str() + "'"
                          : std::string("this pointer");
  if (std::optional<Address> chosen = followChosenSlot(slot, decl, where))
    return chosen;
  // An object chosen at run time among objects the function names (`c ?
  // &a : &b`) where the choice is not seen: its memref-model fields
  // designate memory known beside each.
  if (root.getDefiningOp<arith::SelectOp>())
    return unsupported<Result>(
        where, name +
                   " of an object chosen at run time among objects the "
                   "function names cannot be followed: such fields "
                   "designate memory known beside each object; " +
                   chooseByIndexWayOut());
  // A pointer or reference in memory the caller passed holds the address
  // the caller stored there (docs/Memory.md).
  if (!isOwnMemory(root) && decl &&
      (decl->getType()->isPointerType() || decl->getType()->isReferenceType()))
    return loadAddress(slot, decl->getType(), where);
  if (clang::QualType iterator = module.getIteratorPointerType(
          decl ? decl->getType() : clang::QualType());
      !isOwnMemory(root) && !iterator.isNull())
    return loadAddress(slot, iterator, where);
  if (!isOwnMemory(root))
    return unsupported<Result>(
        where, name + " of an object chosen at run time (an element of an "
                      "array, or through a pointer that moves) in memory "
                      "the function did not create cannot be followed; "
                      "differentiable code follows pointer, reference and "
                      "vector fields of objects it can name or creates");
  auto memory = fieldMemory.find({root, decl});
  // A pointer reached by its place alone (a reference a call returns to a
  // pointer field): the memory of the object's pointer fields, if one.
  if (memory == fieldMemory.end() && !decl)
    for (auto known = fieldMemory.begin(); known != fieldMemory.end(); ++known)
      if (known->first.first == root) {
        bool same = memory == fieldMemory.end() ||
                    (memory->second && memory->second == known->second);
        memory = same ? known : fieldMemory.end();
        if (!same)
          break;
      }
  if (memory == fieldMemory.end())
    return unsupported<Result>(where, name + " is used before it is set");
  if (!memory->second)
    return unsupported<Result>(
        where, name +
                   " of an object chosen at run time cannot be followed: "
                   "in different objects it points into different "
                   "arrays, stored " +
                   differentArraysWayOut());
  auto [wide, slotType] = slotTypes(slot.memref);
  Value bits = load(slot, l);
  if (slotType != wide)
    bits = arith::BitcastOp::create(b, l, wide, bits);
  return Address{memory->second,
                 arith::IndexCastOp::create(b, l, b.getIndexType(), bits)};
}

std::optional<Address>
FunctionLowering::followChosenSlot(Address slot, const clang::FieldDecl *decl,
                                   const clang::Stmt *where) {
  return followChosenSlot(slot.memref, slot.offset, {}, decl, where);
}

std::optional<Address> FunctionLowering::followChosenSlot(
    Value memref, Value offset, ArrayRef<std::pair<Value, bool>> choices,
    const clang::FieldDecl *decl, const clang::Stmt *where) {
  // An object chosen by conditionals among objects the function names
  // (`(c ? a : b).f`, `c ? &a : &b` bound to a reference or to a pointer
  // variable that is only read, nested): the field of each, chosen by the
  // same conditions, as the place itself was.
  while (auto cast = memref.getDefiningOp<memref::CastOp>())
    memref = cast.getSource();
  auto choice = memref.getDefiningOp<arith::SelectOp>();
  if (!choice) {
    if (choices.empty())
      return std::nullopt;
    std::optional<int64_t> known =
        staticOffsetIn(offset, choices, [&](Value value) {
          auto read = value.getDefiningOp<memref::LoadOp>();
          return read ? unchangedOffsets.lookup(read.getMemRef()) : Value();
        });
    Address armSlot{memref, constantIndex(known.value_or(0), loc(where))};
    // Only fields known beside each object (a kept address is read from
    // the chosen object itself).
    if (!known || !indirectFieldAt(armSlot))
      return std::nullopt;
    return followIndirectSlot(armSlot, decl, where);
  }
  if (!isa<MemRefType>(choice.getType()))
    return std::nullopt;
  Value condition = choice.getCondition();
  // A choice against `nullptr` (`k ? &a : nullptr`): a field is read only
  // through the object (through null, C++ reads nothing).
  auto isNull = [&](Value arm) {
    while (!nullPointers.contains(arm))
      if (auto cast = arm.getDefiningOp<memref::CastOp>())
        arm = cast.getSource();
      else
        return false;
    return true;
  };
  for (bool holds : {true, false})
    if (isNull(holds ? choice.getFalseValue() : choice.getTrueValue())) {
      SmallVector<std::pair<Value, bool>> armChoices(choices);
      armChoices.push_back({condition, holds});
      return followChosenSlot(holds ? choice.getTrueValue()
                                    : choice.getFalseValue(),
                              offset, armChoices, decl, where);
    }
  std::optional<Address> arms[2];
  for (bool holds : {true, false}) {
    SmallVector<std::pair<Value, bool>> armChoices(choices);
    armChoices.push_back({condition, holds});
    arms[holds ? 0 : 1] =
        followChosenSlot(holds ? choice.getTrueValue() : choice.getFalseValue(),
                         offset, armChoices, decl, where);
    if (!arms[holds ? 0 : 1])
      return std::nullopt;
  }
  return chooseAddress(condition, *arms[0], *arms[1], loc(where));
}

FunctionLowering::PointerVariable *
FunctionLowering::indirectFieldAt(Address slot) {
  std::optional<int64_t> offset = staticOffset(slot.offset);
  if (!offset)
    return nullptr;
  auto known = indirectFields.find({slot.memref, *offset});
  return known == indirectFields.end() ? nullptr : &known->second;
}

std::optional<std::pair<Value, int64_t>>
FunctionLowering::vectorFieldOf(const clang::Expr *object) {
  const auto *member = dyn_cast<clang::MemberExpr>(strip(object));
  const auto *field =
      member ? dyn_cast<clang::FieldDecl>(member->getMemberDecl()) : nullptr;
  if (!field || !isVector(field->getType()))
    return std::nullopt;
  std::optional<Address> slot = fieldSlot(member);
  if (!slot || !indirectFieldAt(*slot))
    return std::nullopt;
  return std::make_pair(slot->memref, *staticOffset(slot->offset));
}

std::optional<Address>
FunctionLowering::fieldSlot(const clang::MemberExpr *expr) {
  std::optional<Address> base = expr->isArrow() ? lowerPointer(expr->getBase())
                                                : lowerLValue(expr->getBase());
  if (!base)
    return std::nullopt;
  const auto *field = cast<clang::FieldDecl>(expr->getMemberDecl());
  return offsetBy(*base, module.getFieldOffset(field), loc(expr));
}

std::optional<Address>
FunctionLowering::lowerIndirectField(const clang::MemberExpr *expr) {
  std::optional<Address> slot = fieldSlot(expr);
  if (!slot)
    return std::nullopt;
  return followIndirectSlot(
      *slot, cast<clang::FieldDecl>(expr->getMemberDecl()), expr);
}

std::optional<Address>
FunctionLowering::loadStoredPointer(const clang::Expr *element) {
  // `it.base()` of an iterator over contiguous memory is a reference to the
  // pointer the iterator is: that pointer, not a place holding one.
  if (const auto *member =
          dyn_cast<clang::CXXMemberCallExpr>(element->IgnoreParens());
      member && member->getMethodDecl() &&
      member->getMethodDecl()->getIdentifier() &&
      member->getMethodDecl()->getName() == "base" &&
      isIterator(member->getImplicitObjectArgument()->getType()))
    return lowerPointer(member->getImplicitObjectArgument());
  std::optional<Address> slot = lowerLValue(element);
  if (!slot)
    return std::nullopt;
  return followStoredPointer(*slot, element->getType(), element);
}

std::optional<Address>
FunctionLowering::followStoredPointer(Address slot, clang::QualType pointer,
                                      const clang::Stmt *where) {
  Value root = memoryRoot(slot.memref);
  if (holdsAddresses(root))
    return loadAddress(slot, pointer, where);
  // Pointers to objects whose pointer fields designate memory known beside
  // them do not keep addresses (AddressHolders.cpp): one per element.
  clang::QualType pointee = pointer->getPointeeType();
  auto memory = fieldMemory.find({root, nullptr});
  if (!pointee.isNull() && ModuleLowering::holdsUnkeptPointers(pointee) &&
      memory != fieldMemory.end() && !memory->second && !indirectFieldAt(slot))
    return unsupported<std::optional<Address>>(
        where, "pointers to objects of '" +
                   pointee.getUnqualifiedType().getAsString() +
                   "' chosen at run time cannot be followed, since the "
                   "pointer fields of such objects designate memory known "
                   "beside each; " +
                   chooseByIndexWayOut());
  return followIndirectSlot(slot, nullptr, where);
}

std::optional<Address> FunctionLowering::loadAddress(Address slot,
                                                     clang::QualType pointer,
                                                     const clang::Stmt *where) {
  clang::QualType pointee = pointer.getCanonicalType()->getPointeeType();
  Location l = loc(where);
  // A `void *` read back is bytes until a cast types it (typedMemory).
  if (pointee->isVoidType())
    return Address{ct::LoadAddressOp::create(b, l,
                                             getPointerType(b.getI8Type()),
                                             slot.memref, slot.offset),
                   constantIndex(0, l)};
  // (The rows of a vector of vectors are vectors kept in memory.)
  std::optional<Layout> layout = module.getLayoutInMemory(
      pointee, where->getSourceRange(), "this expression");
  if (!layout)
    return std::nullopt;
  Value view = ct::LoadAddressOp::create(b, l, getPointerType(layout->scalar),
                                         slot.memref, slot.offset);
  return Address{view, constantIndex(0, l)};
}

bool FunctionLowering::isFindableTable(Address target, clang::QualType pointer,
                                       const clang::Stmt *where) {
  // The pointers of a table kept by its address are read back through it:
  // they must be addresses too, not offsets known beside the table.
  if (pointer.isNull() || !pointer->isPointerType() ||
      !pointer->getPointeeType()->isPointerType() ||
      nullPointers.contains(target.memref) ||
      holdsAddresses(memoryRoot(target.memref)))
    return true;
  return unsupported<bool>(
      where, "the address of this table of pointers is kept in memory, "
             "where the pointers it holds are read back as addresses, but "
             "its pointers are not kept as addresses: differentiable code "
             "keeps them so for tables made by 'new' or C's allocation "
             "functions, and for local arrays and vectors of pointers "
             "whose address the function's own code stores by name "
             "(`t.rows = rows`, `Table t{n, rows.data()}`); make the table "
             "with 'new'");
}

bool FunctionLowering::bindIndirectField(Address field, Address target,
                                         const clang::Stmt *where,
                                         const clang::FieldDecl *decl) {
  Location l = loc(where);
  if (target.packedType)
    target = *unpacked(target, where);
  target.memref = stableMemory(target.memref, l);
  // A pointer stored where addresses are kept (the caller's `T**`, a
  // pointer variable's slot given by reference, a field that keeps one):
  // its address, which must find a table's pointers as addresses too.
  bool keptHere = decl ? keepsAddressIn(memoryRoot(field.memref), decl) ||
                             ModuleLowering::keepsAddress(decl)
                       : holdsAddresses(memoryRoot(field.memref));
  clang::QualType stored = decl ? decl->getType()
                           : isa<clang::Expr>(where)
                               ? cast<clang::Expr>(where)->getType()
                               : clang::QualType();
  if (keptHere && !isFindableTable(target, stored, where))
    return false;
  if ((!decl && keptHere) ||
      (decl && keepsAddressIn(memoryRoot(field.memref), decl))) {
    keepAddress(target, field, l);
    return true;
  }
  if (ModuleLowering::keepsAddress(decl)) {
    clang::QualType pointee =
        ModuleLowering::getAddressType(decl)->getPointeeType();
    if (!nullPointers.contains(target.memref) &&
        ModuleLowering::holdsUnkeptPointers(pointee)) {
      unsupported(where, "the field '" + decl->getName() +
                             "' keeps the address of a '" +
                             pointee.getUnqualifiedType().getAsString() +
                             "', whose pointer fields designate memory "
                             "known beside the object, which an address "
                             "read back cannot find; differentiable code "
                             "does not support this yet");
      return false;
    }
    keepAddress(target, field, l);
    return true;
  }
  std::optional<int64_t> offset = staticOffset(field.offset);
  Value root = memoryRoot(field.memref);
  if (isOwnMemory(root)) {
    // The offset in the object's own slot, for uses that choose the object
    // at run time; the memory, for all objects there.
    auto [memory, fresh] = fieldMemory.try_emplace({root, decl}, target.memref);
    if (!fresh && memory->second != target.memref) {
      if (!offset) {
        unsupported(where, "this pointer into another array is stored "
                           "into an element of an array or vector chosen "
                           "at run time " +
                               differentArraysWayOut());
        return false;
      }
      memory->second = nullptr; // named objects only, from now on
    }
    auto [wide, slotType] = slotTypes(field.memref);
    Value bits = arith::IndexCastOp::create(b, l, wide, target.offset);
    if (slotType != wide)
      bits = arith::BitcastOp::create(b, l, slotType, bits);
    store(bits, field, l);
  }
  if (!offset) {
    if (isOwnMemory(root))
      return true;
    unsupported(where, "a pointer or reference field of an object chosen "
                       "at run time (an element of an array, or through a "
                       "pointer that moves) cannot be set in memory the "
                       "function did not create; set the fields of an "
                       "object the function names");
    return false;
  }
  auto [known, fresh] =
      indirectFields.try_emplace({field.memref, *offset}, PointerVariable{});
  // A field first set to null (a default constructor's) may be set once to
  // any memory where it was set (an object constructed again in place).
  bool wasNull = !fresh && nullPointers.contains(known->second.memref) &&
                 known->second.depth == controlDepth;
  if (fresh || wasNull) {
    known->second = {target.memref, newIndexSlot(target.offset, l)};
    known->second.depth = controlDepth;
    if (decl && decl->getType()->isReferenceType())
      known->second.fixedOffset = staticOffset(target.offset);
    return true;
  }
  known->second.fixedOffset.reset();
  // (A variable null until it moved into the field's array: that array.)
  if (known->second.memref != target.memref) {
    if (memoryApartFromNull(known->second.memref) !=
        memoryApartFromNull(target.memref))
      return unsupported<bool>(where, "a pointer field can only move within "
                                      "the array it was first set to; use "
                                      "another object");
    readsApartFromNull.insert(target.memref.getDefiningOp());
  }
  store(target.offset, known->second.offsetSlot, l);
  return true;
}

std::optional<Address>
FunctionLowering::copyOfVector(Address vector, clang::QualType type,
                               const clang::Stmt *where) {
  Location l = loc(where);
  std::optional<Address> fresh = allocateVector(
      type, vectorSize(vector, type, l), where->getSourceRange());
  std::optional<Layout> element = layoutOf(
      ModuleLowering::getVectorElementType(type.getCanonicalType()), where);
  if (!fresh || !element)
    return std::nullopt;
  copyElements(*fresh, vector, scalarsFrom(vector, l), *element, l);
  return fresh;
}

bool FunctionLowering::copyObject(Address dest, Address source,
                                  const Layout &layout,
                                  const clang::Stmt *where) {
  Location l = loc(where);
  if (!copyClosures(dest, source, layout, where))
    return false;
  if (layout.indirect.empty()) {
    copySlots(dest, source, layout, 0, layout.size, l);
    return true;
  }
  // The data slots, between the indirect fields.
  SmallVector<bool> isData = layout.dataSlots();
  for (int64_t start = 0; start < layout.size;) {
    if (!isData[start]) {
      ++start;
      continue;
    }
    int64_t end = start;
    while (end < layout.size && isData[end])
      ++end;
    copySlots(dest, source, layout, start, end, l);
    start = end;
  }
  // What the fields designate.
  for (const Layout::IndirectField &field : layout.indirect) {
    Address from = offsetBy(source, field.slot, l);
    if (field.inMemory) {
      // A vector kept in memory moves with its object (relocation; copies
      // of such objects run their copy constructors, VectorObjects.cpp).
      std::optional<Address> target = loadAddress(from, field.type, where);
      if (!target)
        return false;
      Address to = offsetBy(dest, field.slot, l);
      ct::StoreAddressOp::create(b, l, materialize(*target, l), to.memref,
                                 to.offset);
      continue;
    }
    std::optional<int64_t> offset = staticOffset(from.offset);
    if (!ModuleLowering::keepsAddress(field.decl) && offset &&
        !indirectFields.count({from.memref, *offset}) &&
        !fieldMemory.count({memoryRoot(from.memref), field.decl}))
      continue; // never set: nothing to copy
    std::optional<Address> target = followIndirectSlot(from, field.decl, where);
    if (!target)
      return false;
    Address to = offsetBy(dest, field.slot, l);
    if (isVector(field.type)) {
      // A vector field is copied, into memory of the copy's scope.
      target = copyOfVector(*target, field.type, where);
      if (!target)
        return false;
    }
    if (!bindIndirectField(to, *target, where, field.decl))
      return false;
    if (PointerVariable *binding = indirectFieldAt(to);
        binding && isVector(field.type))
      binding->depth = controlDepth;
  }
  return true;
}

bool FunctionLowering::callsItselfWithFieldMemory(
    const clang::FunctionDecl *callee, std::optional<Address> object,
    bool passesCallersPlaces) {
  const clang::FunctionDecl *body = nullptr;
  if (!callsItself(callee) || passesCallersPlaces || object ||
      !callee->hasBody(body))
    return false;
  clang::QualType result = callee->getReturnType().getCanonicalType();
  if (result->isPointerType() || result->isReferenceType() ||
      isIterator(result) || holdsIndirectFields(result))
    return false;
  bool passesFields = false;
  for (const clang::ParmVarDecl *param : callee->parameters()) {
    clang::QualType type = param->getType().getCanonicalType();
    if (!holdsIndirectFields(type))
      continue;
    clang::QualType objectType = ModuleLowering::getParameterObject(type);
    if (objectType.isNull() || isVector(objectType) || isIterator(objectType) ||
        objectType->isPointerType())
      return false;
    bool byValue = !type->isReferenceType() && !type->isPointerType();
    if (!byValue && !objectType.isConstQualified())
      return false;
    // Every field's memory beside the object (none keeps its address).
    std::optional<Layout> layout = module.tryGetLayout(objectType);
    if (!layout ||
        module.getArgumentFields(*layout).size() != layout->indirect.size())
      return false;
    passesFields = true;
  }
  return passesFields;
}

bool FunctionLowering::appendFieldOperands(
    const clang::Expr *expr, const clang::FunctionDecl *callee,
    ArrayRef<std::optional<Address>> places, func::FuncOp target,
    SmallVectorImpl<Value> &operands) {
  Location l = loc(expr);
  ArrayRef<Type> inputs =
      target.getFunctionType().getInputs().drop_front(operands.size());
  for (auto [place, param] : llvm::zip_equal(places, callee->parameters())) {
    clang::QualType object =
        ModuleLowering::getParameterObject(param->getType());
    if (!place || object.isNull() || !holdsIndirectFields(param->getType()))
      continue;
    std::optional<Layout> layout =
        module.getLayout(object, expr->getSourceRange(), "this argument");
    if (!layout)
      return false;
    for (const Layout::IndirectField &field :
         module.getArgumentFields(*layout)) {
      std::optional<Address> memory =
          followIndirectSlot(offsetBy(*place, field.slot, l), field.decl, expr);
      if (!memory || inputs.empty())
        return false;
      Value operand = materialize(*memory, l);
      if (operand.getType() != inputs.front())
        operand = memref::CastOp::create(b, l, inputs.front(), operand);
      operands.push_back(operand);
      inputs = inputs.drop_front();
    }
  }
  return true;
}

void FunctionLowering::bindIndirectArguments(Address object,
                                             clang::QualType type,
                                             ArrayRef<BlockArgument> &args) {
  clang::QualType objectType = ModuleLowering::getParameterObject(type);
  // (A pointer in the caller's memory is read from it: no arguments of its
  // own, as appendIndirectTypes declares.)
  if (objectType.isNull() || isVector(objectType) || isIterator(objectType) ||
      objectType->isPointerType())
    return;
  std::optional<Layout> layout =
      module.getLayout(objectType, decl->getSourceRange(), "a parameter");
  if (!layout)
    return;
  Location l = function.getLoc();
  for (const Layout::IndirectField &field : module.getArgumentFields(*layout)) {
    Address slot = offsetBy(object, field.slot, l);
    indirectFields[{slot.memref, *staticOffset(slot.offset)}] = {
        args.front(), newIndexSlot(constantIndex(0, l), l)};
    args = args.drop_front();
  }
}

} // namespace cotangent::frontend
