//===- FunctionLowering.cpp - One C++ function body to MLIR ---------------===//
//
// Lowers like a classic code generator: every scalar local lives in a stack
// slot (a rank-0 memref.alloca) and control flow becomes cf branches; the
// module-level clean-up (mem2reg, CFG-to-SCF, while-to-for) then gives SSA
// values and structured loops. Pointer and reference parameters are 1-D
// memrefs; local arrays are memref.allocas of their shape.
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Frontend/DifferentiableAttr.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace cotangent::frontend {
namespace {

/// A place in memory: a memref and the indices of one element.
struct LValue {
  Value memref;
  SmallVector<Value> indices;
};

class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &module, const clang::FunctionDecl *decl,
                   func::FuncOp function)
      : module(module), ast(module.getAST()), decl(decl), function(function),
        b(module.getContext()) {}

  void lower();

private:
  // Blocks.
  Block *newBlock() { return b.createBlock(&function.getBody()); }
  void enter(Block *block) { b.setInsertionPointToEnd(block); }
  bool isTerminated() {
    Block *block = b.getInsertionBlock();
    return !block->empty() &&
           block->back().hasTrait<OpTrait::IsTerminator>();
  }
  void branchTo(Location loc, Block *target) {
    if (!isTerminated())
      cf::BranchOp::create(b, loc, target);
  }

  // Statements.
  void lowerStmt(const clang::Stmt *stmt);
  void lowerVarDecl(const clang::VarDecl *var);
  void lowerIf(const clang::IfStmt *stmt);
  void lowerLoop(const clang::Stmt *stmt, const clang::Stmt *init,
                 const clang::Expr *cond, const clang::Expr *inc,
                 const clang::Stmt *body, bool conditionFirst);

  // Expressions. Each returns null after reporting an error.
  Value lowerRValue(const clang::Expr *expr);
  std::optional<LValue> lowerLValue(const clang::Expr *expr);
  Value lowerMemory(const clang::Expr *expr, SmallVectorImpl<Value> &indices);
  Value lowerCast(const clang::CastExpr *expr);
  Value lowerBinary(const clang::BinaryOperator *expr);
  Value lowerLogical(const clang::BinaryOperator *expr);
  Value lowerUnary(const clang::UnaryOperator *expr);
  Value lowerConditional(const clang::ConditionalOperator *expr);
  Value lowerCall(const clang::CallExpr *expr);
  std::optional<LValue> lowerAssignment(const clang::BinaryOperator *expr);
  Value arithmetic(clang::BinaryOperatorKind kind, Value lhs, Value rhs,
                   clang::QualType type, Location loc);
  Value convert(Value value, clang::QualType from, clang::QualType to,
                Location loc);
  Value toBool(Value value, clang::QualType from, Location loc);
  Value index(Value value, clang::QualType from, Location loc);
  Value load(const LValue &lvalue, Location loc) {
    return memref::LoadOp::create(b, loc, lvalue.memref, lvalue.indices);
  }
  void store(const LValue &lvalue, Value value, Location loc) {
    memref::StoreOp::create(b, loc, value, lvalue.memref, lvalue.indices);
  }
  Type typeOf(const clang::Expr *expr) {
    return module.lowerType(expr->getType(), expr->getSourceRange(),
                            "this expression");
  }
  Location loc(const clang::Stmt *stmt) {
    return module.getLoc(stmt->getBeginLoc());
  }
  Value unsupported(const clang::Stmt *stmt, const Twine &message) {
    module.error(stmt->getSourceRange(), message);
    return nullptr;
  }

  ModuleLowering &module;
  clang::ASTContext &ast;
  const clang::FunctionDecl *decl;
  func::FuncOp function;
  OpBuilder b;

  /// Scalars' stack slots, local arrays and pointer parameters (memrefs),
  /// and references (the place they are bound to).
  DenseMap<const clang::ValueDecl *, Value> memory;
  DenseMap<const clang::ValueDecl *, LValue> references;
  struct JumpTargets {
    Block *breakTarget;
    Block *continueTarget;
  };
  SmallVector<JumpTargets> jumps;
  Block *returnBlock = nullptr;
  Value returnSlot;
};

} // namespace

//===----------------------------------------------------------------------===//
// Function and statements
//===----------------------------------------------------------------------===//

