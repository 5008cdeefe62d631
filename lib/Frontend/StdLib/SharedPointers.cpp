//===- SharedPointers.cpp - std::shared_ptr -------------------------------===//
//
// A std::shared_ptr<T> is two addresses kept in its object, where both
// standard libraries keep them (docs/Memory.md, item 24): the object's and
// its control block's; so is a std::weak_ptr<T>. A block the function
// makes (std::make_shared, a std::shared_ptr made from `new`) is three
// `long`s: zero where the library's blocks keep the address of their
// virtual table, the use count, then the count of std::weak_ptrs. Copies
// count an owner (or observer) more, destruction, `reset` and assignment
// one fewer; the last owner destroys and frees the object, and the last of
// owners and observers frees the block.
// A block the caller made (a std::shared_ptr passed in) is borrowed: the
// caller's owners keep the object alive during the call, so its count is
// left as it is, and the function never frees it.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "clang/AST/DeclTemplate.h"

using namespace mlir;

namespace cotangent::frontend {

bool ModuleLowering::isSharedPointerClass(const clang::CXXRecordDecl *record) {
  const auto *spec =
      dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record);
  if (!spec || !spec->isInStdNamespace())
    return false;
  StringRef name = spec->getName();
  const clang::TemplateArgumentList &args = spec->getTemplateArgs();
  // (Of an object, not of an array: std::shared_ptr<T[]> is not modelled.)
  return (name == "shared_ptr" || name == "__shared_ptr" ||
          name == "__shared_ptr_access" || name == "weak_ptr" ||
          name == "__weak_ptr") &&
         args.size() >= 1 &&
         args[0].getKind() == clang::TemplateArgument::Type &&
         !args[0].getAsType()->isArrayType();
}

clang::QualType ModuleLowering::getSharedPointee(clang::QualType type) {
  const auto *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!isSharedPointerClass(record) ||
      (record->getName() != "shared_ptr" && record->getName() != "weak_ptr"))
    return {};
  return cast<clang::ClassTemplateSpecializationDecl>(record)
      ->getTemplateArgs()[0]
      .getAsType();
}

bool ModuleLowering::isWeakPointer(clang::QualType type) {
  const auto *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return isSharedPointerClass(record) &&
         (record->getName() == "weak_ptr" || record->getName() == "__weak_ptr");
}

bool ModuleLowering::holdsSharedPointers(clang::QualType type) {
  type = type.getCanonicalType();
  if (const clang::ArrayType *array = type->getAsArrayTypeUnsafe())
    return holdsSharedPointers(array->getElementType());
  if (!getSharedPointee(type).isNull())
    return true;
  const auto *record = type->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition() || isKeptAsCompiled(record))
    return false;
  return llvm::any_of(record->bases(),
                      [](const clang::CXXBaseSpecifier &base) {
                        return holdsSharedPointers(base.getType());
                      }) ||
         llvm::any_of(record->fields(), [](const clang::FieldDecl *field) {
           return holdsSharedPointers(field->getType());
         });
}

/// The pointer types of a std::shared_ptr's two slots.
static clang::QualType objectPointer(clang::QualType type,
                                     clang::ASTContext &ast) {
  return ast.getPointerType(ModuleLowering::getSharedPointee(type));
}
static clang::QualType countPointer(clang::ASTContext &ast) {
  return ast.getPointerType(ast.LongTy);
}

/// Whether `memref` is the caller's memory, or memory that becomes the
/// caller's (a std::vector parameter grown).
static bool isCallersMemory(Value memref) {
  if (ct::isCallerMemory(memref))
    return true;
  Operation *made = memoryRoot(memref).getDefiningOp();
  return made && made->hasAttr(ct::kGrowsCallerMemoryAttr);
}

