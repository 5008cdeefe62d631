//===- VectorObjectCalls.cpp - Member functions of vectors in memory ------===//
//
// The constructors and member functions of a std::vector kept in memory
// (VectorObjects.cpp), as the standard specifies them, on its three
// addresses.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace cotangent::frontend {

void FunctionLowering::clearVectorObject(const VectorObject &vector,
                                         Location l) {
  Value null =
      LLVM::ZeroOp::create(b, l, LLVM::LLVMPointerType::get(b.getContext()));
  Value view = ct::PointerViewOp::create(b, l, vector.view, null);
  for (int64_t slot : {vector.first, vector.end, vector.capacity}) {
    Address at = offsetBy(vector.holder, slot, l);
    ct::StoreAddressOp::create(b, l, view, at.memref, at.offset);
  }
}

void FunctionLowering::moveVectorAddresses(const VectorObject &vector,
                                           const VectorObject &source,
                                           Location l) {
  for (auto [to, from] :
       llvm::zip_equal(vector.addressSlots(), source.addressSlots())) {
    Address at = offsetBy(source.holder, from, l);
    Value address =
        ct::LoadAddressOp::create(b, l, vector.view, at.memref, at.offset);
    Address into = offsetBy(vector.holder, to, l);
    ct::StoreAddressOp::create(b, l, address, into.memref, into.offset);
  }
  clearVectorObject(source, l);
}

bool FunctionLowering::constructVectorObject(
    const clang::CXXConstructExpr *expr, Address dest) {
  Location l = loc(expr);
  std::optional<VectorObject> vector =
      vectorObjectAt(dest, expr->getType(), expr);
  if (!vector)
    return false;
  const clang::CXXConstructorDecl *ctor = expr->getConstructor();
  SmallVector<const clang::Expr *> args;
  for (const clang::Expr *arg : expr->arguments())
    if (!isa<clang::CXXDefaultArgExpr>(arg))
      args.push_back(arg);
  if (ctor->isCopyOrMoveConstructor() && !args.empty() &&
      isVectorObjectExpr(args[0])) {
    std::optional<VectorObject> source = vectorObjectOf(args[0], expr);
    if (!source)
      return false;
    if (ctor->isMoveConstructor()) {
      // The addresses move; the source is left empty.
      moveVectorAddresses(*vector, *source, l);
      return true;
    }
    clearVectorObject(*vector, l);
    return copyVectorObject(expr, *vector, *source);
  }
  clearVectorObject(*vector, l);
  if (args.empty())
    return true;
  if (const clang::CXXStdInitializerListExpr *list =
          args.size() == 1 ? initializerList(args[0]) : nullptr)
    return fillVectorObjectFromList(*vector, list, expr);
  // std::vector<T>(first, last): the range inserted.
  if (args.size() == 2 && !args[0]->getType()->isIntegerType())
    return insertManyIntoVectorObject(expr, *vector, expr->getType(),
                                      constantIndex(0, l), args)
        .has_value();
  // std::vector<T>(n) and std::vector<T>(n, value).
  if (!args[0]->getType()->isIntegerType() || args.size() > 2)
    return unsupported<bool>(expr, "this constructor of a std::vector of '" +
                                       vector->element.getAsString() +
                                       "' is not supported; construct it "
                                       "empty, or with a size, and fill it");
  return resizeToSizeAndValue(*vector, args, expr);
}

bool FunctionLowering::fillVectorObjectFromList(
    const VectorObject &vector, const clang::CXXStdInitializerListExpr *list,
    const clang::Stmt *where) {
  const clang::Expr *array = list->getSubExpr()->IgnoreImplicit();
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(array))
    array = temporary->getSubExpr()->IgnoreImplicit();
  const auto *values = dyn_cast<clang::InitListExpr>(array);
  if (!values || !hasElementLayout(vector, where, "made"))
    return unsupported<bool>(list, "this list cannot make the elements of a "
                                   "std::vector of '" +
                                       vector.element.getAsString() + "'");
  Location l = loc(where);
  reserveVectorObject(vector, constantIndex(values->getNumInits(), l), where);
  Value elements = vectorObjectElements(vector, l);
  for (auto [i, value] : llvm::enumerate(values->inits())) {
    Address at = vectorObjectElement(vector, elements, constantIndex(i, l), l);
    if (vector.holdsRows()) {
      if (!initializeVectorInMemory(value, vector.element, at))
        return false;
      continue;
    }
    std::optional<Address> source =
        value->isGLValue() ? lowerLValue(value) : materializeTemporary(value);
    if (!source || !constructElement(vector, at, source, /*move=*/false, value))
      return false;
  }
  setVectorObjectSlot(vector, vector.end, elements,
                      constantIndex(values->getNumInits(), l), l);
  return true;
}

