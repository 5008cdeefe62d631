//===- UniquePointers.cpp - std::unique_ptr locals ------------------------===//
//
// A local `std::unique_ptr<T[]>` (or `<T>`) with the default deleter owns
// memory from `new` or `std::make_unique`: it is lowered as a pointer
// variable bound to that memory, freed when its scope ends (like a local
// std::vector), and `p[i]`, `*p`, `p->x` and `p.get()` are that pointer's.
// A std::unique_ptr member of a class is a pointer that keeps its address
// in its object (docs/Memory.md): made from `new`, std::make_unique,
// nullptr or another one moved from; reset, released, assigned, swapped
// and tested (`if (p)`); destroying the object frees what it owns. A
// deleter of the program's without data is called in place instead.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/HeapFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/TargetInfo.h"

using namespace mlir;

namespace cotangent::frontend {

/// A std::unique_ptr's class and deleter class, when it is one address:
/// the default deleter, or an empty class both standard libraries keep in
/// no storage (a functor freeing with `free`, a lambda without captures).
/// A function pointer or a deleter with state is a second part.
static std::pair<const clang::ClassTemplateSpecializationDecl *,
                 const clang::CXXRecordDecl *>
uniquePointerParts(clang::QualType type) {
  const auto *spec = dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      type.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec || spec->getName() != "unique_ptr" || !spec->isInStdNamespace())
    return {};
  const clang::TemplateArgumentList &args = spec->getTemplateArgs();
  if (args.size() != 2 || args[0].getKind() != clang::TemplateArgument::Type)
    return {};
  const auto *deleter = args[1].getAsType()->getAsCXXRecordDecl();
  if (!deleter || !deleter->hasDefinition())
    return {};
  if (deleter->getName() == "default_delete" && deleter->isInStdNamespace())
    return {spec, deleter};
  // (A `final` deleter takes storage of its own in libstdc++.)
  const clang::CXXRecordDecl *definition = spec->getDefinition();
  clang::ASTContext &ast = spec->getASTContext();
  if (!deleter->isEmpty() || !definition || definition->isInvalidDecl() ||
      ast.getASTRecordLayout(definition).getSize() !=
          ast.getTypeSizeInChars(ast.VoidPtrTy))
    return {};
  return {spec, deleter};
}

clang::QualType ModuleLowering::getUniquePointee(clang::QualType type) {
  const clang::ClassTemplateSpecializationDecl *spec =
      uniquePointerParts(type).first;
  return spec ? spec->getTemplateArgs()[0].getAsType() : clang::QualType();
}

const clang::CXXRecordDecl *
ModuleLowering::getUniqueDeleter(clang::QualType type) {
  const clang::CXXRecordDecl *deleter = uniquePointerParts(type).second;
  return deleter && deleter->getName() == "default_delete" &&
                 deleter->isInStdNamespace()
             ? nullptr
             : deleter;
}

bool ModuleLowering::passesUniquePointers(const clang::FunctionDecl *function) {
  const clang::FunctionDecl *body = nullptr;
  auto isOwner = [](clang::QualType type) {
    return !getUniquePointee(type).isNull() || !getSharedPointee(type).isNull();
  };
  return function->hasBody(body) && !function->isInStdNamespace() &&
         (isOwner(function->getReturnType()) ||
          llvm::any_of(function->parameters(),
                       [&](const clang::ParmVarDecl *param) {
                         return isOwner(param->getType());
                       }));
}

clang::QualType ModuleLowering::getOwnedPointerType(clang::QualType type) {
  clang::QualType pointee = getUniquePointee(type);
  if (pointee.isNull())
    return {};
  clang::ASTContext &ast =
      type.getNonReferenceType()->getAsCXXRecordDecl()->getASTContext();
  if (pointee->isIncompleteArrayType())
    pointee = ast.getAsArrayType(pointee)->getElementType();
  return ast.getPointerType(pointee);
}

clang::QualType ModuleLowering::getAddressType(const clang::FieldDecl *field) {
  clang::QualType owned = ModuleLowering::getOwnedPointerType(field->getType());
  return owned.isNull() ? field->getType() : owned;
}

