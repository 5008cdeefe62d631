//===- VectorObjects.cpp - std::vector kept in memory ---------------------===//
//
// A std::vector whose elements own memory (a class with its own destructor,
// or a class holding such objects), or are a library class the memref model
// does not lay out (std::string), lives in memory as C++ lays it out: three
// addresses, of the first element, of the end and of the end of the
// capacity (ModuleLowering::isVectorObject, docs/Memory.md). A pointer or a
// reference to it is a pointer to those slots, so it passes to helpers,
// sits in structs and is read from the caller's objects like any object.
// Its member functions are the library's, written on the three addresses:
// growth allocates twice the capacity, moves the elements (each object's
// bytes, as libraries relocate), frees the old memory; elements are
// constructed, copied and destroyed by their own constructors and
// destructors, lowered from the class's code.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "SpecialMembers.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

std::optional<FunctionLowering::VectorObject>
FunctionLowering::vectorObjectAt(Address holder, clang::QualType type,
                                 const clang::Stmt *where) {
  type = type.getNonReferenceType().getCanonicalType();
  std::optional<std::pair<int64_t, int64_t>> offsets =
      module.getVectorPointerOffsets(type, where->getSourceRange());
  if (!offsets)
    return std::nullopt;
  // The holder's slots may be narrower than an address (a vector in a
  // struct of 'float's): each address then spans several of them.
  int64_t slotBytes =
      cast<MemRefType>(holder.memref.getType()).getElementTypeBitWidth() / 8;
  if (slotBytes == 0 || 8 % slotBytes != 0)
    return unsupported<std::optional<VectorObject>>(
        where, "a std::vector of '" +
                   ModuleLowering::getVectorElementType(type).getAsString() +
                   "' inside this struct is not supported; keep the vector "
                   "in a variable");
  VectorObject vector;
  vector.holder = holder;
  vector.element = ModuleLowering::getVectorElementType(type);
  vector.first = offsets->first / slotBytes;
  vector.end = offsets->second / slotBytes;
  vector.capacity = (24 - offsets->first - offsets->second) / slotBytes;
  vector.elementBytes = ast.getTypeSize(vector.element) / 8;
  vector.layout = vector.holdsRows()
                      ? module.getVectorInMemoryLayout(vector.element,
                                                       where->getSourceRange())
                      : module.tryGetLayout(vector.element);
  Type scalar = vector.layout ? vector.layout->scalar : b.getI8Type();
  vector.elementSlots =
      vector.layout ? vector.layout->size : vector.elementBytes;
  vector.view = getPointerType(scalar);
  return vector;
}

bool FunctionLowering::hasElementLayout(const VectorObject &vector,
                                        const clang::Stmt *where,
                                        llvm::StringRef use) {
  if (vector.layout)
    return true;
  // A struct of the user's: why it has no layout (once per type).
  const auto *record = vector.element->getAsCXXRecordDecl();
  if (record && !ast.getSourceManager().isInSystemHeader(record->getLocation()))
    return module
        .getLayout(vector.element, where->getSourceRange(),
                   "an element of this vector")
        .has_value();
  module.error(where->getSourceRange(),
               "elements of a std::vector of '" + vector.element.getAsString() +
                   "' cannot be " + use +
                   " in differentiable code; only its size can be read");
  return false;
}

Value FunctionLowering::vectorObjectElements(const VectorObject &vector,
                                             Location l) {
  Address slot = offsetBy(vector.holder, vector.first, l);
  return ct::LoadAddressOp::create(b, l, vector.view, slot.memref, slot.offset);
}

