//===- GrowingVectors.cpp - std::vector memory that changes at run time ---===//
//
// A local vector whose memory the memref model cannot follow (it grows by
// `push_back`, also after a `reserve`, which C++ grows past; changes its
// size inside a loop or branch, or moves its elements by `insert` and
// `erase`) is lowered on the general memory model (docs/Memory.md): the
// address of its memory is kept in a slot of its own and read back by
// every use, and its size and capacity are two index slots. Growth is what
// a standard library does: new memory of twice the capacity, the elements
// moved there, the old memory freed, the new address stored. The AD engine
// sees a heap buffer whose address is kept in memory, which it shadows
// like any other (the shadow grows and is freed with it). Other local
// vectors keep the memref model, whose IR is unchanged.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "llvm/Support/SaveAndRestore.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

//===----------------------------------------------------------------------===//
// Which vectors grow
//===----------------------------------------------------------------------===//

/// The object and the member function of a call of a member function or
/// of a member operator (`v = w`, `v[i]`); nulls for other calls.
static std::pair<const clang::Expr *, const clang::CXXMethodDecl *>
memberCallOf(const clang::CallExpr *call) {
  if (const auto *member = dyn_cast<clang::CXXMemberCallExpr>(call))
    return {member->getImplicitObjectArgument(), member->getMethodDecl()};
  if (const auto *op = dyn_cast<clang::CXXOperatorCallExpr>(call))
    if (const auto *method =
            dyn_cast_or_null<clang::CXXMethodDecl>(op->getCalleeDecl());
        method && op->getNumArgs() > 0)
      return {op->getArg(0), method};
  return {nullptr, nullptr};
}

/// `expr` without strip's wrappers and the implicit casts that keep a
/// pointer's value: read from its variable, or made a pointer to const.
static const clang::Expr *stripPointerValue(const clang::Expr *expr) {
  expr = strip(expr);
  while (const auto *cast = dyn_cast<clang::ImplicitCastExpr>(expr)) {
    if (cast->getCastKind() != clang::CK_LValueToRValue &&
        cast->getCastKind() != clang::CK_NoOp)
      break;
    expr = strip(cast->getSubExpr());
  }
  return expr;
}

/// The name in `expr` of the vector it designates, also through `*p` and
/// `&v` (a helper's pointer parameter given a vector's address).
static const clang::DeclRefExpr *namedVector(const clang::Expr *expr) {
  expr = stripPointerValue(expr);
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr);
      unary && (unary->getOpcode() == clang::UO_Deref ||
                unary->getOpcode() == clang::UO_AddrOf))
    expr = stripPointerValue(unary->getSubExpr());
  return dyn_cast<clang::DeclRefExpr>(expr);
}

/// Whether `stmt` changes the size of the vector `param` designates, or
/// passes it to a helper that does (up to `depth` helpers deep).
static bool changesParameter(const clang::Stmt *stmt,
                             const clang::ParmVarDecl *param, int depth) {
  if (!stmt)
    return false;
  auto isParam = [&](const clang::Expr *expr) {
    const clang::DeclRefExpr *ref = namedVector(expr);
    return ref && ref->getDecl() == param;
  };
  if (const auto *call = dyn_cast<clang::CallExpr>(stmt)) {
    if (auto [object, method] = memberCallOf(call);
        object && method && isParam(object) && changesVectorMemory(method))
      return true;
    if (const clang::FunctionDecl *callee = call->getDirectCallee();
        callee && depth > 0 && !callee->isCXXInstanceMember())
      for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams();
           ++i)
        if (isParam(call->getArg(i)) &&
            changesParameter(callee->getBody(), callee->getParamDecl(i),
                             depth - 1))
          return true;
  }
  for (const clang::Stmt *child : stmt->children())
    if (changesParameter(child, param, depth))
      return true;
  return false;
}

/// Whether `callee` is a helper whose body is lowered where it is called
/// with its vector parameters bound to the caller's vectors: the user's
/// functions, and static member functions (the library's own functions on
/// vectors, std::swap among them, have models of their own; Cotangent's
/// ct::detail code, the header's result_into writing a std::vector result,
/// is the user's even from a system include).
static bool bindsVectorParameters(const clang::FunctionDecl *callee,
                                  unsigned index) {
  if (!callee || index >= callee->getNumParams() || !callee->getBody() ||
      callee->isCXXInstanceMember())
    return false;
  const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
  return !callee->getASTContext().getSourceManager().isInSystemHeader(
             callee->getLocation()) ||
         isInCotangentDetail(
             method ? static_cast<const clang::Decl *>(method->getParent())
                    : callee);
}

/// Whether parameter `index` of `callee` is a pointer to a vector that the
/// helper's body, lowered where it is called, binds to the vector given.
static bool takesVectorPointer(const clang::FunctionDecl *callee,
                               unsigned index) {
  if (!bindsVectorParameters(callee, index))
    return false;
  clang::QualType type = callee->getParamDecl(index)->getType();
  return type->isPointerType() &&
         ModuleLowering::isMemrefVector(
             type->getPointeeType().getCanonicalType().getUnqualifiedType());
}