std::optional<FunctionLowering::SharedParts>
FunctionLowering::readShared(Address slot, clang::QualType type,
                             const clang::Stmt *where) {
  // (Its object may have expired before the call, which only the library's
  // count says, in a form of each library's own.)
  if (ModuleLowering::isWeakPointer(type) && isCallersMemory(slot.memref))
    return unsupported<std::optional<SharedParts>>(
        where, "differentiable code cannot read a std::weak_ptr the caller "
               "passes (whether its object has expired is the library's "
               "count); pass the std::shared_ptr, or lock it before the "
               "call");
  return loadShared(slot, type, where);
}

std::optional<FunctionLowering::SharedParts>
FunctionLowering::loadShared(Address slot, clang::QualType type,
                             const clang::Stmt *where) {
  Location l = loc(where);
  std::optional<Address> object =
      loadAddress(slot, objectPointer(type, ast), where);
  std::optional<Address> count =
      loadAddress(offsetBy(slot, 1, l), countPointer(ast), where);
  if (!object || !count)
    return std::nullopt;
  return SharedParts{*object, *count};
}

bool FunctionLowering::keepShared(const SharedParts &parts, Address slot,
                                  const clang::Stmt *where) {
  // The caller's std::shared_ptrs are the library's to count: one the
  // function made would reach the library's code, which cannot count it,
  // and one of the caller's the function let go would never be counted
  // down.
  if (isCallersMemory(slot.memref))
    return unsupported<bool>(
        where, "differentiable code cannot change a std::shared_ptr the "
               "caller passes (its use count is the library's); return "
               "the numbers and let the caller make or assign it");
  Location l = loc(where);
  keepAddress(parts.object, slot, l);
  keepAddress(parts.count, offsetBy(slot, 1, l), l);
  return true;
}

std::optional<FunctionLowering::SharedParts>
FunctionLowering::nullShared(clang::QualType type, const clang::Stmt *where) {
  std::optional<Layout> object =
      elementLayoutOf(ModuleLowering::getSharedPointee(type), where);
  if (!object)
    return std::nullopt;
  Location l = loc(where);
  return SharedParts{nullAddress(object->scalar, l),
                     nullAddress(b.getI64Type(), l)};
}

bool FunctionLowering::emptyShared(clang::QualType type, Address dest,
                                   int64_t count, const clang::Stmt *where) {
  std::optional<SharedParts> null = nullShared(type, where);
  if (!null)
    return false;
  for (int64_t i = 0; i < count; ++i)
    if (!keepShared(*null, offsetBy(dest, 2 * i, loc(where)), where))
      return false;
  return true;
}

/// Whether the control block at `count` (not null) is one the function
/// made: no virtual table (see the file comment).
static Value isOwnBlock(Address count, OpBuilder &b, Location l) {
  Value table = memref::LoadOp::create(b, l, count.memref, count.offset);
  return arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::eq, table,
      arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
}

void FunctionLowering::ifOwnBlock(Address count, Location l,
                                  function_ref<void()> then) {
  emitIfNotNull(count.memref, l,
                [&] { emitIf(l, isOwnBlock(count, b, l), then); });
}

/// The use count's place in a block the function made, and the count of
/// std::weak_ptrs'.
static Address useCount(Address block, OpBuilder &b, Location l) {
  return Address{block.memref, arith::AddIOp::create(
                                   b, l, block.offset,
                                   arith::ConstantIndexOp::create(b, l, 1))};
}
static Address weakCount(Address block, OpBuilder &b, Location l) {
  return Address{block.memref, arith::AddIOp::create(
                                   b, l, block.offset,
                                   arith::ConstantIndexOp::create(b, l, 2))};
}

/// Adds `delta` to the count at `place`; the new count.
static Value addToCount(Address place, int64_t delta, OpBuilder &b,
                        Location l) {
  Value next = arith::AddIOp::create(
      b, l, memref::LoadOp::create(b, l, place.memref, place.offset),
      arith::ConstantOp::create(b, l, b.getI64IntegerAttr(delta)));
  memref::StoreOp::create(b, l, next, place.memref, place.offset);
  return next;
}

Value FunctionLowering::addToUseCount(Address block, int64_t delta,
                                      Location l) {
  return addToCount(useCount(block, b, l), delta, b, l);
}