bool FunctionLowering::copyVectorObject(const clang::Stmt *where,
                                        const VectorObject &vector,
                                        const VectorObject &from) {
  // What it holds destroyed, then each element copied (C++ lets a library
  // reuse the elements; copying anew gives the same values).
  Location l = loc(where);
  if (!hasElementLayout(from, where, "copied"))
    return false;
  if (!resizeVectorObject(vector, constantIndex(0, l), std::nullopt, where))
    return false;
  Value count = vectorObjectCount(from, from.end, l);
  reserveVectorObject(vector, count, where);
  Value elements = vectorObjectElements(vector, l);
  Value sources = vectorObjectElements(from, l);
  bool ok = true;
  emitCountedLoop(l, count, [&](Value i) {
    ok &= constructElement(vector, vectorObjectElement(vector, elements, i, l),
                           vectorObjectElement(from, sources, i, l),
                           /*move=*/false, where);
  });
  setVectorObjectSlot(vector, vector.end, elements, count, l);
  return ok;
}

Value FunctionLowering::areDistinctVectorObjects(Address a, Address c,
                                                 Location l) {
  // Told apart by their addresses (slots of 8 bytes, vectorObjectAt).
  auto position = [&](Address at) -> Value {
    int64_t viewOffset =
        cast<MemRefType>(at.memref.getType()).getStridesAndOffset().second;
    Value start =
        ShapedType::isDynamic(viewOffset)
            ? memref::ExtractStridedMetadataOp::create(b, l, at.memref)
                  .getOffset()
            : constantIndex(viewOffset, l);
    Value slots = arith::AddIOp::create(b, l, start, at.offset);
    int64_t slotBytes =
        cast<MemRefType>(at.memref.getType()).getElementTypeBitWidth() / 8;
    return arith::AddIOp::create(
        b, l, memref::ExtractAlignedPointerAsIndexOp::create(b, l, at.memref),
        arith::MulIOp::create(b, l, slots, constantIndex(slotBytes, l)));
  };
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, position(a),
                               position(c));
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::assignVectorObject(const clang::CallExpr *expr,
                                     const VectorObject &vector,
                                     const clang::Expr *source) {
  Location l = loc(expr);
  std::optional<VectorObject> from = vectorObjectOf(source, expr);
  if (!from)
    return std::nullopt;
  // `v = v` leaves v as it is: the copy runs only between two objects.
  bool ok = true;
  emitIf(l, areDistinctVectorObjects(vector.holder, from->holder, l),
         [&] { ok = copyVectorObject(expr, vector, *from); });
  if (!ok)
    return std::nullopt;
  return CallResult{nullptr, vector.holder};
}