/// What a std::unique_ptr is made from, past temporaries and the
/// converting and move constructors: a `new`, a std::make_unique call,
/// `nullptr`, another std::unique_ptr (moved from), or null for a
/// default-made one.
static const clang::Expr *ownedSource(const clang::Expr *init) {
  while (init) {
    // (IgnoreImplicit also passes temporaries' materialization and binding.)
    init = init->IgnoreImplicit()->IgnoreParens();
    // `unique_ptr<T>(new T(...))`, as std::make_unique writes it.
    if (const auto *cast = dyn_cast<clang::CXXFunctionalCastExpr>(init)) {
      init = cast->getSubExpr();
      continue;
    }
    const auto *construct = dyn_cast<clang::CXXConstructExpr>(init);
    if (!construct)
      return init;
    init = construct->getNumArgs() == 0 ? nullptr : construct->getArg(0);
  }
  return nullptr;
}

static bool isMakeUnique(const clang::Expr *expr) {
  const auto *call = dyn_cast_or_null<clang::CallExpr>(expr);
  return call && call->getDirectCallee() &&
         call->getDirectCallee()->getName() == "make_unique" &&
         call->getDirectCallee()->isInStdNamespace();
}

/// The alignment of `type` where the plain `operator new` does not give it
/// (C++ then calls the aligned forms of `new` and `delete`).
static std::optional<int64_t> overAlignment(clang::QualType type,
                                            const clang::ASTContext &ast) {
  clang::CharUnits alignment = ast.getTypeAlignInChars(type);
  if (alignment <= ast.toCharUnitsFromBits(ast.getTargetInfo().getNewAlign()))
    return std::nullopt;
  return alignment.getQuantity();
}

std::optional<Address>
FunctionLowering::lowerMakeUnique(const clang::CallExpr *call,
                                  clang::QualType pointee) {
  using Result = std::optional<Address>;
  Location l = loc(call);
  bool isArray = pointee->isIncompleteArrayType();
  clang::QualType element =
      isArray ? ast.getAsArrayType(pointee)->getElementType() : pointee;
  std::optional<Layout> layout = elementLayoutOf(element, call);
  if (!layout)
    return std::nullopt;
  Value count = constantIndex(1, l);
  if (isArray) {
    Value n = lowerRValue(call->getArg(0));
    if (!n)
      return std::nullopt;
    count = index(n, call->getArg(0)->getType(), l);
  } else if (call->getNumArgs() > 1 || isAggregate(element) ||
             isVector(element.getCanonicalType())) {
    // A constructor's arguments, or an object (whose constructor may store
    // its virtual table's address; a std::vector, kept in memory): the
    // library's own body (`new T(args...)`), lowered in place.
    std::optional<CallResult> made = inlineBody(
        call, call->getDirectCallee(),
        ArrayRef<const clang::Expr *>(call->getArgs(), call->getNumArgs()),
        nullptr);
    if (!made)
      return std::nullopt;
    if (!made->address)
      return unsupported<Result>(call, "this std::make_unique cannot be "
                                       "followed in differentiable code");
    return made->address;
  }
  Value scalars =
      arith::MulIOp::create(b, l, count, constantIndex(layout->size, l));
  // (`new T[n]()` or `new T(...)`, as make_unique writes it: freed by the
  // deleter's `delete[]` or `delete`.)
  IntegerAttr alignment;
  if (std::optional<int64_t> over = overAlignment(element, ast))
    alignment = b.getI64IntegerAttr(*over);
  auto made = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, layout->scalar),
      ValueRange{scalars}, ValueRange{}, alignment);
  made->setAttr(ct::kHeapFunctionAttr,
                b.getStringAttr(isArray ? "operator new[]" : "operator new"));
  Value allocation = made;
  // make_unique value-initializes: zeros, or the one value given.
  Value value = nullptr;
  if (!isArray && call->getNumArgs() == 1) {
    value = lowerRValue(call->getArg(0));
    if (!value)
      return std::nullopt;
    value = convert(value, call->getArg(0)->getType(), element, l);
  } else {
    value = arith::ConstantOp::create(b, l, layout->scalar,
                                      b.getZeroAttr(layout->scalar));
  }
  fill(allocation, scalars, value, l);
  return Address{allocation, constantIndex(0, l)};
}