static Value isZero(Value count, OpBuilder &b, Location l) {
  return arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::eq, count,
      arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
}

void FunctionLowering::acquireShared(const SharedParts &parts, bool weak,
                                     Location l) {
  ifOwnBlock(parts.count, l, [&] {
    if (weak)
      addToCount(weakCount(parts.count, b, l), 1, b, l);
    else
      addToUseCount(parts.count, 1, l);
  });
}

void FunctionLowering::releaseParts(clang::QualType type,
                                    const SharedParts &parts,
                                    const clang::Stmt *where) {
  Location l = loc(where);
  // The block goes when neither owners nor observers are left.
  auto freeBlockIfUnobserved = [&](Value observers) {
    emitIf(l, isZero(observers, b, l),
           [&] { memref::DeallocOp::create(b, l, parts.count.memref); });
  };
  ifOwnBlock(parts.count, l, [&] {
    if (ModuleLowering::isWeakPointer(type)) {
      Value observers = addToCount(weakCount(parts.count, b, l), -1, b, l);
      emitIf(l, isZero(load(useCount(parts.count, b, l), l), b, l),
             [&] { freeBlockIfUnobserved(observers); });
      return;
    }
    Value left = addToUseCount(parts.count, -1, l);
    emitIf(l, isZero(left, b, l), [&] {
      // The owners observe the block while the object is destroyed (it may
      // hold the last std::weak_ptrs to its own block: a child's link to
      // its parent), as the library's blocks count their owners as one
      // observer more.
      Address observers = weakCount(parts.count, b, l);
      addToCount(observers, 1, b, l);
      clang::QualType object = ModuleLowering::getSharedPointee(type);
      if (module.mayNeedDestruction(object))
        emitIfNotNull(parts.object.memref, l, [&] {
          destroyDynamicObject(object, parts.object,
                               dyn_cast<clang::Expr>(where), nullptr);
        });
      memref::DeallocOp::create(b, l, parts.object.memref);
      freeBlockIfUnobserved(addToCount(observers, -1, b, l));
    });
  });
}

Value FunctionLowering::isAliveShared(const SharedParts &parts, bool own,
                                      Location l) {
  // (A slot at the function entry, as useCountOf's.)
  Address at = allocateSlots(Layout{b.getI64Type(), ast.LongTy, 1, {}}, 8, l);
  auto set = [&](Value alive) {
    store(arith::ExtUIOp::create(b, l, b.getI64Type(), alive), at, l);
  };
  set(arith::ConstantOp::create(b, l, b.getBoolAttr(false)));
  emitIfNotNull(parts.count.memref, l, [&] {
    Value mine = isOwnBlock(parts.count, b, l);
    emitIf(l, mine, [&] {
      Address use = useCount(parts.count, b, l);
      Value owners = load(use, l);
      Value alive = arith::CmpIOp::create(
          b, l, arith::CmpIPredicate::sgt, owners,
          arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
      set(alive);
      if (own)
        emitIf(l, alive, [&] { addToUseCount(parts.count, 1, l); });
    });
    // A block the caller made: its owners outlive the call.
    emitIf(
        l,
        arith::XOrIOp::create(
            b, l, mine, arith::ConstantOp::create(b, l, b.getBoolAttr(true))),
        [&] { set(arith::ConstantOp::create(b, l, b.getBoolAttr(true))); });
  });
  return arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::ne, load(at, l),
      arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
}

bool FunctionLowering::lockWeak(const SharedParts &parts, clang::QualType type,
                                bool mustBeAlive, Address dest,
                                const clang::Expr *where) {
  Location l = loc(where);
  std::optional<SharedParts> null = nullShared(type, where);
  if (!null || !keepShared(*null, dest, where))
    return false;
  Value alive = isAliveShared(parts, /*own=*/true, l);
  Value expired = arith::XOrIOp::create(
      b, l, alive, arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
  if (mustBeAlive)
    emitIf(l, expired, [&] {
      ct::AbortOp::create(b, l,
                          sourcePosition(where) +
                              ": a std::shared_ptr made from an expired "
                              "std::weak_ptr (the library throws "
                              "std::bad_weak_ptr)");
    });
  bool kept = true;
  emitIf(l, alive, [&] { kept = keepShared(parts, dest, where); });
  return kept;
}

void FunctionLowering::releaseShared(clang::QualType type, Address slot,
                                     const clang::Stmt *where) {
  if (std::optional<SharedParts> parts = loadShared(slot, type, where))
    releaseParts(type, *parts, where);
}

Address FunctionLowering::newControlBlock(Location l) {
  Value block = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, b.getI64Type()),
      ValueRange{constantIndex(3, l)});
  Address first{block, constantIndex(0, l)};
  store(arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)), first, l);
  store(arith::ConstantOp::create(b, l, b.getI64IntegerAttr(1)),
        useCount(first, b, l), l);
  store(arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)),
        weakCount(first, b, l), l);
  return first;
}

