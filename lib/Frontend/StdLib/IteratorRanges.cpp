//===- IteratorRanges.cpp - The elements a pair of iterators gives -------===//
//
// Library calls taking a range `(first, last)` (a vector's constructor,
// `assign`, `insert`, the modelled algorithms) read it here: a pair of
// pointers or of contiguous iterators designates `count` elements from
// `first` on; a pair of std::reverse_iterators over such memory designates
// the elements before its first base, stepping back (`v.rbegin()` holds
// `v.end()`: element i is the (i+1)-th before it).
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace cotangent::frontend {

clang::QualType reversedIteratorOf(clang::QualType type) {
  const auto *spec = dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      type.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || !spec->isInStdNamespace() ||
      spec->getName() != "reverse_iterator")
    return {};
  return spec->getTemplateArgs()[0].getAsType().getCanonicalType();
}

bool FunctionLowering::isReversedContiguous(clang::QualType type) {
  clang::QualType base = reversedIteratorOf(type);
  return !base.isNull() && (base->isPointerType() || isIterator(base));
}

std::optional<Address>
FunctionLowering::reverseIteratorBase(const clang::Expr *it) {
  // Its `current` member, as the standard names it.
  const clang::CXXRecordDecl *record =
      it->getType().getNonReferenceType()->getAsCXXRecordDecl();
  const clang::FieldDecl *current = nullptr;
  for (const clang::FieldDecl *field : record->fields())
    if (field->getIdentifier() && field->getName() == "current")
      current = field;
  if (!current)
    return unsupported<std::optional<Address>>(
        it, "this reverse iterator does not keep its base where the "
            "standard says; give the range by pointers");
  std::optional<Address> object =
      it->isGLValue() ? lowerLValue(it) : materializeTemporary(it);
  std::optional<Address> slot =
      object ? fieldAddress(*object, current, it) : std::nullopt;
  return slot ? followIndirectSlot(*slot, current, it) : std::nullopt;
}

std::optional<FunctionLowering::IteratorRange>
FunctionLowering::lowerIteratorRange(const clang::Expr *first,
                                     const clang::Expr *last, int64_t scalars) {
  bool reversed = isReversedContiguous(first->getType());
  auto place = [&](const clang::Expr *end) -> std::optional<Address> {
    if (reversed)
      return reverseIteratorBase(end);
    return isIterator(end->getType()) ? lowerIterator(end) : lowerPointer(end);
  };
  std::optional<Address> begin = place(first), end = place(last);
  if (!begin || !end)
    return std::nullopt;
  Value count = countBetween(*begin, *end, reversed, scalars, first);
  if (!count)
    return std::nullopt;
  return IteratorRange{*begin, count, reversed};
}

Value FunctionLowering::countBetween(Address begin, Address end, bool reversed,
                                     int64_t scalars,
                                     const clang::Expr *where) {
  // Two views of one array (iterators of a vector kept in memory, each
  // viewing its elements afresh): where they point, from address 0.
  std::optional<std::pair<Value, Value>> positions =
      reversed ? comparablePositions(end, begin, where)
               : comparablePositions(begin, end, where);
  if (!positions)
    return nullptr;
  Location l = loc(where);
  Value count =
      arith::SubIOp::create(b, l, positions->second, positions->first);
  if (scalars != 1)
    count = arith::DivSIOp::create(b, l, count, constantIndex(scalars, l));
  return count;
}

Address FunctionLowering::rangeElement(const IteratorRange &range, Value i,
                                       int64_t scalars, Location l) {
  if (range.reversed)
    i = arith::SubIOp::create(b, l, constantIndex(-1, l), i);
  if (scalars != 1)
    i = arith::MulIOp::create(b, l, i, constantIndex(scalars, l));
  return offsetBy(range.first, i, l);
}

void FunctionLowering::copyRange(Address dest, const IteratorRange &range,
                                 const Layout &element, Location l) {
  if (!range.reversed) {
    copyElements(dest, range.first,
                 arith::MulIOp::create(b, l, range.count,
                                       constantIndex(element.size, l)),
                 element, l);
    return;
  }
  forEachIndex(b, l, range.count, [&](Value i) {
    Value at = arith::MulIOp::create(b, l, i, constantIndex(element.size, l));
    copyElements(offsetBy(dest, at, l), rangeElement(range, i, element.size, l),
                 element.size, element, l);
  });
}

} // namespace cotangent::frontend