void FunctionLowering::lower() {
  Block *entry = function.addEntryBlock();
  enter(entry);
  Location fnLoc = function.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, fnLoc, 0);
  for (auto [param, arg] :
       llvm::zip_equal(decl->parameters(), entry->getArguments())) {
    clang::QualType type = param->getType();
    if (type->isReferenceType()) {
      references[param] = LValue{arg, {zero}};
    } else if (type->isPointerType()) {
      memory[param] = arg;
    } else {
      Value slot = memref::AllocaOp::create(
          b, fnLoc, MemRefType::get({}, arg.getType()));
      memref::StoreOp::create(b, fnLoc, arg, slot);
      memory[param] = slot;
    }
  }
  ArrayRef<Type> results = function.getFunctionType().getResults();
  if (!results.empty())
    returnSlot =
        memref::AllocaOp::create(b, fnLoc, MemRefType::get({}, results[0]));
  returnBlock = newBlock();
  enter(entry);
  lowerStmt(decl->getBody());
  Location end = module.getLoc(decl->getBodyRBrace());
  branchTo(end, returnBlock);

  enter(returnBlock);
  SmallVector<Value> returned;
  if (returnSlot)
    returned.push_back(memref::LoadOp::create(b, end, returnSlot));
  func::ReturnOp::create(b, end, returned);
  // Code after a return, break or continue sits in blocks nobody branches
  // to; give them a terminator so that the canonicalizer can drop them.
  for (Block &block : function.getBody()) {
    b.setInsertionPointToEnd(&block);
    if (!isTerminated())
      cf::BranchOp::create(b, end, returnBlock);
  }
}

void FunctionLowering::lowerStmt(const clang::Stmt *stmt) {
  if (!stmt)
    return;
  Location l = loc(stmt);
  if (const auto *compound = dyn_cast<clang::CompoundStmt>(stmt)) {
    for (const clang::Stmt *child : compound->body())
      lowerStmt(child);
    return;
  }
  if (const auto *declStmt = dyn_cast<clang::DeclStmt>(stmt)) {
    for (const clang::Decl *d : declStmt->decls()) {
      if (const auto *var = dyn_cast<clang::VarDecl>(d))
        lowerVarDecl(var);
      else if (!isa<clang::TypedefNameDecl, clang::UsingDecl,
                    clang::StaticAssertDecl>(d))
        unsupported(stmt, "this declaration cannot appear in a "
                          "differentiable function; move it outside");
    }
    return;
  }
  if (const auto *ret = dyn_cast<clang::ReturnStmt>(stmt)) {
    if (const clang::Expr *value = ret->getRetValue()) {
      if (Value v = lowerRValue(value))
        memref::StoreOp::create(b, l, v, returnSlot);
    }
    branchTo(l, returnBlock);
    enter(newBlock());
    return;
  }
  if (const auto *ifStmt = dyn_cast<clang::IfStmt>(stmt))
    return lowerIf(ifStmt);
  if (const auto *forStmt = dyn_cast<clang::ForStmt>(stmt))
    return lowerLoop(stmt, forStmt->getInit(), forStmt->getCond(),
                     forStmt->getInc(), forStmt->getBody(), true);
  if (const auto *whileStmt = dyn_cast<clang::WhileStmt>(stmt))
    return lowerLoop(stmt, nullptr, whileStmt->getCond(), nullptr,
                     whileStmt->getBody(), true);
  if (const auto *doStmt = dyn_cast<clang::DoStmt>(stmt))
    return lowerLoop(stmt, nullptr, doStmt->getCond(), nullptr,
                     doStmt->getBody(), false);
  if (isa<clang::BreakStmt, clang::ContinueStmt>(stmt)) {
    if (jumps.empty()) {
      unsupported(stmt, "'break' outside a loop cannot be differentiated; "
                        "'switch' is not supported yet, use 'if'");
      return;
    }
    branchTo(l, isa<clang::BreakStmt>(stmt) ? jumps.back().breakTarget
                                            : jumps.back().continueTarget);
    enter(newBlock());
    return;
  }
  if (isa<clang::NullStmt>(stmt))
    return;
  // A label alone is harmless; a goto to it is what is diagnosed.
  if (const auto *label = dyn_cast<clang::LabelStmt>(stmt))
    return lowerStmt(label->getSubStmt());
  if (const auto *expr = dyn_cast<clang::Expr>(stmt)) {
    lowerRValue(expr);
    return;
  }
  if (isa<clang::CXXTryStmt>(stmt))
    return (void)unsupported(stmt, "exceptions cannot be differentiated; "
                                   "handle errors outside the "
                                   "differentiable function");
  if (isa<clang::GotoStmt, clang::IndirectGotoStmt>(stmt))
    return (void)unsupported(stmt, "'goto' cannot be differentiated; "
                                   "rewrite it with loops, 'break' or "
                                   "'return'");
  if (isa<clang::AsmStmt>(stmt))
    return (void)unsupported(stmt, "inline assembly cannot be "
                                   "differentiated; move it into a function "
                                   "with a custom derivative rule");
  if (isa<clang::SwitchStmt>(stmt))
    return (void)unsupported(stmt, "'switch' is not supported in "
                                   "differentiable functions yet; use "
                                   "'if'/'else'");
  unsupported(stmt, Twine("the statement '") + stmt->getStmtClassName() +
                        "' cannot be differentiated");
}