/// Whether `function` is `name` of the standard library.
static bool isStd(const clang::FunctionDecl *function, StringRef name) {
  return function && function->getIdentifier() && function->getName() == name &&
         function->isInStdNamespace();
}

/// The function the standard library builds std::make_shared's object with,
/// `::new (p) T(args...)`: std::construct_at (or, before C++20, an
/// allocator's construct) instantiated for `object` and the argument
/// types of `make`, a std::make_shared.
static const clang::FunctionDecl *
findInPlaceConstructor(const clang::FunctionDecl *make,
                       clang::QualType object) {
  clang::ASTContext &ast = make->getASTContext();
  auto matches = [&](const clang::FunctionDecl *candidate) {
    if (candidate->getNumParams() != make->getNumParams() + 1)
      return false;
    clang::QualType place = candidate->getParamDecl(0)->getType();
    if (!place->isPointerType() ||
        !ast.hasSameUnqualifiedType(place->getPointeeType(), object))
      return false;
    for (unsigned i = 0; i < make->getNumParams(); ++i)
      if (!ast.hasSameType(candidate->getParamDecl(i + 1)->getType(),
                           make->getParamDecl(i)->getType()))
        return false;
    return true;
  };
  auto search = [&](const clang::DeclContext *context,
                    StringRef name) -> const clang::FunctionDecl * {
    for (const clang::NamedDecl *found : context->lookup(&ast.Idents.get(name)))
      if (const auto *templ = dyn_cast<clang::FunctionTemplateDecl>(found))
        for (const clang::FunctionDecl *spec : templ->specializations())
          if (matches(spec))
            return spec;
    return nullptr;
  };
  const clang::DeclContext *library = make->getDeclContext();
  for (StringRef name : {"construct_at", "__construct_at"})
    if (const clang::FunctionDecl *found = search(library, name))
      return found;
  for (StringRef allocator : {"__new_allocator", "new_allocator", "allocator"})
    for (const clang::NamedDecl *found :
         library->lookup(&ast.Idents.get(allocator)))
      if (const auto *templ = dyn_cast<clang::ClassTemplateDecl>(found))
        for (const clang::ClassTemplateSpecializationDecl *spec :
             templ->specializations())
          if (const clang::FunctionDecl *construct = search(spec, "construct"))
            return construct;
  return nullptr;
}

