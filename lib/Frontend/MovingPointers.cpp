//===- MovingPointers.cpp - Pointer variables that change arrays ----------===//
//
// A pointer variable is its memref and an offset slot, the memref fixed at
// its initialization. Code like an RNN's `T *in = x; for (...) { layer(in);
// in = state[i].hidden; }` moves a pointer to another array. Such a variable
// (one the function assigns after its declaration) keeps every array it has
// designated and a slot saying which one; each read of it selects among
// them. A read lowered before the assignment that adds an array (in a loop,
// its later iterations) is rewritten to select the new array too, which is
// possible when that array exists before the read (it dominates it).
// A variable assigned what another variable designates at run time
// (buffers swapped through pointers), memory `new` makes where the
// assignment runs, or an address read from a field that keeps one
// (`p = p->next` down linked nodes), cannot be such a selection: it keeps its
// address in a slot of its own (ct.store_address, ct.load_address). So does one
// that the code assigns and tests for null (a selection among arrays has no
// null), and one whose address is taken or bound to a reference
// (`std::swap(p, q)`): the slot is its place. Pointers to std::vectors are
// always selections (an address would lose the vector's size): those that
// exchange values share one list of vectors (VectorPointerFlows.h), so that
// `p = q` and `std::swap(p, q)` copy indices.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "NodeResults.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"

using namespace mlir;

namespace cotangent::frontend {

/// Whether `stmt` names `var`.
static bool mentions(const clang::Stmt *stmt, const clang::VarDecl *var) {
  if (!stmt)
    return false;
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(stmt))
    return ref->getDecl() == var;
  return llvm::any_of(stmt->children(), [&](const clang::Stmt *child) {
    return mentions(child, var);
  });
}

/// `p = e` as a statement of its own, with the variable it assigns.
static std::pair<const clang::BinaryOperator *, const clang::VarDecl *>
assignmentStatement(const clang::Stmt *stmt) {
  if (const auto *cleanups = dyn_cast<clang::ExprWithCleanups>(stmt))
    stmt = cleanups->getSubExpr();
  const auto *assign = dyn_cast<clang::BinaryOperator>(stmt);
  if (!assign || assign->getOpcode() != clang::BO_Assign)
    return {};
  const auto *ref =
      dyn_cast<clang::DeclRefExpr>(assign->getLHS()->IgnoreParens());
  return {assign, ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr};
}

/// The pointer variables `stmt` declares without a value, whose first use
/// in their block is an assignment of their own (`void *r; r = malloc(n);`,
/// as C declares first and assigns after): that assignment, by variable.
static void collectInitializingAssignments(
    const clang::Stmt *stmt,
    llvm::DenseMap<const clang::VarDecl *, const clang::BinaryOperator *>
        &found) {
  if (!stmt)
    return;
  if (const auto *compound = dyn_cast<clang::CompoundStmt>(stmt)) {
    SmallVector<const clang::VarDecl *, 2> pending;
    for (const clang::Stmt *child : compound->body()) {
      auto [assign, var] = assignmentStatement(child);
      if (assign && llvm::is_contained(pending, var)) {
        llvm::erase(pending, var);
        if (!mentions(assign->getRHS(), var))
          found[var] = assign;
        continue;
      }
      llvm::erase_if(pending, [&](const clang::VarDecl *waiting) {
        return mentions(child, waiting);
      });
      if (const auto *declStmt = dyn_cast<clang::DeclStmt>(child))
        for (const clang::Decl *decl : declStmt->decls())
          if (const auto *var = dyn_cast<clang::VarDecl>(decl);
              var && !var->getInit() && var->getType()->isPointerType())
            pending.push_back(var);
    }
  }
  for (const clang::Stmt *child : stmt->children())
    collectInitializingAssignments(child, found);
}

const llvm::DenseMap<const clang::VarDecl *, const clang::BinaryOperator *> &
FunctionLowering::getInitializingAssignments(const clang::Stmt *body) {
  auto [known, fresh] = initializingAssignments.try_emplace(body);
  if (fresh)
    collectInitializingAssignments(body, known->second);
  return known->second;
}

const clang::BinaryOperator *
FunctionLowering::initializingAssignment(const clang::VarDecl *var) {
  return getInitializingAssignments(bodyDeclaring(var)).lookup(var);
}

/// Whether `memref` is a choice among memory (`c ? &a : &b`).
static bool isChoice(Value memref) {
  while (auto cast = memref.getDefiningOp<memref::CastOp>())
    memref = cast.getSource();
  auto choice = memref.getDefiningOp<arith::SelectOp>();
  return choice && isa<MemRefType>(choice.getType());
}

/// The pointer variable `expr` names as a place (not its value), if any.
static const clang::VarDecl *namedPointer(const clang::Expr *expr) {
  const auto *ref = dyn_cast<clang::DeclRefExpr>(expr->IgnoreParens());
  const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->getType()->isPointerType() ? var : nullptr;
}

/// `std::swap(p, q)` of two pointer variables to std::vectors.
static bool swapsVectorPointers(const clang::CallExpr *call) {
  const clang::FunctionDecl *callee = call->getDirectCallee();
  if (!callee || !callee->isInStdNamespace() || !callee->getIdentifier() ||
      callee->getName() != "swap" || call->getNumArgs() != 2)
    return false;
  return llvm::all_of(call->arguments(), [](const clang::Expr *arg) {
    const clang::VarDecl *var = namedPointer(arg);
    return var && isVectorPointer(var);
  });
}

