//===- StdVector.cpp - std::vector as its elements ------------------------===//
//
// A std::vector in differentiable code is modelled by its interface, not
// by lowering the standard library's implementation (allocators, iterator
// classes, exceptions; different in libstdc++ and libc++): the vector is
// the 1-D memref of its elements' scalars, and its extent is its size.
// Parameters view the caller's vector (the derivative entry points read the
// two pointers every standard library keeps, see getVectorPointerOffsets);
// local vectors are memref.alloc'd and freed when their scope ends. The
// member functions that read or write elements (`[]`, `at`, `size`,
// `data`, `front`, `back`, `begin`, `end`, copies) are lowered here
// directly; those that change a local vector's size give it new memory
// where that is safe (resizeVector). The AD engine sees ordinary memory.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

//===----------------------------------------------------------------------===//
// The type
//===----------------------------------------------------------------------===//

clang::QualType ModuleLowering::getVectorElementType(clang::QualType type) {
  const auto *spec = dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      type.getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || !spec->isInStdNamespace() || spec->getName() != "vector" ||
      spec->getTemplateArgs().size() < 1)
    return {};
  clang::QualType element =
      spec->getTemplateArgs()[0].getAsType().getCanonicalType();
  // std::vector<bool> keeps bits, not elements: a library object kept as
  // compiled (its values carry no derivative).
  if (element->isBooleanType())
    return {};
  return element;
}

/// Appends the byte offsets of the fields of type `pointer` inside `record`
/// (at `base`), through bases and member objects, in layout order.
static void collectPointerFields(clang::ASTContext &ast,
                                 const clang::CXXRecordDecl *record,
                                 int64_t base, clang::QualType pointer,
                                 SmallVectorImpl<int64_t> &offsets) {
  const clang::ASTRecordLayout &layout = ast.getASTRecordLayout(record);
  for (const clang::CXXBaseSpecifier &spec : record->bases())
    if (const auto *baseRecord = spec.getType()->getAsCXXRecordDecl())
      collectPointerFields(
          ast, baseRecord,
          base + layout.getBaseClassOffset(baseRecord).getQuantity(), pointer,
          offsets);
  for (const clang::FieldDecl *field : record->fields()) {
    int64_t at = base + ast.toCharUnitsFromBits(
                               layout.getFieldOffset(field->getFieldIndex()))
                            .getQuantity();
    clang::QualType type = field->getType().getCanonicalType();
    if (ast.hasSameUnqualifiedType(type, pointer))
      offsets.push_back(at);
    else if (const auto *member = type->getAsCXXRecordDecl();
             member && member->hasDefinition())
      collectPointerFields(ast, member, at, pointer, offsets);
  }
}

std::optional<std::pair<int64_t, int64_t>>
ModuleLowering::getVectorPointerOffsets(clang::QualType vector,
                                        clang::SourceRange range) {
  // libstdc++, libc++ and Microsoft's library all keep exactly three
  // pointers to the element type: first, end, end of capacity.
  clang::QualType element = getVectorElementType(vector);
  const clang::CXXRecordDecl *record =
      vector.getCanonicalType()->getAsCXXRecordDecl();
  SmallVector<int64_t> offsets;
  if (record->hasDefinition())
    collectPointerFields(ast, record->getDefinition(), 0,
                         ast.getPointerType(element), offsets);
  if (offsets.size() != 3 || offsets[0] >= offsets[1]) {
    error(range, "this standard library's std::vector does not keep its "
                 "elements as Cotangent expects (three pointers); pass the "
                 "elements as a pointer and a size");
    return std::nullopt;
  }
  return std::make_pair(offsets[0], offsets[1]);
}