void FunctionLowering::lowerVarDecl(const clang::VarDecl *var) {
  Location l = module.getLoc(var->getLocation());
  if (!var->hasLocalStorage()) {
    module.error(var->getSourceRange(),
                 "static and thread-local variables cannot be "
                 "differentiated; pass the value as a parameter");
    return;
  }
  clang::QualType type = var->getType();
  if (type->isReferenceType()) {
    if (std::optional<LValue> target = lowerLValue(var->getInit()))
      references[var] = *target;
    return;
  }
  if (const auto *array = ast.getAsConstantArrayType(type)) {
    // Local arrays of scalars, of any rank.
    SmallVector<int64_t> shape;
    clang::QualType element = type;
    while (const auto *a = ast.getAsConstantArrayType(element)) {
      shape.push_back(a->getSize().getZExtValue());
      element = a->getElementType();
    }
    (void)array;
    Type elementType =
        module.lowerType(element, var->getSourceRange(),
                         "the elements of '" + var->getName().str() + "'");
    if (!elementType)
      return;
    Value buffer = memref::AllocaOp::create(
        b, l, MemRefType::get(shape, elementType));
    memory[var] = buffer;
    if (const auto *init = dyn_cast_or_null<clang::InitListExpr>(
            var->getInit())) {
      if (shape.size() != 1) {
        module.error(var->getSourceRange(),
                     "initializing a multi-dimensional array is not "
                     "supported yet; assign its elements in a loop");
        return;
      }
      for (unsigned i = 0; i < shape[0]; ++i) {
        Value v = i < init->getNumInits()
                      ? lowerRValue(init->getInit(i))
                      : arith::ConstantOp::create(
                            b, l, elementType,
                            b.getZeroAttr(elementType));
        if (!v)
          return;
        memref::StoreOp::create(
            b, l, v, buffer,
            ValueRange{arith::ConstantIndexOp::create(b, l, i)});
      }
    }
    return;
  }
  if (type->isPointerType()) {
    if (var->getInit() &&
        isa<clang::CXXNewExpr>(var->getInit()->IgnoreParenImpCasts())) {
      lowerRValue(var->getInit());
      return;
    }
    module.error(var->getSourceRange(),
                 "pointer variables are not supported in differentiable "
                 "functions yet; index the pointer parameter instead");
    return;
  }
  Type lowered = module.lowerType(type, var->getSourceRange(),
                                  "variable '" + var->getName().str() + "'");
  if (!lowered)
    return;
  // Slots go at the function entry so that mem2reg sees them all.
  OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
  Value slot =
      memref::AllocaOp::create(entry, l, MemRefType::get({}, lowered));
  memory[var] = slot;
  if (const clang::Expr *init = var->getInit())
    if (Value v = lowerRValue(init))
      memref::StoreOp::create(b, l, v, slot);
}

void FunctionLowering::lowerIf(const clang::IfStmt *stmt) {
  Location l = loc(stmt);
  if (stmt->getConditionVariable() || stmt->getInit() || stmt->isConsteval())
    return (void)unsupported(stmt, "'if' with an initializer or a condition "
                                   "variable is not supported yet; declare "
                                   "the variable before the 'if'");
  if (stmt->isConstexpr()) {
    // Clang has already chosen the branch.
    std::optional<llvm::APSInt> taken =
        stmt->getCond()->getIntegerConstantExpr(ast);
    lowerStmt(taken && taken->getBoolValue() ? stmt->getThen()
                                             : stmt->getElse());
    return;
  }
  Value cond = lowerRValue(stmt->getCond());
  if (!cond)
    return;
  cond = toBool(cond, stmt->getCond()->getType(), l);
  Block *current = b.getInsertionBlock();
  Block *thenBlock = newBlock();
  Block *elseBlock = stmt->getElse() ? newBlock() : nullptr;
  Block *merge = newBlock();
  enter(current);
  cf::CondBranchOp::create(b, l, cond, thenBlock,
                           elseBlock ? elseBlock : merge);
  enter(thenBlock);
  lowerStmt(stmt->getThen());
  branchTo(l, merge);
  if (elseBlock) {
    enter(elseBlock);
    lowerStmt(stmt->getElse());
    branchTo(l, merge);
  }
  enter(merge);
}