bool growsVectorParameter(const clang::FunctionDecl *callee, unsigned index) {
  if (!bindsVectorParameters(callee, index))
    return false;
  const clang::ParmVarDecl *param = callee->getParamDecl(index);
  clang::QualType type = param->getType();
  // (`std::vector<T> &v`, or `std::vector<T> *v` given a vector's address.)
  if (!(type->isLValueReferenceType() || type->isPointerType()) ||
      type->getPointeeType().isConstQualified() ||
      !ModuleLowering::isMemrefVector(
          type->getPointeeType().getCanonicalType()))
    return false;
  return changesParameter(callee->getBody(), param, /*depth=*/8);
}

/// Whether a helper's parameter `index` given a growing vector is bound to
/// it where the helper is lowered: a reference it grows it through, or any
/// pointer to a vector.
static bool bindsGrowingVector(const clang::FunctionDecl *callee,
                               unsigned index) {
  return growsVectorParameter(callee, index) ||
         takesVectorPointer(callee, index);
}

bool ModuleLowering::keepsVectorParameterInMemory(
    const clang::ParmVarDecl *param) {
  const auto *function =
      param ? dyn_cast<clang::FunctionDecl>(param->getDeclContext()) : nullptr;
  // (A pointer parameter is bound only where a helper is inlined.)
  return function && param->getType()->isReferenceType() &&
         growsVectorParameter(function, param->getFunctionScopeIndex());
}

namespace {
/// What a function does to one of its local vectors.
struct VectorUses {
  /// The block that declares it.
  const clang::CompoundStmt *block = nullptr;
  bool pushes = false, resizedElsewhere = false;
  bool movesElements = false;
  /// A reference or pointer to the vector itself is kept in a variable:
  /// the memref model's rules (and errors) apply.
  bool bound = false;

  bool grows() const {
    return !bound && (movesElements || resizedElsewhere || pushes);
  }
};

/// Walks a function body once, recording each local vector's uses.
class GrowthScan {
public:
  llvm::DenseMap<const clang::VarDecl *, VectorUses> uses;
  /// Reference variables bound to a local vector (`auto &out = v;`): what
  /// is done through them is done to it.
  llvm::DenseMap<const clang::VarDecl *, const clang::VarDecl *> aliases;

  /// A function's vector parameters taken by value are its locals too,
  /// declared by its body.
  void addParameters(const clang::FunctionDecl *function) {
    const auto *body =
        dyn_cast_or_null<clang::CompoundStmt>(function->getBody());
    for (const clang::ParmVarDecl *param : function->parameters())
      if (!param->getType()->isReferenceType() &&
          !ModuleLowering::getVectorElementType(param->getType()).isNull())
        uses[param].block = body;
  }

  void visit(const clang::Stmt *stmt) {
    if (!stmt)
      return;
    if (const auto *block = dyn_cast<clang::CompoundStmt>(stmt))
      for (const clang::Stmt *child : block->body()) {
        if (const auto *expr = dyn_cast<clang::Expr>(child))
          statementBlock[strip(expr)] = block;
        // (Before the declarations are visited, below.)
        if (const auto *declStmt = dyn_cast<clang::DeclStmt>(child))
          for (const clang::Decl *d : declStmt->decls())
            if (const auto *var = dyn_cast<clang::VarDecl>(d))
              declarationBlocks[var] = block;
      }
    if (const auto *loop = dyn_cast<clang::CXXForRangeStmt>(stmt))
      if (const auto *range = loop->getRangeStmt())
        rangeVariables.insert(range->getSingleDecl());
    if (const auto *declStmt = dyn_cast<clang::DeclStmt>(stmt))
      for (const clang::Decl *d : declStmt->decls())
        if (const auto *var = dyn_cast<clang::VarDecl>(d))
          visitDeclaration(var);
    if (const auto *call = dyn_cast<clang::CallExpr>(stmt))
      visitCall(call);
    if (const auto *unary = dyn_cast<clang::UnaryOperator>(stmt);
        unary && unary->getOpcode() == clang::UO_AddrOf &&
        !passedByAddress.contains(unary))
      if (VectorUses *vector = usesOf(unary->getSubExpr()))
        vector->bound = true;
    if (const auto *lambda = dyn_cast<clang::LambdaExpr>(stmt))
      visit(lambda->getBody());
    for (const clang::Stmt *child : stmt->children())
      visit(child);
  }

private:
  /// The block of each statement that is an expression, and the block
  /// that declares each local.
  llvm::DenseMap<const clang::Expr *, const clang::CompoundStmt *>
      statementBlock;
  llvm::DenseMap<const clang::VarDecl *, const clang::CompoundStmt *>
      declarationBlocks;
  llvm::DenseSet<const clang::Decl *> rangeVariables;
  /// `&v` given to helpers' pointer parameters (visitCall).
  llvm::DenseSet<const clang::Expr *> passedByAddress;

  /// `&v` in `expr`, also made a pointer to const; null otherwise.
  static const clang::UnaryOperator *addressOf(const clang::Expr *expr) {
    const auto *unary = dyn_cast<clang::UnaryOperator>(stripPointerValue(expr));
    return unary && unary->getOpcode() == clang::UO_AddrOf ? unary : nullptr;
  }

  const clang::VarDecl *vectorNamed(const clang::Expr *expr) {
    const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(expr));
    const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (const clang::VarDecl *aliased = aliases.lookup(var))
      return aliased;
    return var;
  }

  VectorUses *usesOf(const clang::Expr *expr) {
    const clang::VarDecl *var = vectorNamed(expr);
    auto it = var ? uses.find(var) : uses.end();
    return it == uses.end() ? nullptr : &it->second;
  }