Value FunctionLowering::vectorObjectCount(const VectorObject &vector,
                                          int64_t slot, Location l) {
  // The distance between two addresses, as the integers they are (read as
  // bytes, which have no derivative).
  auto bits = [&](int64_t which) -> Value {
    Address at = offsetBy(vector.holder, which, l);
    Value view = ct::LoadAddressOp::create(b, l, getPointerType(b.getI8Type()),
                                           at.memref, at.offset);
    return memref::ExtractAlignedPointerAsIndexOp::create(b, l, view);
  };
  Value bytes = arith::SubIOp::create(b, l, bits(slot), bits(vector.first));
  return arith::DivUIOp::create(b, l, bytes,
                                constantIndex(vector.elementBytes, l));
}

Address FunctionLowering::vectorObjectElement(const VectorObject &vector,
                                              Value elements, Value i,
                                              Location l) {
  return Address{elements, arith::MulIOp::create(
                               b, l, i, constantIndex(vector.elementSlots, l))};
}

void FunctionLowering::setVectorObjectSlot(const VectorObject &vector,
                                           int64_t slot, Value elements,
                                           Value count, Location l) {
  Address at = offsetBy(vector.holder, slot, l);
  Value address =
      materialize(vectorObjectElement(vector, elements, count, l), l);
  ct::StoreAddressOp::create(b, l, address, at.memref, at.offset);
}

void FunctionLowering::emitIf(Location l, Value condition,
                              function_ref<void()> then) {
  Block *current = b.getInsertionBlock();
  Block *thenBlock = newBlock();
  Block *after = newBlock();
  enter(current);
  cf::CondBranchOp::create(b, l, condition, thenBlock, after);
  enter(thenBlock);
  ++controlDepth;
  then();
  --controlDepth;
  branchTo(l, after);
  enter(after);
}

void FunctionLowering::reserveVectorObject(const VectorObject &vector,
                                           Value count,
                                           const clang::Stmt *where) {
  // (No element needs no room: `clear`, `resize(0)`.)
  if (getConstantIntValue(count) == 0)
    return;
  Location l = loc(where);
  Value capacity = vectorObjectCount(vector, vector.capacity, l);
  Value grows =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, count, capacity);
  emitIf(l, grows, [&] {
    Value size = vectorObjectCount(vector, vector.end, l);
    Value doubled = arith::MulIOp::create(b, l, capacity, constantIndex(2, l));
    Value fresh = arith::MaxUIOp::create(b, l, doubled, count);
    Value scalars = arith::MulIOp::create(
        b, l, fresh, constantIndex(vector.elementSlots, l));
    Value memory = memref::AllocOp::create(
        b, l,
        MemRefType::get({ShapedType::kDynamic}, vector.view.getElementType()),
        ValueRange{scalars});
    if (ct::isCallerMemory(vector.holder.memref) &&
        !resizedVectorArguments.contains(vector.holder.memref))
      memory.getDefiningOp()->setAttr(ct::kGrowsCallerMemoryAttr,
                                      b.getUnitAttr());
    Value moved = memref::CastOp::create(b, l, vector.view, memory);
    Value old = vectorObjectElements(vector, l);
    // Each object moves (relocateElement: its bytes and addresses, or its
    // move constructor then its destructor); then the old memory is freed.
    emitCountedLoop(l, size, [&](Value i) {
      relocateElement(vector, vectorObjectElement(vector, moved, i, l),
                      vectorObjectElement(vector, old, i, l), where);
    });
    memref::DeallocOp::create(b, l, old);
    setVectorObjectSlot(vector, vector.first, moved, constantIndex(0, l), l);
    setVectorObjectSlot(vector, vector.end, moved, size, l);
    setVectorObjectSlot(vector, vector.capacity, moved, fresh, l);
  });
}

bool ModuleLowering::needsDestruction(clang::QualType type) {
  type = type.getCanonicalType();
  // (An array's vectors are kept in memory, as rows are.)
  if (const auto *array = dyn_cast<clang::ConstantArrayType>(type.getTypePtr()))
    return elementNeedsDestruction(array->getElementType());
  if (ModuleLowering::isVectorObject(type) ||
      !ModuleLowering::getUniquePointee(type).isNull() ||
      !ModuleLowering::getSharedPointee(type).isNull())
    return true;
  const auto *record = type->getAsCXXRecordDecl();
  return record && ModuleLowering::getVectorElementType(type).isNull() &&
         (ModuleLowering::hasOwnDestructor(record) ||
          ModuleLowering::holdsOwnedMemory(record) ||
          (ModuleLowering::isKeptAsCompiled(record) &&
           !record->hasTrivialDestructor()));
}

