//===- Iterators.cpp - Pointer comparison and standard iterators ----------===//
//
// Loops written with pointers or iterators instead of an index:
// `for (p = a; p != a + n; ++p)`, `for (it = v.begin(); it != v.end();
// ++it)`, `end - begin`. A pointer is an offset in a memref, so comparing
// or subtracting two pointers into the same memref compares or subtracts
// their offsets.
//
// A standard library iterator over contiguous memory (std::vector's, in
// libstdc++ and libc++ alike a class holding one pointer) is lowered as
// that pointer: its variables are pointer variables and its operators
// (`*`, `->`, `[]`, `++`, `--`, `+`, `-`, `+=`, `-=`, comparisons) act on
// the offset, instead of lowering the library's wrapper class.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

bool ModuleLowering::isIteratorClass(clang::QualType type) {
  const auto *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition())
    return false;
  clang::IdentifierInfo &name =
      record->getASTContext().Idents.get("iterator_category");
  return !record->lookup(&name).empty();
}

clang::QualType ModuleLowering::getIteratorElementType(clang::QualType type) {
  const auto *record = type.getCanonicalType()->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition())
    return {};
  record = record->getDefinition();
  // The library's own wrapper: one pointer and nothing else, declared in a
  // system header (a user's class of that shape is lowered as written).
  if (!ast.getSourceManager().isInSystemHeader(record->getLocation()) ||
      record->getNumBases() != 0 || record->isPolymorphic())
    return {};
  auto fields = record->fields();
  if (std::distance(fields.begin(), fields.end()) != 1)
    return {};
  clang::QualType field = fields.begin()->getType().getCanonicalType();
  if (!field->isPointerType() || field->getPointeeType()->isFunctionType())
    return {};
  bool dereferences = llvm::any_of(record->methods(), [](auto *method) {
    return method->getOverloadedOperator() == clang::OO_Star;
  });
  // Its pointer must point at the elements themselves (`value_type`):
  // node-based iterators (std::list's, std::map's) hold a pointer to a
  // node, and stepping them is not pointer arithmetic.
  clang::QualType element = field->getPointeeType().getCanonicalType();
  bool pointsAtElements = false;
  for (clang::NamedDecl *member : record->lookup(&ast.Idents.get("value_type")))
    if (const auto *alias = dyn_cast<clang::TypedefNameDecl>(member))
      pointsAtElements = ast.hasSameUnqualifiedType(
          alias->getUnderlyingType().getCanonicalType(), element);
  return dereferences && pointsAtElements ? element : clang::QualType();
}

clang::QualType ModuleLowering::getIteratorPointerType(clang::QualType type) {
  if (type.isNull() || getIteratorElementType(type).isNull())
    return {};
  const auto *record = type.getCanonicalType()->getAsCXXRecordDecl();
  return record->getDefinition()->fields().begin()->getType();
}

