//===- VectorRows.cpp - The rows of a vector of vectors -------------------===//
//
// A vector of vectors is a vector kept in memory (VectorObjects.cpp) whose
// elements are vectors kept in memory too: each row is its own three
// addresses, so rows have any length, grow, shrink and are made, copied,
// moved and destroyed one by one, and vectors nest to any depth (a row of
// a three-deep vector is itself a vector of vectors). An expression that
// designates a row (`m[i]`, `m.at(i)`, `m.back()`, a reference bound to
// one) is a vector kept in memory: its member functions are those of
// VectorObjectCalls.cpp, and every other use sees a view of its elements.
// The vectors of an array (built-in or std::array) are rows too.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

using namespace mlir;

namespace cotangent::frontend {

/// The accessor `method` of std::array (`operator[]`, `at`, `front`,
/// `back`), if it is one.
static const clang::CXXMethodDecl *
getStdArrayAccessor(const clang::CXXMethodDecl *method) {
  if (!method ||
      method->getParent()->getQualifiedNameAsString() != "std::array")
    return nullptr;
  clang::OverloadedOperatorKind op = method->getOverloadedOperator();
  if (op == clang::OO_Subscript)
    return method;
  if (op != clang::OO_None || !method->getIdentifier())
    return nullptr;
  llvm::StringRef name = method->getName();
  return name == "at" || name == "front" || name == "back" ? method : nullptr;
}

/// The member function `expr` calls, if it calls one.
static const clang::CXXMethodDecl *getCalledMethod(const clang::Expr *expr) {
  const auto *call = dyn_cast<clang::CXXMemberCallExpr>(expr);
  const auto *op = dyn_cast<clang::CXXOperatorCallExpr>(expr);
  const clang::FunctionDecl *callee =
      call ? call->getMethodDecl() : (op ? op->getDirectCallee() : nullptr);
  return dyn_cast_or_null<clang::CXXMethodDecl>(callee);
}

bool FunctionLowering::isRowExpr(const clang::Expr *expr) {
  expr = stripTemporaries(expr);
  if (!expr->isGLValue() ||
      !ModuleLowering::isMemrefVector(
          expr->getType().getNonReferenceType().getCanonicalType()))
    return false;
  // `a[i]` of an array of vectors, whose elements are kept in memory.
  if (isa<clang::ArraySubscriptExpr>(expr))
    return true;
  const clang::CXXMethodDecl *method = getCalledMethod(expr);
  if (!method)
    return false;
  // `m[i]`, `m.at(i)`, `m.front()`, `m.back()` of a vector of vectors, or
  // of a std::array of vectors.
  clang::QualType parent = ast.getCanonicalTagType(method->getParent());
  return ModuleLowering::isVectorObject(parent) || getStdArrayAccessor(method);
}

std::optional<Address>
FunctionLowering::lowerStdArrayElement(const clang::CallExpr *call,
                                       const clang::CXXMethodDecl *accessor) {
  // std::array is its array of elements: the element's place, as `a[i]`.
  Location l = loc(call);
  const auto *member = dyn_cast<clang::CXXMemberCallExpr>(call);
  const clang::Expr *object =
      member ? member->getImplicitObjectArgument() : call->getArg(0);
  ArrayRef<const clang::Expr *> args(call->getArgs(), call->getNumArgs());
  if (!member)
    args = args.drop_front();
  const auto *array =
      cast<clang::ClassTemplateSpecializationDecl>(accessor->getParent());
  clang::QualType element = array->getTemplateArgs()[0].getAsType();
  int64_t count = array->getTemplateArgs()[1].getAsIntegral().getZExtValue();
  std::optional<Address> base = lowerLValue(object);
  std::optional<Layout> layout = elementLayoutOf(element, call);
  if (!base || !layout)
    return std::nullopt;
  Value i;
  if (!args.empty()) {
    i = lowerRValue(args[0]);
    if (!i)
      return std::nullopt;
    i = index(i, args[0]->getType(), l);
  } else {
    i = constantIndex(accessor->getName() == "back" ? count - 1 : 0, l);
  }
  // C++ throws std::out_of_range; without exceptions the program ends with
  // the message it would print.
  if (accessor->getIdentifier() && accessor->getName() == "at")
    abortIf(arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, i,
                                  constantIndex(count, l)),
            call, "std::array::at: index out of range");
  return offsetBy(
      *base, arith::MulIOp::create(b, l, i, constantIndex(layout->size, l)), l);
}

bool FunctionLowering::forEachArrayVector(
    clang::QualType type, const clang::Stmt *where,
    function_ref<bool(clang::QualType vector, Value offset)> body) {
  // A loop over the vectors: the code stays one vector's size.
  Location l = loc(where);
  clang::QualType vectorType = ast.getBaseElementType(type);
  std::optional<Layout> layout = layoutOf(type, where);
  std::optional<Layout> each = elementLayoutOf(vectorType, where);
  if (!layout || !each)
    return false;
  bool ok = true;
  emitCountedLoop(l, constantIndex(layout->size / each->size, l), [&](Value i) {
    ok &= body(vectorType,
               arith::MulIOp::create(b, l, i, constantIndex(each->size, l)));
  });
  return ok;
}

bool FunctionLowering::emptyVectorArray(Address dest, clang::QualType type,
                                        const clang::Stmt *where) {
  // Each vector empty: its three addresses null.
  Location l = loc(where);
  return forEachArrayVector(
      type, where, [&](clang::QualType vectorType, Value offset) {
        std::optional<VectorObject> vector =
            vectorObjectAt(offsetBy(dest, offset, l), vectorType, where);
        if (vector)
          clearVectorObject(*vector, l);
        return vector.has_value();
      });
}