static bool mayChangeParameter(const clang::FunctionDecl *callee,
                               const clang::ParmVarDecl *param, int depth);

/// Whether `expr`, stripped of std::move and std::forward, names `var`.
static bool namesThrough(const clang::Expr *expr, const clang::VarDecl *var) {
  expr = expr->IgnoreParenImpCasts();
  if (const clang::Expr *moved = castToReferenceArgument(expr))
    expr = moved->IgnoreParenImpCasts();
  const auto *ref = dyn_cast<clang::DeclRefExpr>(expr);
  return ref && ref->getDecl() == var;
}

/// Whether a call passing `args` to `callee` (a constructor too) may change
/// `var` through a non-const reference parameter bound to it.
static bool mayChangeThrough(const clang::FunctionDecl *callee,
                             ArrayRef<const clang::Expr *> args,
                             const clang::VarDecl *var, int depth) {
  if (!callee)
    return llvm::any_of(
        args, [&](const clang::Expr *arg) { return namesThrough(arg, var); });
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (i >= callee->getNumParams() || !namesThrough(arg, var))
      continue;
    clang::QualType type = callee->getParamDecl(i)->getType();
    if (!type->isReferenceType() ||
        type.getNonReferenceType().isConstQualified())
      continue;
    // An iterator's own copy or move: a read.
    if (const auto *ctor = dyn_cast<clang::CXXConstructorDecl>(callee);
        ctor && (ctor->isCopyOrMoveConstructor()) && ctor->isTrivial())
      continue;
    if (mayChangeParameter(callee, callee->getParamDecl(i), depth + 1))
      return true;
  }
  return false;
}

/// Whether `stmt` may change `var` (a pointer or iterator): assigns or
/// steps it, takes its address, or passes it on to a non-const reference
/// that may.
static bool mayChange(const clang::Stmt *stmt, const clang::VarDecl *var,
                      int depth) {
  if (!stmt)
    return false;
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(stmt);
      binary && binary->isAssignmentOp() && namesThrough(binary->getLHS(), var))
    return true;
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(stmt);
      unary &&
      (unary->isIncrementDecrementOp() ||
       unary->getOpcode() == clang::UO_AddrOf) &&
      namesThrough(unary->getSubExpr(), var))
    return true;
  if (const auto *call = dyn_cast<clang::CXXOperatorCallExpr>(stmt);
      call && call->getNumArgs() > 0 && namesThrough(call->getArg(0), var) &&
      (call->isAssignmentOp() || call->getOperator() == clang::OO_PlusPlus ||
       call->getOperator() == clang::OO_MinusMinus))
    return true;
  // std::move, std::forward: what the call's user does to the result.
  if (const auto *expr = dyn_cast<clang::Expr>(stmt);
      expr && castToReferenceArgument(expr))
    return false;
  if (const auto *call = dyn_cast<clang::CallExpr>(stmt)) {
    if (const auto *member = dyn_cast<clang::CXXMemberCallExpr>(call);
        member && namesThrough(member->getImplicitObjectArgument(), var) &&
        !member->getMethodDecl()->isConst())
      return true;
    SmallVector<const clang::Expr *> args(call->arguments());
    if (mayChangeThrough(call->getDirectCallee(), args, var, depth))
      return true;
  }
  if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(stmt)) {
    SmallVector<const clang::Expr *> args(construct->arguments());
    if (mayChangeThrough(construct->getConstructor(), args, var, depth))
      return true;
  }
  if (isa<clang::LambdaExpr>(stmt))
    return mentions(stmt, var);
  return llvm::any_of(stmt->children(), [&](const clang::Stmt *child) {
    return mayChange(child, var, depth);
  });
}

/// Whether inlined `callee` may change its reference parameter `param`
/// (not known: it may).
static bool mayChangeParameter(const clang::FunctionDecl *callee,
                               const clang::ParmVarDecl *param, int depth) {
  const clang::FunctionDecl *definition = nullptr;
  if (depth > 8 || !callee->hasBody(definition))
    return true;
  param = definition->getParamDecl(param->getFunctionScopeIndex());
  if (const auto *ctor = dyn_cast<clang::CXXConstructorDecl>(definition))
    for (const clang::CXXCtorInitializer *init : ctor->inits())
      if (mayChange(init->getInit(), param, depth))
        return true;
  return mayChange(definition->getBody(), param, depth);
}

bool FunctionLowering::mayChangeReferenceParameter(
    const clang::ParmVarDecl *param) {
  const auto *callee = dyn_cast<clang::FunctionDecl>(param->getDeclContext());
  return !callee || mayChangeParameter(callee, param, 0);
}