MemRefType ModuleLowering::getVectorType(clang::QualType vector,
                                         clang::SourceRange range,
                                         const Twine &what) {
  clang::QualType element = getVectorElementType(vector);
  if (const auto *record = element->getAsCXXRecordDecl();
      record && ownsMemory(record)) {
    error(range, what + " is a std::vector of '" + element.getAsString() +
                     "', a class that owns memory, which differentiable "
                     "code does not support yet (its elements' destructors "
                     "would not run); keep the objects in variables");
    return nullptr;
  }
  // Pointers and references in the elements are followed in vectors the
  // function creates (IndirectFields.cpp), vectors in them nowhere.
  std::optional<Layout> layout = getLayout(element, range, what);
  if (layout &&
      llvm::any_of(layout->indirect, [&](const Layout::IndirectField &field) {
        return !getVectorElementType(field.type).isNull();
      })) {
    error(range, what + " is a vector of '" + element.getAsString() +
                     "', which holds vectors; differentiable code does not "
                     "support vectors of structs holding vectors yet");
    return nullptr;
  }
  return layout ? getPointerType(layout->scalar) : nullptr;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

void forEachIndex(OpBuilder &b, Location l, Value count,
                  function_ref<void(Value)> body) {
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Value one = arith::ConstantIndexOp::create(b, l, 1);
  auto loop = scf::ForOp::create(b, l, zero, count, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

Value FunctionLowering::lowerElementIndex(const clang::CallExpr *expr,
                                          const clang::Expr *arg,
                                          Value checkAgainst) {
  Value i = lowerRValue(arg);
  if (!i)
    return nullptr;
  Location l = loc(expr);
  i = index(i, arg->getType(), l);
  if (checkAgainst)
    // C++ throws std::out_of_range; differentiable code has no exceptions,
    // so the program ends with the message it would print.
    abortIf(
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, i, checkAgainst),
        expr, "std::vector::at: index out of range");
  return i;
}

Value FunctionLowering::vectorSize(Address vector, clang::QualType type,
                                   Location l) {
  std::optional<Layout> element = module.getLayout(
      ModuleLowering::getVectorElementType(type), {}, "an element");
  Value scalars = scalarsFrom(vector, l);
  if (!element || element->size == 1)
    return scalars;
  return arith::DivUIOp::create(b, l, scalars, constantIndex(element->size, l));
}

std::optional<Address>
FunctionLowering::allocateVector(clang::QualType type, Value count,
                                 clang::SourceRange range) {
  Location l = module.getLoc(range.getBegin());
  MemRefType pointerType = module.getVectorType(type, range, "this vector");
  std::optional<Layout> element = module.getLayout(
      ModuleLowering::getVectorElementType(type), range, "an element");
  if (!pointerType || !element)
    return std::nullopt;
  Value scalars = count;
  if (element->size != 1)
    scalars =
        arith::MulIOp::create(b, l, count, constantIndex(element->size, l));
  Value memory = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, element->scalar),
      ValueRange{scalars});
  Value view = memref::CastOp::create(b, l, pointerType, memory);
  cleanups.push_back(view);
  if (const clang::VarDecl *var = std::exchange(vectorBeingDeclared, nullptr))
    markAddressHolder(var, memory);
  if (std::exchange(vectorKeepsAllAddresses, false))
    keepAllAddresses(memory, *element);
  return Address{view, constantIndex(0, l)};
}

void FunctionLowering::emitCleanups(size_t depth, Location l, Value kept) {
  if (isTerminated())
    return;
  // (A destructor's body may declare and clean up locals of its own.)
  SmallVector<Value> pending(ArrayRef(cleanups).drop_front(depth));
  for (Value memory : llvm::reverse(pending)) {
    if (memory == kept)
      continue;
    if (auto growing = growingSlots.find(memory);
        growing != growingSlots.end()) {
      // A vector whose memory changed at run time: what it has now.
      memref::DeallocOp::create(b, l,
                                ct::LoadAddressOp::create(b, l, growing->second,
                                                          memory,
                                                          constantIndex(0, l)));
      continue;
    }
    if (auto object = objectCleanups.find(memory);
        object != objectCleanups.end()) {
      destroyObject(object->second.first, Address{memory, constantIndex(0, l)},
                    object->second.second);
      continue;
    }
    if (auto object = destructors.find(memory); object != destructors.end()) {
      // The destructor's body in place.
      inlineBody(object->second.second, object->second.first, {}, nullptr, {},
                 Address{memory, constantIndex(0, l)});
      continue;
    }
    auto cast = memory.getDefiningOp<memref::CastOp>();
    memref::DeallocOp::create(b, l, cast ? cast.getSource() : memory);
  }
}

void FunctionLowering::pinVectors(const clang::Stmt *expr) {
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr);
      ref && vectorBlocks.count(ref->getDecl()))
    pinnedVectors.insert(ref->getDecl());
  for (const clang::Stmt *child : expr->children())
    if (child)
      pinVectors(child);
}

/// Whether `ctor` takes (first, last) iterators or pointers.
static bool isRangeConstructor(const clang::CXXConstructorDecl *ctor) {
  return ctor->getNumParams() >= 2 &&
         ctor->getParamDecl(0)->getType().getCanonicalType() ==
             ctor->getParamDecl(1)->getType().getCanonicalType() &&
         !ctor->getParamDecl(0)->getType()->isIntegerType() &&
         !ctor->getParamDecl(0)->getType()->isReferenceType();
}

std::optional<Address> FunctionLowering::copyVector(Address source,
                                                    clang::QualType sourceType,
                                                    clang::QualType type,
                                                    clang::SourceRange range) {
  Location l = module.getLoc(range.getBegin());
  Value count = vectorSize(source, sourceType, l);
  std::optional<Address> vector = allocateVector(type, count, range);
  std::optional<Layout> element = module.getLayout(
      ModuleLowering::getVectorElementType(type), range, "this vector");
  if (!vector || !element)
    return std::nullopt;
  copyElements(*vector, source, memref::DimOp::create(b, l, vector->memref, 0),
               *element, l);
  return vector;
}