bool ModuleLowering::movesByConstructor(clang::QualType type) {
  const auto *record =
      type.getCanonicalType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!record || !(record = record->getDefinition()) ||
      record->isTriviallyCopyable() ||
      !ModuleLowering::getVectorElementType(type.getCanonicalType()).isNull() ||
      isVectorObject(type.getCanonicalType()))
    return false;
  if (isKeptAsCompiled(record))
    return true;
  return llvm::any_of(record->bases(),
                      [](const clang::CXXBaseSpecifier &base) {
                        return movesByConstructor(base.getType());
                      }) ||
         llvm::any_of(record->fields(), [](const clang::FieldDecl *field) {
           return movesByConstructor(field->getType());
         });
}

bool ModuleLowering::elementNeedsDestruction(clang::QualType element) {
  // A row of a vector of vectors is a vector kept in memory.
  return needsDestruction(element) ||
         !getVectorElementType(element.getCanonicalType()).isNull();
}

bool FunctionLowering::resizeVectorObject(const VectorObject &vector,
                                          Value count,
                                          std::optional<Address> value,
                                          const clang::Stmt *where) {
  if (!hasElementLayout(vector, where, "made or destroyed"))
    return false;
  Location l = loc(where);
  Value size = vectorObjectCount(vector, vector.end, l);
  Value kept = arith::MinUIOp::create(b, l, size, count);
  // The elements past the new size, destroyed; then the missing ones.
  if (ModuleLowering::elementNeedsDestruction(vector.element)) {
    Value elements = vectorObjectElements(vector, l);
    emitCountedLoop(l, arith::SubIOp::create(b, l, size, kept), [&](Value j) {
      Value i = arith::AddIOp::create(b, l, kept, j);
      destroyObject(vector.element, vectorObjectElement(vector, elements, i, l),
                    where);
    });
  }
  // (Emptied, `clear()`: nothing to make, nor a constructor to need.)
  if (std::optional<int64_t> known = getConstantIntValue(count);
      known && *known == 0) {
    setVectorObjectSlot(vector, vector.end, vectorObjectElements(vector, l),
                        count, l);
    return true;
  }
  reserveVectorObject(vector, count, where);
  Value elements = vectorObjectElements(vector, l);
  bool ok = true;
  emitCountedLoop(l, arith::SubIOp::create(b, l, count, kept), [&](Value j) {
    Value i = arith::AddIOp::create(b, l, kept, j);
    ok &= constructElement(vector, vectorObjectElement(vector, elements, i, l),
                           value, /*move=*/false, where);
  });
  setVectorObjectSlot(vector, vector.end, elements, count, l);
  return ok;
}