void FunctionLowering::lowerLoop(const clang::Stmt *stmt,
                                 const clang::Stmt *init,
                                 const clang::Expr *cond,
                                 const clang::Expr *inc,
                                 const clang::Stmt *body,
                                 bool conditionFirst) {
  Location l = loc(stmt);
  lowerStmt(init);
  Block *current = b.getInsertionBlock();
  Block *condBlock = newBlock();
  Block *bodyBlock = newBlock();
  Block *incBlock = newBlock();
  Block *exit = newBlock();
  enter(current);
  branchTo(l, conditionFirst ? condBlock : bodyBlock);

  enter(condBlock);
  if (cond) {
    Value v = lowerRValue(cond);
    if (!v)
      return;
    cf::CondBranchOp::create(b, l, toBool(v, cond->getType(), l), bodyBlock,
                             exit);
  } else {
    cf::BranchOp::create(b, l, bodyBlock);
  }

  enter(bodyBlock);
  jumps.push_back({exit, incBlock});
  lowerStmt(body);
  jumps.pop_back();
  branchTo(l, incBlock);

  enter(incBlock);
  if (inc)
    lowerRValue(inc);
  branchTo(l, condBlock);
  enter(exit);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value FunctionLowering::lowerRValue(const clang::Expr *expr) {
  expr = expr->IgnoreParens();
  Location l = loc(expr);
  if (const auto *literal = dyn_cast<clang::IntegerLiteral>(expr)) {
    Type type = typeOf(expr);
    return type ? arith::ConstantOp::create(
                      b, l, type,
                      b.getIntegerAttr(type, literal->getValue()))
                : nullptr;
  }
  if (const auto *literal = dyn_cast<clang::FloatingLiteral>(expr)) {
    Type type = typeOf(expr);
    return type ? arith::ConstantOp::create(
                      b, l, type,
                      b.getFloatAttr(type,
                                     literal->getValue().convertToDouble()))
                : nullptr;
  }
  if (const auto *literal = dyn_cast<clang::CXXBoolLiteralExpr>(expr))
    return arith::ConstantOp::create(b, l, b.getI1Type(),
                                     b.getBoolAttr(literal->getValue()));
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    if (const auto *enumerator =
            dyn_cast<clang::EnumConstantDecl>(ref->getDecl())) {
      Type type = typeOf(expr);
      return type ? arith::ConstantOp::create(
                        b, l, type,
                        b.getIntegerAttr(type, enumerator->getInitVal()))
                  : nullptr;
    }
  if (const auto *cast = dyn_cast<clang::CastExpr>(expr))
    return lowerCast(cast);
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    if (binary->isAssignmentOp()) {
      std::optional<LValue> place = lowerAssignment(binary);
      return place ? load(*place, l) : nullptr;
    }
    return lowerBinary(binary);
  }
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr))
    return lowerUnary(unary);
  if (const auto *conditional = dyn_cast<clang::ConditionalOperator>(expr))
    return lowerConditional(conditional);
  if (const auto *call = dyn_cast<clang::CallExpr>(expr))
    return lowerCall(call);
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return lowerRValue(temporary->getSubExpr());
  if (const auto *cleanups = dyn_cast<clang::ExprWithCleanups>(expr))
    return lowerRValue(cleanups->getSubExpr());
  if (const auto *defaultArg = dyn_cast<clang::CXXDefaultArgExpr>(expr))
    return lowerRValue(defaultArg->getExpr());
  if (expr->isGLValue())
    if (std::optional<LValue> place = lowerLValue(expr))
      return load(*place, l);
  if (isa<clang::CXXThrowExpr>(expr))
    return unsupported(expr, "exceptions cannot be differentiated; handle "
                             "errors outside the differentiable function");
  if (isa<clang::CXXNewExpr, clang::CXXDeleteExpr>(expr))
    return unsupported(expr, "heap allocation is not supported in "
                             "differentiable functions yet; allocate "
                             "outside and pass a pointer");
  if (module.hadError())
    return nullptr;
  return unsupported(expr, Twine("the expression '") +
                               expr->getStmtClassName() +
                               "' cannot be differentiated");
}

std::optional<LValue> FunctionLowering::lowerLValue(const clang::Expr *expr) {
  expr = expr->IgnoreParens();
  Location l = loc(expr);
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr)) {
    const clang::ValueDecl *var = ref->getDecl();
    if (auto it = references.find(var); it != references.end())
      return it->second;
    if (Value slot = memory.lookup(var))
      if (cast<MemRefType>(slot.getType()).getRank() == 0)
        return LValue{slot, {}};
    if (isa<clang::VarDecl>(var) && !var->getDeclContext()->isFunctionOrMethod())
      return unsupported(expr, "global variables cannot be used in "
                               "differentiable functions; pass the value as "
                               "a parameter"),
             std::nullopt;
  }
  if (isa<clang::ArraySubscriptExpr>(expr) ||
      (isa<clang::UnaryOperator>(expr) &&
       cast<clang::UnaryOperator>(expr)->getOpcode() == clang::UO_Deref)) {
    SmallVector<Value> indices;
    Value memref = lowerMemory(expr, indices);
    if (!memref)
      return std::nullopt;
    return LValue{memref, indices};
  }
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr))
    if (binary->isAssignmentOp())
      return lowerAssignment(binary);
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr))
    if (unary->isPrefix() && unary->isIncrementDecrementOp()) {
      std::optional<LValue> place = lowerLValue(unary->getSubExpr());
      if (place && lowerUnary(unary))
        return place;
      return std::nullopt;
    }
  if (const auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return lowerLValue(temporary->getSubExpr());
  if (isa<clang::MemberExpr>(expr))
    return unsupported(expr, "structs and classes are not supported in "
                             "differentiable functions yet; pass their "
                             "floating-point fields as parameters"),
           std::nullopt;
  (void)l;
  return unsupported(expr, "cannot take the address of this expression in "
                           "a differentiable function"),
         std::nullopt;
}