std::optional<Address>
FunctionLowering::vectorFromList(const clang::CXXStdInitializerListExpr *list,
                                 clang::QualType type, clang::SourceRange range,
                                 const Layout &element) {
  Location l = module.getLoc(range.getBegin());
  // {a, b, c}: the array the list refers to, copied.
  const clang::Expr *array = list->getSubExpr();
  std::optional<Address> values =
      array->isGLValue() ? lowerLValue(array) : materializeTemporary(array);
  const auto *arrayType = ast.getAsConstantArrayType(array->getType());
  if (!values || !arrayType)
    return std::nullopt;
  int64_t count = arrayType->getSize().getZExtValue();
  std::optional<Address> vector =
      allocateVector(type, constantIndex(count, l), range);
  if (!vector)
    return std::nullopt;
  if (isObjectPointer(
          ModuleLowering::getVectorElementType(type.getCanonicalType()))) {
    // Pointers: each designates what the list's does (pointers in memory
    // are followed by what was bound to them, not by their bits).
    for (int64_t i = 0; i < count; ++i) {
      std::optional<Address> target = followStoredPointer(
          offsetBy(*values, i, l),
          ModuleLowering::getVectorElementType(type.getCanonicalType()), list);
      if (!target ||
          !bindIndirectField(offsetBy(*vector, i, l), *target, list, nullptr))
        return std::nullopt;
    }
    return vector;
  }
  // (Structs holding pointers: each copied as an object, its pointers
  // designating what the list's designate.)
  if (!element.indirect.empty()) {
    for (int64_t i = 0; i < count; ++i)
      if (!copyObject(offsetBy(*vector, i * element.size, l),
                      offsetBy(*values, i * element.size, l), element, list))
        return std::nullopt;
    return vector;
  }
  copyElements(*vector, *values, count * element.size, element, l);
  return vector;
}

std::optional<Address> FunctionLowering::vectorFromRange(
    const clang::Expr *where, ArrayRef<const clang::Expr *> args,
    clang::QualType type, clang::SourceRange range, const Layout &element) {
  Location l = module.getLoc(range.getBegin());
  std::optional<IteratorRange> elements =
      lowerIteratorRange(args[0], args[1], element.size);
  if (!elements)
    return std::nullopt;
  std::optional<Address> vector = allocateVector(type, elements->count, range);
  if (vector)
    copyRange(*vector, *elements, element, l);
  return vector;
}

std::optional<Address>
FunctionLowering::sizedVector(const clang::CXXConstructExpr *construct,
                              ArrayRef<const clang::Expr *> args,
                              clang::QualType type, clang::SourceRange range,
                              const Layout &element) {
  using Result = std::optional<Address>;
  Location l = module.getLoc(range.getBegin());
  clang::QualType elementType = ModuleLowering::getVectorElementType(type);
  const clang::Expr *first = args[0];
  // (n) value-initializes n elements; (n, value) copies value into each.
  Value n = lowerRValue(first);
  if (!n)
    return std::nullopt;
  Value count = index(n, first->getType(), l);
  std::optional<Address> value;
  if (args.size() == 2) {
    value = args[1]->isGLValue() ? lowerLValue(args[1])
                                 : materializeTemporary(args[1]);
    if (!(value = unpacked(value, args[1])))
      return std::nullopt;
  }
  Result vector = allocateVector(type, count, range);
  if (!vector)
    return std::nullopt;
  // Value-initialization runs the constructor (or the default member
  // initializers); only trivially constructible elements are zeros.
  if (!value && constructsElements(elementType))
    return valueInitializeEach(construct, elementType, *vector, count)
               ? vector
               : std::nullopt;
  Value zero = arith::ConstantOp::create(b, l, element.scalar,
                                         b.getZeroAttr(element.scalar));
  bool copied = true;
  forEachIndex(b, l, count, [&](Value i) {
    Value at =
        element.size == 1
            ? i
            : arith::MulIOp::create(b, l, i, constantIndex(element.size, l))
                  .getResult();
    Address slot = offsetBy(*vector, at, l);
    // (A struct holding pointers: each copy designates what the value's
    // pointers designate, as a copy of the object does.)
    if (value && !element.indirect.empty())
      copied &= copyObject(slot, *value, element, construct);
    else if (value)
      copySlots(slot, *value, element, 0, element.size, l);
    else
      for (int64_t k = 0; k < element.size; ++k)
        store(zero, offsetBy(slot, k, l), l);
  });
  return copied ? vector : std::nullopt;
}

std::optional<Address> FunctionLowering::constructVector(
    const clang::CXXConstructExpr *construct, clang::QualType type,
    clang::SourceRange range, const Layout &element) {
  using Result = std::optional<Address>;
  Location l = module.getLoc(range.getBegin());
  const clang::CXXConstructorDecl *ctor = construct->getConstructor();
  // The explicit arguments (a defaulted allocator is not one).
  SmallVector<const clang::Expr *> args;
  for (const clang::Expr *arg : construct->arguments())
    if (!isa<clang::CXXDefaultArgExpr>(arg))
      args.push_back(arg);
  if (args.empty())
    return allocateVector(type, constantIndex(0, l), range);
  const clang::Expr *first = args[0];
  clang::QualType firstType = ctor->getParamDecl(0)->getType();
  if (ctor->isCopyOrMoveConstructor()) {
    std::optional<Address> source = lowerLValue(first);
    return source ? copyVector(*source, first->getType(), type, range)
                  : std::nullopt;
  }
  if (const auto *list =
          dyn_cast<clang::CXXStdInitializerListExpr>(strip(first)))
    return vectorFromList(list, type, range, element);
  if (isRangeConstructor(ctor))
    return vectorFromRange(construct, args, type, range, element);
  if (firstType->isIntegerType() && args.size() <= 2)
    return sizedVector(construct, args, type, range, element);
  return unsupported<Result>(construct, "this std::vector constructor is not "
                                        "supported; construct it with a "
                                        "size, a size and a value, a list "
                                        "of values or a copy");
}