/// Whether `stmt` changes what the std::unique_ptr variable `var` owns:
/// resets, releases, swaps or assigns it, or moves from it.
static bool changesOwner(const clang::Stmt *stmt, const clang::VarDecl *var) {
  if (!stmt)
    return false;
  auto names = [&](const clang::Expr *expr) {
    const auto *ref =
        expr ? dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts())
             : nullptr;
    return ref && ref->getDecl() == var;
  };
  if (const auto *call = dyn_cast<clang::CXXMemberCallExpr>(stmt)) {
    const clang::CXXMethodDecl *method = call->getMethodDecl();
    StringRef name = method && method->getIdentifier() ? method->getName() : "";
    if ((name == "reset" || name == "release" || name == "swap") &&
        (names(call->getImplicitObjectArgument()) ||
         llvm::any_of(call->arguments(), names)))
      return true;
  }
  if (const auto *call = dyn_cast<clang::CXXOperatorCallExpr>(stmt);
      call && call->getOperator() == clang::OO_Equal && names(call->getArg(0)))
    return true;
  if (const auto *expr = dyn_cast<clang::Expr>(stmt);
      expr && names(movedFrom(expr)))
    return true;
  // Returned (moved to the caller), or given to a reference parameter of
  // another function (which may change it).
  if (const auto *ret = dyn_cast<clang::ReturnStmt>(stmt);
      ret && names(ownedSource(ret->getRetValue())))
    return true;
  if (const auto *call = dyn_cast<clang::CallExpr>(stmt);
      call && !isa<clang::CXXMemberCallExpr>(call))
    if (const clang::FunctionDecl *callee = call->getDirectCallee()) {
      bool bound = false;
      forEachBoundArgument(
          call, callee,
          [&](const clang::ParmVarDecl *param, const clang::Expr *arg) {
            bound |= param->getType()->isReferenceType() && names(arg);
          });
      if (bound)
        return true;
    }
  for (const clang::Stmt *child : stmt->children())
    if (changesOwner(child, var))
      return true;
  return false;
}

bool FunctionLowering::ownsThroughLaterBase(const clang::Expr *where,
                                            clang::QualType made,
                                            clang::QualType pointee,
                                            StringRef owner) {
  // (Its address would be the base part's, which the model does not move
  // the owned object's address to, nor frees from.)
  const auto *derived = made.isNull() ? nullptr : made->getAsCXXRecordDecl();
  const auto *base = pointee.isNull() ? nullptr : pointee->getAsCXXRecordDecl();
  if (!derived || !base ||
      derived->getCanonicalDecl() == base->getCanonicalDecl())
    return false;
  std::optional<int64_t> offset = module.getBaseByteOffset(derived, base);
  if (!offset || *offset == 0)
    return false;
  std::string baseName = base->getNameAsString();
  unsupported(where, "a " + owner.str() + "<" + baseName + "> owning a '" +
                         derived->getNameAsString() + "', whose '" + baseName +
                         "' part does not begin it (a second base class), is "
                         "not supported yet; own it as a " +
                         owner.str() + "<" + derived->getNameAsString() +
                         "> or through its first base");
  return true;
}

bool FunctionLowering::ownsThroughLaterBase(const clang::Expr *source,
                                            clang::QualType pointee) {
  clang::QualType made;
  if (const auto *allocation = dyn_cast<clang::CXXNewExpr>(source))
    made = allocation->getAllocatedType();
  else
    made = getUniquePointee(source->getType());
  return ownsThroughLaterBase(source, made, pointee, "std::unique_ptr");
}

bool FunctionLowering::lowerUniquePointerDecl(const clang::VarDecl *var) {
  clang::QualType pointee = getUniquePointee(var->getType());
  if (pointee.isNull() || var->getType()->isReferenceType())
    return false;
  // After an error: the variable is known to be invalid (uses say nothing).
  auto failed = [&]() {
    invalid.insert(var);
    return true;
  };
  const auto *owner =
      dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  const clang::Expr *source = ownedSource(var->getInit());
  bool movedFrom = source && !isMakeUnique(source) &&
                   !getUniquePointee(source->getType()).isNull();
  if (var->getInit() && owner &&
      (movedFrom || changesOwner(owner->getBody(), var) ||
       module.mayNeedDestruction(pointee) ||
       ModuleLowering::getUniqueDeleter(var->getType()))) {
    // Reset, released, moved or moved from another, or owning an object
    // whose destructor does something: its address in a slot of its own,
    // destroyed and freed where its scope ends (what it owns then).
    if (!declareOwningSlot(var, var->getInit()))
      return failed();
    return true;
  }
  std::optional<Address> memory;
  if (source && ownsThroughLaterBase(source, pointee))
    return failed();
  if (var->getInit() && (!source || isNullPointer(source, ast))) {
    // Owns nothing, to the end of its scope.
    std::optional<Address> null = nullOwned(var->getType(), var->getInit());
    if (!null)
      return failed();
    pointers[var] = {null->memref,
                     newIndexSlot(null->offset, loc(var->getInit()))};
    return true;
  }
  if (const auto *allocation = dyn_cast<clang::CXXNewExpr>(source)) {
    memory = lowerNew(allocation);
  } else if (isMakeUnique(source)) {
    memory = lowerMakeUnique(cast<clang::CallExpr>(source),
                             getUniquePointee(source->getType()));
  } else {
    module.error(var->getSourceRange(),
                 "a std::unique_ptr variable in differentiable code must own "
                 "memory from 'new' or std::make_unique where it is "
                 "declared (a std::unique_ptr member may be reset, moved "
                 "and released)");
    return failed();
  }
  if (!memory)
    return failed();
  // Freed with the scope, like a vector; a pointer variable meanwhile.
  cleanups.push_back(memory->memref);
  pointers[var] = {
      memory->memref,
      newIndexSlot(memory->offset, module.getLoc(var->getLocation()))};
  return true;
}

