//===- AddressHolders.cpp - Pointer arrays that keep addresses ------------===//
//
// In the memref model an array of pointers the function creates holds, in
// each element, an offset into memory known beside the array: one memref
// for all of its elements (IndirectFields.cpp). A table of rows
// `double *rows[] = {a, b, c}` indexed at run time, a vector of pointers
// into two buffers, or an array of springs whose ends lie in different
// arrays has no such memref. Their elements keep the addresses they are
// given instead (ct.store_address, docs/Memory.md), and every read loads
// an address back, so which array an element designates is data, as in
// C++.
//
// Which arrays need it is decided before the function is lowered (the
// first pointer stored is lowered before the second is seen): those whose
// stores bring pointers into two or more memories and which the code also
// indexes at run time. The others keep the memref model, which is exact
// for the engine's analyses.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {

using Holder = AddressHolder;

bool isVectorType(clang::QualType type) {
  return !ModuleLowering::getVectorElementType(type).isNull();
}

bool isElementHolder(const clang::VarDecl *var);

/// The variable `expr` names, through reference variables bound to one
/// (`double *(&alias)[2] = rows;` names `rows`).
const clang::VarDecl *namedVariable(const clang::Expr *expr) {
  const auto *ref = dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (var && var->getType()->isReferenceType() && var->getInit() &&
      var->hasLocalStorage())
    return namedVariable(var->getInit());
  return var;
}

/// The local array or vector variable `expr` names an element of (through
/// subscripts and `at`), if any.
const clang::VarDecl *elementOwner(const clang::Expr *expr) {
  while (true) {
    expr = expr->IgnoreParenImpCasts();
    if (const auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr)) {
      expr = subscript->getBase();
      continue;
    }
    if (const auto *op = dyn_cast<clang::CXXOperatorCallExpr>(expr);
        op && op->getOperator() == clang::OO_Subscript) {
      expr = op->getArg(0);
      continue;
    }
    if (const auto *call = dyn_cast<clang::CXXMemberCallExpr>(expr);
        call && call->getMethodDecl() &&
        call->getMethodDecl()->getIdentifier() &&
        call->getMethodDecl()->getName() == "at") {
      expr = call->getImplicitObjectArgument();
      continue;
    }
    break;
  }
  const clang::VarDecl *var = namedVariable(expr);
  return var && isElementHolder(var) ? var : nullptr;
}

/// Where the pointers stored into address holders come from, by holder:
/// each source is the declaration it points into, or the expression that
/// makes it (one source per such expression).
class StoredPointers {
public:
  explicit StoredPointers(clang::ASTContext &ast) : ast(ast) {}

  llvm::DenseMap<Holder, llvm::SmallPtrSet<const void *, 2>> sources;

  /// Holders given memory an allocation makes (`a[i] = new double[n]`):
  /// a new memory each time the store runs, which no memref known beside
  /// the holder can be.
  llvm::DenseSet<Holder> allocated;

  /// Holders given a choice between memories made at run time.
  llvm::DenseSet<Holder> chosen;

  void stored(Holder holder, const clang::Expr *pointer) {
    if (isNullPointer(pointer, ast))
      return;
    // (`c ? a + i : b`: each arm is a source; the choice is not one.
    // Between memories, it is made at run time, which no binding known
    // beside the holder can follow, whatever the holder's indices.)
    if (const auto *choice = dyn_cast<clang::AbstractConditionalOperator>(
            pointer->IgnoreParenImpCasts())) {
      const clang::Expr *onTrue = choice->getTrueExpr();
      const clang::Expr *onFalse = choice->getFalseExpr();
      if (!isNullPointer(onTrue, ast) && !isNullPointer(onFalse, ast) &&
          sourceOf(onTrue) != sourceOf(onFalse))
        chosen.insert(holder);
      stored(holder, onTrue);
      stored(holder, onFalse);
      return;
    }
    sources[holder].insert(sourceOf(pointer));
    if (isFreshAllocation(pointer))
      allocated.insert(holder);
  }