std::optional<FunctionLowering::SharedParts>
FunctionLowering::makeShared(const clang::CallExpr *call) {
  using Result = std::optional<SharedParts>;
  Location l = loc(call);
  const clang::FunctionDecl *make = call->getDirectCallee();
  clang::QualType object = ModuleLowering::getSharedPointee(call->getType());
  std::optional<Layout> layout = elementLayoutOf(object, call);
  if (!layout)
    return std::nullopt;
  Value scalars = constantIndex(layout->size, l);
  Value memory = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, layout->scalar),
      ValueRange{scalars});
  // Zeros first: what value-initialization leaves.
  fill(memory, scalars,
       arith::ConstantOp::create(b, l, layout->scalar,
                                 b.getZeroAttr(layout->scalar)),
       l);
  Address address{memory, constantIndex(0, l)};
  if (!object->isRecordType() && call->getNumArgs() == 1) {
    Value value = lowerRValue(call->getArg(0));
    if (!value)
      return std::nullopt;
    store(convert(value, call->getArg(0)->getType(), object, l), address, l);
  } else if (object->isRecordType() || call->getNumArgs() != 0) {
    // The library's own `::new (p) T(args...)`, lowered in place with `p`
    // bound to the memory made here.
    const clang::FunctionDecl *construct = findInPlaceConstructor(make, object);
    if (!construct)
      return unsupported<Result>(
          call, "this std::make_shared's construction of '" +
                    object.getAsString() +
                    "' cannot be followed in differentiable code; use "
                    "'std::shared_ptr<T>(new T(...))'");
    // (An argument may itself be such a std::make_shared, binding the same
    // parameter while this one is bound: each puts back what it found.)
    const clang::ParmVarDecl *place = construct->getParamDecl(0);
    SavedBindings saved;
    saveBindings(place, saved);
    fixedPointers[place] = address;
    SmallVector<const clang::Expr *> args{nullptr};
    args.append(call->arg_begin(), call->arg_end());
    std::optional<CallResult> made = inlineBody(call, construct, args, nullptr);
    restoreBindings(saved);
    if (!made)
      return std::nullopt;
  }
  return SharedParts{address, newControlBlock(l)};
}

/// `e` without implicit conversions, temporaries and the functional casts
/// that only name the type (`std::shared_ptr<T>(new T)`).
static const clang::Expr *sharedExpression(const clang::Expr *e) {
  while (true) {
    e = e->IgnoreImplicit()->IgnoreParens();
    if (const auto *cast = dyn_cast<clang::CXXFunctionalCastExpr>(e))
      e = cast->getSubExpr();
    else
      return e;
  }
}

std::optional<FunctionLowering::SharedParts>
FunctionLowering::takeShared(const clang::Expr *from, bool move,
                             clang::QualType type, clang::QualType dest) {
  bool weak = ModuleLowering::isWeakPointer(dest);
  // A prvalue (std::make_shared, a helper's result): its own owner, taken;
  // a std::weak_ptr made from one observes a temporary owner, released
  // where the enclosing scope ends.
  const clang::Expr *source = sharedExpression(from);
  if (source->isPRValue() && weak != ModuleLowering::isWeakPointer(type)) {
    std::optional<Address> temporary = sharedPlace(source, type);
    std::optional<SharedParts> parts =
        temporary ? loadShared(*temporary, type, from) : std::nullopt;
    if (parts)
      acquireShared(*parts, weak, loc(from));
    return parts;
  }
  if (source->isPRValue()) {
    std::optional<Address> temporary = sharedTemporary(source, type, from);
    if (!temporary)
      return std::nullopt;
    return loadShared(*temporary, type, from);
  }
  if (const clang::Expr *named = movedFrom(from))
    from = named;
  std::optional<Address> slot = lowerLValue(from);
  std::optional<SharedParts> parts =
      slot ? readShared(*slot, type, from) : std::nullopt;
  if (!parts)
    return std::nullopt;
  Location l = loc(from);
  if (!move) {
    acquireShared(*parts, weak, l);
    return parts;
  }
  // Moved from: null left behind.
  std::optional<SharedParts> null = nullShared(type, from);
  if (!null || !keepShared(*null, *slot, from))
    return std::nullopt;
  return parts;
}