/// Whether `body` assigns `var` with `=` (not only moves it by `+=`, `++`),
/// other than by `initializing`, the assignment that gives it its value.
static bool isReassigned(const clang::Stmt *body, const clang::VarDecl *var,
                         const clang::Expr *initializing) {
  if (!body || body == initializing)
    return false;
  if (const auto *assign = dyn_cast<clang::BinaryOperator>(body);
      assign && assign->getOpcode() == clang::BO_Assign)
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(
            assign->getLHS()->IgnoreParenImpCasts());
        ref && ref->getDecl() == var)
      return true;
  // `it = e` of an iterator variable: its class's assignment operator.
  if (const auto *call = dyn_cast<clang::CXXOperatorCallExpr>(body);
      call && call->getOperator() == clang::OO_Equal)
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(
            call->getArg(0)->IgnoreParenImpCasts());
        ref && ref->getDecl() == var)
      return true;
  // `std::swap(p, q)` of pointers to std::vectors (lowerVectorPointerSwap).
  if (const auto *call = dyn_cast<clang::CallExpr>(body);
      call && swapsVectorPointers(call) &&
      llvm::any_of(call->arguments(), [&](const clang::Expr *arg) {
        return namedPointer(arg) == var;
      }))
    return true;
  for (const clang::Stmt *child : body->children())
    if (isReassigned(child, var, initializing))
      return true;
  return false;
}

/// Whether every value `stmt` assigns to `var` with `=` is memory an
/// allocation makes there (`new`, `(T *)malloc(...)`, `realloc`) or
/// nullptr.
static bool assignsOnlyAllocations(const clang::Stmt *stmt,
                                   const clang::VarDecl *var,
                                   clang::ASTContext &ast) {
  if (!stmt)
    return true;
  if (const auto *assign = dyn_cast<clang::BinaryOperator>(stmt);
      assign && assign->getOpcode() == clang::BO_Assign)
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(
            assign->getLHS()->IgnoreParenImpCasts());
        ref && ref->getDecl() == var && !isFreshAllocation(assign->getRHS()) &&
        !isNullPointer(assign->getRHS(), ast))
      return false;
  return llvm::all_of(stmt->children(), [&](const clang::Stmt *child) {
    return assignsOnlyAllocations(child, var, ast);
  });
}

/// The pointer variable `expr` reads, if it is one (through casts).
static const clang::VarDecl *readVariable(const clang::Expr *expr) {
  const auto *ref = dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->getType()->isPointerType() ? var : nullptr;
}

/// Whether `stmt` tests pointer variable `var` for null: `if (p)`, `!p`,
/// `p ? a : b`, `p == nullptr`, `p != nullptr`.
static bool testsForNull(const clang::Stmt *stmt, const clang::VarDecl *var,
                         clang::ASTContext &ast) {
  if (!stmt)
    return false;
  if (const auto *cast = dyn_cast<clang::ImplicitCastExpr>(stmt);
      cast && cast->getCastKind() == clang::CK_PointerToBoolean &&
      readVariable(cast->getSubExpr()) == var)
    return true;
  if (const auto *compare = dyn_cast<clang::BinaryOperator>(stmt);
      compare && compare->isEqualityOp() &&
      ((readVariable(compare->getLHS()) == var &&
        isNullPointer(compare->getRHS(), ast)) ||
       (readVariable(compare->getRHS()) == var &&
        isNullPointer(compare->getLHS(), ast))))
    return true;
  for (const clang::Stmt *child : stmt->children())
    if (testsForNull(child, var, ast))
      return true;
  return false;
}

/// The pointer variables whose address `stmt` takes or to which it binds a
/// reference: `&p`, `double *&r = p`, a call's reference parameter given
/// `p` that could re-seat it (`std::swap(p, q)`; not `T *const &`, as
/// `push_back(p)` takes it: its value is enough), but for the calls
/// `isModelled` says the lowering moves the variable itself
/// (`std::advance`).
static void
collectAddressedPointers(const clang::Stmt *stmt,
                         function_ref<bool(const clang::CallExpr *)> isModelled,
                         llvm::DenseSet<const clang::VarDecl *> &addressed) {
  if (!stmt)
    return;
  auto note = [&](const clang::Expr *place) {
    if (const clang::VarDecl *var = namedPointer(place))
      addressed.insert(var);
  };
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(stmt);
      unary && unary->getOpcode() == clang::UO_AddrOf)
    note(unary->getSubExpr());
  if (const auto *declStmt = dyn_cast<clang::DeclStmt>(stmt))
    for (const clang::Decl *decl : declStmt->decls())
      if (const auto *ref = dyn_cast<clang::VarDecl>(decl);
          ref && ref->getType()->isReferenceType() && ref->getInit())
        note(ref->getInit());
  if (const auto *call = dyn_cast<clang::CallExpr>(stmt);
      call && !isModelled(call))
    if (const clang::FunctionDecl *callee = call->getDirectCallee())
      forEachBoundArgument(
          call, callee,
          [&](const clang::ParmVarDecl *param, const clang::Expr *arg) {
            clang::QualType type = param->getType();
            if (type->isReferenceType() &&
                !type->getPointeeType().isConstQualified())
              note(arg);
          });
  for (const clang::Stmt *child : stmt->children())
    collectAddressedPointers(child, isModelled, addressed);
}

/// Every `p = e` of a pointer variable p in `stmt`, by variable, but the
/// assignments that initialize a variable declared without a value.
static void collectAssignments(
    const clang::Stmt *stmt,
    const llvm::DenseMap<const clang::VarDecl *, const clang::BinaryOperator *>
        &initializing,
    llvm::DenseMap<const clang::VarDecl *, SmallVector<const clang::Expr *, 2>>
        &assigned) {
  if (!stmt)
    return;
  if (const auto *assign = dyn_cast<clang::BinaryOperator>(stmt);
      assign && assign->getOpcode() == clang::BO_Assign)
    if (const clang::VarDecl *var = readVariable(assign->getLHS());
        var && initializing.lookup(var) != assign)
      assigned[var].push_back(assign->getRHS());
  for (const clang::Stmt *child : stmt->children())
    collectAssignments(child, initializing, assigned);
}