  /// The stores of an initializer `init` of an object of `type` held by
  /// variable `var` (whose elements these are).
  void initializer(const clang::VarDecl *var, clang::QualType type,
                   const clang::Expr *init) {
    init = stripTemporaries(init);
    type = type.getCanonicalType();
    if (type->isPointerType()) {
      stored({var, nullptr}, init);
      return;
    }
    if (const clang::ArrayType *array = type->getAsArrayTypeUnsafe()) {
      if (const auto *list = dyn_cast<clang::InitListExpr>(init))
        for (const clang::Expr *element : list->inits())
          initializer(var, array->getElementType(), element);
      return;
    }
    if (isVectorType(type)) {
      // `std::vector<T *> v = {a, b}`: the list's array.
      const auto *construct = dyn_cast<clang::CXXConstructExpr>(init);
      if (!construct || construct->getNumArgs() == 0)
        return;
      const auto *list = dyn_cast<clang::CXXStdInitializerListExpr>(
          stripTemporaries(construct->getArg(0)));
      if (!list)
        return;
      const auto *array =
          dyn_cast<clang::InitListExpr>(stripTemporaries(list->getSubExpr()));
      if (!array)
        return;
      clang::QualType element = ModuleLowering::getVectorElementType(type);
      for (const clang::Expr *value : array->inits())
        initializer(var, element, value);
      return;
    }
    if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(init)) {
      constructor(var, construct);
      return;
    }
    const auto *record = type->getAsCXXRecordDecl();
    const auto *list = dyn_cast<clang::InitListExpr>(init);
    if (!record || !list || record->getNumBases() != 0)
      return;
    unsigned i = 0;
    for (const clang::FieldDecl *field : record->fields()) {
      if (i == list->getNumInits())
        break;
      const clang::Expr *value = list->getInit(i++);
      if (field->getType()->isPointerType())
        stored({var, field}, stripTemporaries(value));
    }
  }