  void visitDeclaration(const clang::VarDecl *var) {
    clang::QualType type = var->getType();
    if (type->isReferenceType()) {
      if (rangeVariables.contains(var) || !var->getInit())
        return;
      // A reference to the vector itself names the vector; growth moves its
      // elements, not the vector (references to elements are C++'s to
      // keep valid).
      if (usesOf(var->getInit()))
        aliases[var] = vectorNamed(var->getInit());
      return;
    }
    if (var->hasLocalStorage() && !isa<clang::ParmVarDecl>(var) &&
        !ModuleLowering::getVectorElementType(type).isNull())
      uses[var].block = declarationBlocks.lookup(var);
  }

  void visitCall(const clang::CallExpr *call) {
    // A helper that resizes a vector it is given by reference (`fill(v)`
    // clearing and pushing) or by address (`fill(&v)`): the vector grows
    // where the helper is lowered. (An address so given binds the
    // parameter as a reference would: it is kept in no variable.)
    if (const clang::FunctionDecl *callee = call->getDirectCallee())
      for (unsigned i = 0; i < call->getNumArgs(); ++i) {
        const clang::Expr *arg = call->getArg(i);
        if (const clang::UnaryOperator *address = addressOf(arg);
            address && takesVectorPointer(callee, i)) {
          passedByAddress.insert(address);
          arg = address->getSubExpr();
        }
        if (VectorUses *given = usesOf(arg);
            given && growsVectorParameter(callee, i))
          given->resizedElsewhere = true;
      }
    auto [object, method] = memberCallOf(call);
    VectorUses *vector = object ? usesOf(object) : nullptr;
    if (!vector || !method)
      return;
    StringRef name = method->getIdentifier() ? method->getName() : "";
    if (name == "insert" || name == "emplace" || name == "erase") {
      vector->movesElements = true;
    } else if (name == "push_back" || name == "emplace_back") {
      vector->pushes = true;
    } else if (name == "reserve" || name == "resize" || name == "assign" ||
               name == "clear" || method->isCopyAssignmentOperator() ||
               method->isMoveAssignmentOperator()) {
      bool inBlock =
          vector->block && statementBlock.lookup(call) == vector->block;
      if (!inBlock)
        vector->resizedElsewhere = true;
    }
  }
};

} // namespace

const llvm::DenseSet<const clang::VarDecl *> &
FunctionLowering::getGrowingVectors(const clang::FunctionDecl *owner,
                                    const clang::Stmt *body) {
  auto [known, fresh] = growingVectorSets.try_emplace(body);
  if (!fresh)
    return known->second;
  GrowthScan scan;
  if (owner)
    scan.addParameters(owner);
  scan.visit(body);
  for (auto &[var, uses] : scan.uses)
    if (uses.grows())
      known->second.insert(var);
  for (auto [alias, var] : scan.aliases)
    if (known->second.contains(var))
      known->second.insert(alias);
  return known->second;
}

bool changesVectorMemory(const clang::CXXMethodDecl *method) {
  if (method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator())
    return true;
  StringRef name = method->getIdentifier() ? method->getName() : "";
  return llvm::is_contained({"resize", "assign", "clear", "reserve",
                             "push_back", "emplace_back", "pop_back", "insert",
                             "emplace", "erase", "swap", "shrink_to_fit"},
                            name);
}

namespace {
/// Which growing vectors a statement reads, and which it may change: by a
/// member function that changes them, by passing them where a non-const
/// reference binds, or in the body of a lambda it calls or names.
struct LoopUses {
  llvm::function_ref<bool(const clang::ValueDecl *)> isGrowing;
  llvm::DenseSet<const clang::ValueDecl *> read, changed;
  llvm::DenseSet<const clang::Stmt *> lambdasSeen;

  const clang::ValueDecl *vectorOf(const clang::Expr *expr) {
    const clang::DeclRefExpr *ref = namedVector(expr);
    return ref && isGrowing(ref->getDecl()) ? ref->getDecl() : nullptr;
  }

  void visit(const clang::Stmt *stmt) {
    if (!stmt)
      return;
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(stmt)) {
      if (isGrowing(ref->getDecl()))
        read.insert(ref->getDecl());
      // A lambda named here may run here (called, or passed to an
      // algorithm).
      if (const auto *closure =
              ref->getType().getNonReferenceType()->getAsCXXRecordDecl();
          closure && closure->isLambda())
        visitLambdaBody(closure->getLambdaCallOperator());
    }
    if (const auto *call = dyn_cast<clang::CallExpr>(stmt))
      visitCall(call);
    if (const auto *lambda = dyn_cast<clang::LambdaExpr>(stmt))
      visit(lambda->getBody());
    for (const clang::Stmt *child : stmt->children())
      visit(child);
  }

  void visitLambdaBody(const clang::CXXMethodDecl *callOperator) {
    if (callOperator && callOperator->hasBody() &&
        lambdasSeen.insert(callOperator->getBody()).second)
      visit(callOperator->getBody());
  }