const llvm::DenseSet<const clang::VarDecl *> &
FunctionLowering::getAddressSlotVariables(const clang::Stmt *body) {
  auto [known, fresh] = addressSlotVariables.try_emplace(body);
  if (!fresh)
    return known->second;
  llvm::DenseMap<const clang::VarDecl *, SmallVector<const clang::Expr *, 2>>
      assigned;
  collectAssignments(body, getInitializingAssignments(body), assigned);
  // A value that may be any of several arrays at run time: a variable
  // assigned after its declaration, or one initialized from such a
  // variable (`double *t = from;`).
  auto isChosenAtRunTime = [&](const clang::VarDecl *var) {
    if (assigned.count(var))
      return true;
    const clang::VarDecl *source =
        var->getInit() ? readVariable(var->getInit()) : nullptr;
    return source && assigned.count(source);
  };
  // (A pointer to a std::vector designates one of the vectors it is given,
  // whose memory is the vector's elements and size: no address says both,
  // so it stays a selection among them, whatever it is assigned.)
  // Memory `new` makes when the assignment runs, directly or through the
  // variable it initialized (a buffer replaced in a loop, grown by
  // new-copy-delete, read after it), exists only from then on: no
  // selection among arrays made before can name it.
  for (auto &[assignedVar, values] : assigned) {
    const clang::VarDecl *var = assignedVar; // (captured below)
    if (!isVectorPointer(var) &&
        llvm::any_of(values, [&](const clang::Expr *value) {
          auto isNew = [](const clang::Expr *made) {
            return isFreshAllocation(made);
          };
          if (isNew(value))
            return true;
          // An address read from a field that keeps one (`p = p->next`).
          if (const auto *member =
                  dyn_cast<clang::MemberExpr>(value->IgnoreParenImpCasts());
              member && ModuleLowering::keepsAddress(dyn_cast<clang::FieldDecl>(
                            member->getMemberDecl())))
            return true;
          // A node a recursive function builds and returns (a tree's
          // `root = insert(root, key)`): read from the slot it comes in.
          if (const auto *call =
                  dyn_cast<clang::CallExpr>(value->IgnoreParenImpCasts());
              call && call->getDirectCallee() &&
              buildsNodesRecursively(call->getDirectCallee()))
            return true;
          const clang::VarDecl *source = readVariable(value);
          return source && source != var &&
                 (isChosenAtRunTime(source) || isNew(source->getInit()));
        }))
      known->second.insert(var);
  }
  // A variable assigned after its declaration whose code asks whether it
  // is null (it may hold `nullptr`, or a `next` read from a node): only an
  // address kept in memory can say.
  // (A pointer to vectors says so by its index: kNullVectorIndex.)
  for (auto &[var, values] : assigned)
    if (!isVectorPointer(var) && testsForNull(body, var, ast))
      known->second.insert(var);
  // A variable whose address is taken, or to which a reference is bound
  // (`std::swap(p, q)`): its place is the slot, which the code given it
  // reads and writes.
  collectAddressedPointers(
      body,
      [&](const clang::CallExpr *call) {
        return isModelledAlgorithm(call) || isVectorPointerSwap(call);
      },
      known->second);
  return known->second;
}

bool FunctionLowering::isVectorPointerSwap(const clang::CallExpr *call) {
  return swapsVectorPointers(call);
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerVectorPointerSwap(const clang::CallExpr *call) {
  // Each variable is moved to what the other designated before the swap.
  const clang::Expr *first = call->getArg(0), *second = call->getArg(1);
  std::optional<Address> firstTarget = lowerPointer(first);
  std::optional<Address> secondTarget =
      firstTarget ? lowerPointer(second) : std::nullopt;
  if (!secondTarget || !movePointer(namedPointer(first), *secondTarget, call) ||
      !movePointer(namedPointer(second), *firstTarget, call))
    return std::nullopt;
  return CallResult{};
}

const clang::Stmt *FunctionLowering::bodyDeclaring(const clang::VarDecl *var) {
  // A parameter or local of the function that declares it (which may be a
  // callee being inlined).
  const auto *owner =
      dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  return owner ? owner->getBody() : decl->getBody();
}

/// The first use of `var`, a pointer variable that keepsVectorAddress, in
/// `stmt` that is not `*var`, `var->`, `delete var`, a null test, an
/// assignment to it or its value given to another such variable: any
/// other would see the vector's addresses as a vector of the memref model.
static const clang::Expr *foreignVectorAddressUse(const clang::Stmt *stmt,
                                                  const clang::VarDecl *var,
                                                  clang::ASTContext &ast) {
  if (!stmt)
    return nullptr;
  auto names = [&](const clang::Expr *expr) {
    return readVariable(expr) == var;
  };
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(stmt);
      unary && unary->getOpcode() == clang::UO_Deref &&
      names(unary->getSubExpr()))
    return nullptr;
  if (const auto *member = dyn_cast<clang::MemberExpr>(stmt);
      member && member->isArrow() && names(member->getBase()))
    return nullptr;
  if (const auto *erase = dyn_cast<clang::CXXDeleteExpr>(stmt);
      erase && names(erase->getArgument()))
    return nullptr;
  if (const auto *cast = dyn_cast<clang::ImplicitCastExpr>(stmt);
      cast && cast->getCastKind() == clang::CK_PointerToBoolean &&
      names(cast->getSubExpr()))
    return nullptr;
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(stmt)) {
    if (binary->isEqualityOp() &&
        ((names(binary->getLHS()) && isNullPointer(binary->getRHS(), ast)) ||
         (names(binary->getRHS()) && isNullPointer(binary->getLHS(), ast))))
      return nullptr;
    const clang::VarDecl *assigned = binary->getOpcode() == clang::BO_Assign
                                         ? readVariable(binary->getLHS())
                                         : nullptr;
    if (assigned == var ||
        (assigned && names(binary->getRHS()) && keepsVectorAddress(assigned)))
      return foreignVectorAddressUse(binary->getRHS(), var, ast);
  }
  if (const auto *declStmt = dyn_cast<clang::DeclStmt>(stmt))
    for (const clang::Decl *decl : declStmt->decls())
      if (const auto *other = dyn_cast<clang::VarDecl>(decl);
          other && other->getInit() && names(other->getInit()) &&
          keepsVectorAddress(other))
        return nullptr;
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(stmt);
      ref && ref->getDecl() == var)
    return ref;
  for (const clang::Stmt *child : stmt->children())
    if (const clang::Expr *use = foreignVectorAddressUse(child, var, ast))
      return use;
  return nullptr;
}