bool FunctionLowering::initializeShared(const clang::Expr *init,
                                        clang::QualType type, Address dest) {
  Location l = loc(init);
  const clang::Expr *source = sharedExpression(init);
  auto keep = [&](std::optional<SharedParts> parts) {
    return parts && keepShared(*parts, dest, init);
  };
  if (isNullPointer(source, ast))
    return keep(nullShared(type, init));
  if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(source)) {
    const clang::CXXConstructorDecl *ctor = construct->getConstructor();
    if (construct->getNumArgs() == 0 ||
        isNullPointer(construct->getArg(0), ast))
      return keep(nullShared(type, init));
    const clang::Expr *arg = construct->getArg(0);
    clang::QualType param = ctor->getParamDecl(0)->getType();
    clang::QualType given = sharedExpression(arg)->getType().getCanonicalType();
    clang::QualType made = ModuleLowering::getSharedPointee(given);
    if (made.isNull())
      made = getUniquePointee(given);
    if (made.isNull() && given->isPointerType())
      made = given->getPointeeType();
    if (ownsThroughLaterBase(arg, made, ModuleLowering::getSharedPointee(type),
                             "std::shared_ptr"))
      return false;
    bool fromShared =
        !ModuleLowering::getSharedPointee(param.getNonReferenceType()).isNull();
    // From a std::weak_ptr: an owner if the object is alive.
    if (ctor->getNumParams() == 1 && fromShared &&
        ModuleLowering::isWeakPointer(param) &&
        !ModuleLowering::isWeakPointer(type)) {
      std::optional<Address> place =
          sharedPlace(arg, param.getNonReferenceType());
      std::optional<SharedParts> parts =
          place ? readShared(*place, param.getNonReferenceType(), arg)
                : std::nullopt;
      return parts && lockWeak(*parts, type, /*mustBeAlive=*/true, dest, init);
    }
    if (ctor->getNumParams() == 1 && fromShared)
      return keep(takeShared(arg, param->isRValueReferenceType(),
                             param.getNonReferenceType(), type));
    // From a std::unique_ptr (moved, or a std::make_unique): what it owned,
    // with a block of one owner.
    if (ctor->getNumParams() == 1 &&
        !getUniquePointee(param.getNonReferenceType()).isNull()) {
      std::optional<Address> owned =
          lowerOwnedSource(arg, param.getNonReferenceType());
      if (!owned)
        return false;
      return keep(SharedParts{*owned, newControlBlock(l)});
    }
    const auto *allocation = dyn_cast<clang::CXXNewExpr>(sharedExpression(arg));
    if (ctor->getNumParams() == 1 && param->isPointerType() && allocation) {
      std::optional<Address> object = lowerNew(allocation);
      if (!object)
        return false;
      return keep(SharedParts{*object, newControlBlock(l)});
    }
    return unsupported<bool>(
        init, "a std::shared_ptr in differentiable code is made from "
              "std::make_shared, 'new', nullptr, a std::unique_ptr or another "
              "std::shared_ptr (not with a deleter, an allocator or an "
              "alias)");
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(source)) {
    if (isStd(call->getDirectCallee(), "make_shared"))
      return keep(makeShared(call));
    // std::weak_ptr's lock(): an owner if the object is alive, else null.
    if (const auto *lock = dyn_cast<clang::CXXMemberCallExpr>(call);
        lock && lock->getMethodDecl()->getIdentifier() &&
        lock->getMethodDecl()->getName() == "lock" &&
        ModuleLowering::isWeakPointer(
            lock->getImplicitObjectArgument()->getType())) {
      const clang::Expr *weak = lock->getImplicitObjectArgument();
      clang::QualType weakType =
          weak->getType().getCanonicalType().getUnqualifiedType();
      std::optional<Address> place = sharedPlace(weak, weakType);
      std::optional<SharedParts> parts =
          place ? readShared(*place, weakType, weak) : std::nullopt;
      return parts && lockWeak(*parts, type, /*mustBeAlive=*/false, dest, init);
    }
    // A helper's result: made where the caller wants it.
    return lowerCall(call, dest).has_value();
  }
  return unsupported<bool>(init, "this std::shared_ptr cannot be followed in "
                                 "differentiable code");
}