private:
  clang::ASTContext &ast;

  /// `T(p, q)` for a constructor that sets pointer fields from its
  /// parameters (`Edge(const double *a, ...) : from(a)`): the arguments.
  void constructor(const clang::VarDecl *var,
                   const clang::CXXConstructExpr *construct) {
    const clang::CXXConstructorDecl *ctor = construct->getConstructor();
    for (const clang::CXXCtorInitializer *member : ctor->inits()) {
      const clang::FieldDecl *field = member->getMember();
      if (!field || !field->getType()->isPointerType() || !member->getInit())
        continue;
      storedByConstructor({var, field}, construct, member->getInit());
    }
    // `from = a;` in its body.
    forEachFieldAssignment(ctor->getBody(), [&](const clang::FieldDecl *field,
                                                const clang::Expr *value) {
      storedByConstructor({var, field}, construct, value);
    });
  }

  /// `value`, which the constructor `construct` calls sets a field to: a
  /// value computed from a parameter (`from(a)`, `from(a + 1)`) points
  /// where the argument does; another, where it does itself.
  void storedByConstructor(Holder holder,
                           const clang::CXXConstructExpr *construct,
                           const clang::Expr *value) {
    const auto *parameter =
        dyn_cast_or_null<clang::ParmVarDecl>(declarationOf(value));
    if (parameter &&
        parameter->getDeclContext() == construct->getConstructor() &&
        parameter->getFunctionScopeIndex() < construct->getNumArgs())
      stored(holder, construct->getArg(parameter->getFunctionScopeIndex()));
    else
      stored(holder, value);
  }

  /// Calls `visit(field, value)` for each `field = value` of a pointer
  /// field of the object a constructor's body makes.
  static void forEachFieldAssignment(
      const clang::Stmt *stmt,
      function_ref<void(const clang::FieldDecl *, const clang::Expr *)> visit) {
    if (!stmt)
      return;
    if (const auto *assign = dyn_cast<clang::BinaryOperator>(stmt);
        assign && assign->getOpcode() == clang::BO_Assign &&
        assign->getType()->isPointerType())
      if (const auto *member = dyn_cast<clang::MemberExpr>(
              assign->getLHS()->IgnoreParenImpCasts());
          member &&
          isa<clang::CXXThisExpr>(member->getBase()->IgnoreParenImpCasts()))
        if (const auto *field =
                dyn_cast<clang::FieldDecl>(member->getMemberDecl()))
          visit(field, assign->getRHS());
    for (const clang::Stmt *child : stmt->children())
      forEachFieldAssignment(child, visit);
  }

  /// The declaration `pointer` points into; else the expression itself.
  const void *sourceOf(const clang::Expr *pointer) {
    if (const clang::ValueDecl *decl = declarationOf(pointer))
      return decl;
    return pointer;
  }

  /// The variable or parameter `pointer` points into (`a`, `a + k`,
  /// `&a[k]`, `v.data()`), if any.
  static const clang::ValueDecl *declarationOf(const clang::Expr *pointer) {
    const clang::Expr *expr = pointer->IgnoreParenImpCasts();
    while (true) {
      if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr);
          unary && unary->getOpcode() == clang::UO_AddrOf) {
        expr = unary->getSubExpr()->IgnoreParenImpCasts();
        continue;
      }
      if (const auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr)) {
        expr = subscript->getBase()->IgnoreParenImpCasts();
        continue;
      }
      if (const auto *op = dyn_cast<clang::CXXOperatorCallExpr>(expr);
          op && op->getOperator() == clang::OO_Subscript) {
        expr = op->getArg(0)->IgnoreParenImpCasts();
        continue;
      }
      if (const auto *arith = dyn_cast<clang::BinaryOperator>(expr);
          arith && arith->isAdditiveOp() && arith->getType()->isPointerType()) {
        expr = (arith->getLHS()->getType()->isPointerType() ? arith->getLHS()
                                                            : arith->getRHS())
                   ->IgnoreParenImpCasts();
        continue;
      }
      if (const auto *call = dyn_cast<clang::CXXMemberCallExpr>(expr);
          call && call->getMethodDecl() &&
          call->getMethodDecl()->getIdentifier() &&
          call->getMethodDecl()->getName() == "data") {
        expr = call->getImplicitObjectArgument()->IgnoreParenImpCasts();
        continue;
      }
      break;
    }
    const auto *ref = dyn_cast<clang::DeclRefExpr>(expr);
    return ref ? ref->getDecl() : nullptr;
  }
};

/// Whether `var` is a local pointer variable initialized with memory the
/// function allocates (`new T *[n]`, `(T **)malloc(bytes)`, `new Node[n]`)
/// for pointers or objects holding them: the memory is the variable's
/// own, as a local array's is.
bool isAllocationHolder(const clang::VarDecl *var) {
  clang::QualType type = var->getType().getCanonicalType();
  if (!type->isPointerType() || !isFreshAllocation(var->getInit()))
    return false;
  clang::QualType element = type->getPointeeType().getCanonicalType();
  const clang::RecordDecl *record = element->getAsRecordDecl();
  return element->isPointerType() ||
         (record && !isVectorType(element) && record->getDefinition());
}

/// Whether `var` is a local array or vector, or a pointer variable to the
/// memory it allocates, whose elements may be pointers or objects holding
/// them.
bool isElementHolder(const clang::VarDecl *var) {
  if (!var->hasLocalStorage() || var->getType()->isReferenceType())
    return false;
  clang::QualType type = var->getType().getCanonicalType();
  return type->isArrayType() || isVectorType(type) || isAllocationHolder(var);
}

/// Walks a function body for the stores into elements of its local arrays
/// and vectors, and for how each is indexed.
class HolderScan {
public:
  explicit HolderScan(clang::ASTContext &ast) : ast(ast), stores(ast) {}