std::optional<Address>
FunctionLowering::createVector(const clang::Expr *init, clang::QualType type,
                               clang::SourceRange range) {
  using Result = std::optional<Address>;
  Location l = module.getLoc(range.getBegin());
  clang::QualType elementType = ModuleLowering::getVectorElementType(type);
  std::optional<Layout> element =
      module.getLayout(elementType, range, "an element of this vector");
  if (!element)
    return std::nullopt;
  if (!init)
    return allocateVector(type, constantIndex(0, l), range);
  init = strip(init);
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(init))
    return createVector(temporary->getSubExpr(), type, range);
  if (const auto *bind = dyn_cast<clang::CXXBindTemporaryExpr>(init))
    return createVector(bind->getSubExpr(), type, range);
  if (const auto *cast = dyn_cast<clang::CastExpr>(init);
      cast && (cast->getCastKind() == clang::CK_NoOp ||
               cast->getCastKind() == clang::CK_ConstructorConversion))
    return createVector(cast->getSubExpr(), type, range);
  if (init->isGLValue()) {
    std::optional<Address> source = lowerLValue(init);
    return source ? copyVector(*source, init->getType(), type, range)
                  : std::nullopt;
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(init)) {
    // A function returning a vector: its memory, owned here from now on.
    std::optional<CallResult> result = lowerCall(call, std::nullopt);
    if (!result || !result->address)
      return std::nullopt;
    return result->address;
  }
  const auto *construct = dyn_cast<clang::CXXConstructExpr>(init);
  if (!construct)
    return unsupported<Result>(init, "this way of creating a std::vector is "
                                     "not supported; construct it with a "
                                     "size, a size and a value, a list of "
                                     "values or a copy");
  return constructVector(construct, type, range, *element);
}

//===----------------------------------------------------------------------===//
// Member functions
//===----------------------------------------------------------------------===//

