//===- MemberPointers.cpp - Pointers to data members and member functions -===//
//
// Both are numbers to the memory model, as the Itanium C++ ABI makes them.
// A pointer to a data member is the member's byte offset in its class (-1
// when null), so `obj.*m` is the object's place moved by that many bytes:
// a number of slots, since every member it may designate has the class's
// slot type (checked where it is used). A pointer to a member function is
// the function's address (0 when null) in the first of the ABI's two words;
// the second, the adjustment of `this`, is 0 for the non-virtual functions
// of a class and its first bases, and is written so wherever the pointer is
// stored. A call through it compares the address with each member function
// of the class (or its bases) whose address the file takes, and calls the
// one that matches on the object, as a call through a function pointer
// does (FunctionPointers.cpp). Virtual member functions, whose pointers
// hold an offset into the virtual table, are refused where their address
// is taken.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"

using namespace mlir;

namespace cotangent::frontend {

/// `&C::m`: the member's offset in bytes, or the member function's
/// address; null after an error.
Value FunctionLowering::memberAddress(const clang::UnaryOperator *expr) {
  Location l = loc(expr);
  const auto *ref =
      dyn_cast<clang::DeclRefExpr>(expr->getSubExpr()->IgnoreParens());
  const clang::ValueDecl *member = ref ? ref->getDecl() : nullptr;
  if (const auto *method = dyn_cast_or_null<clang::CXXMethodDecl>(member)) {
    if (method->isVirtual())
      return unsupported(expr, "a pointer to a virtual member function "
                               "cannot be followed by differentiable code "
                               "yet; call the function through a pointer or "
                               "reference to the object's base class");
    return module.buildFunctionAddress(b, l, method);
  }
  if (!isa_and_nonnull<clang::FieldDecl, clang::IndirectFieldDecl>(member))
    return unsupported(expr, "this pointer to a member cannot be followed "
                             "by differentiable code");
  int64_t bytes = static_cast<int64_t>(ast.getFieldOffset(member) / 8);
  return arith::ConstantOp::create(b, l, b.getI64IntegerAttr(bytes));
}

Value FunctionLowering::lowerMemberPointer(const clang::Expr *expr) {
  Location l = loc(expr);
  expr = expr->IgnoreParens();
  const auto *type = expr->getType()->castAs<clang::MemberPointerType>();
  if (const auto *address = dyn_cast<clang::UnaryOperator>(expr);
      address && address->getOpcode() == clang::UO_AddrOf)
    return memberAddress(address);
  if (const auto *cast = dyn_cast<clang::CastExpr>(expr)) {
    switch (cast->getCastKind()) {
    case clang::CK_NullToMemberPointer:
      return arith::ConstantOp::create(
          b, l, b.getI64IntegerAttr(type->isMemberFunctionPointer() ? 0 : -1));
    case clang::CK_NoOp:
      return lowerMemberPointer(cast->getSubExpr());
    case clang::CK_LValueToRValue: {
      std::optional<Address> place = lowerLValue(cast->getSubExpr());
      return place ? load(*place, l) : nullptr;
    }
    case clang::CK_BaseToDerivedMemberPointer:
      return lowerDerivedMemberPointer(cast);
    default:
      break;
    }
  }
  if (const auto *conditional = dyn_cast<clang::ConditionalOperator>(expr)) {
    Block *merge = emitConditional(
        conditional, b.getI64Type(),
        [&](const clang::Expr *arm, SmallVectorImpl<Value> &passed) {
          Value value = lowerMemberPointer(arm);
          if (value)
            passed.push_back(value);
          return value != nullptr;
        });
    return merge ? merge->getArgument(0) : nullptr;
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(expr))
    return lowerCallValue(call);
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    if (binary->getOpcode() == clang::BO_Comma) {
      lowerDiscarded(binary->getLHS());
      return lowerMemberPointer(binary->getRHS());
    }
    if (binary->isAssignmentOp()) {
      std::optional<Address> place = lowerLValue(binary);
      return place ? load(*place, l) : nullptr;
    }
  }
  return unsupported(expr, "this pointer to a member cannot be followed by "
                           "differentiable code: make it with '&Class::member' "
                           "or keep it in a variable, field or element");
}