  void visitCall(const clang::CallExpr *call) {
    const auto *method =
        dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee());
    if (auto [object, member] = memberCallOf(call);
        object && changesVectorMemory(member))
      if (const clang::ValueDecl *var = vectorOf(object))
        changed.insert(var);
    // A lambda's body runs where it is called.
    if (method && method->getParent()->isLambda())
      visitLambdaBody(method);
    const clang::FunctionDecl *callee = call->getDirectCallee();
    // (A member operator's first argument is its object, seen above.)
    unsigned object =
        isa<clang::CXXOperatorCallExpr>(call) && method && !method->isStatic()
            ? 1
            : 0;
    for (unsigned i = object; i < call->getNumArgs(); ++i) {
      const clang::ValueDecl *var = vectorOf(call->getArg(i));
      if (!var)
        continue;
      unsigned param = i - object;
      clang::QualType type = callee && param < callee->getNumParams()
                                 ? callee->getParamDecl(param)->getType()
                                 : clang::QualType();
      if (type.isNull() ||
          ((type->isReferenceType() || type->isPointerType()) &&
           !type->getPointeeType().isConstQualified()))
        changed.insert(var);
    }
  }
};
} // namespace

const clang::ValueDecl *
FunctionLowering::growingVectorNamed(const clang::Expr *expr) {
  const clang::DeclRefExpr *ref = namedVector(expr);
  return ref && growingVectors.count(ref->getDecl()) ? ref->getDecl() : nullptr;
}

bool FunctionLowering::passesGrowingVectors(
    const clang::FunctionDecl *callee, ArrayRef<const clang::Expr *> args) {
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (growingVectorNamed(arg) && bindsGrowingVector(callee, i))
      return true;
    // An optional output left out (`nullptr`): inlined, where the
    // helper's test of it takes its branch alone.
    if (arg && takesVectorPointer(callee, i) &&
        growsVectorParameter(callee, i) &&
        arg->isNullPointerConstant(ast,
                                   clang::Expr::NPC_ValueDependentIsNotNull))
      return true;
  }
  return false;
}

bool FunctionLowering::bindGrowingReference(const clang::ParmVarDecl *param,
                                            const clang::Expr *arg) {
  // (An inlined helper's parameter may have been bound by an earlier call.)
  growingVectors.erase(param);
  const clang::ValueDecl *var = growingVectorNamed(arg);
  const auto *callee =
      dyn_cast_or_null<clang::FunctionDecl>(param->getDeclContext());
  if (!var || !callee ||
      !bindsGrowingVector(callee, param->getFunctionScopeIndex()))
    return false;
  growingVectors[param] = growingVectors.find(var)->second;
  return true;
}

void FunctionLowering::pinGrowingViews(
    const clang::Stmt *loop,
    SmallVectorImpl<const clang::ValueDecl *> &pinned) {
  if (growingVectors.empty())
    return;
  auto isGrowing = [&](const clang::ValueDecl *var) {
    return growingVectors.count(var) != 0;
  };
  LoopUses uses{isGrowing, {}, {}, {}};
  uses.visit(loop);
  // (By memory: a reference variable or a helper's parameter bound to a
  // vector changes it.)
  llvm::DenseSet<Value> changed;
  for (const clang::ValueDecl *var : uses.changed)
    changed.insert(growingVectors.find(var)->second.addressSlot);
  for (const clang::ValueDecl *var : uses.read) {
    if (changed.contains(growingVectors.find(var)->second.addressSlot) ||
        pinnedGrowingViews.count(var))
      continue;
    // The loop cannot change the vector: one view before it serves every
    // iteration (no address to load and keep per access).
    pinnedGrowingViews[var] =
        growingElements(growingVectors.find(var)->second, loc(loop));
    pinned.push_back(var);
  }
}

//===----------------------------------------------------------------------===//
// The vector's memory
//===----------------------------------------------------------------------===//

/// Whether the elements of vector `type` are numbers, pointers or structs
/// of them: what a growing vector holds (its pointers keep addresses,
/// which its growth copies as such).
static bool hasGrowableElements(ModuleLowering &module, clang::QualType type) {
  clang::QualType element = ModuleLowering::getVectorElementType(type);
  if (element->isBooleanType() ||
      !ModuleLowering::getVectorElementType(element).isNull())
    return false;
  if (const auto *record = element->getAsCXXRecordDecl();
      record && ModuleLowering::ownsMemory(record))
    return false;
  std::optional<Layout> layout = module.tryGetLayout(element);
  return layout &&
         llvm::all_of(layout->indirect, [](const Layout::IndirectField &field) {
           return !field.inMemory &&
                  (field.type->isPointerType() ||
                   field.type->isReferenceType()) &&
                  !ModuleLowering::holdsUnkeptPointers(
                      field.type->getPointeeType());
         });
}