std::optional<FunctionLowering::CallResult> FunctionLowering::lowerVectorCall(
    const clang::CallExpr *expr, const clang::CXXMethodDecl *method,
    const clang::Expr *object, bool arrow, ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  clang::QualType type = ast.getCanonicalTagType(method->getParent());
  std::optional<Layout> element =
      module.getLayout(ModuleLowering::getVectorElementType(type),
                       expr->getSourceRange(), "an element of this vector");
  if (!element)
    return std::nullopt;
  StringRef name = method->getIdentifier() ? method->getName() : "";
  bool isAssignment =
      method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator();
  // A vector whose memory changes at run time (GrowingVectors.cpp), also
  // through a helper's pointer parameter bound to one (`out->push_back`).
  if (GrowingVector *growing = growingVectorOf(object);
      growing && (changesVectorMemory(method) || name == "capacity"))
    return lowerGrowingVectorCall(expr, method, *growing, args);
  if (isAssignment || name == "resize" || name == "assign" || name == "clear" ||
      name == "reserve")
    return resizeVector(expr, object, method, args);
  if (name == "push_back" || name == "emplace_back" || name == "pop_back")
    return growVector(expr, object, name, args);
  if (name == "shrink_to_fit")
    return CallResult{}; // a request the library may ignore
  if (name == "swap" && args.size() == 1)
    return swapVectors(expr, object, arrow, args[0], *element);
  std::optional<Address> vector =
      arrow ? lowerPointer(object) : lowerLValue(object);
  if (!vector)
    return std::nullopt;
  auto elementAt = [&](Value i) {
    if (element->size != 1)
      i = arith::MulIOp::create(b, l, i, constantIndex(element->size, l));
    return offsetBy(*vector, i, l);
  };
  auto resultOf = [&](Value indexValue) -> Value {
    Type resultType = typeOf(expr);
    return resultType
               ? arith::IndexCastUIOp::create(b, l, resultType, indexValue)
                     .getResult()
               : nullptr;
  };
  Value size = vectorSize(*vector, type, l);
  clang::OverloadedOperatorKind op = method->getOverloadedOperator();
  if (op == clang::OO_Subscript || name == "at") {
    Value i = lowerElementIndex(expr, args[0], name == "at" ? size : nullptr);
    if (!i)
      return std::nullopt;
    return CallResult{nullptr, elementAt(i)};
  }
  if (name == "size")
    return CallResult{resultOf(size), {}};
  if (name == "empty")
    return CallResult{arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            size, constantIndex(0, l)),
                      {}};
  if (name == "data" || name == "front" || name == "begin" || name == "cbegin")
    return CallResult{nullptr, *vector};
  if (name == "back")
    return CallResult{nullptr, elementAt(arith::SubIOp::create(
                                   b, l, size, constantIndex(1, l)))};
  if (name == "end" || name == "cend")
    return CallResult{nullptr, elementAt(size)};
  if (name == "rbegin" || name == "crbegin")
    return reverseIteratorAt(expr, elementAt(size));
  if (name == "rend" || name == "crend")
    return reverseIteratorAt(expr, *vector);
  if (name == "capacity") {
    const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(object));
    auto sized = ref ? vectorSizes.find(ref->getDecl()) : vectorSizes.end();
    if (sized == vectorSizes.end())
      return CallResult{resultOf(size), {}};
    Value capacity =
        memref::DimOp::create(b, l, places.lookup(ref->getDecl()).memref, 0);
    if (element->size != 1)
      capacity = arith::DivUIOp::create(b, l, capacity,
                                        constantIndex(element->size, l));
    return CallResult{resultOf(capacity), {}};
  }
  if (name == "insert" || name == "emplace" || name == "erase")
    return unsupported<Result>(
        expr, "'" + name +
                  "' moves the elements of a std::vector, which "
                  "differentiable code does not support; build a "
                  "new vector, or assign v[i]");
  return unsupported<Result>(expr, "std::vector's '" +
                                       method->getNameAsString() +
                                       "' is not supported in differentiable "
                                       "code");
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::swapVectors(const clang::CallExpr *expr,
                              const clang::Expr *object, bool arrow,
                              const clang::Expr *other, const Layout &element) {
  // Element by element: a vector's memory is fixed where it is created,
  // and a swap in a loop (double buffering) would otherwise exchange it
  // at run time. Pointers in the elements would point into the other
  // vector's arrays, which this does not follow.
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  if (!element.indirect.empty())
    return unsupported<Result>(expr, "swapping vectors of structs holding "
                                     "pointers is not supported; swap "
                                     "indices into them instead");
  std::optional<Address> first =
      arrow ? lowerPointer(object) : lowerLValue(object);
  std::optional<Address> second = lowerLValue(other);
  if (!first || !second)
    return std::nullopt;
  Value scalars = scalarsFrom(*first, l);
  abortIf(arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, scalars,
                                scalarsFrom(*second, l)),
          expr,
          "std::vector::swap of vectors of different sizes, which "
          "differentiable code swaps element by element; swap vectors "
          "of one size");
  if (!element.narrow.empty()) {
    // Through a copy, so that each part moves in its own type.
    auto type = MemRefType::get({ShapedType::kDynamic}, element.scalar);
    Address saved{memref::AllocOp::create(b, l, type, ValueRange{scalars}),
                  constantIndex(0, l)};
    copyElements(saved, *first, scalars, element, l);
    copyElements(*first, *second, scalars, element, l);
    copyElements(*second, saved, scalars, element, l);
    memref::DeallocOp::create(b, l, saved.memref);
    return CallResult{};
  }
  forEachIndex(b, l, scalars, [&](Value i) {
    Address a = offsetBy(*first, i, l), c = offsetBy(*second, i, l);
    Value fromFirst = load(a, l);
    store(load(c, l), a, l);
    store(fromFirst, c, l);
  });
  return CallResult{};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::assignVectorInPlace(const clang::CallExpr *expr,
                                      const clang::Expr *object,
                                      const clang::Expr *source) {
  Location l = loc(expr);
  // `v = w` elsewhere keeps v's memory: the sizes must agree.
  std::optional<Address> from = lowerLValue(source);
  std::optional<Address> target = lowerLValue(object);
  std::optional<Layout> element = module.getLayout(
      ModuleLowering::getVectorElementType(
          object->getType().getNonReferenceType().getCanonicalType()),
      expr->getSourceRange(), "an element of this vector");
  if (!from || !target || !element)
    return std::nullopt;
  Value sourceScalars = scalarsFrom(*from, l);
  Value targetScalars = scalarsFrom(*target, l);
  abortIf(arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, sourceScalars,
                                targetScalars),
          expr,
          "a std::vector assigned inside a loop or branch changed "
          "its size, which differentiable code does not support");
  copyElements(*target, *from, targetScalars, *element, l);
  return CallResult{nullptr, target};
}

std::optional<Address> FunctionLowering::reserveVector(
    const clang::CallExpr *expr, clang::QualType type, const Layout &element,
    const clang::Expr *n, Address old, Address knownSize, Address &sizeSlot) {
  Location l = loc(expr);
  std::optional<Address> fresh;
  // New memory of the capacity asked for (or of the size, if larger),
  // holding the elements; push_back fills it.
  Value count = lowerRValue(n);
  if (!count)
    return std::nullopt;
  Value size = vectorSize(old, type, l);
  Value capacity =
      arith::MaxUIOp::create(b, l, index(count, n->getType(), l), size);
  fresh = allocateVector(type, capacity, expr->getSourceRange());
  if (!fresh)
    return std::nullopt;
  copyElements(*fresh, old,
               memref::DimOp::create(b, l, old.memref, 0).getResult(), element,
               l);
  sizeSlot = knownSize.memref ? knownSize : newIndexSlot(size, l);
  return fresh;
}

