//===- UniquePointers.cpp - std::unique_ptr locals ------------------------===//
//
// A local `std::unique_ptr<T[]>` (or `<T>`) with the default deleter owns
// memory from `new` or `std::make_unique`: it is lowered as a pointer
// variable bound to that memory, freed when its scope ends (like a local
// std::vector), and `p[i]`, `*p`, `p->x` and `p.get()` are that pointer's.
// Giving the memory away (`release`, moves) or replacing it (`reset`) is
// refused: the memory must be an SSA value for the AD engine.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "clang/AST/DeclTemplate.h"

using namespace mlir;

namespace cotangent::frontend {

clang::QualType FunctionLowering::getUniquePointee(clang::QualType type) {
  const auto *spec = dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      type.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec || spec->getName() != "unique_ptr" || !spec->isInStdNamespace())
    return {};
  const clang::TemplateArgumentList &args = spec->getTemplateArgs();
  if (args.size() != 2 || args[0].getKind() != clang::TemplateArgument::Type)
    return {};
  const auto *deleter = args[1].getAsType()->getAsCXXRecordDecl();
  if (!deleter || deleter->getName() != "default_delete")
    return {};
  return args[0].getAsType();
}

bool FunctionLowering::lowerUniquePointerDecl(const clang::VarDecl *var) {
  clang::QualType pointee = getUniquePointee(var->getType());
  if (pointee.isNull() || var->getType()->isReferenceType())
    return false;
  Location l = module.getLoc(var->getLocation());
  bool isArray = pointee->isIncompleteArrayType();
  clang::QualType element =
      isArray ? ast.getAsArrayType(pointee)->getElementType() : pointee;
  // After an error: the variable is known to be invalid (uses say nothing).
  auto failed = [&]() {
    invalid.insert(var);
    return true;
  };
  auto refuse = [&]() {
    module.error(var->getSourceRange(),
                 "a std::unique_ptr in differentiable code must own memory "
                 "from 'new' or std::make_unique where it is declared");
    return failed();
  };
  const clang::Expr *init = var->getInit();
  if (!init)
    return refuse();
  // Down to the `new` or the std::make_unique call.
  while (true) {
    init = stripTemporaries(init);
    if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(init);
        construct && construct->getNumArgs() >= 1 &&
        !construct->getConstructor()->isCopyOrMoveConstructor())
      init = construct->getArg(0);
    else if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(init);
             construct && construct->getNumArgs() == 1 &&
             construct->getConstructor()->isMoveConstructor() &&
             isa<clang::CallExpr>(strip(construct->getArg(0))))
      init = construct->getArg(0); // `= std::make_unique<...>(...)`
    else
      break;
  }
  std::optional<Address> memory;
  if (const auto *allocation = dyn_cast<clang::CXXNewExpr>(init)) {
    memory = lowerNew(allocation);
  } else if (const auto *call = dyn_cast<clang::CallExpr>(init);
             call && call->getDirectCallee() &&
             call->getDirectCallee()->getName() == "make_unique" &&
             call->getDirectCallee()->isInStdNamespace()) {
    std::optional<Layout> layout = layoutOf(element, call);
    if (!layout)
      return failed();
    Value count = constantIndex(1, l);
    if (isArray) {
      Value n = lowerRValue(call->getArg(0));
      if (!n)
        return failed();
      count = index(n, call->getArg(0)->getType(), l);
    } else if (call->getNumArgs() > 1 ||
               (call->getNumArgs() == 1 && isAggregate(element))) {
      return refuse();
    }
    Value scalars =
        arith::MulIOp::create(b, l, count, constantIndex(layout->size, l));
    Value allocation = memref::AllocOp::create(
        b, l, MemRefType::get({ShapedType::kDynamic}, layout->scalar),
        ValueRange{scalars});
    // make_unique value-initializes: zeros, or the one value given.
    Value value = nullptr;
    if (!isArray && call->getNumArgs() == 1) {
      value = lowerRValue(call->getArg(0));
      if (!value)
        return failed();
      value = convert(value, call->getArg(0)->getType(), element, l);
    } else {
      value = arith::ConstantOp::create(b, l, layout->scalar,
                                        b.getZeroAttr(layout->scalar));
    }
    scf::ForOp::create(
        b, l, constantIndex(0, l), scalars, constantIndex(1, l), ValueRange{},
        [&](OpBuilder &inner, Location at, Value i, ValueRange) {
          memref::StoreOp::create(inner, at, value, allocation, i);
          scf::YieldOp::create(inner, at);
        });
    memory = Address{allocation, constantIndex(0, l)};
  } else {
    return refuse();
  }
  if (!memory)
    return failed();
  // Freed with the scope, like a vector; a pointer variable meanwhile.
  cleanups.push_back(memory->memref);
  pointers[var] = {memory->memref, newIndexSlot(memory->offset, l)};
  return true;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerUniquePointerCall(const clang::CallExpr *expr,
                                         const clang::CXXMethodDecl *method,
                                         const clang::Expr *object,
                                         ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  clang::QualType pointee =
      getUniquePointee(ast.getCanonicalTagType(method->getParent()));
  clang::QualType element = pointee->isIncompleteArrayType()
                                ? ast.getAsArrayType(pointee)->getElementType()
                                : pointee;
  StringRef name = method->getIdentifier() ? method->getName() : "";
  clang::OverloadedOperatorKind op = method->getOverloadedOperator();
  if (op != clang::OO_Subscript && op != clang::OO_Star &&
      op != clang::OO_Arrow && name != "get")
    return unsupported<Result>(
        expr, "std::unique_ptr's '" + method->getNameAsString() +
                  "' is not supported in differentiable code: the memory "
                  "stays with the std::unique_ptr that got it; use [], *, "
                  "-> and get()");
  std::optional<Address> pointer = lowerPointer(object);
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

} // namespace cotangent::frontend