bool FunctionLowering::declareGrowingVector(const clang::VarDecl *var,
                                            const clang::Expr *init) {
  const auto *owner =
      dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  const clang::Stmt *body = owner ? owner->getBody() : decl->getBody();
  clang::QualType type = var->getType();
  if (type->isReferenceType()) {
    // A reference bound to a growing vector: the vector's slots.
    const clang::ValueDecl *vector = init ? growingVectorNamed(init) : nullptr;
    if (!vector || !getGrowingVectors(owner ? owner : decl, body).contains(var))
      return false;
    growingVectors[var] = growingVectors.find(vector)->second;
    return true;
  }
  if (!getGrowingVectors(owner ? owner : decl, body).contains(var) ||
      !hasGrowableElements(module, type))
    return false;
  Location l = module.getLoc(var->getLocation());
  llvm::SaveAndRestore keepAll(vectorKeepsAllAddresses, true);
  std::optional<Address> initial =
      createVector(init, type, var->getSourceRange());
  std::optional<Layout> element =
      module.tryGetLayout(ModuleLowering::getVectorElementType(type));
  if (!initial || !element) {
    invalid.insert(var);
    return true;
  }
  // The memory belongs to the vector from now on: its slot frees it.
  llvm::erase(cleanups, initial->memref);
  // Slots at the function entry (one per iteration of a parallel loop), so
  // that they and their shadows outlive the loops that use them.
  OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
  auto entrySlot = [&](Type scalar) {
    auto slot =
        memref::AllocaOp::create(entry, l, MemRefType::get({1}, scalar));
    if (parallelBodyDepth > 0)
      slot->setAttr(ct::kIterationLocal, b.getUnitAttr());
    return Address{slot, constantIndex(0, l)};
  };
  GrowingVector vector;
  vector.addressSlot = entrySlot(b.getF64Type()).memref;
  vector.size = entrySlot(b.getIndexType());
  vector.capacity = entrySlot(b.getIndexType());
  vector.element = *element;
  vector.viewType = getPointerType(element->scalar);
  ct::StoreAddressOp::create(b, l, materializeAddress(*initial, l),
                             vector.addressSlot, constantIndex(0, l));
  Value size = vectorSize(*initial, type, l);
  store(size, vector.size, l);
  store(size, vector.capacity, l);
  growingVectors[var] = vector;
  cleanups.push_back(vector.addressSlot);
  growingSlots[vector.addressSlot] = vector.viewType;
  return true;
}

Value FunctionLowering::growingMemory(const GrowingVector &vector, Location l) {
  return ct::LoadAddressOp::create(b, l, vector.viewType, vector.addressSlot,
                                   constantIndex(0, l));
}

Address FunctionLowering::growingElements(const GrowingVector &vector,
                                          Location l) {
  return firstElements(growingMemory(vector, l), vector.size,
                       vector.element.size, l);
}

std::optional<Address>
FunctionLowering::namedGrowingElements(const clang::ValueDecl *var,
                                       Location l) {
  if (auto pinned = pinnedGrowingViews.find(var);
      pinned != pinnedGrowingViews.end())
    return pinned->second;
  if (auto growing = growingVectors.find(var); growing != growingVectors.end())
    return growingElements(growing->second, l);
  return std::nullopt;
}

FunctionLowering::GrowingVector *
FunctionLowering::growingVectorOf(const clang::Expr *object) {
  const clang::DeclRefExpr *ref = namedVector(object);
  auto it = ref ? growingVectors.find(ref->getDecl()) : growingVectors.end();
  return it == growingVectors.end() ? nullptr : &it->second;
}

void FunctionLowering::reserveGrowing(GrowingVector &vector, Value count,
                                      Location l) {
  Value capacity = load(vector.capacity, l);
  Value grows =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, count, capacity);
  auto branch = scf::IfOp::create(b, l, grows, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  // Twice the capacity (at least what is asked), as libraries grow, so
  // that n push_backs cost O(n).
  Value doubled =
      arith::MulIOp::create(b, l, capacity, constantIndex(2, l)).getResult();
  Value fresh = arith::MaxUIOp::create(b, l, doubled, count);
  Value scalars =
      arith::MulIOp::create(b, l, fresh, constantIndex(vector.element.size, l));
  Value memory = memref::AllocOp::create(
      b, l,
      MemRefType::get({ShapedType::kDynamic}, vector.viewType.getElementType()),
      ValueRange{scalars});
  Address moved{memref::CastOp::create(b, l, vector.viewType, memory),
                constantIndex(0, l)};
  Address old = growingElements(vector, l);
  copyElements(moved, old, scalarsFrom(old, l), vector.element, l);
  memref::DeallocOp::create(b, l, growingMemory(vector, l));
  ct::StoreAddressOp::create(b, l, moved.memref, vector.addressSlot,
                             constantIndex(0, l));
  store(fresh, vector.capacity, l);
}

void FunctionLowering::resizeGrowing(GrowingVector &vector, Value count,
                                     std::optional<Address> value, Location l) {
  reserveGrowing(vector, count, l);
  Value old = load(vector.size, l);
  store(count, vector.size, l);
  Address elements = growingElements(vector, l);
  // The new elements, [min(old, count), count).
  Value from = arith::MinUIOp::create(b, l, old, count);
  Type scalar = vector.viewType.getElementType();
  Value zero = arith::ConstantOp::create(b, l, scalar, b.getZeroAttr(scalar));
  Value per = constantIndex(vector.element.size, l);
  forEachIndex(b, l, arith::SubIOp::create(b, l, count, from), [&](Value j) {
    Value i = arith::AddIOp::create(b, l, from, j);
    Address slot = offsetBy(elements, arith::MulIOp::create(b, l, i, per), l);
    if (value)
      copyGrowingElement(slot, *value, vector.element, l);
    else
      for (int64_t k = 0; k < vector.element.size; ++k)
        store(zero, offsetBy(slot, k, l), l);
  });
}