std::optional<Address> FunctionLowering::makeElementAside(
    const clang::CallExpr *expr, const VectorObject &vector,
    ArrayRef<const clang::Expr *> args, bool emplace) {
  using Result = std::optional<Address>;
  if (!hasElementLayout(vector, expr, "made"))
    return std::nullopt;
  if (vector.holdsRows())
    return makeRowAside(expr, vector, args);
  std::optional<Address> made =
      allocate(vector.element, expr->getSourceRange(), "this element");
  if (!made)
    return std::nullopt;
  // A std::unique_ptr: the address of what it owns (from `new`,
  // std::make_unique, another one moved from, or nothing).
  if (!ModuleLowering::getUniquePointee(vector.element).isNull()) {
    std::optional<Address> owned =
        args.empty() ? nullOwned(vector.element, expr)
        : args[0]->getType()->isPointerType()
            ? lowerPointer(args[0])
            : lowerOwnedSource(args[0], vector.element);
    if (!owned)
      return std::nullopt;
    keepAddress(*owned, *made, loc(expr));
    return made;
  }
  bool sameType = args.size() == 1 &&
                  ast.hasSameUnqualifiedType(
                      args[0]->getType().getNonReferenceType(), vector.element);
  // A number is copied by value: its argument need not be memory (a place
  // chosen at run time, `c ? x : y`, whose derivative a loop's reverse
  // sweep would need).
  if (!emplace && args.size() == 1 && vector.element->isArithmeticType()) {
    Value value = lowerRValue(args[0]);
    if (!value)
      return std::nullopt;
    store(value, *made, loc(args[0]));
    return made;
  }
  if (!emplace || sameType || args.empty()) {
    std::optional<Address> source;
    if (!args.empty() && !(source = lowerLValue(args[0])))
      return std::nullopt;
    bool move = !args.empty() && (args[0]->isXValue() || args[0]->isPRValue());
    if (!constructElement(vector, *made, source, move, expr))
      return std::nullopt;
    return made;
  }
  const clang::CXXConstructorDecl *ctor = constructorFor(vector.element, args);
  if (!ctor)
    return unsupported<Result>(expr, "no constructor of '" +
                                         vector.element.getAsString() +
                                         "' takes these arguments as they "
                                         "are");
  if (!inlineBody(expr, ctor, args, nullptr, {}, *made))
    return std::nullopt;
  return made;
}