bool FunctionLowering::declareOwningSlot(const clang::VarDecl *var,
                                         const clang::Expr *init) {
  std::optional<Address> owned = lowerOwnedSource(init, var->getType());
  if (!owned)
    return false;
  declareAddressSlot(var, *owned, loc(init));
  Value slot = pointers[var].addressSlot;
  cleanups.push_back(slot);
  objectCleanups[slot] = {var->getType(), init};
  return true;
}

std::optional<Address> FunctionLowering::lowerOwnedTemporary(
    const clang::CXXBindTemporaryExpr *bound) {
  std::optional<Address> owned = lowerOwnedSource(bound, bound->getType());
  if (!owned)
    return std::nullopt;
  // Kept in a slot of its own, freed where the enclosing scope ends (C++
  // frees it at the end of the full expression; nothing reads it between).
  Location l = loc(bound);
  Value slot = newAddressSlot(l);
  keepAddress(*owned, Address{slot, constantIndex(0, l)}, l);
  cleanups.push_back(slot);
  objectCleanups[slot] = {bound->getType(), bound};
  return owned;
}

bool FunctionLowering::bindUniquePointerParameter(
    const clang::ParmVarDecl *param, const clang::Expr *arg) {
  // By reference: the caller's slot (a variable's, a member's).
  if (param->getType()->isReferenceType()) {
    std::optional<Address> slot = uniquePointerSlot(arg);
    if (!slot)
      return false;
    places[param] = *slot;
    return true;
  }
  // By value: a variable of the callee's owning what the argument gives.
  return declareOwningSlot(param, arg);
}

std::optional<Address>
FunctionLowering::lowerOwnedSource(const clang::Expr *init,
                                   clang::QualType type) {
  using Result = std::optional<Address>;
  Location l = loc(init);
  clang::QualType pointee = getUniquePointee(type);
  const clang::Expr *source = ownedSource(init);
  // Default-made, or from nullptr: the null address.
  if (!source || isNullPointer(source, ast))
    return nullOwned(type, init);
  if (ownsThroughLaterBase(source, pointee))
    return std::nullopt;
  if (const auto *allocation = dyn_cast<clang::CXXNewExpr>(source))
    return lowerNew(allocation);
  if (isMakeUnique(source))
    return lowerMakeUnique(cast<clang::CallExpr>(source),
                           getUniquePointee(source->getType()));
  // A helper's result (a factory): what its body returns, lowered in place.
  if (const auto *call = dyn_cast<clang::CallExpr>(source);
      call && source->isPRValue() && !movedFrom(source)) {
    std::optional<CallResult> result = lowerCall(call, std::nullopt);
    if (!result)
      return std::nullopt;
    if (!result->address)
      return unsupported<Result>(init, "this call's std::unique_ptr cannot "
                                       "be followed in differentiable code");
    return result->address;
  }
  // Another std::unique_ptr, moved from (`std::move(other)`): its address,
  // and null left behind.
  if (!getUniquePointee(source->getType()).isNull()) {
    const clang::Expr *from = movedFrom(source);
    if (!from)
      from = source;
    std::optional<Address> slot = uniquePointerSlot(from);
    if (!slot)
      return std::nullopt;
    std::optional<Address> owned =
        loadAddress(*slot, ModuleLowering::getOwnedPointerType(type), from);
    std::optional<Address> null = nullOwned(type, from);
    if (!owned || !null)
      return std::nullopt;
    Value kept = materialize(*owned, l);
    keepAddress(*null, *slot, l);
    return Address{kept, constantIndex(0, l)};
  }
  // A deleter of the program's decides what the pointer may be (memory
  // from `malloc`, the caller's array with a deleter doing nothing).
  if (ModuleLowering::getUniqueDeleter(type) &&
      source->getType()->isPointerType())
    return lowerPointer(source);
  return unsupported<Result>(init, "a std::unique_ptr in differentiable code "
                                   "owns memory from 'new', "
                                   "std::make_unique or another "
                                   "std::unique_ptr");
}