std::optional<Address>
FunctionLowering::lowerIterator(const clang::Expr *expr) {
  using Result = std::optional<Address>;
  expr = strip(expr);
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return lowerIterator(temporary->getSubExpr());
  if (const auto *bind = dyn_cast<clang::CXXBindTemporaryExpr>(expr))
    return lowerIterator(bind->getSubExpr());
  if (const auto *cast = dyn_cast<clang::CastExpr>(expr))
    return lowerPointer(cast->getSubExpr());
  // std::move(it), std::forward<It>(it): the iterator itself.
  if (const clang::Expr *moved = castToReferenceArgument(expr))
    return lowerIterator(moved);
  if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(expr)) {
    // Copies, and iterator -> const_iterator conversions.
    if (construct->getNumArgs() == 1)
      return lowerPointer(construct->getArg(0));
    // `It it{};`: a value-initialized iterator holds a null pointer.
    if (construct->getNumArgs() == 0) {
      std::optional<Layout> element =
          layoutOf(getIteratorElement(expr->getType()), expr);
      if (!element)
        return std::nullopt;
      return nullAddress(element->scalar, loc(expr));
    }
    return unsupported<Result>(expr, "this iterator cannot be created in "
                                     "differentiable code; start from "
                                     "begin() or end()");
  }
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr)) {
    // A structured binding (`auto [lo, hi] = std::minmax_element(...)`):
    // the field it names.
    if (const auto *binding = dyn_cast<clang::BindingDecl>(ref->getDecl());
        binding && binding->getBinding())
      return lowerIterator(binding->getBinding());
    if (invalid.count(ref->getDecl()))
      return std::nullopt;
    if (auto it = pointers.find(ref->getDecl()); it != pointers.end())
      return Address{pointerMemory(ref->getDecl(), it->second, loc(expr)),
                     load(it->second.offsetSlot, loc(expr))};
    // A reference bound to an iterator kept in memory: what it holds.
    if (auto bound = places.find(ref->getDecl());
        bound != places.end() && ref->getDecl()->getType()->isReferenceType())
      return followStoredPointer(
          bound->second, module.getIteratorPointerType(expr->getType()), expr);
  }
  // An iterator field (a reverse_iterator's `current`): a pointer field.
  if (const auto *member = dyn_cast<clang::MemberExpr>(expr);
      member && isa<clang::FieldDecl>(member->getMemberDecl()))
    return lowerIndirectField(member);
  // A call returning a reference to an iterator kept in memory (`std::get`
  // of a pair of iterators): the pointer stored there.
  if (isa<clang::CallExpr>(expr) && expr->isGLValue() &&
      !isa<clang::CXXOperatorCallExpr>(expr)) {
    std::optional<Address> slot = lowerLValue(expr);
    if (!slot)
      return std::nullopt;
    return followStoredPointer(
        *slot, module.getIteratorPointerType(expr->getType()), expr);
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(expr)) {
    std::optional<CallResult> result = lowerCall(call, std::nullopt);
    if (!result)
      return std::nullopt;
    if (result->address)
      return result->address;
  }
  return unsupported<Result>(expr, "this iterator cannot be differentiated; "
                                   "use begin(), end() and iterator "
                                   "variables");
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::reverseIteratorAt(const clang::CallExpr *call,
                                    Address position) {
  // A std::reverse_iterator is a class holding the iterator one past the
  // element it designates (libc++ keeps a second copy), and its operators
  // are lowered from the library's code: the result is such an object
  // whose iterator fields all designate `position`.
  clang::QualType type = call->getType();
  std::optional<Layout> layout =
      module.getLayout(type, call->getSourceRange(), "this iterator");
  std::optional<Address> object =
      allocate(type, call->getSourceRange(), "this iterator");
  if (!layout || !object)
    return std::nullopt;
  for (const Layout::IndirectField &field : layout->indirect)
    if (!bindIndirectField(offsetBy(*object, field.slot, loc(call)), position,
                           call, field.decl))
      return std::nullopt;
  return CallResult{nullptr, *object};
}

std::optional<Address>
FunctionLowering::stepPointerVariable(const clang::Expr *variable, Value delta,
                                      bool backwards, bool returnOld) {
  using Result = std::optional<Address>;
  Location l = loc(variable);
  const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(variable));
  auto it = ref ? pointers.find(ref->getDecl()) : pointers.end();
  // A pointer field or element (an iterator class's `++p`): read, moved,
  // stored back.
  if (it == pointers.end() && variable->isGLValue() &&
      (variable->getType()->isPointerType() ||
       isIterator(variable->getType())) &&
      (!ref || ref->getDecl()->getType()->isReferenceType())) {
    std::optional<Address> old = lowerPointer(variable);
    if (!old)
      return std::nullopt;
    Address updated = moveBy(*old, delta, backwards, l);
    if (!storePointerAt(variable, updated, variable))
      return std::nullopt;
    return returnOld ? *old : updated;
  }
  if (it == pointers.end())
    return unsupported<Result>(variable, "only pointer and iterator "
                                         "variables can be moved");
  Address old{pointerMemory(ref->getDecl(), it->second, l),
              load(it->second.offsetSlot, l)};
  Address updated = moveBy(old, delta, backwards, l);
  setPointer(it->second, updated, l);
  return returnOld ? old : updated;
}