/// The memref and indices of an element: `p[i]`, `a[i][j]`, `*p`.
Value FunctionLowering::lowerMemory(const clang::Expr *expr,
                                    SmallVectorImpl<Value> &indices) {
  expr = expr->IgnoreParenImpCasts();
  Location l = loc(expr);
  if (const auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr)) {
    Value memref = lowerMemory(subscript->getBase(), indices);
    Value i = lowerRValue(subscript->getIdx());
    if (!memref || !i)
      return nullptr;
    indices.push_back(index(i, subscript->getIdx()->getType(), l));
    return memref;
  }
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr);
      unary && unary->getOpcode() == clang::UO_Deref) {
    Value memref = lowerMemory(unary->getSubExpr(), indices);
    if (memref)
      indices.push_back(arith::ConstantIndexOp::create(b, l, 0));
    return memref;
  }
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    if (Value memref = memory.lookup(ref->getDecl()))
      if (cast<MemRefType>(memref.getType()).getRank() != 0)
        return memref;
  if (isa<clang::BinaryOperator>(expr) || isa<clang::UnaryOperator>(expr))
    return unsupported(expr, "pointer arithmetic is not supported in "
                             "differentiable functions yet; index the "
                             "pointer instead (p[i + k])");
  return unsupported(expr, "this pointer cannot be differentiated; use a "
                           "pointer parameter or a local array");
}

Value FunctionLowering::index(Value value, clang::QualType from, Location l) {
  if (from->isUnsignedIntegerOrEnumerationType())
    return arith::IndexCastUIOp::create(b, l, b.getIndexType(), value);
  return arith::IndexCastOp::create(b, l, b.getIndexType(), value);
}

Value FunctionLowering::toBool(Value value, clang::QualType from, Location l) {
  if (value.getType().isInteger(1))
    return value;
  if (isa<FloatType>(value.getType()))
    return arith::CmpFOp::create(
        b, l, arith::CmpFPredicate::UNE, value,
        arith::ConstantOp::create(b, l, value.getType(),
                                  b.getZeroAttr(value.getType())));
  return arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::ne, value,
      arith::ConstantOp::create(b, l, value.getType(),
                                b.getZeroAttr(value.getType())));
}

Value FunctionLowering::convert(Value value, clang::QualType from,
                                clang::QualType to, Location l) {
  Type target = module.lowerType(to, {}, "a conversion");
  if (!target || value.getType() == target)
    return value;
  if (to->isBooleanType())
    return toBool(value, from, l);
  bool fromFloat = isa<FloatType>(value.getType());
  bool toFloat = isa<FloatType>(target);
  bool fromSigned = from->isSignedIntegerOrEnumerationType();
  if (fromFloat && toFloat) {
    if (value.getType().getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, l, target, value);
    return arith::TruncFOp::create(b, l, target, value);
  }
  if (!fromFloat && toFloat)
    return fromSigned ? arith::SIToFPOp::create(b, l, target, value).getResult()
                      : arith::UIToFPOp::create(b, l, target, value).getResult();
  if (fromFloat && !toFloat)
    return to->isSignedIntegerOrEnumerationType()
               ? arith::FPToSIOp::create(b, l, target, value).getResult()
               : arith::FPToUIOp::create(b, l, target, value).getResult();
  unsigned fromWidth = value.getType().getIntOrFloatBitWidth();
  unsigned toWidth = target.getIntOrFloatBitWidth();
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, l, target, value);
  if (fromSigned)
    return arith::ExtSIOp::create(b, l, target, value);
  return arith::ExtUIOp::create(b, l, target, value);
}

Value FunctionLowering::lowerCast(const clang::CastExpr *expr) {
  Location l = loc(expr);
  const clang::Expr *sub = expr->getSubExpr();
  switch (expr->getCastKind()) {
  case clang::CK_LValueToRValue: {
    std::optional<LValue> place = lowerLValue(sub);
    return place ? load(*place, l) : nullptr;
  }
  case clang::CK_NoOp:
  case clang::CK_ToVoid:
    return lowerRValue(sub);
  case clang::CK_IntegralCast:
  case clang::CK_IntegralToFloating:
  case clang::CK_FloatingToIntegral:
  case clang::CK_FloatingCast:
  case clang::CK_IntegralToBoolean:
  case clang::CK_FloatingToBoolean:
  case clang::CK_BooleanToSignedIntegral: {
    Value v = lowerRValue(sub);
    return v ? convert(v, sub->getType(), expr->getType(), l) : nullptr;
  }
  default:
    return unsupported(expr, Twine("the conversion '") +
                                 expr->getCastKindName() +
                                 "' cannot be differentiated");
  }
}