std::optional<Address> FunctionLowering::refillVector(
    const clang::CallExpr *expr, clang::QualType type, const Layout &element,
    StringRef name, ArrayRef<const clang::Expr *> args, Address old) {
  using Result = std::optional<Address>;
  Location l = loc(expr);
  std::optional<Address> fresh;
  // resize keeps the first elements; assign replaces them all.
  Value n = lowerRValue(args[0]);
  std::optional<Address> value;
  if (args.size() == 2)
    value = unpacked(args[1]->isGLValue() ? lowerLValue(args[1])
                                          : materializeTemporary(args[1]),
                     args[1]);
  if (!n || (args.size() == 2 && !value))
    return std::nullopt;
  Value count = index(n, args[0]->getType(), l);
  fresh = allocateVector(type, count, expr->getSourceRange());
  if (!fresh)
    return std::nullopt;
  Value kept =
      name == "resize"
          ? arith::MinUIOp::create(b, l, vectorSize(old, type, l), count)
                .getResult()
          : constantIndex(0, l);
  Value scalarsPer = constantIndex(element.size, l);
  Value keptScalars = arith::MulIOp::create(b, l, kept, scalarsPer);
  copyElements(*fresh, old, keptScalars, element, l);
  if (clang::QualType elementType = ModuleLowering::getVectorElementType(type);
      !value && constructsElements(elementType))
    return valueInitializeEach(expr, elementType,
                               offsetBy(*fresh, keptScalars, l),
                               arith::SubIOp::create(b, l, count, kept))
               ? fresh
               : std::nullopt;
  Value zero = arith::ConstantOp::create(b, l, element.scalar,
                                         b.getZeroAttr(element.scalar));
  forEachIndex(b, l, arith::SubIOp::create(b, l, count, kept), [&](Value j) {
    Value i = arith::AddIOp::create(b, l, j, kept);
    Address slot =
        offsetBy(*fresh, arith::MulIOp::create(b, l, i, scalarsPer), l);
    if (value)
      copySlots(slot, *value, element, 0, element.size, l);
    else
      for (int64_t k = 0; k < element.size; ++k)
        store(zero, offsetBy(slot, k, l), l);
  });
  return fresh;
}

void FunctionLowering::replaceVectorMemory(
    const clang::ValueDecl *var, std::optional<std::pair<Value, int64_t>> field,
    Address memory, Address fresh, StringRef name, Address sizeSlot,
    int64_t elementSize, Location l) {
  // The old memory is freed now; the new one takes its place in the scope.
  if (field) {
    PointerVariable &binding = indirectFields[*field];
    binding.memref = fresh.memref;
    binding.sizeSlot = name == "reserve" ? sizeSlot : Address{};
    binding.elementSize = elementSize;
  } else if (name == "reserve") {
    vectorSizes[var] = sizeSlot;
  } else {
    vectorSizes.erase(var);
  }
  Value oldView = memory.memref;
  auto oldCast = oldView.getDefiningOp<memref::CastOp>();
  memref::DeallocOp::create(b, l, oldCast ? oldCast.getSource() : oldView);
  assert(cleanups.back() == fresh.memref && "the new memory was made last");
  cleanups.pop_back();
  std::replace(cleanups.begin(), cleanups.end(), oldView, fresh.memref);
  if (var)
    places[var] = fresh;
}

std::optional<FunctionLowering::CallResult> FunctionLowering::resizeVector(
    const clang::CallExpr *expr, const clang::Expr *object,
    const clang::CXXMethodDecl *method, ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  clang::QualType type = ast.getCanonicalTagType(method->getParent());
  const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(object));
  const clang::ValueDecl *var = ref ? ref->getDecl() : nullptr;
  // Or a vector field of an object the function names, which gets new
  // memory where it was created (not in a branch or loop since).
  std::optional<std::pair<Value, int64_t>> field =
      var ? std::nullopt : vectorFieldOf(object);
  auto home = var ? vectorBlocks.find(var) : vectorBlocks.end();
  bool isAssignment =
      method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator();
  const auto *statement = dyn_cast_or_null<clang::Expr>(currentStatement);
  bool inPlace = var ? home != vectorBlocks.end() &&
                           home->second == currentBlock &&
                           !pinnedVectors.contains(var)
                     : field && indirectFields[*field].depth == controlDepth;
  if (!inPlace || !statement || strip(statement) != expr) {
    if (!isAssignment)
      return unsupported<Result>(
          expr, "a std::vector can change its size only as a statement of "
                "the block that declares it, and only while no reference or "
                "pointer designates it; create it with its final size "
                "instead");
    return assignVectorInPlace(expr, object, args[0]);
  }
  // The memory (for a growing vector, its capacity) and the elements.
  std::optional<Layout> elementLayout =
      module.getLayout(ModuleLowering::getVectorElementType(type),
                       expr->getSourceRange(), "an element of this vector");
  if (!elementLayout)
    return std::nullopt;
  Address memory, old, knownSize;
  if (var) {
    memory = places.lookup(var);
    old = vectorSizes.count(var) ? currentElements(var, l) : memory;
    knownSize = vectorSizes.lookup(var);
  } else {
    PointerVariable binding = indirectFields.lookup(*field);
    memory = Address{binding.memref, constantIndex(0, l)};
    old = binding.sizeSlot.memref
              ? firstElements(binding.memref, binding.sizeSlot,
                              binding.elementSize, l)
              : memory;
    knownSize = binding.sizeSlot;
  }
  std::optional<Address> fresh;
  StringRef name = method->getIdentifier() ? method->getName() : "";
  Address sizeSlot;
  if (name == "reserve") {
    fresh = reserveVector(expr, type, *elementLayout, args[0], old, knownSize,
                          sizeSlot);
  } else if (isAssignment) {
    fresh = createVector(args[0], type, expr->getSourceRange());
  } else if (name == "clear") {
    fresh = allocateVector(type, constantIndex(0, l), expr->getSourceRange());
  } else if (name == "resize" || (name == "assign" && args.size() == 2 &&
                                  args[0]->getType()->isIntegerType())) {
    fresh = refillVector(expr, type, *elementLayout, name, args, old);
  } else if (name == "assign" && args.size() == 2) {
    // assign(first, last): a vector of the range's elements.
    fresh = vectorFromRange(expr, args, type, expr->getSourceRange(),
                            *elementLayout);
  } else if (const clang::CXXStdInitializerListExpr *list =
                 name == "assign" && args.size() == 1 ? initializerList(args[0])
                                                      : nullptr) {
    fresh = vectorFromList(list, type, expr->getSourceRange(), *elementLayout);
  } else {
    return unsupported<Result>(expr,
                               "this form of '" + name + "' is not supported");
  }
  if (!fresh)
    return std::nullopt;
  replaceVectorMemory(var, field, memory, *fresh, name, sizeSlot,
                      elementLayout->size, l);
  return CallResult{nullptr, *fresh};
}