/// The scalars per element of the memory `pointer` (a pointer or an
/// iterator) steps through.
static std::optional<int64_t> elementScalars(ModuleLowering &module,
                                             const clang::Expr *pointer) {
  clang::QualType type = pointer->getType().getCanonicalType();
  clang::QualType element = type->isPointerType()
                                ? type->getPointeeType()
                                : module.getIteratorElementType(type);
  std::optional<Layout> layout = module.getLayoutInMemory(
      element, pointer->getSourceRange(), "this element");
  return layout ? std::optional<int64_t>(layout->size) : std::nullopt;
}

std::pair<Value, Value> FunctionLowering::memoryStart(Value memref,
                                                      Location l) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, l, memref);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, l, memref);
  return {base, metadata.getOffset()};
}

std::optional<std::pair<Value, Value>>
FunctionLowering::comparablePositions(Address left, Address right,
                                      const clang::Expr *where) {
  Location l = loc(where);
  if (left.memref == right.memref)
    return std::make_pair(left.offset, right.offset);
  // Different views (two parameters, a fixed-size array and a view of
  // it, an object's slots) of what may be the same memory: compare where
  // the elements are, in scalars from address 0, if the scalars have one
  // size.
  auto type = cast<MemRefType>(left.memref.getType());
  auto rightType = cast<MemRefType>(right.memref.getType());
  if (type.getElementTypeBitWidth() != rightType.getElementTypeBitWidth() ||
      type.getElementTypeBitWidth() % 8 != 0) {
    module.error(where->getSourceRange(),
                 "these pointers cannot be compared: they point at "
                 "different types");
    return std::nullopt;
  }
  auto position = [&](Address address) -> Value {
    auto [base, viewOffset] = memoryStart(address.memref, l);
    Value scalars = arith::DivUIOp::create(
        b, l, base, constantIndex(type.getElementTypeBitWidth() / 8, l));
    return arith::AddIOp::create(
        b, l, scalars, arith::AddIOp::create(b, l, viewOffset, address.offset));
  };
  return std::make_pair(position(left), position(right));
}

/// Whether a pointer to vectors of the memref model that designates
/// `memory` is null: only where it is the stand-in of `nullptr` (a vector
/// of no elements may have no memory, but a pointer to it is not null).
static Value vectorPointerNullTest(OpBuilder &b, Value memory,
                                   const llvm::DenseSet<Value> &nulls,
                                   Location l) {
  if (nulls.contains(memory))
    return arith::ConstantOp::create(b, l, b.getBoolAttr(true));
  if (auto cast = memory.getDefiningOp<memref::CastOp>())
    return vectorPointerNullTest(b, cast.getSource(), nulls, l);
  if (auto choice = memory.getDefiningOp<arith::SelectOp>())
    return arith::SelectOp::create(
        b, l, choice.getCondition(),
        vectorPointerNullTest(b, choice.getTrueValue(), nulls, l),
        vectorPointerNullTest(b, choice.getFalseValue(), nulls, l));
  return arith::ConstantOp::create(b, l, b.getBoolAttr(false));
}

Value FunctionLowering::lowerNullTest(const clang::Expr *pointer) {
  Location l = loc(pointer);
  // A helper's pointer parameter bound to a growing vector (an optional
  // output given `&v`) designates that vector.
  if (pointer->getType()->isPointerType() && growingVectorNamed(pointer))
    return arith::ConstantOp::create(b, l, b.getBoolAttr(false));
  // A pointer variable to vectors assigned at run time: its index says.
  if (const auto *ref =
          dyn_cast<clang::DeclRefExpr>(pointer->IgnoreParenImpCasts()))
    if (auto moving = movingPointers.find(ref->getDecl());
        moving != movingPointers.end() && moving->second.group)
      return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                   load(moving->second.which, l),
                                   constantIndex(kNullVectorIndex, l));
  std::optional<Address> address = lowerPointer(pointer);
  if (!address)
    return nullptr;
  if (pointer->getType()->isPointerType() &&
      ModuleLowering::isMemrefVector(
          pointer->getType()->getPointeeType().getCanonicalType()))
    return vectorPointerNullTest(b, address->memref, nullPointers, l);
  if (Value isNull = nullTestOf(address->memref, l))
    return isNull;
  return unsupported(pointer, "this pointer cannot be tested for null in "
                              "differentiable code (only pointer "
                              "parameters, pointers read from memory and "
                              "choices among them, `nullptr` and the "
                              "function's own memory can); pass a flag or "
                              "a count");
}