  void walk(const clang::Stmt *stmt) {
    if (!stmt)
      return;
    visitDecls(stmt);
    visitAssignment(stmt);
    visitGrowth(stmt);
    visitHelperCall(stmt);
    visitIndexing(stmt);
    visitDecay(stmt);
    for (const clang::Stmt *child : stmt->children())
      walk(child);
  }

  /// The holders given pointers into two or more memories, of arrays the
  /// code also indexes at run time, and those a helper may write.
  void result(llvm::DenseSet<Holder> &holders) const {
    for (const auto &[holder, sources] : stores.sources) {
      // (Memory a pointer variable allocated has no elements of its own
      // to bind one by one: its constant indices are no exception.)
      bool indexedAtRunTime =
          isAllocationHolder(holder.first) || stores.chosen.contains(holder) ||
          uses.lookup(holder.first) > constantIndexUses.lookup(holder.first);
      if ((sources.size() > 1 || stores.allocated.contains(holder)) &&
          indexedAtRunTime && canKeepAddresses(holder))
        holders.insert(holder);
    }
    for (const clang::VarDecl *var : writtenByHelpers)
      if (canKeepAddresses({var, nullptr}))
        holders.insert({var, nullptr});
    // A table of pointers whose address is kept (`t.rows = rows`, a
    // struct's initializer, `double **p = rows + 1`) is read back through
    // that address, which finds addresses only.
    for (const auto &[var, count] : decays)
      if (count > indexedOrPassed.lookup(var) &&
          canKeepAddresses({var, nullptr}))
        holders.insert({var, nullptr});
  }

  /// Whether the addresses of what `holder`'s pointers designate can be
  /// kept: not objects whose own pointer fields designate memory known
  /// beside them (the memref model's), which an address read back cannot
  /// find.
  static bool canKeepAddresses(Holder holder) {
    clang::QualType pointer;
    if (holder.second) {
      pointer = holder.second->getType();
    } else {
      pointer = holder.first->getType().getCanonicalType();
      if (isAllocationHolder(holder.first))
        pointer = pointer->getPointeeType().getCanonicalType();
      while (const clang::ArrayType *array = pointer->getAsArrayTypeUnsafe())
        pointer = array->getElementType().getCanonicalType();
      if (isVectorType(pointer))
        pointer = ModuleLowering::getVectorElementType(pointer);
    }
    return pointer->isPointerType() &&
           !ModuleLowering::holdsUnkeptPointers(pointer->getPointeeType());
  }

private:
  clang::ASTContext &ast;
  StoredPointers stores;
  /// Arrays of pointers passed to a helper that may store pointers into
  /// them (a `T **` parameter): whatever it stores is kept as an address,
  /// which the helper's stores into the caller's array are.
  llvm::DenseSet<const clang::VarDecl *> writtenByHelpers;
  /// References to each variable, and those that index it by a constant.
  llvm::DenseMap<const clang::VarDecl *, unsigned> uses, constantIndexUses;
  /// Each array's conversions to a pointer to its first element, and those
  /// that are indexed or passed to a function (whose body the lowering
  /// follows, or which receives it as a `T **` that keeps addresses).
  llvm::DenseMap<const clang::VarDecl *, unsigned> decays, indexedOrPassed;