bool FunctionLowering::constructElement(const VectorObject &vector, Address at,
                                        std::optional<Address> source,
                                        bool move, const clang::Stmt *where) {
  if (!hasElementLayout(vector, where, "made"))
    return false;
  if (vector.holdsRows())
    return constructRow(vector, at, source, move, where);
  if (!ModuleLowering::getUniquePointee(vector.element).isNull())
    return constructOwner(vector.element, at, source, move, where);
  if (!ModuleLowering::getSharedPointee(vector.element).isNull())
    return constructShared(vector.element, at, source, move, where);
  // (Every member function that makes elements is an expression.)
  const auto *expr = cast<clang::Expr>(where);
  Location l = loc(where);
  if (!source)
    return valueInitializeEach(expr, vector.element, at, constantIndex(1, l));
  const auto *record = vector.element->getAsCXXRecordDecl();
  const clang::CXXConstructorDecl *ctor =
      record ? copyConstructorOf(record, move) : nullptr;
  // Plain data: its bytes (and addresses).
  if (!ctor || ctor->isTrivial())
    return copyObject(at, *source, *vector.layout, where);
  // A library object kept as compiled: the library's constructor.
  if (ModuleLowering::isKeptAsCompiled(record)) {
    if (!callsLibraryCode(ctor, record, where))
      return false;
    module.noteCall(ctor, expr->getBeginLoc());
    module.enter(ctor, expr->getBeginLoc());
    func::FuncOp target = module.getFunction(ctor);
    module.leave();
    if (target)
      func::CallOp::create(
          b, l, target,
          ValueRange{materialize(at, l), materialize(*source, l)});
    return static_cast<bool>(target);
  }
  SmallVector<Value> operands{materialize(*source, l)};
  if (operands.size() != ctor->getNumParams())
    return unsupported<bool>(where, "the constructor of '" +
                                        vector.element.getAsString() +
                                        "' that this std::vector runs takes "
                                        "default arguments, which are not "
                                        "supported here");
  return inlineBody(expr, ctor, {}, nullptr, operands, at).has_value();
}

bool FunctionLowering::relocateElement(const VectorObject &vector, Address to,
                                       Address from, const clang::Stmt *where) {
  if (!ModuleLowering::movesByConstructor(vector.element))
    return copyObject(to, from, *vector.layout, where);
  if (!constructElement(vector, to, from, /*move=*/true, where))
    return false;
  destroyObject(vector.element, from, where);
  return true;
}

void FunctionLowering::destroyVectorObject(clang::QualType type, Address holder,
                                           const clang::Stmt *where) {
  Location l = loc(where);
  std::optional<VectorObject> vector = vectorObjectAt(holder, type, where);
  if (!vector)
    return;
  Value elements = vectorObjectElements(*vector, l);
  if (ModuleLowering::elementNeedsDestruction(vector->element) &&
      vector->layout)
    emitCountedLoop(
        l, vectorObjectCount(*vector, vector->end, l), [&](Value i) {
          destroyObject(vector->element,
                        vectorObjectElement(*vector, elements, i, l), where);
        });
  memref::DeallocOp::create(b, l, elements);
}

void FunctionLowering::destroyElements(clang::QualType element, Address first,
                                       Value count, const clang::Stmt *where) {
  // Last first, as C++ destroys an array's elements.
  Location l = loc(where);
  std::optional<Layout> layout = isVector(element.getCanonicalType())
                                     ? elementLayoutOf(element, where)
                                     : module.tryGetLayout(element);
  if (!layout)
    return;
  Value lastIndex = arith::SubIOp::create(b, l, count, constantIndex(1, l));
  emitCountedLoop(l, count, [&](Value i) {
    Value last = arith::SubIOp::create(b, l, lastIndex, i);
    Value scalars =
        arith::MulIOp::create(b, l, last, constantIndex(layout->size, l));
    destroyObject(element, offsetBy(first, scalars, l), where);
  });
}

void FunctionLowering::emitIfNotNull(Value memref, Location l,
                                     function_ref<void()> then) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, l, memref);
  Value held = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, address,
                                     constantIndex(0, l));
  emitIf(l, held, then);
}