void FunctionLowering::declarePointerVariable(const clang::VarDecl *var,
                                              Address initial, Location l) {
  const clang::Stmt *body = bodyDeclaring(var);
  if (keepsVectorAddress(var))
    if (const clang::Expr *use = foreignVectorAddressUse(body, var, ast)) {
      unsupported(use, "'" + var->getName() +
                           "' keeps the address of the std::vector it "
                           "designates (a vector made by 'new', or kept in "
                           "memory), which differentiable code reads through "
                           "'*" +
                           var->getName() + "' and '" + var->getName() +
                           "->' only; pass '*" + var->getName() +
                           "' to helpers");
      invalid.insert(var);
      return;
    }
  if (var->getType()->isPointerType() &&
      (getAddressSlotVariables(body).contains(var) ||
       keepsVectorAddress(var))) {
    if (!canKeepAddressOf(var->getType()->getPointeeType(), var))
      return;
    // Assigned what another variable designates at run time (pointers
    // swapped between buffers): the address itself, kept in a slot
    // (docs/Memory.md), offset 0.
    declareAddressSlot(var, initial, l);
    return;
  }
  pointers[var] = {initial.memref, newIndexSlot(initial.offset, l)};
  if (isChoice(initial.memref) && onlyReads(body, var))
    unchangedOffsets[pointers[var].offsetSlot.memref] = initial.offset;
  if (!(var->getType()->isPointerType() || isIterator(var->getType())) ||
      !isReassigned(body, var, getInitializingAssignments(body).lookup(var)))
    return;
  MovingPointer &moving = movingPointers[var];
  if (isVectorPointer(var)) {
    joinVectorPointerGroup(var, moving, initial.memref, l);
    return;
  }
  moving.arrays.push_back(commonView(initial.memref, l));
  moving.which = newIndexSlot(constantIndex(0, l), l);
}

Value FunctionLowering::newAddressSlot(Location l) {
  // At the function entry, as the index slots are (newIndexSlot).
  OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
  Value slot =
      memref::AllocaOp::create(entry, l, MemRefType::get({1}, b.getF64Type()));
  addressSlots.insert(slot);
  return slot;
}

void FunctionLowering::declareAddressSlot(const clang::VarDecl *var,
                                          Address initial, Location l) {
  Value slot = newAddressSlot(l);
  keepAddress(initial, Address{slot, constantIndex(0, l)}, l);
  pointers[var] = {nullptr, newIndexSlot(constantIndex(0, l), l)};
  pointers[var].addressSlot = slot;
  // Given only allocations (or nullptr): their size is kept too, which
  // realloc needs (a buffer grown in a loop by `p = realloc(p, ...)`). Not
  // a parameter: its first value is the caller's, of no known size.
  if (isa<clang::ParmVarDecl>(var))
    return;
  const clang::Expr *init = var->getInit();
  if (!init)
    if (const clang::BinaryOperator *assign = initializingAssignment(var))
      init = assign->getRHS();
  if (init && (isFreshAllocation(init) || isNullPointer(init, ast)) &&
      assignsOnlyAllocations(bodyDeclaring(var), var, ast))
    pointers[var].reallocSize = newIndexSlot(extentFrom(initial, l), l);
}

void FunctionLowering::keepAddress(Address target, Address slot, Location l) {
  ct::StoreAddressOp::create(b, l, materializeAddress(target, l), slot.memref,
                             slot.offset);
}