std::optional<Address>
FunctionLowering::placeElement(const clang::Expr *expr,
                               const VectorObject &vector, Address made,
                               Value at) {
  // Room for one more, the elements from `at` on moved up by one (the last
  // first), and the element made aside moved in.
  Location l = loc(expr);
  Value size = vectorObjectCount(vector, vector.end, l);
  Value grown = arith::AddIOp::create(b, l, size, constantIndex(1, l));
  reserveVectorObject(vector, grown, expr);
  Value elements = vectorObjectElements(vector, l);
  bool ok = true;
  emitCountedLoop(l, arith::SubIOp::create(b, l, size, at), [&](Value j) {
    Value to = arith::SubIOp::create(b, l, size, j);
    Value from = arith::SubIOp::create(b, l, to, constantIndex(1, l));
    ok &= relocateElement(vector, vectorObjectElement(vector, elements, to, l),
                          vectorObjectElement(vector, elements, from, l), expr);
  });
  Address slot = vectorObjectElement(vector, elements, at, l);
  if (!ok || !relocateElement(vector, slot, made, expr))
    return std::nullopt;
  setVectorObjectSlot(vector, vector.end, elements, grown, l);
  return slot;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::insertManyIntoVectorObject(
    const clang::Expr *expr, const VectorObject &vector, clang::QualType type,
    Value at, ArrayRef<const clang::Expr *> source) {
  // insert(pos, n, value), insert(pos, first, last) or insert(pos, list):
  // each new element made aside (a copy of the value, or of the range's
  // next element), then moved in after the ones before it.
  using Result = std::optional<CallResult>;
  if (!hasElementLayout(vector, expr, "made"))
    return std::nullopt;
  Location l = loc(expr);
  std::optional<Address> made = allocateElement(vector, expr);
  if (!made)
    return std::nullopt;
  Value count;
  std::optional<Address> value;
  std::optional<IteratorRange> range;
  std::optional<VectorObject> listed;
  bool counted = source[0]->getType()->isIntegerType();
  if (const clang::CXXStdInitializerListExpr *list =
          source.size() == 1 ? initializerList(source[0]) : nullptr) {
    // The list's elements, made first: they may be this vector's.
    if (!(listed = listVectorObject(expr, type, list)))
      return std::nullopt;
    count = vectorObjectCount(*listed, listed->end, l);
    range = IteratorRange{vectorObjectElement(*listed,
                                              vectorObjectElements(*listed, l),
                                              constantIndex(0, l), l),
                          count};
  } else if (counted) {
    // The value copied first: it may be an element of this vector, whose
    // memory growth frees.
    count = index(lowerRValue(source[0]), source[0]->getType(), l);
    if (vector.holdsRows()) {
      if (!(value = makeRowAside(expr, vector, {source[1]})))
        return std::nullopt;
    } else {
      std::optional<Address> copied = lowerLValue(source[1]);
      value = allocate(vector.element, expr->getSourceRange(), "this element");
      if (!copied || !value ||
          !constructElement(vector, *value, copied, /*move=*/false, expr))
        return std::nullopt;
    }
  } else {
    // (A range of another vector: the standard forbids one of this one.)
    range = lowerIteratorRange(source[0], source[1], vector.elementSlots);
    if (!range)
      return std::nullopt;
    count = range->count;
  }
  bool ok = true;
  emitCountedLoop(l, count, [&](Value k) {
    std::optional<Address> from =
        counted ? value : rangeElement(*range, k, vector.elementSlots, l);
    ok = ok && constructElement(vector, *made, from, /*move=*/false, expr) &&
         placeElement(expr, vector, *made, arith::AddIOp::create(b, l, at, k));
  });
  if (!ok)
    return Result{};
  if (counted)
    destroyObject(vector.element, *value, expr);
  if (listed)
    destroyObject(type, listed->holder, expr);
  return CallResult{
      nullptr,
      vectorObjectElement(vector, vectorObjectElements(vector, l), at, l)};
}

Value FunctionLowering::vectorObjectPosition(const VectorObject &vector,
                                             const clang::Expr *iterator) {
  // An iterator is an address in the elements (Iterators.cpp): its offset
  // from the first, in elements.
  std::optional<Address> at = lowerIterator(iterator);
  if (!at)
    return nullptr;
  Location l = loc(iterator);
  return arith::DivUIOp::create(b, l, at->offset,
                                constantIndex(vector.elementSlots, l));
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::eraseFromVectorObject(const clang::CallExpr *expr,
                                        const VectorObject &vector,
                                        ArrayRef<const clang::Expr *> args) {
  // The erased elements destroyed, the later ones moved down over them
  // (the first first).
  Location l = loc(expr);
  Value first = vectorObjectPosition(vector, args[0]);
  Value last = args.size() > 1
                   ? vectorObjectPosition(vector, args[1])
                   : arith::AddIOp::create(b, l, first, constantIndex(1, l));
  if (!first || !last || !vector.layout)
    return std::nullopt;
  Value elements = vectorObjectElements(vector, l);
  Value size = vectorObjectCount(vector, vector.end, l);
  Value gap = arith::SubIOp::create(b, l, last, first);
  emitCountedLoop(l, gap, [&](Value j) {
    destroyObject(vector.element,
                  vectorObjectElement(vector, elements,
                                      arith::AddIOp::create(b, l, first, j), l),
                  expr);
  });
  bool ok = true;
  emitCountedLoop(l, arith::SubIOp::create(b, l, size, last), [&](Value j) {
    Value to = arith::AddIOp::create(b, l, first, j);
    Value from = arith::AddIOp::create(b, l, last, j);
    ok &= relocateElement(vector, vectorObjectElement(vector, elements, to, l),
                          vectorObjectElement(vector, elements, from, l), expr);
  });
  if (!ok)
    return std::nullopt;
  setVectorObjectSlot(vector, vector.end, elements,
                      arith::SubIOp::create(b, l, size, gap), l);
  return CallResult{nullptr, vectorObjectElement(vector, elements, first, l)};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::moveAssignVectorObject(const clang::CallExpr *expr,
                                         const VectorObject &vector,
                                         clang::QualType type,
                                         const clang::Expr *source) {
  // The source first (`m = product(m, a)` reads m), then the vector's own
  // elements destroyed and freed, the source's addresses taken and the
  // source left empty; `v = std::move(v)` leaves v as it is.
  Location l = loc(expr);
  std::optional<VectorObject> other = vectorObjectOf(source, expr);
  if (!other)
    return std::nullopt;
  emitIf(l, areDistinctVectorObjects(vector.holder, other->holder, l), [&] {
    destroyObject(type, vector.holder, expr);
    moveVectorAddresses(vector, *other, l);
  });
  return CallResult{nullptr, vector.holder};
}

std::optional<FunctionLowering::VectorObject>
FunctionLowering::listVectorObject(
    const clang::Expr *where, clang::QualType type,
    const clang::CXXStdInitializerListExpr *list) {
  std::optional<Layout> layout =
      module.getVectorInMemoryLayout(type, list->getSourceRange());
  std::optional<Address> holder =
      layout ? std::optional(allocateSlots(*layout, /*alignment=*/1, loc(list)))
             : std::nullopt;
  std::optional<VectorObject> made =
      holder ? vectorObjectAt(*holder, type, where) : std::nullopt;
  if (!made)
    return std::nullopt;
  clearVectorObject(*made, loc(list));
  if (!fillVectorObjectFromList(*made, list, where))
    return std::nullopt;
  return made;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::assignListToVectorObject(
    const clang::Expr *expr, const VectorObject &vector, clang::QualType type,
    const clang::CXXStdInitializerListExpr *list) {
  std::optional<VectorObject> made = listVectorObject(expr, type, list);
  if (!made)
    return std::nullopt;
  destroyObject(type, vector.holder, expr);
  moveVectorAddresses(vector, *made, loc(expr));
  return CallResult{nullptr, vector.holder};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerVectorObjectCall(const clang::CallExpr *expr,
                                        const clang::CXXMethodDecl *method,
                                        const clang::Expr *object, bool arrow,
                                        ArrayRef<const clang::Expr *> args) {
  std::optional<Address> holder =
      arrow ? lowerPointer(object) : lowerVectorHolder(object);
  if (!holder)
    return std::nullopt;
  clang::QualType type = arrow ? object->getType()->getPointeeType()
                               : object->getType().getNonReferenceType();
  std::optional<VectorObject> vector = vectorObjectAt(*holder, type, expr);
  if (!vector)
    return std::nullopt;
  std::string name = method->getIdentifier() ? method->getName().str() : "";
  bool reads =
      method->getOverloadedOperator() == clang::OO_Subscript ||
      llvm::is_contained({"size", "capacity", "empty", "at", "data", "front",
                          "back", "begin", "cbegin", "end", "cend", "rbegin",
                          "crbegin", "rend", "crend"},
                         name);
  if (reads)
    return readVectorObject(expr, method, *vector, name, args);
  // (A view of a vector of the memref model has no memory of its own to
  // change: its variable's size is an SSA value.)
  const auto *deref = dyn_cast<clang::UnaryOperator>(stripTemporaries(object));
  const clang::Expr *pointer = arrow ? object
                               : deref && deref->getOpcode() == clang::UO_Deref
                                   ? deref->getSubExpr()
                                   : nullptr;
  if (const auto *ref =
          pointer ? dyn_cast<clang::DeclRefExpr>(pointer->IgnoreParenImpCasts())
                  : nullptr;
      ref && viewsMemrefVectors(ref->getDecl()))
    return unsupported<std::optional<CallResult>>(
        expr, "'" + (name.empty() ? std::string("this operator") : name) +
                  "' cannot change the vector this pointer designates: it "
                  "may be a vector variable of the function (given by '&'), "
                  "whose size differentiable code does not change through "
                  "a pointer that also designates vectors kept in memory");
  if (ModuleLowering::holdsSharedPointers(vector->element) &&
      ct::isCallerMemory(vector->holder.memref))
    return unsupported<std::optional<CallResult>>(
        expr, "differentiable code cannot change a std::vector the caller "
              "passes whose elements hold std::shared_ptrs (their use counts "
              "are the library's); read it, and let the caller change it");
  return changeVectorObject(expr, method, *vector, type, name, args);
}

std::optional<FunctionLowering::CallResult> FunctionLowering::readVectorObject(
    const clang::CallExpr *expr, const clang::CXXMethodDecl *method,
    const VectorObject &vector, llvm::StringRef name,
    ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  clang::OverloadedOperatorKind op = method->getOverloadedOperator();
  Type resultType = nullptr;
  clang::QualType result = method->getReturnType().getCanonicalType();
  if (result->isIntegerType())
    resultType = b.getIntegerType(ast.getTypeSize(result));
  auto number = [&](Value count) {
    return CallResult{
        arith::IndexCastUIOp::create(b, l, resultType, count).getResult(), {}};
  };
  auto element = [&](Value i) -> Result {
    if (!hasElementLayout(vector, expr, "read"))
      return std::nullopt;
    return CallResult{
        nullptr,
        vectorObjectElement(vector, vectorObjectElements(vector, l), i, l)};
  };
  if (name == "size")
    return number(vectorObjectCount(vector, vector.end, l));
  if (name == "capacity")
    return number(vectorObjectCount(vector, vector.capacity, l));
  if (name == "empty")
    return CallResult{
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                              vectorObjectCount(vector, vector.end, l),
                              constantIndex(0, l)),
        {}};
  if (op == clang::OO_Subscript || name == "at") {
    Value i = lowerElementIndex(
        expr, args[0],
        name == "at" ? vectorObjectCount(vector, vector.end, l) : nullptr);
    return i ? element(i) : std::nullopt;
  }
  if (name == "data" || name == "front" || name == "begin" || name == "cbegin")
    return element(constantIndex(0, l));
  // An iterator is the pointer it wraps (Iterators.cpp).
  if (name == "end" || name == "cend")
    return element(vectorObjectCount(vector, vector.end, l));
  if (name == "back")
    return element(arith::SubIOp::create(
        b, l, vectorObjectCount(vector, vector.end, l), constantIndex(1, l)));
  if (name == "rbegin" || name == "crbegin" || name == "rend" ||
      name == "crend") {
    Result at = element(name.ends_with("begin")
                            ? vectorObjectCount(vector, vector.end, l)
                            : constantIndex(0, l));
    return at ? reverseIteratorAt(expr, *at->address) : std::nullopt;
  }
  return std::nullopt;
}

/// `assign(n, value)`: n copies of a value made aside first (it may be an
/// element of this vector), destroyed after when it owns memory.
std::optional<FunctionLowering::CallResult>
FunctionLowering::assignCopiesToVectorObject(
    const clang::CallExpr *expr, const VectorObject &vector,
    ArrayRef<const clang::Expr *> args) {
  Location l = loc(expr);
  Value count = index(lowerRValue(args[0]), args[0]->getType(), l);
  std::optional<Address> value =
      count ? makeElementAside(expr, vector, args.drop_front(), false)
            : std::nullopt;
  if (!value)
    return std::nullopt;
  bool ok =
      resizeVectorObject(vector, constantIndex(0, l), std::nullopt, expr) &&
      resizeVectorObject(vector, count, value, expr);
  if (ModuleLowering::elementNeedsDestruction(vector.element))
    destroyObject(vector.element, *value, expr);
  if (!ok)
    return std::nullopt;
  return CallResult{};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::swapVectorObjects(const clang::CallExpr *expr,
                                    const VectorObject &vector,
                                    const clang::Expr *with) {
  // The two vectors' addresses change places; no element moves.
  Location l = loc(expr);
  std::optional<VectorObject> other = vectorObjectOf(with, expr);
  if (!other)
    return std::nullopt;
  SmallVector<Value, 3> mine, theirs;
  for (auto [own, its] :
       llvm::zip_equal(vector.addressSlots(), other->addressSlots())) {
    Address at = offsetBy(vector.holder, own, l);
    mine.push_back(
        ct::LoadAddressOp::create(b, l, vector.view, at.memref, at.offset));
    Address there = offsetBy(other->holder, its, l);
    theirs.push_back(ct::LoadAddressOp::create(b, l, other->view, there.memref,
                                               there.offset));
  }
  for (auto [k, own, its] :
       llvm::enumerate(vector.addressSlots(), other->addressSlots())) {
    Address at = offsetBy(vector.holder, own, l);
    ct::StoreAddressOp::create(b, l, theirs[k], at.memref, at.offset);
    Address there = offsetBy(other->holder, its, l);
    ct::StoreAddressOp::create(b, l, mine[k], there.memref, there.offset);
  }
  return CallResult{};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::changeVectorObject(const clang::CallExpr *expr,
                                     const clang::CXXMethodDecl *method,
                                     const VectorObject &vector,
                                     clang::QualType type, llvm::StringRef name,
                                     ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  clang::OverloadedOperatorKind op = method->getOverloadedOperator();
  // A member function returning nothing: done, or an error.
  auto done = [](bool ok) { return ok ? Result(CallResult{}) : Result(); };
  if (name == "resize" || name == "clear")
    return done(resizeToSizeAndValue(vector, args, expr));
  if (name == "assign" && args.size() == 2 &&
      args[0]->getType()->isIntegerType())
    return assignCopiesToVectorObject(expr, vector, args);
  // assign(first, last): a clear, then the range.
  if (name == "assign" && args.size() == 2) {
    if (!hasElementLayout(vector, expr, "made or destroyed") ||
        !resizeVectorObject(vector, constantIndex(0, l), std::nullopt, expr))
      return std::nullopt;
    if (!insertManyIntoVectorObject(expr, vector, type, constantIndex(0, l),
                                    args))
      return std::nullopt;
    return CallResult{};
  }
  if (const clang::CXXStdInitializerListExpr *list =
          args.size() == 1 && (name == "assign" || op == clang::OO_Equal)
              ? initializerList(args[0])
              : nullptr) {
    if (!assignListToVectorObject(expr, vector, type, list))
      return std::nullopt;
    return name == "assign" ? CallResult{} : CallResult{nullptr, vector.holder};
  }
  if (name == "reserve") {
    if (!hasElementLayout(vector, expr, "moved"))
      return std::nullopt;
    reserveVectorObject(
        vector, index(lowerRValue(args[0]), args[0]->getType(), l), expr);
    return CallResult{};
  }
  if (name == "push_back" || name == "emplace_back" || name == "insert" ||
      name == "emplace") {
    // The new element is made first, aside (the argument may be an element
    // of this vector, whose memory growth frees), then moved in.
    bool atEnd = name == "push_back" || name == "emplace_back";
    // insert(pos, n, value), insert(pos, first, last), insert(pos, list).
    if (name == "insert" &&
        (args.size() == 3 || (args.size() == 2 && initializerList(args[1])))) {
      Value at = vectorObjectPosition(vector, args[0]);
      if (!at)
        return std::nullopt;
      return insertManyIntoVectorObject(expr, vector, type, at,
                                        args.drop_front());
    }
    Value at = atEnd ? vectorObjectCount(vector, vector.end, l)
                     : vectorObjectPosition(vector, args[0]);
    std::optional<Address> made =
        at ? makeElementAside(expr, vector, atEnd ? args : args.drop_front(),
                              StringRef(name).starts_with("emplace"))
           : std::nullopt;
    std::optional<Address> slot =
        made ? placeElement(expr, vector, *made, at) : std::nullopt;
    if (!slot)
      return std::nullopt;
    return name == "push_back" ? CallResult{} : CallResult{nullptr, slot};
  }
  if (name == "erase")
    return eraseFromVectorObject(expr, vector, args);
  if (name == "swap" && args.size() == 1 && isVectorObjectExpr(args[0]))
    return swapVectorObjects(expr, vector, args[0]);
  if (name == "pop_back") {
    Value size = vectorObjectCount(vector, vector.end, l);
    Value last = arith::SubIOp::create(b, l, size, constantIndex(1, l));
    return done(resizeVectorObject(vector, last, std::nullopt, expr));
  }
  if (op == clang::OO_Equal && isVectorObjectExpr(args[0])) {
    if (method->isMoveAssignmentOperator())
      return moveAssignVectorObject(expr, vector, type, args[0]);
    return assignVectorObject(expr, vector, args[0]);
  }
  // A vector field kept in memory given a vector of the memref model.
  if (op == clang::OO_Equal &&
      ast.hasSameUnqualifiedType(
          args[0]->getType().getNonReferenceType().getCanonicalType(), type)) {
    if (!assignVectorInMemory(vector, type, args[0]))
      return std::nullopt;
    return CallResult{nullptr, vector.holder};
  }
  return unsupported<Result>(
      expr,
      "'" + method->getNameAsString() + "' of a std::vector of '" +
          vector.element.getAsString() +
          "' is not supported in differentiable code; use size, "
          "empty, [], at, front, back, data, begin, end, resize, "
          "reserve, clear, push_back, emplace_back, insert, emplace, "
          "erase, pop_back, swap, assign (n copies or a range) and assignment");
}

} // namespace cotangent::frontend