bool FunctionLowering::constructShared(clang::QualType type, Address at,
                                       std::optional<Address> source, bool move,
                                       const clang::Stmt *where) {
  if (!source)
    return emptyShared(type, at, 1, where);
  Location l = loc(where);
  std::optional<SharedParts> parts = readShared(*source, type, where);
  if (!parts)
    return false;
  if (!move) {
    acquireShared(*parts, ModuleLowering::isWeakPointer(type), l);
    return keepShared(*parts, at, where);
  }
  std::optional<SharedParts> null = nullShared(type, where);
  return null && keepShared(*null, *source, where) &&
         keepShared(*parts, at, where);
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerSharedPointerCall(const clang::CallExpr *expr,
                                         const clang::CXXMethodDecl *method,
                                         const clang::Expr *object,
                                         ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  // (A base's member function is called on the std::shared_ptr itself.)
  if (object)
    object = object->IgnoreParenBaseCasts();
  clang::QualType type =
      object ? object->getType().getCanonicalType().getUnqualifiedType()
             : clang::QualType();
  if (type.isNull() || ModuleLowering::getSharedPointee(type).isNull())
    return unsupported<Result>(expr, "this std::shared_ptr member function "
                                     "is called on an object differentiable "
                                     "code does not know");
  StringRef name = method->getIdentifier() ? method->getName() : "";
  clang::OverloadedOperatorKind op = method->getOverloadedOperator();
  // What it owns changes: reset, assignment, swap.
  if (name == "reset" || op == clang::OO_Equal)
    return replaceShared(expr, method, object, type, args);
  std::optional<Address> slot = sharedPlace(object, type);
  if (!slot)
    return std::nullopt;
  if (name == "swap") {
    std::optional<Address> other = sharedPlace(args[0], type);
    std::optional<SharedParts> mine = loadShared(*slot, type, expr);
    std::optional<SharedParts> theirs =
        other ? loadShared(*other, type, expr) : std::nullopt;
    if (!mine || !theirs)
      return std::nullopt;
    if (!keepShared(*theirs, *slot, expr) || !keepShared(*mine, *other, expr))
      return std::nullopt;
    return CallResult{};
  }
  std::optional<SharedParts> parts = readShared(*slot, type, expr);
  if (!parts)
    return std::nullopt;
  // `if (p)`: whether it points to an object.
  if (isa<clang::CXXConversionDecl>(method)) {
    Value address = memref::ExtractAlignedPointerAsIndexOp::create(
        b, l, parts->object.memref);
    return CallResult{arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne,
                                            address, constantIndex(0, l)),
                      std::nullopt};
  }
  if (op == clang::OO_Star || op == clang::OO_Arrow || name == "get")
    return CallResult{nullptr, parts->object};
  if (name == "use_count")
    return useCountOf(*parts, expr);
  if (name == "expired")
    return CallResult{arith::XOrIOp::create(
                          b, l, isAliveShared(*parts, /*own=*/false, l),
                          arith::ConstantOp::create(b, l, b.getBoolAttr(true))),
                      std::nullopt};
  if (ModuleLowering::isWeakPointer(type))
    return unsupported<Result>(
        expr, "std::weak_ptr's '" + method->getNameAsString() +
                  "' is not supported in differentiable code here; use "
                  "lock() to make a std::shared_ptr, expired(), use_count(), "
                  "reset, assignment and swap");
  return unsupported<Result>(
      expr, "std::shared_ptr's '" + method->getNameAsString() +
                "' is not supported in differentiable code; use *, ->, "
                "get(), use_count(), reset, assignment and swap");
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::replaceShared(const clang::CallExpr *expr,
                                const clang::CXXMethodDecl *method,
                                const clang::Expr *object, clang::QualType type,
                                ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  bool reset = method->getIdentifier() && method->getName() == "reset";
  // What it will own, first (C++17 evaluates an assignment's right operand
  // first; it may also move the object, as a vector's growth does).
  std::optional<SharedParts> next;
  const clang::Expr *given = args.empty() ? nullptr : sharedExpression(args[0]);
  clang::QualType givenType =
      args.empty() ? clang::QualType() : args[0]->getType();
  if (!given || isNullPointer(given, ast)) {
    next = nullShared(type, expr);
  } else if (reset && isa<clang::CXXNewExpr>(given)) {
    if (std::optional<Address> made = lowerNew(cast<clang::CXXNewExpr>(given)))
      next = SharedParts{*made, newControlBlock(l)};
  } else if (!reset && !getUniquePointee(givenType).isNull()) {
    if (std::optional<Address> owned = lowerOwnedSource(args[0], givenType))
      next = SharedParts{*owned, newControlBlock(l)};
  } else if (!reset && !ModuleLowering::getSharedPointee(givenType).isNull()) {
    next = takeShared(
        args[0], method->getParamDecl(0)->getType()->isRValueReferenceType(),
        givenType.getNonReferenceType().getCanonicalType().getUnqualifiedType(),
        type);
  } else {
    return unsupported<Result>(
        expr, "a std::shared_ptr in differentiable code is given "
              "std::make_shared, 'new', nullptr, a std::unique_ptr or "
              "another std::shared_ptr");
  }
  std::optional<Address> slot = next ? sharedPlace(object, type) : std::nullopt;
  std::optional<SharedParts> old =
      slot ? loadShared(*slot, type, expr) : std::nullopt;
  if (!old || !keepShared(*next, *slot, expr))
    return std::nullopt;
  releaseParts(type, *old, expr);
  return CallResult{nullptr, reset ? std::nullopt : slot};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::useCountOf(const SharedParts &parts,
                             const clang::CallExpr *expr) {
  // Null: 0. A block the function made: its count. A block the caller
  // made keeps its count in the library's own form: stop with a message.
  Location l = loc(expr);
  // (A slot at the function entry, as a local's: not one per iteration of
  // a loop calling use_count().)
  Address at = allocateSlots(Layout{b.getI64Type(), ast.LongTy, 1, {}}, 8, l);
  store(arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)), at, l);
  emitIfNotNull(parts.count.memref, l, [&] {
    Value own = isOwnBlock(parts.count, b, l);
    emitIf(l, own, [&] { store(load(useCount(parts.count, b, l), l), at, l); });
    Value caller = arith::XOrIOp::create(
        b, l, own, arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
    emitIf(l, caller, [&] {
      ct::AbortOp::create(
          b, l,
          sourcePosition(expr) +
              ": use_count() of a std::shared_ptr the caller made is not "
              "known to differentiable code");
    });
  });
  return CallResult{load(at, l), std::nullopt};
}

std::optional<Address> FunctionLowering::sharedPlace(const clang::Expr *object,
                                                     clang::QualType type) {
  // A temporary (`std::make_shared<T>()->x`, a helper's result): made here,
  // released where the enclosing scope ends.
  const clang::Expr *stripped = sharedExpression(object);
  if (stripped->isPRValue()) {
    std::optional<Address> temporary = sharedTemporary(stripped, type, object);
    if (temporary)
      destroyAtScopeEnd(type, *temporary, object);
    return temporary;
  }
  return lowerLValue(object);
}

bool FunctionLowering::bindSharedArgument(const clang::ParmVarDecl *param,
                                          const clang::Expr *arg) {
  // An owner of the callee's, let go when the call returns (use_count()
  // sees it gone).
  clang::QualType type = param->getType();
  std::optional<Address> place =
      allocate(type, arg->getSourceRange(), "this argument");
  if (!place || !initializeShared(arg, type, *place))
    return false;
  places[param] = *place;
  sharedArguments.push_back({type, *place, arg});
  return true;
}

void FunctionLowering::releaseSharedArguments(size_t first) {
  for (auto [type, place, arg] : llvm::drop_begin(sharedArguments, first))
    releaseShared(type, place, arg);
  sharedArguments.resize(first);
}

std::optional<Address>
FunctionLowering::sharedTemporary(const clang::Expr *prvalue,
                                  clang::QualType type,
                                  const clang::Expr *where) {
  std::optional<Address> temporary =
      allocate(type, where->getSourceRange(), "this std::shared_ptr");
  if (!temporary || !initializeShared(prvalue, type, *temporary))
    return std::nullopt;
  return temporary;
}

} // namespace cotangent::frontend