  /// The array or vector of pointers `expr` converts to a pointer to its
  /// first element (`rows`, `rows.data()`), if any.
  static const clang::VarDecl *decayedTable(const clang::Expr *expr) {
    if (const auto *data =
            dyn_cast<clang::CXXMemberCallExpr>(expr->IgnoreParenImpCasts());
        data && data->getMethodDecl() &&
        data->getMethodDecl()->getIdentifier() &&
        data->getMethodDecl()->getName() == "data") {
      const auto *ref = dyn_cast<clang::DeclRefExpr>(
          data->getImplicitObjectArgument()->IgnoreParenImpCasts());
      const auto *var =
          ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      if (!var || !isElementHolder(var) ||
          !isVectorType(var->getType().getCanonicalType()))
        return nullptr;
      return ModuleLowering::getVectorElementType(
                 var->getType().getCanonicalType())
                     ->isPointerType()
                 ? var
                 : nullptr;
    }
    const auto *cast = dyn_cast<clang::ImplicitCastExpr>(expr->IgnoreParens());
    if (!cast || cast->getCastKind() != clang::CK_ArrayToPointerDecay ||
        !isa<clang::DeclRefExpr>(cast->getSubExpr()->IgnoreParens()))
      return nullptr;
    const clang::VarDecl *var = namedVariable(cast->getSubExpr());
    if (!var || !isElementHolder(var) || !var->getType()->isArrayType())
      return nullptr;
    clang::QualType element =
        var->getType()->getAsArrayTypeUnsafe()->getElementType();
    return element->isPointerType() ? var : nullptr;
  }

  void visitDecay(const clang::Stmt *stmt) {
    const auto *expr = dyn_cast<clang::Expr>(stmt);
    if (!expr)
      return;
    // (Counted at the conversion or the call itself, not at the implicit
    // conversions of its result.)
    const auto *cast = dyn_cast<clang::ImplicitCastExpr>(expr);
    if (!cast || cast->getCastKind() == clang::CK_ArrayToPointerDecay)
      if (const clang::VarDecl *var = decayedTable(expr))
        ++decays[var];
    if (const auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr))
      if (const clang::VarDecl *var = decayedTable(subscript->getBase()))
        ++indexedOrPassed[var];
    // `&rows[k]`: the address of an element, kept like the table's.
    if (const auto *address = dyn_cast<clang::UnaryOperator>(expr);
        address && address->getOpcode() == clang::UO_AddrOf)
      if (const auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(
              address->getSubExpr()->IgnoreParens()))
        if (const clang::VarDecl *var = decayedTable(subscript->getBase()))
          ++decays[var];
    if (const auto *call = dyn_cast<clang::CallExpr>(expr))
      for (const clang::Expr *arg : call->arguments())
        if (const clang::VarDecl *var = decayedTable(arg))
          ++indexedOrPassed[var];
  }

  void visitDecls(const clang::Stmt *stmt) {
    const auto *declStmt = dyn_cast<clang::DeclStmt>(stmt);
    if (!declStmt)
      return;
    for (const clang::Decl *decl : declStmt->decls())
      if (const auto *var = dyn_cast<clang::VarDecl>(decl);
          var && var->getInit() && isElementHolder(var) &&
          !isAllocationHolder(var))
        stores.initializer(var, var->getType(), var->getInit());
  }

  /// `a[i] = p`, `a[i].f = p`.
  void visitAssignment(const clang::Stmt *stmt) {
    const auto *assign = dyn_cast<clang::BinaryOperator>(stmt);
    if (!assign || assign->getOpcode() != clang::BO_Assign ||
        !assign->getType()->isPointerType())
      return;
    const clang::Expr *place = assign->getLHS()->IgnoreParenImpCasts();
    if (const auto *member = dyn_cast<clang::MemberExpr>(place)) {
      const auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
      if (const clang::VarDecl *var = field && !member->isArrow()
                                          ? elementOwner(member->getBase())
                                          : nullptr)
        stores.stored({var, field}, assign->getRHS());
      return;
    }
    if (isa<clang::DeclRefExpr>(place))
      return;
    if (const clang::VarDecl *var = elementOwner(place))
      stores.stored({var, nullptr}, assign->getRHS());
  }

  /// `v.push_back(p)`, `v.push_back({p, q, k})`.
  void visitGrowth(const clang::Stmt *stmt) {
    const auto *call = dyn_cast<clang::CXXMemberCallExpr>(stmt);
    const clang::CXXMethodDecl *method = call ? call->getMethodDecl() : nullptr;
    if (!method || !method->getIdentifier() || call->getNumArgs() != 1 ||
        (method->getName() != "push_back" &&
         method->getName() != "emplace_back"))
      return;
    const auto *ref = dyn_cast<clang::DeclRefExpr>(
        call->getImplicitObjectArgument()->IgnoreParenImpCasts());
    const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (var && isElementHolder(var))
      stores.initializer(var,
                         ModuleLowering::getVectorElementType(
                             var->getType().getCanonicalType()),
                         call->getArg(0));
  }

  void visitHelperCall(const clang::Stmt *stmt) {
    const auto *call = dyn_cast<clang::CallExpr>(stmt);
    const clang::FunctionDecl *callee =
        call ? call->getDirectCallee() : nullptr;
    if (!callee)
      return;
    forEachBoundArgument(
        call, callee,
        [&](const clang::ParmVarDecl *param, const clang::Expr *arg) {
          clang::QualType type = param->getType().getCanonicalType();
          if (!type->isPointerType() ||
              !type->getPointeeType()->isPointerType() ||
              type->getPointeeType().isConstQualified())
            return;
          const clang::Expr *array = arg->IgnoreParenImpCasts();
          if (const auto *data = dyn_cast<clang::CXXMemberCallExpr>(array);
              data && data->getMethodDecl() &&
              data->getMethodDecl()->getIdentifier() &&
              data->getMethodDecl()->getName() == "data")
            array = data->getImplicitObjectArgument()->IgnoreParenImpCasts();
          const auto *ref = dyn_cast<clang::DeclRefExpr>(array);
          const auto *var =
              ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
          if (var && isElementHolder(var))
            writtenByHelpers.insert(var);
        });
  }

  void visitIndexing(const clang::Stmt *stmt) {
    auto countConstant = [&](const clang::Expr *base, const clang::Expr *i) {
      const auto *ref =
          dyn_cast<clang::DeclRefExpr>(base->IgnoreParenImpCasts());
      const auto *var =
          ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      if (var && !i->isValueDependent() && i->isIntegerConstantExpr(ast))
        ++constantIndexUses[var];
    };
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(stmt))
      if (const auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()))
        ++uses[var];
    if (const auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(stmt))
      countConstant(subscript->getBase(), subscript->getIdx());
    if (const auto *op = dyn_cast<clang::CXXOperatorCallExpr>(stmt);
        op && op->getOperator() == clang::OO_Subscript && op->getNumArgs() == 2)
      countConstant(op->getArg(0), op->getArg(1));
  }
};

} // namespace