Address FunctionLowering::currentElements(const clang::ValueDecl *var,
                                          Location l) {
  clang::QualType type = var->getType().getNonReferenceType();
  std::optional<Layout> element = module.getLayout(
      ModuleLowering::getVectorElementType(type), {}, "an element");
  return firstElements(places.lookup(var).memref, vectorSizes.lookup(var),
                       element ? element->size : 1, l);
}

Address FunctionLowering::firstElements(Value memory, Address sizeSlot,
                                        int64_t elementSize, Location l) {
  Value scalars = load(sizeSlot, l);
  if (elementSize != 1)
    scalars =
        arith::MulIOp::create(b, l, scalars, constantIndex(elementSize, l));
  Value view = memref::SubViewOp::create(
      b, l, memory, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{scalars},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return Address{view, constantIndex(0, l)};
}

/// Whether an argument of type `arg` initializes a parameter of type
/// `param` without a user-defined conversion.
static bool passesDirectly(clang::ASTContext &ast, clang::QualType param,
                           clang::QualType arg) {
  param = param.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  arg = arg.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (ast.hasSameType(param, arg))
    return true;
  if (param->isArithmeticType() && arg->isArithmeticType())
    return true;
  return param->isPointerType() && arg->isPointerType() &&
         ast.hasSameUnqualifiedType(param->getPointeeType(),
                                    arg->getPointeeType());
}

const clang::CXXConstructorDecl *
FunctionLowering::constructorFor(clang::QualType type,
                                 ArrayRef<const clang::Expr *> args) {
  // `emplace_back(args...)` forwards to T(args...) inside the library:
  // the constructor template's instantiation for the forwarded arguments
  // (`T(U&&...)`), or else the one constructor with a body that takes the
  // arguments as they are.
  const auto *record = type->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition())
    return nullptr;
  SmallVector<const clang::CXXConstructorDecl *> candidates(record->ctors());
  for (const clang::Decl *member : record->decls())
    if (const auto *tmpl = dyn_cast<clang::FunctionTemplateDecl>(member))
      for (const clang::FunctionDecl *spec : tmpl->specializations())
        if (const auto *ctor = dyn_cast<clang::CXXConstructorDecl>(spec))
          candidates.push_back(ctor);
  auto forwarded = [&](const clang::Expr *arg) {
    clang::QualType type = arg->getType();
    return arg->isLValue() ? ast.getLValueReferenceType(type)
                           : ast.getRValueReferenceType(type);
  };
  // (Constructors with bodies first: a class template's constructor that
  // nothing used has none.)
  const clang::CXXConstructorDecl *found[2] = {nullptr, nullptr};
  bool ambiguous[2] = {false, false};
  for (const clang::CXXConstructorDecl *ctor : candidates) {
    if (ctor->isDeleted() || ctor->isCopyOrMoveConstructor() ||
        ctor->getNumParams() < args.size() ||
        ctor->getMinRequiredArguments() > args.size())
      continue;
    bool hasBody = ctor->hasBody();
    bool exact = hasBody && ctor->getPrimaryTemplate() &&
                 ctor->getNumParams() == args.size();
    bool fits = true;
    for (auto [param, arg] : llvm::zip(ctor->parameters(), args)) {
      fits &= passesDirectly(ast, param->getType(), arg->getType());
      exact &= ast.hasSameType(param->getType(), forwarded(arg));
    }
    if (exact)
      return ctor;
    if (!fits)
      continue;
    ambiguous[hasBody] |= found[hasBody] != nullptr;
    found[hasBody] = ctor;
  }
  // Ambiguous here: construct the element explicitly.
  for (int withBody : {1, 0})
    if (found[withBody])
      return ambiguous[withBody] ? nullptr : found[withBody];
  return nullptr;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::unfollowedGrowth(const clang::CallExpr *expr, StringRef name,
                                   bool named) {
  // (Library code holding the vector's address: std::back_inserter's
  // iterator, which a reserve does not help.)
  if (!named && ast.getSourceManager().isInSystemHeader(expr->getBeginLoc()))
    return unsupported<std::optional<CallResult>>(
        expr, "'" + name +
                  "' grows a std::vector through its address kept in a "
                  "library object (a std::back_insert_iterator), which "
                  "differentiable code cannot follow; push_back to the "
                  "vector by its name in a loop, or size it first and write "
                  "through its begin()");
  return unsupported<std::optional<CallResult>>(
      expr, "'" + name +
                "' grows this std::vector, which differentiable code "
                "supports for local vectors of numbers, pointers or "
                "structs of them that no reference designates, and "
                "otherwise within the capacity reserved beforehand: call "
                "v.reserve(n) where v is declared (or create it with its "
                "final size and assign v[i])");
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::growVector(const clang::CallExpr *expr,
                             const clang::Expr *object, StringRef name,
                             ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(object));
  auto sized = ref ? vectorSizes.find(ref->getDecl()) : vectorSizes.end();
  std::optional<std::pair<Value, int64_t>> field =
      ref ? std::nullopt : vectorFieldOf(object);
  bool fieldSized = field && indirectFields[*field].sizeSlot.memref;
  if (sized == vectorSizes.end() && !fieldSized)
    return unfollowedGrowth(expr, name, /*named=*/ref || field);
  clang::QualType type = strip(object)->getType().getNonReferenceType();
  if (const auto *pointer = type->getAs<clang::PointerType>())
    type = pointer->getPointeeType();
  clang::QualType elementType = ModuleLowering::getVectorElementType(type);
  std::optional<Layout> element =
      module.getLayout(elementType, expr->getSourceRange(), "an element");
  if (!element)
    return std::nullopt;
  Address sizeSlot = field ? indirectFields[*field].sizeSlot : sized->second;
  Value size = load(sizeSlot, l);
  if (name == "pop_back") {
    abortIf(arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, size,
                                  constantIndex(0, l)),
            expr, "std::vector::pop_back: the vector is empty");
    store(arith::SubIOp::create(b, l, size, constantIndex(1, l)), sizeSlot, l);
    return CallResult{};
  }
  // The new element, evaluated before the vector changes.
  std::optional<Address> value, pointer;
  Value scalar;
  const clang::CXXConstructorDecl *ctor = nullptr;
  if (args.size() == 1 && isObjectPointer(elementType)) {
    pointer = lowerPointer(args[0]);
    if (!pointer)
      return std::nullopt;
  } else if (name == "emplace_back" &&
             (ctor = constructorFor(elementType, args))) {
    // Constructed in place (after the check of the capacity, below).
  } else if (args.size() == 1 && !isAggregate(elementType)) {
    scalar = lowerRValue(args[0]);
    if (scalar)
      scalar = convert(scalar, args[0]->getType(), elementType, l);
  } else if (args.size() == 1 &&
             ast.hasSameUnqualifiedType(args[0]->getType(), elementType)) {
    value = unpacked(args[0]->isGLValue() ? lowerLValue(args[0])
                                          : materializeTemporary(args[0]),
                     args[0]);
  } else {
    return unsupported<Result>(expr, "'" + name +
                                         "' with these arguments "
                                         "is not supported; pass one value of "
                                         "the element type");
  }
  if (!scalar && !value && !pointer && !ctor)
    return std::nullopt;
  Address memory =
      field ? Address{indirectFields[*field].memref, constantIndex(0, l)}
            : places.lookup(ref->getDecl());
  Value capacity = memref::DimOp::create(b, l, memory.memref, 0);
  Value scalarsPer = constantIndex(element->size, l);
  Value first = arith::MulIOp::create(b, l, size, scalarsPer);
  abortIf(
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, first, capacity),
      expr,
      "std::vector::" + name +
          ": beyond the capacity reserved, which differentiable "
          "code cannot grow; reserve more");
  Address slot = offsetBy(memory, first, l);
  if (scalar)
    store(scalar, slot, l);
  else if (pointer && !bindIndirectField(slot, *pointer, expr, nullptr))
    return std::nullopt;
  else if (ctor && !emitCall(expr, ctor, slot, args, std::nullopt))
    return std::nullopt;
  else if (value && !copyObject(slot, *value, *element, expr))
    return std::nullopt;
  store(arith::AddIOp::create(b, l, size, constantIndex(1, l)), sizeSlot, l);
  if (name == "emplace_back")
    return CallResult{nullptr, slot}; // C++17: a reference to the element
  return CallResult{};
}

} // namespace cotangent::frontend