bool FunctionLowering::resizeGrowingConstructing(const clang::Expr *where,
                                                 GrowingVector &vector,
                                                 Value count,
                                                 clang::QualType elementType) {
  Location l = loc(where);
  reserveGrowing(vector, count, l);
  Value old = load(vector.size, l);
  store(count, vector.size, l);
  Value from = arith::MinUIOp::create(b, l, old, count);
  Value per = constantIndex(vector.element.size, l);
  Address first = offsetBy(growingElements(vector, l),
                           arith::MulIOp::create(b, l, from, per), l);
  return valueInitializeEach(where, elementType, first,
                             arith::SubIOp::create(b, l, count, from));
}

void FunctionLowering::shiftElements(GrowingVector &vector, Value from,
                                     Value size, Value delta, bool towardEnd,
                                     Location l) {
  Address elements = growingElements(vector, l);
  Value per = constantIndex(vector.element.size, l);
  Value one = constantIndex(1, l);
  forEachIndex(b, l, arith::SubIOp::create(b, l, size, from), [&](Value j) {
    // Toward the end, the last element first, so that none is overwritten
    // before it moves; toward the beginning, the first first.
    Value i = towardEnd ? arith::SubIOp::create(
                              b, l, arith::SubIOp::create(b, l, size, one), j)
                              .getResult()
                        : arith::AddIOp::create(b, l, from, j).getResult();
    Value target = towardEnd
                       ? arith::AddIOp::create(b, l, i, delta).getResult()
                       : arith::SubIOp::create(b, l, i, delta).getResult();
    Address source = offsetBy(elements, arith::MulIOp::create(b, l, i, per), l);
    Address dest =
        offsetBy(elements, arith::MulIOp::create(b, l, target, per), l);
    copyGrowingElement(dest, source, vector.element, l);
  });
}

//===----------------------------------------------------------------------===//
// Member functions
//===----------------------------------------------------------------------===//

std::optional<Address>
FunctionLowering::elementValue(const clang::Expr *arg,
                               clang::QualType elementType, int64_t scalars) {
  // Evaluated into a temporary before the vector's memory may move (the
  // argument may be one of its own elements, as in v.push_back(v[0])).
  std::optional<Address> temporary =
      allocate(elementType, arg->getSourceRange(), "this element");
  if (!temporary)
    return std::nullopt;
  Location l = loc(arg);
  std::optional<Layout> layout = layoutOf(elementType, arg);
  if (!layout)
    return std::nullopt;
  if (!layout->indirect.empty()) {
    // Pointers: their addresses, as the vector keeps them.
    keepAllAddresses(temporary->memref, *layout);
    if (isObjectPointer(elementType)) {
      std::optional<Address> target = lowerPointer(arg);
      if (!target || !bindIndirectField(*temporary, *target, arg, nullptr))
        return std::nullopt;
      return temporary;
    }
    std::optional<Address> source = unpacked(
        arg->isGLValue() ? lowerLValue(arg) : materializeTemporary(arg), arg);
    if (!source || !copyObject(*temporary, *source, *layout, arg))
      return std::nullopt;
    return temporary;
  }
  if (!isAggregate(elementType)) {
    // (emplace_back forwards an argument of another type.)
    Value value = lowerRValue(arg);
    if (!value)
      return std::nullopt;
    store(convert(value, arg->getType(), elementType, l), *temporary, l);
    return temporary;
  }
  std::optional<Address> source = unpacked(
      arg->isGLValue() ? lowerLValue(arg) : materializeTemporary(arg), arg);
  if (!source)
    return std::nullopt;
  copySlots(*temporary, *source, *layout, 0, scalars, l);
  return temporary;
}

Value FunctionLowering::elementIndexOf(const clang::Expr *position,
                                       GrowingVector &vector) {
  std::optional<Address> at = isIterator(position->getType())
                                  ? lowerIterator(position)
                                  : lowerPointer(position);
  if (!at)
    return nullptr;
  // Iterators of the vector count scalars from its first element.
  Location l = loc(position);
  if (vector.element.size == 1)
    return at->offset;
  return arith::DivUIOp::create(b, l, at->offset,
                                constantIndex(vector.element.size, l));
}