bool FunctionLowering::copyVectorArray(Address dest, Address from,
                                       clang::QualType type, bool move,
                                       const clang::Stmt *where) {
  Location l = loc(where);
  return forEachArrayVector(
      type, where, [&](clang::QualType vectorType, Value offset) {
        std::optional<VectorObject> to =
            vectorObjectAt(offsetBy(dest, offset, l), vectorType, where);
        std::optional<VectorObject> source =
            vectorObjectAt(offsetBy(from, offset, l), vectorType, where);
        if (!to || !source)
          return false;
        if (move) {
          moveVectorAddresses(*to, *source, l);
          return true;
        }
        clearVectorObject(*to, l);
        return copyVectorObject(where, *to, *source);
      });
}

std::optional<Address>
FunctionLowering::lowerRowHolder(const clang::Expr *expr) {
  expr = stripTemporaries(expr);
  if (const auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr))
    return lowerSubscriptPlace(subscript);
  if (const clang::CXXMethodDecl *accessor =
          getStdArrayAccessor(getCalledMethod(expr)))
    return lowerStdArrayElement(cast<clang::CallExpr>(expr), accessor);
  // The element's place the vector's member function returns: its slots.
  const auto *call = cast<clang::CallExpr>(expr);
  std::optional<CallResult> result = lowerCall(call, std::nullopt);
  if (!result)
    return std::nullopt;
  if (!result->address)
    return unsupported<std::optional<Address>>(
        expr, "this call does not designate a row");
  return result->address;
}

std::optional<Address> FunctionLowering::allocateRow(clang::QualType type,
                                                     const clang::Stmt *where) {
  std::optional<Layout> layout =
      module.getVectorInMemoryLayout(type, where->getSourceRange());
  if (!layout)
    return std::nullopt;
  return allocateSlots(*layout, /*alignment=*/1, loc(where));
}

std::optional<Address>
FunctionLowering::allocateElement(const VectorObject &vector,
                                  const clang::Stmt *where) {
  if (vector.holdsRows())
    return allocateRow(vector.element, where);
  return allocate(vector.element, where->getSourceRange(), "this element");
}

bool FunctionLowering::constructRow(const VectorObject &vector, Address at,
                                    std::optional<Address> source, bool move,
                                    const clang::Stmt *where) {
  // A row is made empty, or as a copy of another row (the slots `source`
  // designates), or takes that row's memory.
  Location l = loc(where);
  std::optional<VectorObject> row = vectorObjectAt(at, vector.element, where);
  if (!row)
    return false;
  clearVectorObject(*row, l);
  if (!source)
    return true;
  std::optional<VectorObject> from =
      vectorObjectAt(*source, vector.element, where);
  if (!from)
    return false;
  if (move) {
    moveVectorAddresses(*row, *from, l);
    return true;
  }
  return copyVectorObject(where, *row, *from);
}

std::optional<Address>
FunctionLowering::makeRowAside(const clang::Expr *expr,
                               const VectorObject &vector,
                               ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<Address>;
  std::optional<Address> made = allocateRow(vector.element, expr);
  if (!made)
    return std::nullopt;
  // From anything a vector can be made of (a row, a local vector, a list,
  // a call), or by the constructors taking a size and a value.
  if (args.size() == 1 &&
      ast.hasSameUnqualifiedType(
          args[0]->getType().getNonReferenceType().getCanonicalType(),
          vector.element.getCanonicalType()))
    return initializeVectorInMemory(args[0], vector.element, *made)
               ? made
               : std::nullopt;
  std::optional<VectorObject> row = vectorObjectAt(*made, vector.element, expr);
  if (!row)
    return std::nullopt;
  Location l = loc(expr);
  clearVectorObject(*row, l);
  if (args.empty())
    return made;
  if (!args[0]->getType()->isIntegerType() || args.size() > 2)
    return unsupported<Result>(expr, "this row is made from arguments a "
                                     "std::vector constructor takes that "
                                     "are not supported; make it with a "
                                     "size (and a value), or pass a vector");
  return resizeToSizeAndValue(*row, args, expr) ? made : std::nullopt;
}

bool FunctionLowering::resizeToSizeAndValue(
    const VectorObject &vector, ArrayRef<const clang::Expr *> sizeAndValue,
    const clang::Expr *where) {
  // (No size: `clear`.)
  Location l = loc(where);
  Value count = sizeAndValue.empty() ? constantIndex(0, l)
                                     : index(lowerRValue(sizeAndValue[0]),
                                             sizeAndValue[0]->getType(), l);
  std::optional<Address> value;
  bool madeAside = false;
  if (!count ||
      (sizeAndValue.size() > 1 &&
       !(value = lowerElementValue(where, vector, sizeAndValue[1], madeAside))))
    return false;
  bool ok = resizeVectorObject(vector, count, value, where);
  if (madeAside)
    destroyObject(vector.element, *value, where);
  return ok;
}

std::optional<Address>
FunctionLowering::lowerElementValue(const clang::Expr *expr,
                                    const VectorObject &vector,
                                    const clang::Expr *value, bool &madeAside) {
  madeAside = false;
  if (!vector.holdsRows())
    return lowerLValue(value);
  if (isVectorObjectExpr(value))
    return lowerVectorHolder(value);
  madeAside = true;
  return makeRowAside(expr, vector, {value});
}

} // namespace cotangent::frontend
