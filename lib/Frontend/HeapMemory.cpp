//===- HeapMemory.cpp - new and delete ------------------------------------===//
//
// `new T[n]`, `new T(x)` and their `delete` in differentiable code:
// memref.alloc of n times T's scalars and memref.dealloc. The AD engine
// gives such memory a shadow like any local buffer. Also the destruction
// of objects of classes that own memory where their scope ends.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "clang/AST/ExprCXX.h"

using namespace mlir;

namespace cotangent::frontend {

std::optional<Address>
FunctionLowering::lowerNew(const clang::CXXNewExpr *expr) {
  using Result = std::optional<Address>;
  Location l = loc(expr);
  if (expr->getNumPlacementArgs() == 1 && !expr->isArray() &&
      expr->getOperatorNew()->isReservedGlobalPlacementOperator())
    return lowerPlacementNew(expr);
  if (expr->getNumPlacementArgs() != 0 ||
      !expr->getOperatorNew()->isReplaceableGlobalAllocationFunction())
    return unsupported<Result>(expr, "placement and class-specific 'new' "
                                     "cannot be differentiated");
  clang::QualType type = expr->getAllocatedType();
  std::optional<Layout> layout = layoutOf(type, expr);
  if (!layout)
    return std::nullopt;
  Value count = constantIndex(1, l);
  if (std::optional<const clang::Expr *> size = expr->getArraySize()) {
    Value n = lowerRValue(*size);
    if (!n)
      return std::nullopt;
    count = index(n, (*size)->getType(), l);
  }
  Value scalars =
      arith::MulIOp::create(b, l, count, constantIndex(layout->size, l));
  Value memory = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, layout->scalar),
      ValueRange{scalars});
  Address address{memory, constantIndex(0, l)};
  const clang::Expr *init = expr->getInitializer();
  if (!init)
    return address; // default-initialized: indeterminate, as in C++
  if (!expr->isArray())
    return initialize(init, type, address) ? Result(address) : std::nullopt;
  // `new T[n]()` / `new T[n]{}`: every element zero. Other array
  // initializers are refused.
  const auto *list = dyn_cast<clang::InitListExpr>(init);
  bool zero =
      isa<clang::ImplicitValueInitExpr, clang::CXXScalarValueInitExpr>(init) ||
      (list && list->getNumInits() == 0) ||
      (isa<clang::CXXConstructExpr>(init) &&
       cast<clang::CXXConstructExpr>(init)->requiresZeroInitialization());
  if (!zero)
    return unsupported<Result>(init, "an array 'new' with initial values is "
                                     "not supported; assign the elements "
                                     "after 'new T[n]()'");
  fill(memory, scalars,
       arith::ConstantOp::create(b, l, layout->scalar,
                                 b.getZeroAttr(layout->scalar)),
       l);
  return address;
}

std::optional<Address>
FunctionLowering::lowerPlacementNew(const clang::CXXNewExpr *expr) {
  using Result = std::optional<Address>;
  // `::new (p) T(args)`: T constructed where p, a `T *` made `void *`,
  // points (a class rebuilding its base in its own memory).
  const clang::Expr *place = expr->getPlacementArg(0);
  while (const auto *cast = dyn_cast<clang::CastExpr>(strip(place)))
    if (cast->getType()->isVoidPointerType() &&
        cast->getSubExpr()->getType()->isPointerType())
      place = cast->getSubExpr();
    else
      break;
  clang::QualType type = expr->getAllocatedType();
  if (!place->getType()->isPointerType() ||
      !ast.hasSameUnqualifiedType(place->getType()->getPointeeType(), type))
    return unsupported<Result>(expr,
                               "placement 'new' of a '" + type.getAsString() +
                                   "' can be differentiated only where a '" +
                                   type.getAsString() + " *' points; pass one");
  std::optional<Address> address = unpacked(lowerPointer(place), place);
  if (!address)
    return std::nullopt;
  const clang::Expr *init = expr->getInitializer();
  if (!init)
    return address;
  return initialize(init, type, *address) ? Result(address) : std::nullopt;
}

void FunctionLowering::fill(Value memory, Value count, Value value,
                            Location l) {
  scf::ForOp::create(b, l, constantIndex(0, l), count, constantIndex(1, l),
                     ValueRange{},
                     [&](OpBuilder &inner, Location at, Value i, ValueRange) {
                       memref::StoreOp::create(inner, at, value, memory, i);
                       scf::YieldOp::create(inner, at);
                     });
}

void FunctionLowering::destroyAtScopeEnd(clang::QualType type, Address object,
                                         const clang::Expr *at) {
  const auto *record = type->getAsCXXRecordDecl();
  if (at && ModuleLowering::needsDestruction(type) &&
      !(record && ModuleLowering::ownsMemory(record))) {
    // Vectors kept in memory, objects holding them or objects that own
    // memory, arrays of such objects (VectorObjects.cpp), library objects
    // kept as compiled (LibraryObjects.cpp).
    cleanups.push_back(object.memref);
    objectCleanups[object.memref] = {type, at};
    return;
  }
  if (!record || !ModuleLowering::ownsMemory(record))
    return;
  cleanups.push_back(object.memref);
  destructors[object.memref] = {record->getDestructor(), at};
}

void FunctionLowering::lowerDelete(const clang::CXXDeleteExpr *expr) {
  std::optional<Address> pointer = lowerPointer(expr->getArgument());
  if (!pointer)
    return;
  // Only memory this function allocated with `new` can be freed here (at
  // the pointer `new` returned: C++ requires it, so the offset is 0).
  Value memory = pointer->memref;
  while (auto cast = memory.getDefiningOp<memref::CastOp>())
    memory = cast.getSource();
  // An address kept in memory (the buffer of a class that owns memory):
  // the memory `new` gave, as C++ requires of `delete`.
  if (memory.getDefiningOp<ct::LoadAddressOp>()) {
    memref::DeallocOp::create(b, loc(expr), memory);
    return;
  }
  if (!memory.getDefiningOp<memref::AllocOp>()) {
    unsupported(expr, "'delete' of memory that this function did not "
                      "allocate with 'new' cannot be differentiated");
    return;
  }
  memref::DeallocOp::create(b, loc(expr), memory);
}

} // namespace cotangent::frontend