Value FunctionLowering::arithmetic(clang::BinaryOperatorKind kind, Value lhs,
                                   Value rhs, clang::QualType type,
                                   Location l) {
  bool isFloat = isa<FloatType>(lhs.getType());
  bool isSigned = type->isSignedIntegerOrEnumerationType();
  switch (kind) {
  case clang::BO_Add:
    return isFloat ? arith::AddFOp::create(b, l, lhs, rhs).getResult()
                   : arith::AddIOp::create(b, l, lhs, rhs).getResult();
  case clang::BO_Sub:
    return isFloat ? arith::SubFOp::create(b, l, lhs, rhs).getResult()
                   : arith::SubIOp::create(b, l, lhs, rhs).getResult();
  case clang::BO_Mul:
    return isFloat ? arith::MulFOp::create(b, l, lhs, rhs).getResult()
                   : arith::MulIOp::create(b, l, lhs, rhs).getResult();
  case clang::BO_Div:
    if (isFloat)
      return arith::DivFOp::create(b, l, lhs, rhs);
    return isSigned ? arith::DivSIOp::create(b, l, lhs, rhs).getResult()
                    : arith::DivUIOp::create(b, l, lhs, rhs).getResult();
  case clang::BO_Rem:
    return isSigned ? arith::RemSIOp::create(b, l, lhs, rhs).getResult()
                    : arith::RemUIOp::create(b, l, lhs, rhs).getResult();
  case clang::BO_And:
    return arith::AndIOp::create(b, l, lhs, rhs);
  case clang::BO_Or:
    return arith::OrIOp::create(b, l, lhs, rhs);
  case clang::BO_Xor:
    return arith::XOrIOp::create(b, l, lhs, rhs);
  case clang::BO_Shl:
    return arith::ShLIOp::create(b, l, lhs, rhs);
  case clang::BO_Shr:
    return isSigned ? arith::ShRSIOp::create(b, l, lhs, rhs).getResult()
                    : arith::ShRUIOp::create(b, l, lhs, rhs).getResult();
  default:
    break;
  }
  // Comparisons.
  if (isFloat) {
    arith::CmpFPredicate predicate;
    switch (kind) {
    case clang::BO_LT: predicate = arith::CmpFPredicate::OLT; break;
    case clang::BO_LE: predicate = arith::CmpFPredicate::OLE; break;
    case clang::BO_GT: predicate = arith::CmpFPredicate::OGT; break;
    case clang::BO_GE: predicate = arith::CmpFPredicate::OGE; break;
    case clang::BO_EQ: predicate = arith::CmpFPredicate::OEQ; break;
    default: predicate = arith::CmpFPredicate::UNE; break;
    }
    return arith::CmpFOp::create(b, l, predicate, lhs, rhs);
  }
  arith::CmpIPredicate predicate;
  switch (kind) {
  case clang::BO_LT:
    predicate = isSigned ? arith::CmpIPredicate::slt : arith::CmpIPredicate::ult;
    break;
  case clang::BO_LE:
    predicate = isSigned ? arith::CmpIPredicate::sle : arith::CmpIPredicate::ule;
    break;
  case clang::BO_GT:
    predicate = isSigned ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::ugt;
    break;
  case clang::BO_GE:
    predicate = isSigned ? arith::CmpIPredicate::sge : arith::CmpIPredicate::uge;
    break;
  case clang::BO_EQ:
    predicate = arith::CmpIPredicate::eq;
    break;
  default:
    predicate = arith::CmpIPredicate::ne;
    break;
  }
  return arith::CmpIOp::create(b, l, predicate, lhs, rhs);
}

Value FunctionLowering::lowerBinary(const clang::BinaryOperator *expr) {
  Location l = loc(expr);
  if (expr->isLogicalOp())
    return lowerLogical(expr);
  if (expr->getOpcode() == clang::BO_Comma) {
    lowerRValue(expr->getLHS());
    return lowerRValue(expr->getRHS());
  }
  if (expr->getLHS()->getType()->isPointerType() ||
      expr->getRHS()->getType()->isPointerType())
    return unsupported(expr, "pointer arithmetic is not supported in "
                             "differentiable functions yet; index the "
                             "pointer instead (p[i + k])");
  Value lhs = lowerRValue(expr->getLHS());
  Value rhs = lowerRValue(expr->getRHS());
  if (!lhs || !rhs)
    return nullptr;
  if (expr->getOpcode() == clang::BO_Rem && isa<FloatType>(lhs.getType()))
    return unsupported(expr, "'%' on floating-point values is not C++");
  return arithmetic(expr->getOpcode(), lhs, rhs, expr->getLHS()->getType(),
                    l);
}