void FunctionLowering::destroyObject(clang::QualType type, Address object,
                                     const clang::Stmt *where) {
  Location l = loc(where);
  type = type.getCanonicalType();
  // A vector kept in memory (also a row, whose type is a vector's like
  // any other).
  if (!ModuleLowering::getVectorElementType(type).isNull())
    return destroyVectorObject(type, object, where);
  if (const auto *array =
          dyn_cast<clang::ConstantArrayType>(type.getTypePtr())) {
    int64_t count = array->getSize().getZExtValue();
    return destroyElements(array->getElementType(), object,
                           constantIndex(count, l), where);
  }
  // A std::unique_ptr: frees the memory it owns (nothing if null).
  if (!ModuleLowering::getUniquePointee(type).isNull())
    return destroyUniquePointer(type, object, where);
  // A std::shared_ptr: one owner fewer.
  if (!ModuleLowering::getSharedPointee(type).isNull())
    return releaseShared(type, object, where);
  const auto *record = type->getAsCXXRecordDecl();
  if (!record)
    return;
  // A node owning nodes of its class: its destructor's function, which
  // calls itself for them (body and parts).
  if (llvm::is_contained(destroyedRecords, record))
    return callDestructor(record, object, where);
  // A destructor of the program's own: its body, then (C++'s order) the
  // parts it does not destroy itself, unless it is all there is.
  if (ModuleLowering::hasOwnDestructor(record)) {
    if (const auto *expr = dyn_cast<clang::Expr>(where))
      inlineBody(expr, record->getDestructor(), {}, nullptr, {}, object);
    if (ModuleLowering::ownsMemory(record))
      return;
  }
  // A library object kept as compiled: the library's destructor.
  if (ModuleLowering::isKeptAsCompiled(record)) {
    const auto *expr = dyn_cast<clang::Expr>(where);
    if (expr && callsLibraryCode(record->getDestructor(), record, where))
      emitCall(expr, record->getDestructor(), object, {}, std::nullopt);
    return;
  }
  destroyedRecords.push_back(record);
  destroyParts(record, object, where);
  destroyedRecords.pop_back();
}

void FunctionLowering::callDestructor(const clang::CXXRecordDecl *record,
                                      Address object,
                                      const clang::Stmt *where) {
  Location l = loc(where);
  const clang::CXXDestructorDecl *destructor = record->getDestructor();
  module.markDestroyedByCall(destructor, where);
  module.enter(destructor, where->getBeginLoc());
  func::FuncOp target = module.getFunction(destructor);
  module.leave();
  if (target)
    func::CallOp::create(b, l, target, ValueRange{materialize(object, l)});
}

void FunctionLowering::destroyParts(const clang::CXXRecordDecl *record,
                                    Address object, const clang::Stmt *where) {
  // An implicit destructor: the fields, last first, then the bases.
  Location l = loc(where);
  SmallVector<const clang::FieldDecl *> fields(record->fields());
  for (const clang::FieldDecl *field : llvm::reverse(fields)) {
    Address at = offsetBy(object, module.getFieldOffset(field), l);
    if (ModuleLowering::keepsVectorInMemory(field))
      destroyVectorObject(field->getType(), at, where);
    else if (ModuleLowering::needsDestruction(field->getType()))
      // (A library object among numbers is a view of its bytes.)
      if (std::optional<Address> part = fieldAddress(object, field, where))
        destroyObject(field->getType(), *part, where);
  }
  for (const clang::CXXBaseSpecifier &base : llvm::reverse(record->bases()))
    if (ModuleLowering::needsDestruction(base.getType()))
      destroyObject(
          base.getType(),
          offsetBy(object, module.getBaseOffset(record, base.getType()), l),
          where);
}

std::optional<Address>
FunctionLowering::lowerPointerValue(const clang::ValueDecl *var,
                                    const clang::Expr *value) {
  if (!keepsVectorAddress(var))
    return lowerPointer(value);
  // (keepsVectorAddress said what each value is.)
  const auto *address =
      dyn_cast<clang::UnaryOperator>(value->IgnoreParenImpCasts());
  if (!address || address->getOpcode() != clang::UO_AddrOf)
    return lowerPointer(value); // new, nullptr, another such variable
  const clang::Expr *vector = address->getSubExpr();
  if (isVectorObjectExpr(vector))
    return lowerVectorHolder(vector);
  return viewAsVectorObject(vector);
}