std::optional<FunctionLowering::CallResult> FunctionLowering::insertIntoGrowing(
    const clang::CallExpr *expr, GrowingVector &vector, StringRef name,
    ArrayRef<const clang::Expr *> args, clang::QualType elementType) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  // insert(pos, value), insert(pos, n, value), emplace(pos, value).
  bool counted = name == "insert" && args.size() == 3 &&
                 args[1]->getType()->isIntegerType();
  bool range = name == "insert" && args.size() == 3 && !counted;
  bool list =
      name == "insert" && args.size() == 2 && initializerList(args.back()) &&
      !ast.hasSameUnqualifiedType(args.back()->getType().getNonReferenceType(),
                                  elementType);
  if (range || list) {
    Value at = elementIndexOf(args[0], vector);
    if (!at)
      return std::nullopt;
    return insertRangeIntoGrowing(expr, vector, at, args.drop_front());
  }
  if ((args.size() != 2 && !counted) || isIterator(args.back()->getType()) ||
      args.back()->getType()->isPointerType())
    return unsupported<Result>(expr, "this form of '" + name +
                                         "' is not supported; insert one "
                                         "value, n copies of one, a range "
                                         "or a list");
  Value at = elementIndexOf(args[0], vector);
  std::optional<Address> value =
      elementValue(args.back(), elementType, vector.element.size);
  Value count = counted ? lowerRValue(args[1]) : constantIndex(1, l);
  if (!at || !value || !count)
    return std::nullopt;
  if (counted)
    count = index(count, args[1]->getType(), l);
  Value size = load(vector.size, l);
  abortIf(arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, at, size),
          expr, "std::vector::" + name + ": the position is not in the vector");
  Value grown = arith::AddIOp::create(b, l, size, count);
  reserveGrowing(vector, grown, l);
  store(grown, vector.size, l);
  shiftElements(vector, at, size, count, /*towardEnd=*/true, l);
  Address elements = growingElements(vector, l);
  Value per = constantIndex(vector.element.size, l);
  forEachIndex(b, l, count, [&](Value j) {
    Value i = arith::AddIOp::create(b, l, at, j);
    copyGrowingElement(
        offsetBy(elements, arith::MulIOp::create(b, l, i, per), l), *value,
        vector.element, l);
  });
  return CallResult{
      nullptr, offsetBy(elements, arith::MulIOp::create(b, l, at, per), l)};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::insertRangeIntoGrowing(const clang::CallExpr *expr,
                                         GrowingVector &vector, Value at,
                                         ArrayRef<const clang::Expr *> range) {
  // The range's elements are read where they are: the standard forbids a
  // range of this vector, so its growth moves none of them.
  Location l = loc(expr);
  Value per = constantIndex(vector.element.size, l);
  std::optional<IteratorRange> source;
  if (const clang::CXXStdInitializerListExpr *list =
          initializerList(range.back())) {
    const clang::Expr *array = list->getSubExpr();
    std::optional<Address> first =
        array->isGLValue() ? lowerLValue(array) : materializeTemporary(array);
    const auto *arrayType = ast.getAsConstantArrayType(array->getType());
    if (!arrayType)
      return unsupported<std::optional<CallResult>>(
          expr, "this list cannot be inserted; insert its values one by one");
    if (first)
      source = IteratorRange{
          *first, constantIndex(arrayType->getSize().getZExtValue(), l)};
  } else {
    source = lowerIteratorRange(range[0], range[1], vector.element.size);
  }
  if (!source)
    return std::nullopt;
  Value count = source->count;
  Value size = load(vector.size, l);
  abortIf(arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, at, size),
          expr, "std::vector::insert: the position is not in the vector");
  Value grown = arith::AddIOp::create(b, l, size, count);
  reserveGrowing(vector, grown, l);
  store(grown, vector.size, l);
  shiftElements(vector, at, size, count, /*towardEnd=*/true, l);
  Address into = offsetBy(growingElements(vector, l),
                          arith::MulIOp::create(b, l, at, per), l);
  copyRange(into, *source, vector.element, l);
  return CallResult{nullptr, into};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::eraseFromGrowing(const clang::CallExpr *expr,
                                   GrowingVector &vector,
                                   ArrayRef<const clang::Expr *> args) {
  Location l = loc(expr);
  // erase(pos), erase(first, last).
  Value first = elementIndexOf(args[0], vector);
  Value last =
      args.size() == 2 ? elementIndexOf(args[1], vector)
      : first
          ? arith::AddIOp::create(b, l, first, constantIndex(1, l)).getResult()
          : nullptr;
  if (!first || !last)
    return std::nullopt;
  Value size = load(vector.size, l);
  abortIf(
      arith::OrIOp::create(
          b, l,
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, last, size),
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, first, last)),
      expr, "std::vector::erase: the range is not in the vector");
  Value count = arith::SubIOp::create(b, l, last, first);
  shiftElements(vector, last, size, count, /*towardEnd=*/false, l);
  store(arith::SubIOp::create(b, l, size, count), vector.size, l);
  Value per = constantIndex(vector.element.size, l);
  return CallResult{nullptr,
                    offsetBy(growingElements(vector, l),
                             arith::MulIOp::create(b, l, first, per), l)};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerGrowingVectorCall(const clang::CallExpr *expr,
                                         const clang::CXXMethodDecl *method,
                                         GrowingVector &vector,
                                         ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  clang::QualType type = ast.getCanonicalTagType(method->getParent());
  // (Its layout was checked where the vector was declared.)
  clang::QualType elementType = ModuleLowering::getVectorElementType(type);
  StringRef name = method->getIdentifier() ? method->getName() : "";
  auto sizeArgument = [&](const clang::Expr *arg) -> Value {
    Value n = lowerRValue(arg);
    return n ? index(n, arg->getType(), l) : nullptr;
  };
  if (name == "capacity") {
    Type resultType = typeOf(expr);
    if (!resultType)
      return std::nullopt;
    return CallResult{arith::IndexCastUIOp::create(b, l, resultType,
                                                   load(vector.capacity, l)),
                      {}};
  }
  if (name == "shrink_to_fit")
    return CallResult{}; // a request the library may ignore
  if (name == "clear") {
    store(constantIndex(0, l), vector.size, l);
    return CallResult{};
  }
  if (name == "reserve") {
    Value n = sizeArgument(args[0]);
    if (!n)
      return std::nullopt;
    reserveGrowing(vector, n, l);
    return CallResult{};
  }
  if (name == "pop_back") {
    Value size = load(vector.size, l);
    abortIf(arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, size,
                                  constantIndex(0, l)),
            expr, "std::vector::pop_back: the vector is empty");
    store(arith::SubIOp::create(b, l, size, constantIndex(1, l)), vector.size,
          l);
    return CallResult{};
  }
  if (name == "push_back" || name == "emplace_back")
    return pushGrowing(expr, vector, name, args, elementType);
  if (name == "resize" || (name == "assign" && args.size() == 2 &&
                           args[0]->getType()->isIntegerType())) {
    Value n = sizeArgument(args[0]);
    std::optional<Address> value;
    if (args.size() == 2 &&
        !(value = elementValue(args[1], elementType, vector.element.size)))
      return std::nullopt;
    if (!n)
      return std::nullopt;
    if (name == "assign")
      store(constantIndex(0, l), vector.size, l);
    if (!value && constructsElements(elementType))
      return resizeGrowingConstructing(expr, vector, n, elementType)
                 ? Result(CallResult{})
                 : std::nullopt;
    resizeGrowing(vector, n, value, l);
    return CallResult{};
  }
  // assign(first, last), assign({a, b, ...}): a clear, then the range.
  if (name == "assign") {
    store(constantIndex(0, l), vector.size, l);
    if (!insertRangeIntoGrowing(expr, vector, constantIndex(0, l), args))
      return std::nullopt;
    return CallResult{};
  }
  if (method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator())
    return assignGrowing(expr, vector, args[0]);
  if (name == "insert" || name == "emplace")
    return insertIntoGrowing(expr, vector, name, args, elementType);
  if (name == "erase")
    return eraseFromGrowing(expr, vector, args);
  if (name == "swap" && args.size() == 1)
    return swapGrowing(expr, vector, args[0]);
  return unsupported<Result>(expr,
                             "this form of '" + name + "' is not supported");
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::swapGrowing(const clang::CallExpr *expr,
                              GrowingVector &vector, const clang::Expr *with) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  GrowingVector *other = growingVectorOf(with);
  if (!other)
    return unsupported<Result>(expr, "this vector changes its memory at "
                                     "run time, and can be swapped only "
                                     "with another such local vector");
  // The contents of the slots, which stay with their variables (and
  // their scopes' cleanups).
  Value zero = constantIndex(0, l);
  Value mine = growingMemory(vector, l), theirs = growingMemory(*other, l);
  ct::StoreAddressOp::create(b, l, theirs, vector.addressSlot, zero);
  ct::StoreAddressOp::create(b, l, mine, other->addressSlot, zero);
  for (auto [a, c] : {std::pair{vector.size, other->size},
                      std::pair{vector.capacity, other->capacity}}) {
    Value first = load(a, l), second = load(c, l);
    store(second, a, l);
    store(first, c, l);
  }
  return CallResult{};
}