bool FunctionLowering::canKeepAddressOf(clang::QualType pointee,
                                        const clang::ValueDecl *var) {
  // (One that keepsVectorAddress designates vectors kept in memory: their
  // three addresses.)
  if (isVector(pointee.getCanonicalType()) && !keepsVectorAddress(var)) {
    // Its memory is the vector's elements and size, which one address in
    // memory cannot hold.
    module.error(var->getSourceRange(),
                 "'" + var->getName() +
                     "' points to a std::vector and has its address taken or "
                     "is bound to a reference, which differentiable code "
                     "does not support yet: assign it the address of one of "
                     "the vectors (or swap it with std::swap), or use a "
                     "reference to the vector");
    invalid.insert(var);
    return false;
  }
  if (!ModuleLowering::holdsUnkeptPointers(pointee))
    return true;
  module.error(var->getSourceRange(),
               "'" + var->getName() + "' keeps the address of a '" +
                   pointee.getUnqualifiedType().getAsString() +
                   "' in memory (it is assigned at run time, or tested for "
                   "null), but that struct's pointer fields designate memory "
                   "known beside the object, which an address read back "
                   "cannot find; differentiable code does not support this "
                   "yet: use indices, or a pointer variable that is not "
                   "reassigned");
  invalid.insert(var);
  return false;
}

Value FunctionLowering::commonView(Value memref, Location l) {
  auto type = cast<MemRefType>(memref.getType());
  Type common = getPointerType(type.getElementType());
  if (type == common)
    return memref;
  // Right after the array, so that it is there wherever the array is.
  OpBuilder::InsertionGuard guard(b);
  if (Operation *def = memref.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(memref).getOwner());
  return memref::CastOp::create(b, l, common, memref);
}

/// The memory `memref` is a view of, through casts and one-dimensional
/// unit-stride subviews (a materialized pointer is a subview from its
/// element to the end), with the start of each subview on the way.
static Value viewRoot(Value memref, SmallVectorImpl<OpFoldResult> &starts) {
  while (true) {
    if (auto cast = memref.getDefiningOp<memref::CastOp>()) {
      memref = cast.getSource();
      continue;
    }
    auto view = memref.getDefiningOp<memref::SubViewOp>();
    if (!view || view.getSourceType().getRank() != 1 ||
        !isOneInteger(view.getMixedStrides()[0]) ||
        view.getSourceType().getStridesAndOffset().first[0] != 1)
      return memref;
    starts.push_back(view.getMixedOffsets()[0]);
    memref = view.getSource();
  }
}

std::optional<Value> FunctionLowering::offsetInView(Address target,
                                                    Value memref, Location l) {
  if (target.memref == memref)
    return target.offset;
  SmallVector<OpFoldResult> targetStarts, viewStarts;
  Value root = viewRoot(target.memref, targetStarts);
  if (root != viewRoot(memref, viewStarts))
    return std::nullopt;
  // (Each start dominates its view, and both views are used here.)
  Value offset = target.offset;
  for (OpFoldResult start : targetStarts)
    offset = arith::AddIOp::create(
        b, l, offset, getValueOrCreateConstantIndexOp(b, l, start));
  for (OpFoldResult start : viewStarts)
    offset = arith::SubIOp::create(
        b, l, offset, getValueOrCreateConstantIndexOp(b, l, start));
  return offset;
}

Value FunctionLowering::pointerMemory(const clang::ValueDecl *var,
                                      const PointerVariable &pointer,
                                      Location l) {
  if (pointer.addressSlot) {
    // (A std::unique_ptr keeps the address of its elements.)
    clang::QualType type = ModuleLowering::getOwnedPointerType(var->getType());
    if (type.isNull())
      type = var->getType();
    // (A std::vector it owns lives in memory: its three addresses.)
    clang::QualType pointeeType = type->getPointeeType();
    std::optional<Layout> pointee =
        isVector(pointeeType.getCanonicalType())
            ? module.getVectorInMemoryLayout(pointeeType, var->getSourceRange())
            : module.tryGetLayout(pointeeType);
    assert(pointee && "a pointer variable's pointee has a layout");
    return ct::LoadAddressOp::create(b, l, getPointerType(pointee->scalar),
                                     pointer.addressSlot, constantIndex(0, l));
  }
  auto moving = movingPointers.find(var);
  if (moving == movingPointers.end())
    return pointer.memref;
  MovingPointer &state = moving->second;
  Value chosen = state.arrays.front();
  Value which = load(state.which, l);
  for (auto [k, array] : llvm::enumerate(state.arrays))
    if (k != 0)
      chosen = selectArray(which, k, array, chosen, l);
  // The anchor later arrays are spliced in before (see movePointer).
  auto anchor = memref::CastOp::create(b, l, chosen.getType(), chosen);
  state.reads.push_back({anchor, loweredReads++});
  if (state.group)
    groupedReads[anchor] = {which, state.group};
  return anchor;
}

Value FunctionLowering::selectArray(Value which, size_t k, Value array,
                                    Value otherwise, Location l) {
  Value isK = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, which,
                                    constantIndex(k, l));
  return arith::SelectOp::create(b, l, isK, array, otherwise);
}

void FunctionLowering::setPointer(PointerVariable &pointer, Address target,
                                  Location l) {
  if (pointer.addressSlot) {
    keepAddress(target, Address{pointer.addressSlot, constantIndex(0, l)}, l);
    if (pointer.reallocSize.memref)
      store(extentFrom(target, l), pointer.reallocSize, l);
  } else
    store(target.offset, pointer.offsetSlot, l);
}