std::optional<Address>
FunctionLowering::uniquePointerSlot(const clang::Expr *object) {
  using Result = std::optional<Address>;
  object = stripTemporaries(object); // (and `const` added)
  if (const auto *member = dyn_cast<clang::MemberExpr>(object);
      member && isa<clang::FieldDecl>(member->getMemberDecl()))
    return fieldSlot(member);
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(object)) {
    if (invalid.count(ref->getDecl()))
      return std::nullopt;
    if (auto it = pointers.find(ref->getDecl());
        it != pointers.end() && it->second.addressSlot)
      return Address{it->second.addressSlot, constantIndex(0, loc(object))};
    // A reference to one: the slot it is bound to; a parameter by value:
    // the caller's temporary, which the Itanium ABI passes by address.
    if (auto bound = places.find(ref->getDecl());
        bound != places.end() &&
        (ref->getDecl()->getType()->isReferenceType() ||
         isa<clang::ParmVarDecl>(ref->getDecl())))
      return bound->second;
  }
  // An element (of a std::vector or an array of them): its slot.
  if (isOwnedElement(object))
    return lowerLValue(object);
  return unsupported<Result>(
      object, "this std::unique_ptr cannot be reset, moved or released in "
              "differentiable code (local variables, members of classes and "
              "elements of vectors and arrays can)");
}

bool FunctionLowering::isOwnedElement(const clang::Expr *object) {
  const clang::Expr *stripped = stripTemporaries(object);
  return object->isGLValue() &&
         (isa<clang::ArraySubscriptExpr>(stripped) ||
          (isa<clang::CallExpr>(stripped) &&
           !isa<clang::CXXBindTemporaryExpr>(stripped)) ||
          (isa<clang::UnaryOperator>(stripped) &&
           cast<clang::UnaryOperator>(stripped)->getOpcode() ==
               clang::UO_Deref));
}

void FunctionLowering::destroyUniquePointer(clang::QualType type, Address slot,
                                            const clang::Stmt *where) {
  if (std::optional<Address> owned =
          loadAddress(slot, ModuleLowering::getOwnedPointerType(type), where))
    freeOwned(type, *owned, where);
}

/// The deleter's call operator that takes the owned pointer (of type
/// `pointer`): the one function, the overload taking exactly that type, or
/// the instance of a template (a generic lambda's) that std::unique_ptr's
/// destructor made C++ instantiate.
static const clang::CXXMethodDecl *
deleterCallOperator(const clang::CXXRecordDecl *deleter,
                    clang::QualType pointer) {
  clang::ASTContext &ast = deleter->getASTContext();
  SmallVector<const clang::CXXMethodDecl *> candidates;
  for (const clang::NamedDecl *decl : deleter->lookup(
           ast.DeclarationNames.getCXXOperatorName(clang::OO_Call))) {
    if (const auto *method = dyn_cast<clang::CXXMethodDecl>(decl))
      candidates.push_back(method);
    else if (const auto *generic = dyn_cast<clang::FunctionTemplateDecl>(decl))
      for (const clang::FunctionDecl *instance : generic->specializations())
        candidates.push_back(cast<clang::CXXMethodDecl>(instance));
  }
  llvm::erase_if(candidates, [](const clang::CXXMethodDecl *method) {
    return method->getNumParams() != 1 || !method->hasBody();
  });
  if (candidates.size() == 1)
    return candidates.front();
  auto exact = llvm::make_filter_range(
      candidates, [&](const clang::CXXMethodDecl *method) {
        return ast.hasSameUnqualifiedType(
            method->getParamDecl(0)->getType().getNonReferenceType(), pointer);
      });
  return llvm::range_size(exact) == 1 ? *exact.begin() : nullptr;
}