/// `&&` and `||` evaluate their right side only when needed.
Value FunctionLowering::lowerLogical(const clang::BinaryOperator *expr) {
  Location l = loc(expr);
  Value lhs = lowerRValue(expr->getLHS());
  if (!lhs)
    return nullptr;
  lhs = toBool(lhs, expr->getLHS()->getType(), l);
  Block *current = b.getInsertionBlock();
  Block *rhsBlock = newBlock();
  Block *merge = newBlock();
  merge->addArgument(b.getI1Type(), l);
  enter(current);
  bool isAnd = expr->getOpcode() == clang::BO_LAnd;
  Value shortCircuit = arith::ConstantOp::create(b, l, b.getBoolAttr(!isAnd));
  if (isAnd)
    cf::CondBranchOp::create(b, l, lhs, rhsBlock, ValueRange{}, merge,
                             ValueRange{shortCircuit});
  else
    cf::CondBranchOp::create(b, l, lhs, merge, ValueRange{shortCircuit},
                             rhsBlock, ValueRange{});
  enter(rhsBlock);
  Value rhs = lowerRValue(expr->getRHS());
  if (!rhs)
    return nullptr;
  rhs = toBool(rhs, expr->getRHS()->getType(), l);
  cf::BranchOp::create(b, l, merge, ValueRange{rhs});
  enter(merge);
  return merge->getArgument(0);
}

std::optional<LValue>
FunctionLowering::lowerAssignment(const clang::BinaryOperator *expr) {
  Location l = loc(expr);
  std::optional<LValue> place = lowerLValue(expr->getLHS());
  Value rhs = lowerRValue(expr->getRHS());
  if (!place || !rhs)
    return std::nullopt;
  if (const auto *compound = dyn_cast<clang::CompoundAssignOperator>(expr)) {
    // x op= y computes in the computation type, then converts back.
    clang::QualType lhsType = expr->getLHS()->getType();
    clang::QualType computation = compound->getComputationLHSType();
    Value lhs = convert(load(*place, l), lhsType, computation, l);
    Value result = arithmetic(clang::BinaryOperator::getOpForCompoundAssignment(
                                  expr->getOpcode()),
                              lhs, rhs, computation, l);
    rhs = convert(result, compound->getComputationResultType(), lhsType, l);
  }
  store(*place, rhs, l);
  return place;
}

Value FunctionLowering::lowerUnary(const clang::UnaryOperator *expr) {
  Location l = loc(expr);
  const clang::Expr *sub = expr->getSubExpr();
  switch (expr->getOpcode()) {
  case clang::UO_Plus:
    return lowerRValue(sub);
  case clang::UO_Minus: {
    Value v = lowerRValue(sub);
    if (!v)
      return nullptr;
    if (isa<FloatType>(v.getType()))
      return arith::NegFOp::create(b, l, v);
    Value zero = arith::ConstantOp::create(b, l, v.getType(),
                                           b.getZeroAttr(v.getType()));
    return arith::SubIOp::create(b, l, zero, v);
  }
  case clang::UO_LNot: {
    Value v = lowerRValue(sub);
    if (!v)
      return nullptr;
    Value one = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
    return arith::XOrIOp::create(b, l, toBool(v, sub->getType(), l), one);
  }
  case clang::UO_Not: {
    Value v = lowerRValue(sub);
    if (!v)
      return nullptr;
    Value ones = arith::ConstantOp::create(
        b, l, v.getType(), b.getIntegerAttr(v.getType(), -1));
    return arith::XOrIOp::create(b, l, v, ones);
  }
  case clang::UO_PreInc:
  case clang::UO_PreDec:
  case clang::UO_PostInc:
  case clang::UO_PostDec: {
    if (sub->getType()->isPointerType())
      return unsupported(expr, "pointer arithmetic is not supported in "
                               "differentiable functions yet; index the "
                               "pointer instead (p[i + k])");
    std::optional<LValue> place = lowerLValue(sub);
    if (!place)
      return nullptr;
    Value old = load(*place, l);
    Type type = old.getType();
    Value one = isa<FloatType>(type)
                    ? arith::ConstantOp::create(b, l, type,
                                                b.getFloatAttr(type, 1.0))
                    : arith::ConstantOp::create(b, l, type,
                                                b.getIntegerAttr(type, 1));
    clang::BinaryOperatorKind kind = expr->isIncrementOp() ? clang::BO_Add
                                                           : clang::BO_Sub;
    Value updated = arithmetic(kind, old, one, sub->getType(), l);
    store(*place, updated, l);
    return expr->isPrefix() ? updated : old;
  }
  case clang::UO_Deref: {
    std::optional<LValue> place = lowerLValue(expr);
    return place ? load(*place, l) : nullptr;
  }
  default:
    return unsupported(expr, "this operator cannot be differentiated");
  }
}