bool FunctionLowering::movePointer(const clang::ValueDecl *var, Address target,
                                   const clang::Stmt *where) {
  Location l = loc(where);
  auto moving = movingPointers.find(var);
  PointerVariable &pointer = pointers[var];
  if (pointer.addressSlot) {
    setPointer(pointer, target, l);
    return true;
  }
  if (invalid.count(var))
    return false;
  if (moving == movingPointers.end()) {
    // (Another view of its array, such as a pointer passed by value into
    // it, is that array.)
    std::optional<Value> offset = offsetInView(target, pointer.memref, l);
    if (!offset) {
      unsupported(where, "a pointer variable can only move within the array "
                         "it was initialized with; use another variable");
      return false;
    }
    store(*offset, pointer.offsetSlot, l);
    return true;
  }
  MovingPointer &state = moving->second;
  // Moved within what it designates now (`p = p + 1`): the same array,
  // whichever it is, if nothing chose another since that read.
  if (Operation *read = target.memref.getDefiningOp();
      read && isUnmovedRead(state, read)) {
    store(target.offset, pointer.offsetSlot, l);
    return true;
  }
  size_t known = state.arrays.size();
  Value k = arrayIndex(state, target.memref, where);
  if (!k)
    return false;
  // The pointer fields of what it designates are followed where it is
  // read, in the one object known there: another object, chosen at run
  // time, would have its fields followed into the first one's memory.
  clang::QualType pointee = var->getType()->isPointerType()
                                ? var->getType()->getPointeeType()
                                : clang::QualType();
  if (state.arrays.size() > known && !pointee.isNull() &&
      ModuleLowering::holdsUnkeptPointers(pointee)) {
    unsupported(where, "a pointer to a '" +
                           pointee.getUnqualifiedType().getAsString() +
                           "' can designate only one object, since the "
                           "pointer fields of such objects designate memory "
                           "known beside each; " +
                           chooseByIndexWayOut());
    invalid.insert(var);
    return false;
  }
  store(k, state.which, l);
  store(target.offset, pointer.offsetSlot, l);
  return true;
}

bool FunctionLowering::isUnmovedRead(MovingPointer &state, Operation *read) {
  // A read of this variable, earlier in the block being lowered, with no
  // store of another choice of array between it and here (a copy of an
  // older read, `old = p; p = b; p = old + 1;`, designates the array
  // chosen then, which the general path below keeps).
  if (llvm::none_of(state.reads,
                    [&](const auto &r) { return r.first == read; }) ||
      read->getBlock() != b.getInsertionBlock())
    return false;
  Value which = state.which.memref;
  for (Operation *op = read->getNextNode(); op; op = op->getNextNode()) {
    bool choosesArray = false;
    op->walk([&](memref::StoreOp store) {
      choosesArray |= store.getMemRef() == which;
    });
    if (choosesArray)
      return false;
  }
  return true;
}

/// The memory `memref` views: through casts, and through choices whose
/// every arm is that memory (a moving pointer's read among views of one
/// array); given the null memories (each known by a cast of its own), also
/// through choices whose other arm is null.
static Value viewedMemory(Value memref,
                          const llvm::DenseSet<Value> *nulls = nullptr) {
  while (auto cast = memref.getDefiningOp<memref::CastOp>()) {
    if (nulls && nulls->contains(memref))
      return memref;
    memref = cast.getSource();
  }
  auto choice = memref.getDefiningOp<arith::SelectOp>();
  if (!choice || !isa<MemRefType>(choice.getType()))
    return memref;
  Value onTrue = viewedMemory(choice.getTrueValue(), nulls);
  Value onFalse = viewedMemory(choice.getFalseValue(), nulls);
  if (onTrue == onFalse || (nulls && nulls->contains(onTrue)))
    return onFalse;
  if (nulls && nulls->contains(onFalse))
    return onTrue;
  return memref;
}

/// Whether `memref` is null memory, or a cast of it.
static bool isNullView(Value memref, const llvm::DenseSet<Value> &nulls) {
  while (!nulls.contains(memref)) {
    auto cast = memref.getDefiningOp<memref::CastOp>();
    if (!cast)
      return false;
    memref = cast.getSource();
  }
  return true;
}

Value FunctionLowering::arrayIndex(MovingPointer &state, Value memref,
                                   const clang::Stmt *where) {
  Location l = loc(where);
  // A read of a pointer sharing this one's arrays (pointers to vectors):
  // the index it read.
  if (state.group)
    if (Operation *read = memref.getDefiningOp())
      if (auto known = groupedReads.find(read);
          known != groupedReads.end() && known->second.second == state.group)
        return known->second.first;
  // `nullptr` given to a pointer to vectors: an index of no vector, which
  // null tests compare with (its reads, undefined in C++, select the
  // first vector; the stand-in of `nullptr` when there is none yet).
  if (state.group && isNullView(memref, nullPointers)) {
    if (state.arrays.empty() && !addArray(state, memref, where))
      return nullptr;
    return constantIndex(kNullVectorIndex, l);
  }
  // A choice between arrays made where it is assigned (`p = c ? &a : &b`,
  // in a loop): a choice between their indices, each array added as it
  // is (the choice itself exists only where it is made).
  Value source = memref;
  while (auto cast = source.getDefiningOp<memref::CastOp>())
    source = cast.getSource();
  if (auto choice = source.getDefiningOp<arith::SelectOp>();
      choice && isa<MemRefType>(choice.getType())) {
    Value onTrue = arrayIndex(state, choice.getTrueValue(), where);
    Value onFalse =
        onTrue ? arrayIndex(state, choice.getFalseValue(), where) : Value();
    if (!onFalse)
      return nullptr;
    return arith::SelectOp::create(b, l, choice.getCondition(), onTrue,
                                   onFalse);
  }
  std::optional<size_t> k = addArray(state, memref, where);
  return k ? constantIndex(*k, l) : nullptr;
}