bool FunctionLowering::callDeleter(const clang::CXXRecordDecl *deleter,
                                   clang::QualType pointer, Address owned,
                                   const clang::Stmt *where) {
  const clang::CXXMethodDecl *callOperator =
      deleterCallOperator(deleter, pointer);
  const auto *expr = dyn_cast_or_null<clang::Expr>(where);
  if (!callOperator || !expr) {
    module.error(where ? where->getSourceRange() : deleter->getSourceRange(),
                 "the deleter '" + deleter->getQualifiedNameAsString() +
                     "' of this std::unique_ptr cannot be followed in "
                     "differentiable code: give it one call operator taking "
                     "the pointer");
    return false;
  }
  // Its body in place, its parameter bound to the memory owned (the
  // deleter is an empty class: its object holds nothing to bind).
  const clang::ParmVarDecl *param = callOperator->getParamDecl(0);
  SavedBindings saved;
  saveBindings(param, saved);
  fixedPointers[param] = owned;
  std::optional<CallResult> called =
      inlineBody(expr, callOperator, {nullptr}, nullptr);
  restoreBindings(saved);
  return called.has_value();
}

void FunctionLowering::freeOwned(clang::QualType type, Address owned,
                                 const clang::Stmt *where) {
  Location l = loc(where);
  // A deleter of the program's: called when the pointer is not null, as
  // std::unique_ptr calls it; it destroys and frees (or not) itself.
  if (const clang::CXXRecordDecl *deleter =
          ModuleLowering::getUniqueDeleter(type)) {
    emitIfNotNull(owned.memref, l, [&] {
      callDeleter(deleter, ModuleLowering::getOwnedPointerType(type), owned,
                  where);
    });
    return;
  }
  clang::QualType pointee = ModuleLowering::getUniquePointee(type);
  if (!pointee->isArrayType() && module.mayNeedDestruction(pointee)) {
    // The object first, as its destructor would (a vector it holds frees
    // its memory), when there is one.
    emitIfNotNull(owned.memref, l, [&] {
      destroyDynamicObject(pointee, owned, dyn_cast<clang::Expr>(where),
                           nullptr);
    });
  }
  // As std::default_delete frees: `delete[]` for an array, else `delete`
  // (the aligned form for an over-aligned type).
  auto freed = memref::DeallocOp::create(b, l, owned.memref);
  freed->setAttr(ct::kHeapFunctionAttr,
                 b.getStringAttr(pointee->isArrayType() ? "operator delete[]"
                                                        : "operator delete"));
  if (std::optional<int64_t> over =
          overAlignment(ast.getBaseElementType(pointee), ast))
    freed->setAttr(ct::kHeapAlignmentAttr, b.getI64IntegerAttr(*over));
}

bool FunctionLowering::constructOwner(clang::QualType type, Address at,
                                      std::optional<Address> source, bool move,
                                      const clang::Stmt *where) {
  Location l = loc(where);
  const auto *expr = dyn_cast<clang::Expr>(where);
  std::optional<Address> owned =
      source ? loadAddress(*source, ModuleLowering::getOwnedPointerType(type),
                           where)
             : nullOwned(type, expr);
  if (!owned)
    return false;
  Value kept = materialize(*owned, l);
  if (source && move) {
    std::optional<Address> null = nullOwned(type, expr);
    if (!null)
      return false;
    keepAddress(*null, *source, l);
  }
  keepAddress(Address{kept, constantIndex(0, l)}, at, l);
  return true;
}