Value FunctionLowering::lowerDerivedMemberPointer(const clang::CastExpr *cast) {
  // A member of a base, as one of the derived class: the base's offset
  // added (a data member; null stays null). A member function of a base
  // at offset 0 is the same function.
  Location l = loc(cast);
  Value value = lowerMemberPointer(cast->getSubExpr());
  if (!value)
    return nullptr;
  const clang::CXXRecordDecl *record = cast->getType()
                                           ->castAs<clang::MemberPointerType>()
                                           ->getMostRecentCXXRecordDecl();
  int64_t bytes = 0;
  for (const clang::CXXBaseSpecifier *base : cast->path()) {
    const clang::CXXRecordDecl *baseClass =
        base->getType()->getAsCXXRecordDecl();
    bytes += ast.getASTRecordLayout(record)
                 .getBaseClassOffset(baseClass)
                 .getQuantity();
    record = baseClass;
  }
  if (bytes == 0)
    return value;
  if (cast->getType()->isMemberFunctionPointerType())
    return unsupported(cast, "a pointer to a member function of a base "
                             "that does not start its class cannot be "
                             "followed by differentiable code; call it "
                             "through the base");
  Value shifted = arith::AddIOp::create(
      b, l, value, arith::ConstantOp::create(b, l, b.getI64IntegerAttr(bytes)));
  Value isNull = arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::eq, value,
      arith::ConstantOp::create(b, l, b.getI64IntegerAttr(-1)));
  return arith::SelectOp::create(b, l, isNull, value, shifted);
}

std::optional<Address>
FunctionLowering::memberAccessObject(const clang::BinaryOperator *access) {
  return access->getOpcode() == clang::BO_PtrMemD
             ? lowerLValue(access->getLHS())
             : lowerPointer(access->getLHS());
}

std::optional<Address>
FunctionLowering::lowerMemberAccess(const clang::BinaryOperator *expr) {
  // `obj.*m`, `p->*m`: the object's place moved by m's offset, in slots.
  Location l = loc(expr);
  const auto *type =
      expr->getRHS()->getType()->castAs<clang::MemberPointerType>();
  clang::QualType record =
      ast.getCanonicalTagType(type->getMostRecentCXXRecordDecl());
  std::optional<Layout> object = layoutOf(record, expr);
  std::optional<Layout> member = layoutOf(type->getPointeeType(), expr);
  if (!object || !member)
    return std::nullopt;
  if (member->scalar != object->scalar || !object->narrow.empty())
    return unsupported<std::optional<Address>>(
        expr, "a pointer to a member of another type than the class's other "
              "numbers cannot be followed by differentiable code; choose "
              "the member by name");
  std::optional<Address> place = memberAccessObject(expr);
  Value bytes = lowerMemberPointer(expr->getRHS());
  if (!place || !bytes)
    return std::nullopt;
  int64_t slotBytes =
      static_cast<int64_t>(ast.getTypeSize(object->scalarType) / 8);
  Value slots = arith::DivSIOp::create(
      b, l, bytes,
      arith::ConstantOp::create(b, l, b.getI64IntegerAttr(slotBytes)));
  return offsetBy(*place,
                  arith::IndexCastOp::create(b, l, b.getIndexType(), slots), l);
}

void FunctionLowering::storeMemberPointer(Value value, clang::QualType type,
                                          Address dest, Location l) {
  store(value, dest, l);
  // (The ABI's second word of a pointer to a member function: no
  // adjustment of `this`.)
  if (type->isMemberFunctionPointerType())
    store(arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)),
          offsetBy(dest, 1, l), l);
}

/// The member functions a call through a pointer of `type` may reach:
/// those of its class or a base whose address the file takes, of its type.
static SmallVector<const clang::FunctionDecl *>
memberCallTargets(ModuleLowering &module,
                  const clang::MemberPointerType *type) {
  clang::ASTContext &ast = module.getAST();
  const clang::CXXRecordDecl *record = type->getMostRecentCXXRecordDecl();
  SmallVector<const clang::FunctionDecl *> targets;
  for (const clang::CXXMethodDecl *method : module.getAddressTakenMethods()) {
    const clang::CXXRecordDecl *owner = method->getParent();
    if ((owner->getCanonicalDecl() == record->getCanonicalDecl() ||
         record->isDerivedFrom(owner)) &&
        ast.hasSameFunctionTypeIgnoringExceptionSpec(method->getType(),
                                                     type->getPointeeType()))
      targets.push_back(method);
  }
  return targets;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerMemberFunctionPointerCall(
    const clang::CXXMemberCallExpr *expr, const clang::BinaryOperator *access,
    std::optional<Address> dest) {
  using Result = std::optional<CallResult>;
  const auto *type =
      access->getRHS()->getType()->castAs<clang::MemberPointerType>();
  SmallVector<const clang::FunctionDecl *> targets =
      memberCallTargets(module, type);
  if (targets.empty())
    return unsupported<Result>(
        expr, "no member function of this file of this type has its address "
              "taken, so this call through a pointer to a member function "
              "cannot be differentiated; call the function by name");
  for (const clang::FunctionDecl *target : targets)
    if (!canCallThroughPointer(expr, target))
      return std::nullopt;
  std::optional<Address> object = memberAccessObject(access);
  Value address = lowerMemberPointer(access->getRHS());
  if (!object || !address)
    return std::nullopt;
  return callThroughAddress(expr, address, targets, object, dest);
}

} // namespace cotangent::frontend