Value FunctionLowering::memoryApartFromNull(Value memory) {
  return viewedMemory(memory, &nullPointers);
}

Value FunctionLowering::stableMemory(Value memref, Location l) {
  Operation *read = memref.getDefiningOp();
  bool isRead = read && llvm::any_of(movingPointers, [&](const auto &moving) {
                  return llvm::any_of(moving.second.reads, [&](const auto &r) {
                    return r.first == read;
                  });
                });
  Value memory = viewedMemory(memref);
  if (!isRead || memory.getDefiningOp<arith::SelectOp>() ||
      isNullView(memref, nullPointers))
    return memref;
  return commonView(memory, l);
}

std::optional<size_t> FunctionLowering::addArray(MovingPointer &state,
                                                 Value memref,
                                                 const clang::Stmt *where) {
  Location l = loc(where);
  // (Another moving pointer's read, `lo = next` in a branch, is the array
  // it reads, made where that array is.)
  Value memory = viewedMemory(memref);
  auto known = llvm::find_if(
      state.arrays, [&](Value array) { return viewedMemory(array) == memory; });
  if (known != state.arrays.end())
    return known - state.arrays.begin();
  Value view = commonView(isNullView(memref, nullPointers) ||
                                  memory.getDefiningOp<arith::SelectOp>()
                              ? memref
                              : memory,
                          l);
  size_t k = known - state.arrays.begin();
  if (known == state.arrays.end()) {
    // A new array: the reads lowered so far that may run after this
    // assignment (in a loop around both) select it too.
    DominanceInfo dominance(function);
    size_t since = loopReadMarks.empty() ? loweredReads : loopReadMarks[0];
    for (auto [read, number] : state.reads) {
      if (number < since)
        continue;
      if (readsApartFromNull.contains(read)) {
        unsupported(where, "this pointer variable, once null, was stored "
                           "into a pointer field as a pointer into one "
                           "array, and moves to another array here; use "
                           "another variable");
        return std::nullopt;
      }
      if (!dominance.properlyDominates(view, read)) {
        // (A pointer to a std::vector designates its elements: moving it
        // to another vector of an array reads a vector made where it is
        // read.)
        const auto *expr = dyn_cast<clang::Expr>(where);
        if (expr && expr->getType()->isPointerType() &&
            isVector(expr->getType()->getPointeeType().getCanonicalType())) {
          unsupported(where, "a pointer variable moved among "
                             "std::vectors can designate only vectors that "
                             "exist wherever it is read, which the "
                             "std::vectors of an array do not; keep the "
                             "index of the vector and index the array");
          return std::nullopt;
        }
        unsupported(where, "a pointer variable can move to another array "
                           "only if that array exists wherever the "
                           "variable is read; create it before the "
                           "variable");
        return std::nullopt;
      }
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(read);
      read->setOperand(0, selectArray(load(state.which, l), k, view,
                                      read->getOperand(0), l));
    }
    state.arrays.push_back(view);
    // Every pointer of the group gets the array at the same index.
    if (state.group)
      for (const clang::ValueDecl *member : vectorPointerGroups[state.group])
        if (auto other = movingPointers.find(member);
            other != movingPointers.end() && &other->second != &state &&
            !llvm::is_contained(other->second.arrays, view) &&
            !addArray(other->second, view, where))
          return std::nullopt;
  }
  return k;
}

void FunctionLowering::joinVectorPointerGroup(const clang::VarDecl *var,
                                              MovingPointer &moving,
                                              Value initial, Location l) {
  // Pointers to std::vectors that exchange values share one list of the
  // vectors they designate, so that `p = q` and `std::swap(p, q)` copy
  // indices, whatever arrays either gains later (in a loop, after the
  // copy).
  vectorPointerFlows.scan(decl->getBody());
  vectorPointerFlows.scan(bodyDeclaring(var));
  moving.group = vectorPointerFlows.getGroup(var);
  SmallVector<const clang::ValueDecl *> &group =
      vectorPointerGroups[moving.group];
  for (const clang::ValueDecl *member : group)
    if (auto other = movingPointers.find(member);
        other != movingPointers.end()) {
      moving.arrays = other->second.arrays;
      break;
    }
  group.push_back(var);
  moving.which = newIndexSlot(constantIndex(0, l), l);
  // Where it is given its first vector: its initializer, the assignment
  // that initializes it, or (a parameter of a helper lowered in place) the
  // helper's body.
  const clang::Stmt *where = var->getInit();
  if (!where)
    where = initializingAssignment(var);
  if (!where)
    where = bodyDeclaring(var);
  if (Value k = arrayIndex(moving, initial, where))
    store(k, moving.which, l);
  else
    invalid.insert(var);
}

} // namespace cotangent::frontend