std::optional<FunctionLowering::CallResult> FunctionLowering::pushGrowing(
    const clang::CallExpr *expr, GrowingVector &vector, StringRef name,
    ArrayRef<const clang::Expr *> args, clang::QualType elementType) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  // The new element: constructed in place, or evaluated first.
  const clang::CXXConstructorDecl *ctor = nullptr;
  std::optional<Address> value;
  bool copies = args.size() == 1 &&
                (!isAggregate(elementType) ||
                 ast.hasSameUnqualifiedType(args[0]->getType(), elementType));
  if (name == "emplace_back" && !copies &&
      !(ctor = constructorFor(elementType, args)))
    return unsupported<Result>(expr, "'emplace_back' with these arguments is "
                                     "not supported; pass one value of the "
                                     "element type");
  if (!ctor) {
    if (!copies)
      return unsupported<Result>(expr, "'" + name +
                                           "' with these arguments is not "
                                           "supported; pass one value of the "
                                           "element type");
    if (!(value = elementValue(args[0], elementType, vector.element.size)))
      return std::nullopt;
  }
  Value size = load(vector.size, l);
  Value grown = arith::AddIOp::create(b, l, size, constantIndex(1, l));
  reserveGrowing(vector, grown, l);
  store(grown, vector.size, l);
  Address slot = offsetBy(
      growingElements(vector, l),
      arith::MulIOp::create(b, l, size, constantIndex(vector.element.size, l)),
      l);
  if (ctor && !emitCall(expr, ctor, slot, args, std::nullopt))
    return std::nullopt;
  if (value)
    copyGrowingElement(slot, *value, vector.element, l);
  if (name == "emplace_back")
    return CallResult{nullptr, slot}; // C++17: a reference to the element
  return CallResult{};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::assignGrowing(const clang::CallExpr *expr,
                                GrowingVector &vector,
                                const clang::Expr *source) {
  Location l = loc(expr);
  clang::QualType type = source->getType().getNonReferenceType();
  // A vector the program names is read where it is; anything else is
  // built first (and freed where its scope ends).
  std::optional<Address> from =
      source->isGLValue()
          ? lowerLValue(source)
          : createVector(source, type, source->getSourceRange());
  if (!from)
    return std::nullopt;
  Value count = vectorSize(*from, type, l);
  // Growing cannot move `from`: a vector is only ever assigned its own
  // elements when it is assigned itself, whose size it has.
  reserveGrowing(vector, count, l);
  store(count, vector.size, l);
  Address elements = growingElements(vector, l);
  copyElements(elements, *from, scalarsFrom(*from, l), vector.element, l);
  return CallResult{nullptr, elements};
}

} // namespace cotangent::frontend