std::optional<Address> FunctionLowering::nullOwned(clang::QualType type,
                                                   const clang::Expr *where) {
  std::optional<Layout> layout = elementLayoutOf(
      ModuleLowering::getOwnedPointerType(type)->getPointeeType(), where);
  if (!layout)
    return std::nullopt;
  return nullAddress(layout->scalar, loc(where));
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerUniquePointerCall(const clang::CallExpr *expr,
                                         const clang::CXXMethodDecl *method,
                                         const clang::Expr *object,
                                         ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  clang::QualType type = ast.getCanonicalTagType(method->getParent());
  clang::QualType element =
      ModuleLowering::getOwnedPointerType(type)->getPointeeType();
  StringRef name = method->getIdentifier() ? method->getName() : "";
  clang::OverloadedOperatorKind op = method->getOverloadedOperator();
  // What it owns changes: reset, release, assignment, swap.
  if (name == "reset" || name == "release" || name == "swap" ||
      op == clang::OO_Equal)
    return changeUniquePointer(expr, type, object, args);
  if (isa<clang::CXXConversionDecl>(method)) {
    // `if (p)`: whether it owns memory, as for a pointer.
    Value isNull;
    if (isOwnedElement(object)) {
      std::optional<Address> slot = lowerLValue(object);
      std::optional<Address> owned =
          slot ? loadAddress(*slot, ModuleLowering::getOwnedPointerType(type),
                             expr)
               : std::nullopt;
      if (owned)
        isNull = arith::CmpIOp::create(
            b, l, arith::CmpIPredicate::eq,
            memref::ExtractAlignedPointerAsIndexOp::create(b, l, owned->memref),
            constantIndex(0, l));
    } else {
      isNull = lowerNullTest(object);
    }
    if (!isNull)
      return std::nullopt;
    return CallResult{
        arith::XOrIOp::create(
            b, l, isNull, arith::ConstantOp::create(b, l, b.getBoolAttr(true))),
        std::nullopt};
  }
  if (op != clang::OO_Subscript && op != clang::OO_Star &&
      op != clang::OO_Arrow && name != "get")
    return unsupported<Result>(
        expr, "std::unique_ptr's '" + method->getNameAsString() +
                  "' is not supported in differentiable code; use [], *, "
                  "->, get(), reset, release, assignment and swap");
  std::optional<Address> pointer;
  if (isOwnedElement(object)) {
    std::optional<Address> slot = lowerLValue(object);
    pointer = slot ? loadAddress(
                         *slot, ModuleLowering::getOwnedPointerType(type), expr)
                   : std::nullopt;
  } else {
    pointer = lowerPointer(object);
  }
  if (!pointer)
    return std::nullopt;
  if (op != clang::OO_Subscript)
    return CallResult{nullptr, pointer};
  Value i = lowerElementIndex(expr, args[0], /*checkAgainst=*/nullptr);
  std::optional<Layout> layout = layoutOf(element, expr);
  if (!i || !layout)
    return std::nullopt;
  if (layout->size != 1)
    i = arith::MulIOp::create(b, l, i, constantIndex(layout->size, l));
  return CallResult{nullptr, offsetBy(*pointer, i, l)};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::changeUniquePointer(const clang::CallExpr *expr,
                                      clang::QualType type,
                                      const clang::Expr *object,
                                      ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  const auto *method = cast<clang::CXXMethodDecl>(expr->getCalleeDecl());
  StringRef name = method->getIdentifier() ? method->getName() : "";
  clang::QualType pointer = ModuleLowering::getOwnedPointerType(type);
  // What it will own, made first (`p = std::make_unique<...>(n)`,
  // `p.reset(new T[n])`, `p = std::move(q)`).
  std::optional<Address> next;
  if (name == "reset" && !args.empty() &&
      ownsThroughLaterBase(args[0]->IgnoreParenImpCasts(),
                           getUniquePointee(type)))
    return std::nullopt;
  if (name == "reset")
    next = args.empty() || isNullPointer(args[0], ast) ? nullOwned(type, expr)
                                                       : lowerPointer(args[0]);
  else if (name == "release")
    next = nullOwned(type, expr);
  else if (name != "swap")
    next = lowerOwnedSource(args[0], type);
  std::optional<Address> slot = uniquePointerSlot(object);
  if (!slot || (name != "swap" && !next))
    return std::nullopt;
  std::optional<Address> owned = loadAddress(*slot, pointer, expr);
  if (!owned)
    return std::nullopt;
  if (name == "swap") {
    std::optional<Address> other = uniquePointerSlot(args[0]);
    std::optional<Address> theirs =
        other ? loadAddress(*other, pointer, expr) : std::nullopt;
    if (!theirs)
      return std::nullopt;
    ct::StoreAddressOp::create(b, l, materialize(*owned, l), other->memref,
                               other->offset);
    ct::StoreAddressOp::create(b, l, materialize(*theirs, l), slot->memref,
                               slot->offset);
    return CallResult{};
  }
  keepAddress(*next, *slot, l);
  if (name == "release")
    return CallResult{nullptr, owned};
  freeOwned(type, *owned, expr);
  if (name == "reset")
    return CallResult{};
  return CallResult{nullptr, slot};
}

} // namespace cotangent::frontend