Value FunctionLowering::nullTestOf(Value memory, Location l) {
  auto constant = [&](bool value) -> Value {
    return arith::ConstantOp::create(b, l, b.getBoolAttr(value));
  };
  if (nullPointers.contains(memory))
    return constant(true);
  while (auto cast = memory.getDefiningOp<memref::CastOp>())
    memory = cast.getSource();
  // A choice (`k ? &a : nullptr`): the chosen one's test.
  if (auto choice = memory.getDefiningOp<arith::SelectOp>()) {
    Value whenTrue = nullTestOf(choice.getTrueValue(), l);
    Value whenFalse =
        whenTrue ? nullTestOf(choice.getFalseValue(), l) : nullptr;
    if (!whenFalse)
      return nullptr;
    return arith::SelectOp::create(b, l, choice.getCondition(), whenTrue,
                                   whenFalse);
  }
  // Memory the function made (an array, a `new`, a view into one) is
  // never at address 0; the stand-in of `nullptr` has no elements.
  Value root = memoryRoot(memory);
  if (auto made = cast<MemRefType>(root.getType());
      isOwnMemory(root) &&
      !(made.hasStaticShape() && made.getNumElements() == 0))
    return constant(false);
  // Memory whose address may be 0: what the caller passed, and addresses
  // read from memory. (A pointer variable that may hold the stand-in of
  // `nullptr` does not know.)
  if (!isa<BlockArgument>(memory) && !memory.getDefiningOp<ct::LoadAddressOp>())
    return nullptr;
  Value bits = memref::ExtractAlignedPointerAsIndexOp::create(b, l, memory);
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, bits,
                               constantIndex(0, l));
}