/// Whether `stmt` may change the size of vector variable `var`: a member
/// function other than those that read it, an assignment, or a
/// non-const reference to it given away.
static bool mayResize(const clang::Stmt *stmt, const clang::VarDecl *var) {
  if (!stmt)
    return false;
  auto names = [&](const clang::Expr *expr) {
    const auto *ref = dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
    return ref && ref->getDecl() == var;
  };
  if (const auto *call = dyn_cast<clang::CXXMemberCallExpr>(stmt);
      call && names(call->getImplicitObjectArgument()) &&
      call->getMethodDecl() && !call->getMethodDecl()->isConst() &&
      call->getMethodDecl()->getIdentifier() &&
      !llvm::is_contained({"at", "front", "back", "data", "begin", "end"},
                          call->getMethodDecl()->getName()))
    return true;
  if (const auto *op = dyn_cast<clang::CXXOperatorCallExpr>(stmt);
      op && op->getOperator() == clang::OO_Equal && names(op->getArg(0)))
    return true;
  if (const auto *call = dyn_cast<clang::CallExpr>(stmt);
      call && !isa<clang::CXXMemberCallExpr, clang::CXXOperatorCallExpr>(call))
    if (const clang::FunctionDecl *callee = call->getDirectCallee())
      for (auto [param, arg] :
           llvm::zip(callee->parameters(), call->arguments()))
        if (names(arg) && param->getType()->isReferenceType() &&
            !param->getType().getNonReferenceType().isConstQualified())
          return true;
  return llvm::any_of(stmt->children(), [&](const clang::Stmt *child) {
    return mayResize(child, var);
  });
}

std::optional<Address>
FunctionLowering::viewAsVectorObject(const clang::Expr *vector) {
  using Result = std::optional<Address>;
  Location l = loc(vector);
  const auto *ref = dyn_cast<clang::DeclRefExpr>(vector->IgnoreParenImpCasts());
  const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  const clang::Stmt *body = var ? bodyDeclaring(var) : nullptr;
  if (!var || mayResize(body, var))
    return unsupported<Result>(
        vector, "a pointer variable to std::vectors that also designates "
                "vectors kept in memory (made by 'new', elements of a vector "
                "of vectors, fields of structs a vector holds) can designate "
                "another vector only if it is a variable whose size does "
                "not change in the function; copy it into such a variable");
  clang::QualType type = vector->getType().getNonReferenceType();
  std::optional<Address> elements = lowerLValue(vector);
  if (!elements)
    return std::nullopt;
  auto [known, fresh] = vectorObjectViews.try_emplace(var);
  if (fresh) {
    // At the entry, like a pointer variable's slot: it outlives the loops
    // that give it, for every read after them.
    OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
    known->second = memref::AllocaOp::create(
        entry, l, MemRefType::get({3}, b.getF64Type()));
  }
  Address holder{known->second, constantIndex(0, l)};
  std::optional<VectorObject> object = vectorObjectAt(holder, type, vector);
  if (!object)
    return std::nullopt;
  Value start = materialize(*elements, l);
  if (cast<MemRefType>(start.getType()).getElementType() !=
      cast<MemRefType>(object->view).getElementType())
    return unsupported<Result>(vector, "this vector's elements cannot be "
                                       "designated by a pointer variable that "
                                       "also designates vectors kept in "
                                       "memory");
  // (The end of memory of a size known when compiling folds into a view
  // past it, which MLIR's views refuse.)
  if (cast<MemRefType>(start.getType()).hasStaticShape())
    return unsupported<Result>(
        vector, "a pointer variable to std::vectors that also designates "
                "vectors kept in memory cannot yet designate a vector of a "
                "size known when compiling; size it by a value known at run "
                "time");
  Value count = vectorSize(*elements, type, l);
  setVectorObjectSlot(*object, object->first, start, constantIndex(0, l), l);
  setVectorObjectSlot(*object, object->end, start, count, l);
  setVectorObjectSlot(*object, object->capacity, start, count, l);
  return holder;
}

} // namespace cotangent::frontend