Value FunctionLowering::lowerConditional(
    const clang::ConditionalOperator *expr) {
  Location l = loc(expr);
  Type type = typeOf(expr);
  Value cond = lowerRValue(expr->getCond());
  if (!type || !cond)
    return nullptr;
  cond = toBool(cond, expr->getCond()->getType(), l);
  Block *current = b.getInsertionBlock();
  Block *trueBlock = newBlock();
  Block *falseBlock = newBlock();
  Block *merge = newBlock();
  merge->addArgument(type, l);
  enter(current);
  cf::CondBranchOp::create(b, l, cond, trueBlock, falseBlock);
  for (auto [block, arm] : {std::pair{trueBlock, expr->getTrueExpr()},
                            std::pair{falseBlock, expr->getFalseExpr()}}) {
    enter(block);
    Value v = lowerRValue(arm);
    if (!v)
      return nullptr;
    cf::BranchOp::create(b, l, merge, ValueRange{v});
  }
  enter(merge);
  return merge->getArgument(0);
}

Value FunctionLowering::lowerCall(const clang::CallExpr *expr) {
  Location l = loc(expr);
  if (isa<clang::CXXMemberCallExpr, clang::CXXOperatorCallExpr>(expr))
    return unsupported(expr, "member functions and overloaded operators are "
                             "not supported in differentiable functions "
                             "yet; call a free function");
  const clang::FunctionDecl *callee = expr->getDirectCallee();
  if (!callee)
    return unsupported(expr, "indirect calls (through function pointers) "
                             "cannot be differentiated; call the function "
                             "directly");
  if (callee->isVariadic() || expr->getNumArgs() != callee->getNumParams())
    return unsupported(expr, "variadic functions cannot be differentiated; "
                             "move the call (I/O, logging) outside the "
                             "differentiable function");
  SmallVector<Value> args;
  for (auto [arg, param] : llvm::zip(expr->arguments(), callee->parameters())) {
    clang::QualType type = param->getType();
    Value v;
    if (type->isReferenceType()) {
      std::optional<LValue> place = lowerLValue(arg);
      if (!place)
        return nullptr;
      if (!place->indices.empty() && place->indices.size() == 1 &&
          isa<MemRefType>(place->memref.getType()) &&
          cast<MemRefType>(place->memref.getType()).getRank() == 1 &&
          matchPattern(place->indices[0], m_Zero()))
        v = place->memref;
      else
        return unsupported(arg, "passing this by reference is not "
                                "supported yet; pass it by value or pass a "
                                "reference parameter on");
    } else if (type->isPointerType()) {
      SmallVector<Value> none;
      Value memref = lowerMemory(arg, none);
      if (!memref)
        return nullptr;
      auto memrefType = cast<MemRefType>(memref.getType());
      if (memrefType.getRank() != 1)
        return unsupported(arg, "only one-dimensional arrays can be passed "
                                "as pointers");
      auto pointerType = MemRefType::get({ShapedType::kDynamic},
                                         memrefType.getElementType());
      v = memrefType == pointerType
              ? memref
              : memref::CastOp::create(b, l, pointerType, memref).getResult();
    } else {
      v = lowerRValue(arg);
      if (!v)
        return nullptr;
    }
    args.push_back(v);
  }
  if (callee->getQualifiedNameAsString() == "ct::stop_gradient" &&
      args.size() == 1 && isa<FloatType>(args[0].getType()))
    return ct::StopGradientOp::create(b, l, args[0]);
  Type resultType;
  if (!callee->getReturnType()->isVoidType()) {
    resultType = typeOf(expr);
    if (!resultType)
      return nullptr;
  }
  if (resultType)
    if (Value math = buildMathFunction(
            b, l, callee, args, resultType,
            function->getParentOfType<ModuleOp>()))
      return math;
  const clang::FunctionDecl *definition = nullptr;
  if (!callee->hasBody(definition) && !isDifferentiable(callee))
    return unsupported(expr, "'" + callee->getQualifiedNameAsString() +
                                 "' has no visible body, so it cannot be "
                                 "differentiated; define it in this file, "
                                 "mark it [[ct::differentiable]] where it is "
                                 "defined, or give it a custom derivative "
                                 "rule");
  func::FuncOp target = module.getFunction(callee);
  if (!target)
    return nullptr;
  auto call = func::CallOp::create(b, l, target, args);
  // A void call has no value; give statement lowering something non-null.
  return call.getNumResults() ? call.getResult(0)
                              : arith::ConstantIndexOp::create(b, l, 0);
}

void lowerFunctionBody(ModuleLowering &module, const clang::FunctionDecl *decl,
                       func::FuncOp function) {
  if (!function)
    return;
  FunctionLowering(module, decl, function).lower();
}

} // namespace cotangent::frontend