Value FunctionLowering::lowerPointerRelation(clang::BinaryOperatorKind kind,
                                             const clang::Expr *lhs,
                                             const clang::Expr *rhs,
                                             const clang::Expr *where) {
  Location l = loc(where);
  if (elementTypeOf(lhs)->isVoidType() || elementTypeOf(rhs)->isVoidType())
    return unsupported(where, "'void *' pointers cannot be compared or "
                              "subtracted in differentiable code; compare "
                              "typed pointers");
  // `p == nullptr`, `p != nullptr`.
  bool lhsNull = isNullPointer(lhs, ast);
  bool rhsNull = isNullPointer(rhs, ast);
  if ((lhsNull || rhsNull) && (kind == clang::BO_EQ || kind == clang::BO_NE)) {
    Value isNull = lowerNullTest(lhsNull ? rhs : lhs);
    if (!isNull || kind == clang::BO_EQ)
      return isNull;
    return arith::XOrIOp::create(
        b, l, isNull, arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
  }
  std::optional<int64_t> scalars = elementScalars(module, lhs);
  if (!scalars)
    return nullptr;
  std::optional<Address> left = lowerPointer(lhs);
  std::optional<Address> right = lowerPointer(rhs);
  if (!left || !right)
    return nullptr;
  std::optional<std::pair<Value, Value>> positions =
      comparablePositions(*left, *right, where);
  if (!positions)
    return nullptr;
  auto [lhsPosition, rhsPosition] = *positions;
  if (kind == clang::BO_Sub) {
    Value difference = arith::SubIOp::create(b, l, lhsPosition, rhsPosition);
    if (*scalars != 1)
      difference =
          arith::DivSIOp::create(b, l, difference, constantIndex(*scalars, l));
    Type type = typeOf(where);
    return type ? arith::IndexCastOp::create(b, l, type, difference).getResult()
                : nullptr;
  }
  arith::CmpIPredicate predicate;
  switch (kind) {
  case clang::BO_EQ:
    predicate = arith::CmpIPredicate::eq;
    break;
  case clang::BO_NE:
    predicate = arith::CmpIPredicate::ne;
    break;
  case clang::BO_LT:
    predicate = arith::CmpIPredicate::slt;
    break;
  case clang::BO_LE:
    predicate = arith::CmpIPredicate::sle;
    break;
  case clang::BO_GT:
    predicate = arith::CmpIPredicate::sgt;
    break;
  case clang::BO_GE:
    predicate = arith::CmpIPredicate::sge;
    break;
  default:
    return unsupported(where, "this operator cannot be applied to "
                              "pointers");
  }
  return arith::CmpIOp::create(b, l, predicate, lhsPosition, rhsPosition);
}

/// The typed pointer under the conversions of `arg` to `void *` (implicit,
/// or `static_cast<void *>`).
static const clang::Expr *typedPointer(const clang::Expr *arg) {
  arg = strip(arg);
  while (const auto *cast = dyn_cast<clang::CastExpr>(arg)) {
    if (cast->getCastKind() != clang::CK_BitCast &&
        cast->getCastKind() != clang::CK_NoOp)
      break;
    if (!isa<clang::ImplicitCastExpr, clang::CXXStaticCastExpr>(cast))
      break;
    arg = strip(cast->getSubExpr());
  }
  return arg;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::copyNumberBits(const clang::CallExpr *expr,
                                 const clang::Expr *target,
                                 const clang::Expr *source) {
  if (!target->getType()->isPointerType() ||
      !source->getType()->isPointerType())
    return std::nullopt;
  clang::QualType to = target->getType()->getPointeeType().getCanonicalType();
  clang::QualType from = source->getType()->getPointeeType().getCanonicalType();
  clang::Expr::EvalResult bytes;
  if (!to->isArithmeticType() || !from->isArithmeticType() ||
      ast.hasSameUnqualifiedType(to, from) ||
      ast.getTypeSize(to) != ast.getTypeSize(from) ||
      !expr->getArg(2)->EvaluateAsInt(bytes, ast) ||
      bytes.Val.getInt() != ast.getTypeSizeInChars(to).getQuantity())
    return std::nullopt;
  Location l = loc(expr);
  std::optional<Address> into = lowerPointer(target);
  std::optional<Address> outOf = lowerPointer(source);
  Type type =
      into ? module.lowerType(to, expr->getSourceRange(), "the copy's target")
           : nullptr;
  if (!into || !outOf || !type)
    return CallResult{};
  Value bits = ct::BitCastOp::create(b, l, type, load(*outOf, l));
  store(bits, *into, l);
  return CallResult{};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerMemoryCopy(const clang::CallExpr *expr) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  const clang::Expr *target = typedPointer(expr->getArg(0));
  const clang::Expr *source = typedPointer(expr->getArg(1));
  clang::QualType targetType = target->getType()->getPointeeType();
  // One number's bytes into a number of another type of their width (a
  // library's bit_cast, as Eigen's numext::bit_cast writes it): its bits.
  if (std::optional<CallResult> punned = copyNumberBits(expr, target, source))
    return punned;
  if (!target->getType()->isPointerType() || targetType->isVoidType() ||
      !ast.hasSameUnqualifiedType(targetType,
                                  source->getType()->getPointeeType())) {
    // (An empty result: the call is handled, its error reported once.)
    unsupported(expr, "copying raw bytes cannot be differentiated; copy "
                      "typed elements (std::copy, or a loop)");
    return CallResult{};
  }
  std::optional<Address> to = lowerPointer(target);
  std::optional<Address> from = lowerPointer(source);
  Value bytes = lowerRValue(expr->getArg(2));
  std::optional<Layout> layout = layoutOf(targetType, expr);
  if (!to || !from || !bytes || !layout)
    return CallResult{};
  // Objects mixing floating-point types (a `float` among `double`s) are
  // copied object by object, each part in its own type (copySlots), so that
  // their adjoints add as such; other memory scalar by scalar.
  bool byObject = !layout->narrow.empty();
  int64_t unitBytes =
      byObject ? ast.getTypeSizeInChars(targetType).getQuantity()
               : ast.getTypeSizeInChars(layout->scalarType).getQuantity();
  clang::Expr::EvalResult known;
  if (byObject && expr->getArg(2)->EvaluateAsInt(known, ast) &&
      known.Val.getInt().getZExtValue() % unitBytes != 0) {
    unsupported(expr, "copying part of an object that mixes floating-point "
                      "types cannot be differentiated; copy whole objects, "
                      "or assign the parts");
    return CallResult{};
  }
  Value count =
      arith::DivUIOp::create(b, l, index(bytes, expr->getArg(2)->getType(), l),
                             constantIndex(unitBytes, l));
  // Backwards when the target starts inside the source.
  Value backwards = lowerPointerRelation(clang::BO_GT, target, source, expr);
  if (!backwards)
    return CallResult{};
  Value zero = constantIndex(0, l), one = constantIndex(1, l);
  auto loop = scf::ForOp::create(b, l, zero, count, one);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value k = loop.getInductionVar();
    Value last =
        arith::SubIOp::create(b, l, arith::SubIOp::create(b, l, count, one), k);
    Value i = arith::SelectOp::create(b, l, backwards, last, k);
    if (byObject) {
      Value first =
          arith::MulIOp::create(b, l, i, constantIndex(layout->size, l));
      copySlots(offsetBy(*to, first, l), offsetBy(*from, first, l), *layout, 0,
                layout->size, l);
    } else {
      store(load(offsetBy(*from, i, l), l), offsetBy(*to, i, l), l);
    }
  }
  return CallResult{nullptr, to};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerMemorySet(const clang::CallExpr *expr) {
  Location l = loc(expr);
  const clang::Expr *target = typedPointer(expr->getArg(0));
  clang::QualType targetType =
      target->getType()->isPointerType()
          ? target->getType()->getPointeeType().getUnqualifiedType()
          : clang::QualType();
  // All-zero bytes are zero in every scalar, however a struct's slots are
  // packed; other bytes make one scalar's bits only in memory of numbers.
  clang::Expr::EvalResult byte;
  bool zero =
      expr->getArg(1)->EvaluateAsInt(byte, ast) && byte.Val.getInt().isZero();
  if (targetType.isNull() || targetType->isVoidType() ||
      (!zero && !ast.getBaseElementType(targetType)->isArithmeticType())) {
    unsupported(expr, "setting raw bytes cannot be differentiated; set "
                      "typed elements (std::fill, or a loop), or set "
                      "memory of numbers");
    return CallResult{};
  }
  std::optional<Address> to = unpacked(lowerPointer(target), target);
  Value value = lowerRValue(expr->getArg(1));
  Value bytes = lowerRValue(expr->getArg(2));
  std::optional<Layout> layout = layoutOf(targetType, expr);
  if (!to || !value || !bytes || !layout)
    return CallResult{};
  // The scalars as C++ lays them out (a bool is a byte).
  unsigned width = ast.getTypeSizeInChars(layout->scalarType).getQuantity() * 8;
  Value byteValue = arith::TruncIOp::create(b, l, b.getI8Type(), value);
  Value scalar;
  if (layout->scalar.isInteger(1)) {
    scalar = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::ne, byteValue,
        arith::ConstantOp::create(b, l, b.getI8IntegerAttr(0)));
  } else {
    // The byte, repeated across a scalar (times 0x0101...01).
    auto bits = b.getIntegerType(width);
    Value repeated = arith::MulIOp::create(
        b, l, arith::ExtUIOp::create(b, l, bits, byteValue),
        arith::ConstantOp::create(
            b, l,
            b.getIntegerAttr(bits,
                             llvm::APInt::getSplat(width, llvm::APInt(8, 1)))));
    scalar = layout->scalar.isInteger(width)
                 ? repeated
                 : arith::BitcastOp::create(b, l, layout->scalar, repeated)
                       .getResult();
  }
  Value count =
      arith::DivUIOp::create(b, l, index(bytes, expr->getArg(2)->getType(), l),
                             constantIndex(width / 8, l));
  fill(to->memref, count, scalar, l, to->offset);
  return CallResult{nullptr, to};
}

Value FunctionLowering::scaledIteratorIndex(const clang::Expr *iterator,
                                            const clang::Expr *k, Location l) {
  Value n = lowerRValue(k);
  std::optional<int64_t> scalars = elementScalars(module, iterator);
  if (!n || !scalars)
    return nullptr;
  n = index(n, k->getType(), l);
  return *scalars == 1
             ? n
             : arith::MulIOp::create(b, l, n, constantIndex(*scalars, l))
                   .getResult();
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerIteratorOffset(const clang::CallExpr *expr,
                                      clang::OverloadedOperatorKind op,
                                      ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  bool iteratorFirst = !getIteratorElement(args[0]->getType()).isNull() ||
                       args[0]->getType()->isPointerType();
  const clang::Expr *iterator = iteratorFirst ? args[0] : args[1];
  const clang::Expr *other = iteratorFirst ? args[1] : args[0];
  if (op == clang::OO_Minus &&
      (!getIteratorElement(other->getType()).isNull() ||
       other->getType()->isPointerType())) {
    Value difference =
        lowerPointerRelation(clang::BO_Sub, args[0], args[1], expr);
    return difference ? Result(CallResult{difference, {}}) : std::nullopt;
  }
  std::optional<Address> base = lowerPointer(iterator);
  Value k = scaledIteratorIndex(iterator, other, l);
  if (!base || !k)
    return std::nullopt;
  return CallResult{nullptr, moveBy(*base, k, op == clang::OO_Minus, l)};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::assignIteratorVariable(const clang::CallExpr *expr,
                                         ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  const clang::Expr *self = args[0];
  const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(self));
  auto it = ref ? pointers.find(ref->getDecl()) : pointers.end();
  // An iterator field (a std::pair's `first`): a pointer field set.
  if (it == pointers.end() && isa<clang::MemberExpr>(strip(self))) {
    std::optional<Address> value = lowerPointer(args[1]);
    if (!value || !storePointerAt(self, *value, expr))
      return std::nullopt;
    return CallResult{nullptr, value};
  }
  if (it == pointers.end())
    return unsupported<Result>(expr, "only iterator variables and fields "
                                     "can be assigned");
  std::optional<Address> value = lowerPointer(args[1]);
  if (!value)
    return std::nullopt;
  // As a pointer variable's (MovingPointers.cpp): one that the code
  // assigns iterators into other containers selects among them.
  if (!movePointer(ref->getDecl(), *value, expr))
    return std::nullopt;
  return CallResult{nullptr, value};
}

Value FunctionLowering::lowerRewrittenIteratorRelation(
    const clang::Expr *expr) {
  while (isa<clang::ParenExpr, clang::FullExpr>(expr))
    expr = isa<clang::ParenExpr>(expr)
               ? cast<clang::ParenExpr>(expr)->getSubExpr()
               : cast<clang::FullExpr>(expr)->getSubExpr();
  const auto *rewritten = dyn_cast<clang::CXXRewrittenBinaryOperator>(expr);
  if (!rewritten)
    return nullptr;
  clang::CXXRewrittenBinaryOperator::DecomposedForm form =
      rewritten->getDecomposedForm();
  if (!clang::BinaryOperator::isRelationalOp(form.Opcode) ||
      !isIterator(form.LHS->getType().getNonReferenceType()) ||
      !isIterator(form.RHS->getType().getNonReferenceType()))
    return nullptr;
  Value relation = lowerPointerRelation(form.Opcode, form.LHS, form.RHS, expr);
  Type type = relation ? typeOf(expr) : Type();
  if (type && type != relation.getType())
    relation = arith::ExtUIOp::create(b, loc(expr), type, relation);
  return relation;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::orderPlaces(const clang::Expr *expr, const clang::Expr *lhs,
                              const clang::Expr *rhs) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  Value less = lowerPointerRelation(clang::BO_LT, lhs, rhs, expr);
  Value greater = lowerPointerRelation(clang::BO_GT, lhs, rhs, expr);
  std::optional<Layout> layout = layoutOf(expr->getType(), expr);
  if (!less || !greater || !layout)
    return std::nullopt;
  auto scalar = dyn_cast<IntegerType>(layout->scalar);
  if (layout->size != 1 || !scalar)
    return unsupported<Result>(expr, "this three-way comparison of "
                                     "iterators cannot be differentiated; "
                                     "compare them with '<'");
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, l, scalar, value);
  };
  // The ordering's one member: -1, 0 or 1, as both libraries keep it.
  Value order = arith::SelectOp::create(
      b, l, less, constant(-1),
      arith::SelectOp::create(b, l, greater, constant(1), constant(0)));
  std::optional<Address> place =
      allocate(expr->getType(), expr->getSourceRange(), "this comparison");
  if (!place)
    return std::nullopt;
  store(order, *place, l);
  return CallResult{nullptr, place};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerIteratorOperator(const clang::CallExpr *expr,
                                        clang::OverloadedOperatorKind op,
                                        ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  const clang::Expr *self = args[0];
  auto asResult = [](std::optional<Address> address) -> Result {
    if (!address)
      return std::nullopt;
    return CallResult{nullptr, address};
  };
  switch (op) {
  case clang::OO_Star:
  case clang::OO_Arrow:
    if (args.size() == 1)
      return asResult(lowerPointer(self));
    break;
  case clang::OO_Subscript: {
    std::optional<Address> base = lowerPointer(self);
    Value k = scaledIteratorIndex(self, args[1], l);
    if (!base || !k)
      return std::nullopt;
    return CallResult{nullptr, offsetBy(*base, k, l)};
  }
  case clang::OO_PlusPlus:
  case clang::OO_MinusMinus: {
    std::optional<int64_t> scalars = elementScalars(module, self);
    if (!scalars)
      return std::nullopt;
    // The postfix forms take a dummy int.
    return asResult(stepPointerVariable(self, constantIndex(*scalars, l),
                                        op == clang::OO_MinusMinus,
                                        /*returnOld=*/args.size() == 2));
  }
  case clang::OO_PlusEqual:
  case clang::OO_MinusEqual: {
    Value k = scaledIteratorIndex(self, args[1], l);
    if (!k)
      return std::nullopt;
    return asResult(stepPointerVariable(self, k, op == clang::OO_MinusEqual,
                                        /*returnOld=*/false));
  }
  case clang::OO_Plus:
  case clang::OO_Minus:
    if (args.size() != 2)
      break;
    return lowerIteratorOffset(expr, op, args);
  case clang::OO_Equal:
    return assignIteratorVariable(expr, args);
  case clang::OO_EqualEqual:
  case clang::OO_ExclaimEqual:
  case clang::OO_Less:
  case clang::OO_LessEqual:
  case clang::OO_Greater:
  case clang::OO_GreaterEqual: {
    Value relation = lowerPointerRelation(
        clang::BinaryOperator::getOverloadedOpcode(op), args[0], args[1], expr);
    if (!relation)
      return std::nullopt;
    Type type = typeOf(expr);
    if (type && type != relation.getType())
      relation = arith::ExtUIOp::create(b, l, type, relation);
    return CallResult{relation, {}};
  }
  case clang::OO_Spaceship:
    return orderPlaces(expr, args[0], args[1]);
  default:
    break;
  }
  return unsupported<Result>(expr, "this iterator operation cannot be "
                                   "differentiated");
}

} // namespace cotangent::frontend