const llvm::DenseSet<Holder> &
FunctionLowering::getAddressHolders(const clang::Stmt *body) {
  auto [known, fresh] = addressHolders.try_emplace(body);
  if (fresh) {
    HolderScan scan(ast);
    scan.walk(body);
    scan.result(known->second);
  }
  return known->second;
}

void FunctionLowering::markAddressHolder(const clang::VarDecl *var,
                                         Value memory) {
  const llvm::DenseSet<Holder> &holders = getAddressHolders(bodyDeclaring(var));
  Value root = memoryRoot(memory);
  for (const Holder &holder : holders)
    if (holder.first == var)
      keepAddressAt(root, holder.second);
}

void FunctionLowering::keepAllAddresses(Value memory, const Layout &element) {
  Value root = memoryRoot(memory);
  for (const Layout::IndirectField &field : element.indirect)
    keepAddressAt(root, field.decl);
}

void FunctionLowering::keepAddressAt(Value root,
                                     const clang::FieldDecl *field) {
  if (field)
    addressFields.insert({root, field});
  else
    addressSlots.insert(root);
}

bool FunctionLowering::isGrowingMemory(Value root) {
  auto load = root.getDefiningOp<ct::LoadAddressOp>();
  return load && growingSlots.count(load.getHolder());
}

bool FunctionLowering::keepsAddressIn(Value root,
                                      const clang::FieldDecl *field) {
  if (isGrowingMemory(root))
    return true;
  return field ? addressFields.contains({root, field})
               : addressSlots.contains(root);
}

} // namespace cotangent::frontend
