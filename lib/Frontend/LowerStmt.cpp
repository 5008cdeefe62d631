//===- LowerStmt.cpp - The function and its statements --------------------===//

#include "FunctionLowering.h"
#include "NodeResults.h"

#include "llvm/Support/SaveAndRestore.h"

#include "VectorPointerFlows.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Frontend/CheckpointPragma.h"

#include "llvm/ADT/ScopeExit.h"

#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/StmtOpenMP.h"

using namespace mlir;

namespace cotangent::frontend {

bool FunctionLowering::isTerminated() {
  Block *block = b.getInsertionBlock();
  return !block->empty() && block->back().hasTrait<OpTrait::IsTerminator>();
}

void FunctionLowering::branchTo(Location l, Block *target,
                                ValueRange operands) {
  if (!isTerminated())
    cf::BranchOp::create(b, l, target, operands);
}

void FunctionLowering::lower() {
  Block *entry = function.addEntryBlock();
  enter(entry);
  Location fnLoc = function.getLoc();
  Value zero = constantIndex(0, fnLoc);
  ArrayRef<BlockArgument> args = entry->getArguments();
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(decl);
      method && method->isInstance()) {
    self = Address{args.front(), zero};
    args = args.drop_front();
  }
  for (const clang::ParmVarDecl *param : decl->parameters()) {
    bindParameter(param, args.front(), fnLoc);
    args = args.drop_front();
  }
  clang::QualType returnType = decl->getReturnType();
  if ((isAggregate(returnType) && !isIterator(returnType) &&
       !isVector(returnType)) ||
      buildsNodesRecursively(decl)) {
    resultAddress = Address{args.front(), zero};
    args = args.drop_front();
  }
  if (self)
    bindIndirectArguments(
        *self, cast<clang::CXXMethodDecl>(decl)->getThisType(), args);
  for (const clang::ParmVarDecl *param : decl->parameters()) {
    std::optional<Address> object;
    if (auto known = places.find(param); known != places.end())
      object = known->second;
    else if (auto fixed = fixedPointers.find(param);
             fixed != fixedPointers.end())
      object = fixed->second;
    if (!object)
      continue;
    bindIndirectArguments(*object, param->getType(), args);
  }

  returnBlock = newBlock();
  for (Type type : function.getFunctionType().getResults())
    returnBlock->addArgument(type, fnLoc);
  enter(entry);
  if (const auto *ctor = dyn_cast<clang::CXXConstructorDecl>(decl))
    lowerConstructorInitializers(ctor);
  lowerStmt(decl->getBody());
  // A destructor called to destroy nodes owning nodes of its class
  // (destroyObject): then the parts, as C++ destroys them after the body.
  if (const auto *destructor = dyn_cast<clang::CXXDestructorDecl>(decl))
    if (const clang::Stmt *where = module.getDestroyedByCall(destructor);
        where && !ModuleLowering::ownsMemory(destructor->getParent())) {
      destroyedRecords.push_back(destructor->getParent());
      destroyParts(destructor->getParent(), *self, where);
      destroyedRecords.pop_back();
    }

  // Falling off the end of a value-returning function is undefined; so is
  // code after a return, break or continue, which sits in blocks nobody
  // branches to. Give them all a terminator so that the clean-up drops them.
  Location end = module.getLoc(decl->getBodyRBrace());
  SmallVector<Value> undefined;
  for (Type type : returnBlock->getArgumentTypes()) {
    OpBuilder atEntry = OpBuilder::atBlockBegin(entry);
    undefined.push_back(ub::PoisonOp::create(atEntry, end, type));
  }
  for (Block &block : function.getBody()) {
    if (&block == returnBlock)
      continue;
    b.setInsertionPointToEnd(&block);
    branchTo(end, returnBlock, undefined);
  }
  enter(returnBlock);
  func::ReturnOp::create(b, end, returnBlock->getArguments());
}

void FunctionLowering::bindParameter(const clang::ParmVarDecl *param, Value arg,
                                     Location l) {
  Value zero = constantIndex(0, l);
  clang::QualType type = param->getType();
  if (ModuleLowering::keepsVectorParameterInMemory(param)) {
    vectorObjectReferences[param] = Address{arg, zero};
    resizedVectorArguments.insert(arg);
  } else if (type->isReferenceType() ||
             (isAggregate(type) && !isIterator(type))) {
    // A by-value aggregate is the caller's copy, ours to change.
    places[param] = Address{arg, zero};
  } else if (isObjectPointer(type) && holdsIndirectFields(type)) {
    fixedPointers[param] = Address{arg, zero};
  } else if (isObjectPointer(type) || isIterator(type)) {
    declarePointerVariable(param, Address{arg, zero}, l);
  } else {
    Value slot =
        memref::AllocaOp::create(b, l, MemRefType::get({1}, arg.getType()));
    store(arg, Address{slot, zero}, l);
    places[param] = Address{slot, zero};
  }
}

void FunctionLowering::lowerConstructorInitializers(
    const clang::CXXConstructorDecl *ctor) {
  // The object's virtual-table pointers are its class's once its bases
  // are constructed (a delegated-to constructor stores them).
  bool tablesStored =
      !ctor->getParent()->isDynamicClass() || ctor->isDelegatingConstructor();
  auto storeTables = [&] {
    if (!tablesStored)
      storeVTablePointers(ctor->getParent(), *self,
                          module.getLoc(ctor->getLocation()));
    tablesStored = true;
  };
  for (const clang::CXXCtorInitializer *init : ctor->inits()) {
    const clang::Expr *value = init->getInit();
    Location l = module.getLoc(init->getSourceLocation());
    if (!init->isBaseInitializer())
      storeTables();
    if (init->isMemberInitializer()) {
      const clang::FieldDecl *field = init->getMember();
      if (std::optional<Address> at = fieldAddress(*self, field, value))
        initialize(value, field->getType(), *at, field);
    } else if (init->isBaseInitializer()) {
      clang::QualType base(init->getBaseClass(), 0);
      initialize(value, base, basePart(*self, ctor->getParent(), base, l));
    } else if (init->isDelegatingInitializer()) {
      initializeAggregate(value, *self);
    } else if (init->isIndirectMemberInitializer()) {
      // A member of an anonymous union or struct: through the fields that
      // hold it (libc++'s std::optional, `union { char empty; T value; }`).
      std::optional<Address> at = *self;
      const clang::FieldDecl *field = nullptr;
      for (const clang::NamedDecl *link : init->getIndirectMember()->chain()) {
        field = dyn_cast<clang::FieldDecl>(link);
        if (!field || !at)
          break;
        at = fieldAddress(*at, field, value);
      }
      if (!field)
        module.error(init->getSourceRange(),
                     "this initializer cannot be differentiated");
      else if (at)
        initialize(value, field->getType(), *at, field);
    } else {
      module.error(init->getSourceRange(),
                   "this initializer cannot be differentiated");
    }
  }
  storeTables();
}

static bool containsLambda(const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<clang::LambdaExpr>(stmt))
    return true;
  if (const auto *decl = dyn_cast<clang::DeclStmt>(stmt))
    return llvm::any_of(decl->decls(), [](const clang::Decl *declared) {
      const auto *var = dyn_cast<clang::VarDecl>(declared);
      return var && containsLambda(var->getInit());
    });
  return llvm::any_of(stmt->children(), containsLambda);
}

/// Whether `memref`, in cleanups, is a std::shared_ptr or std::weak_ptr
/// temporary (not one of the variables `decl` declares).
static bool isSharedTemporary(
    Value memref, const clang::DeclStmt *decl,
    const llvm::DenseMap<Value, std::pair<clang::QualType, const clang::Stmt *>>
        &objectCleanups,
    const llvm::DenseMap<const clang::ValueDecl *, Address> &places) {
  auto object = objectCleanups.find(memref);
  if (object == objectCleanups.end() ||
      ModuleLowering::getSharedPointee(object->second.first).isNull())
    return false;
  return llvm::none_of(decl->decls(), [&](const clang::Decl *declared) {
    const auto *var = dyn_cast<clang::ValueDecl>(declared);
    auto place = var ? places.find(var) : places.end();
    return place != places.end() && place->second.memref == memref;
  });
}

void FunctionLowering::lowerDeclaration(const clang::DeclStmt *decl) {
  size_t depth = cleanups.size();
  lowerStmt(decl);
  // (A lambda's copies of what it captures are its own, not temporaries,
  // also where a std::function is made from it.)
  if (containsLambda(decl))
    return;
  // The declared variables' temporaries live to the end of the block, but
  // those holding std::shared_ptrs are released where the declaration ends,
  // as C++ releases them: a std::weak_ptr sees their object expire then,
  // and use_count() counts them no more.
  SmallVector<Value> released, kept;
  for (Value memref : llvm::drop_begin(cleanups, depth))
    (isSharedTemporary(memref, decl, objectCleanups, places) ? released : kept)
        .push_back(memref);
  if (released.empty())
    return;
  cleanups.truncate(depth);
  cleanups.append(kept);
  size_t keptDepth = cleanups.size();
  cleanups.append(released);
  emitCleanups(keptDepth, module.getLoc(decl->getEndLoc()));
  cleanups.truncate(keptDepth);
}

void FunctionLowering::lowerCompound(const clang::CompoundStmt *compound) {
  // The vectors declared in the block are freed at its end.
  size_t depth = cleanups.size();
  const clang::CompoundStmt *outerBlock = currentBlock;
  const clang::Stmt *outerStatement = currentStatement;
  currentBlock = compound;
  openBlocks.push_back({compound, depth});
  for (const clang::Stmt *child : compound->body()) {
    currentStatement = child;
    openBlocks.back().statementDepth = cleanups.size();
    // (A label begins its statement's block, Gotos.cpp.)
    const clang::Stmt *stmt = child;
    while (const auto *label = dyn_cast<clang::LabelStmt>(stmt)) {
      placeLabel(label);
      stmt = label->getSubStmt();
    }
    // A declaration's vectors live to the end of the block; any other
    // statement's temporaries to the end of the statement.
    if (const auto *decl = dyn_cast<clang::DeclStmt>(stmt))
      lowerDeclaration(decl);
    else
      lowerScoped(stmt);
  }
  openBlocks.pop_back();
  emitCleanups(depth, module.getLoc(compound->getRBracLoc()));
  cleanups.truncate(depth);
  currentBlock = outerBlock;
  currentStatement = outerStatement;
}

Value FunctionLowering::lowerStatementExpression(const clang::StmtExpr *expr) {
  const clang::CompoundStmt *body = expr->getSubStmt();
  size_t depth = cleanups.size();
  const clang::CompoundStmt *outerBlock = currentBlock;
  currentBlock = body;
  Value value;
  for (const clang::Stmt *child : body->body()) {
    const auto *last = dyn_cast<clang::Expr>(child);
    if (child != body->body_back() || !last)
      lowerStmt(child);
    else if (last->getType()->isVoidType())
      lowerDiscarded(last);
    else
      value = lowerRValue(last);
  }
  emitCleanups(depth, module.getLoc(body->getRBracLoc()));
  cleanups.truncate(depth);
  currentBlock = outerBlock;
  return value;
}

void FunctionLowering::lowerDeclStmt(const clang::DeclStmt *declStmt) {
  // Other declarations (types, enumerations, local classes, `using`,
  // static_assert, a function declared in a block) only declare names.
  for (const clang::Decl *d : declStmt->decls())
    if (const auto *var = dyn_cast<clang::VarDecl>(d))
      lowerVarDecl(var);
}

void FunctionLowering::lowerJump(const clang::Stmt *stmt) {
  Location l = loc(stmt);
  if (jumps.empty()) {
    unsupported(stmt, "'break' or 'continue' outside a loop or 'switch'");
    return;
  }
  Block *target = isa<clang::BreakStmt>(stmt) ? jumps.back().breakTarget
                                              : jumps.back().continueTarget;
  if (!target) {
    unsupported(stmt, "'continue' in a 'switch' outside a loop");
    return;
  }
  emitCleanups(jumps.back().cleanupDepth, l);
  branchTo(l, target);
  enter(newBlock());
}

void FunctionLowering::lowerStmt(const clang::Stmt *stmt) {
  if (!stmt)
    return;
  Location l = loc(stmt);
  if (const auto *compound = dyn_cast<clang::CompoundStmt>(stmt))
    return lowerCompound(compound);
  if (const auto *declStmt = dyn_cast<clang::DeclStmt>(stmt))
    return lowerDeclStmt(declStmt);
  if (const auto *ret = dyn_cast<clang::ReturnStmt>(stmt))
    return lowerReturn(ret);
  if (const auto *ifStmt = dyn_cast<clang::IfStmt>(stmt))
    return lowerIf(ifStmt);
  // Growing vectors a loop reads but cannot change: viewed once before it.
  SmallVector<const clang::ValueDecl *> pinned;
  if (isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
          clang::CXXForRangeStmt>(stmt))
    pinGrowingViews(stmt, pinned);
  llvm::scope_exit unpin([&] {
    for (const clang::ValueDecl *var : pinned)
      pinnedGrowingViews.erase(var);
  });
  if (const auto *forStmt = dyn_cast<clang::ForStmt>(stmt)) {
    return lowerLoop(stmt, forStmt->getInit(), forStmt->getCond(),
                     forStmt->getInc(), forStmt->getBody(), true,
                     forStmt->getConditionVariable());
  }
  if (const auto *whileStmt = dyn_cast<clang::WhileStmt>(stmt)) {
    return lowerLoop(stmt, nullptr, whileStmt->getCond(), nullptr,
                     whileStmt->getBody(), true,
                     whileStmt->getConditionVariable());
  }
  if (const auto *doStmt = dyn_cast<clang::DoStmt>(stmt))
    return lowerLoop(stmt, nullptr, doStmt->getCond(), nullptr,
                     doStmt->getBody(), false);
  if (const auto *rangeFor = dyn_cast<clang::CXXForRangeStmt>(stmt))
    return lowerRangeFor(rangeFor);
  if (isa<clang::BreakStmt, clang::ContinueStmt>(stmt))
    return lowerJump(stmt);
  if (isa<clang::NullStmt>(stmt))
    return;
  // [[fallthrough]], [[likely]], ...: hints, lowered as what they mark.
  if (const auto *attributed = dyn_cast<clang::AttributedStmt>(stmt))
    return lowerStmt(attributed->getSubStmt());
  if (const auto *label = dyn_cast<clang::LabelStmt>(stmt))
    return lowerLabel(label);
  if (const auto *jump = dyn_cast<clang::GotoStmt>(stmt))
    return lowerGoto(jump);
  if (const auto *expr = dyn_cast<clang::Expr>(stmt))
    return lowerDiscarded(expr);
  if (const auto *tryStmt = dyn_cast<clang::CXXTryStmt>(stmt))
    return lowerTry(tryStmt);
  if (isa<clang::IndirectGotoStmt>(stmt))
    return (void)unsupported(stmt, "a 'goto' to a computed address cannot "
                                   "be differentiated; rewrite it with a "
                                   "'switch'");
  // (An assembly comment, `asm("#...")` with no operands, marks code for
  // those who read the assembly, as Eigen's kernels do: it does nothing.)
  if (const auto *gcc = dyn_cast<clang::GCCAsmStmt>(stmt);
      gcc && gcc->getNumOutputs() == 0 && gcc->getNumInputs() == 0 &&
      gcc->getNumClobbers() == 0 && gcc->getNumLabels() == 0 &&
      llvm::StringRef(gcc->getAsmString()).ltrim().starts_with("#"))
    return;
  if (const auto *gcc = dyn_cast<clang::GCCAsmStmt>(stmt);
      gcc && lowerPacketAssembly(gcc))
    return;
  if (isa<clang::AsmStmt>(stmt))
    return (void)unsupported(stmt, "inline assembly cannot be "
                                   "differentiated; move it into a function "
                                   "with a custom derivative rule");
  if (const auto *switchStmt = dyn_cast<clang::SwitchStmt>(stmt))
    return lowerSwitch(switchStmt);
  if (const auto *directive = dyn_cast<clang::OMPExecutableDirective>(stmt))
    return lowerOpenMPDirective(directive);
  if (const auto *label = dyn_cast<clang::SwitchCase>(stmt)) {
    // A case label: control falls into it from the case before, and the
    // switch jumps to it.
    Block *block = switchCases.lookup(label);
    if (!block)
      return (void)unsupported(stmt, "a case label outside its 'switch'");
    branchTo(l, block);
    enter(block);
    return lowerStmt(label->getSubStmt());
  }
  unsupported(stmt, "this kind of statement cannot be differentiated; move "
                    "it outside the differentiable function");
}

void FunctionLowering::lowerScoped(const clang::Stmt *stmt) {
  size_t depth = cleanups.size();
  lowerStmt(stmt);
  if (stmt)
    emitCleanups(depth, module.getLoc(stmt->getEndLoc()));
  cleanups.truncate(depth);
}

void FunctionLowering::lowerDiscarded(const clang::Expr *expr) {
  expr = strip(expr);
  if (const auto *release = dyn_cast<clang::CXXDeleteExpr>(expr))
    return lowerDelete(release);
  if (const auto *raise = dyn_cast<clang::CXXThrowExpr>(expr))
    return lowerThrow(raise);
  if (const auto *statements = dyn_cast<clang::StmtExpr>(expr)) {
    lowerStatementExpression(statements);
    return;
  }
  clang::QualType type = expr->getType();
  if (const auto *cast = dyn_cast<clang::CastExpr>(expr);
      cast && cast->getCastKind() == clang::CK_ToVoid)
    return lowerDiscarded(cast->getSubExpr());
  if (const auto *comma = dyn_cast<clang::BinaryOperator>(expr);
      comma && comma->getOpcode() == clang::BO_Comma) {
    lowerDiscarded(comma->getLHS());
    return lowerDiscarded(comma->getRHS());
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(expr);
      call && (type->isVoidType() || isAggregate(type))) {
    lowerCall(call, std::nullopt);
    return;
  }
  // `c ? f() : void(0)`, as `assert` expands: an if/else of two discarded
  // arms.
  if (const auto *conditional = dyn_cast<clang::ConditionalOperator>(expr);
      conditional && type->isVoidType()) {
    emitConditional(conditional, {},
                    [&](const clang::Expr *arm, SmallVectorImpl<Value> &) {
                      lowerDiscarded(arm);
                      return true;
                    });
    return;
  }
  if (isObjectPointer(type) || isIterator(type)) {
    lowerPointer(expr);
  } else if (expr->isGLValue()) {
    // Assignments, increments: their effect is on the place.
    lowerLValue(expr);
  } else if (isAggregate(type)) {
    materializeTemporary(expr);
  } else {
    lowerRValue(expr);
  }
}

void FunctionLowering::lowerVarDecl(const clang::VarDecl *var) {
  Location l = module.getLoc(var->getLocation());
  if (defineLambda(var))
    return;
  if (module.isGuardedStatic(var)) {
    if (!lowerGuardedStatic(var))
      invalid.insert(var);
    return;
  }
  // (A static computed from constants alone that keeps its value is
  // evaluated here, as a local: every evaluation gives the value it holds.)
  if (!var->hasLocalStorage() && !module.isRecomputedStatic(var)) {
    // A std::vector kept between calls: used where C++ keeps it.
    if (!ModuleLowering::getVectorElementType(var->getType().getCanonicalType())
             .isNull()) {
      if (!module.getOutsideVector(var, var->getSourceRange()))
        invalid.insert(var);
      return;
    }
    // A `static const` table: constant data, like a global one.
    if (std::optional<Address> table =
            constantGlobal(var, var->getSourceRange()))
      places[var] = *table;
    else
      invalid.insert(var);
    return;
  }
  clang::QualType type = var->getType();
  const clang::Expr *init = var->getInit();
  if (lowerUniquePointerDecl(var))
    return;
  if (init && (type->isReferenceType() || type->isPointerType()))
    pinVectors(init);
  if (bindVectorReference(var, init))
    return;
  if (type->isReferenceType() && declareGrowingVector(var, init))
    return;
  if (type->isReferenceType()) {
    // (A reference to a pointer is the place holding it: a pointer
    // variable's address slot, an element of an array of pointers.)
    if (std::optional<Address> target = lowerLValue(init)) {
      places[var] = *target;
      lowerHoldingVars(var);
    } else {
      invalid.insert(var);
    }
    return;
  }
  if (isVector(type)) {
    if (declareGrowingVector(var, init))
      return;
    // (A body inlined again declares its vectors afresh: the capacity an
    // earlier inlining reserved is not theirs.)
    vectorSizes.erase(var);
    llvm::SaveAndRestore declaring(vectorBeingDeclared, var);
    std::optional<Address> vector =
        createVector(init, type, var->getSourceRange());
    if (!vector) {
      invalid.insert(var);
      return;
    }
    places[var] = *vector;
    vectorBlocks[var] = currentBlock;
    return;
  }
  if (isObjectPointer(type) || isIterator(type)) {
    lowerPointerVarDecl(var, init, l);
    return;
  }
  if (type->isArrayType() && type->isVariablyModifiedType()) {
    if (!declareVariableLengthArray(var))
      invalid.insert(var);
    return;
  }
  std::optional<Address> place = allocate(type, var->getSourceRange(),
                                          "variable '" + var->getName() + "'");
  if (!place) {
    invalid.insert(var);
    return;
  }
  places[var] = *place;
  markAddressHolder(var, place->memref);
  if (init)
    initialize(init, type, *place);
  // A class that owns memory (or holds such objects, a vector kept in
  // memory, an array of them) is destroyed where its scope ends.
  if (ModuleLowering::needsDestruction(type)) {
    if (!init) {
      module.error(var->getSourceRange(),
                   "a local of a class that owns memory must be "
                   "constructed where it is declared");
      return;
    }
    destroyAtScopeEnd(type, *place, init);
  }
  lowerHoldingVars(var);
}

void FunctionLowering::lowerPointerVarDecl(const clang::VarDecl *var,
                                           const clang::Expr *init,
                                           Location l) {
  clang::QualType type = var->getType();
  if (!init) {
    // `T *p; p = e;`: the assignment declares it (lowerPointerAssignment);
    // till then it is nothing (also not what it was in an earlier call
    // lowered in place).
    pointers.erase(var);
    movingPointers.erase(var);
    if (type->isPointerType() && initializingAssignment(var))
      return;
    module.error(var->getSourceRange(),
                 "a pointer variable must be initialized where it is "
                 "declared, or assigned before any other use in its "
                 "block");
    invalid.insert(var);
    return;
  }
  // A pointer variable moves within the memref it starts in: keep that
  // memref and a slot for the offset.
  if (!refusesNewVector(var, init))
    return;
  std::optional<Address> pointer = lowerPointerValue(var, init);
  if (!pointer) {
    invalid.insert(var);
    return;
  }
  // (Memory it allocates for pointers keeps what getAddressHolders says.)
  markAddressHolder(var, pointer->memref);
  declarePointerVariable(var, *pointer, l);
}

bool FunctionLowering::refusesNewVector(const clang::ValueDecl *var,
                                        const clang::Expr *value) {
  // (A pointer variable to std::vectors selects among the vectors it is
  // given, docs/Memory.md item 28; one made by `new` lives in memory.)
  const auto *made = dyn_cast<clang::CXXNewExpr>(value->IgnoreParenImpCasts());
  if (!made || !isVectorPointer(var))
    return true;
  invalid.insert(var);
  return unsupported<bool>(
      made, "a std::vector made by 'new' and kept in a pointer variable is "
            "not supported yet; own it by a std::unique_ptr "
            "(`auto v = std::make_unique<std::vector<double>>(n)`), or make "
            "it a variable");
}

void FunctionLowering::lowerHoldingVars(const clang::VarDecl *var) {
  // `auto [a, b] = ...` of a tuple-like type (std::pair, std::tuple): each
  // name is a reference the compiler declares, bound to get<i> of the
  // object.
  if (const auto *decomposition = dyn_cast<clang::DecompositionDecl>(var))
    for (const clang::BindingDecl *binding : decomposition->bindings())
      if (const clang::VarDecl *holding = binding->getHoldingVar())
        lowerVarDecl(holding);
}

void FunctionLowering::lowerReturn(const clang::ReturnStmt *stmt) {
  Location l = loc(stmt);
  SmallVector<Value> returned;
  if (const clang::Expr *value = stmt->getRetValue()) {
    clang::QualType type = decl->getReturnType();
    const auto *record = type->getAsCXXRecordDecl();
    if (record && record->isLambda()) {
      // A closure returned by an inlined function: kept where the caller
      // keeps it (a lambda factory), or unused (std::for_each).
      if (returnedClosure && inlineDepth == returnedClosureDepth)
        keepReturnedClosure(stmt);
    } else if (type->isVoidType()) {
      lowerDiscarded(value);
    } else if (!ModuleLowering::getUniquePointee(type).isNull()) {
      // What a std::unique_ptr owns goes to the caller (the body is lowered
      // in place: UniquePointers.cpp).
      std::optional<Address> owned = lowerOwnedSource(value, type);
      if (!owned)
        return;
      if (returnedPlace)
        *returnedPlace = *owned;
      else
        returned.push_back(materialize(*owned, l));
    } else if (isVector(type)) {
      // The vector's memory goes to the caller: a local vector's own (C++
      // moves it), or a new one.
      const clang::Expr *source = value->IgnoreImplicit();
      if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(source);
          construct && construct->getConstructor()->isMoveConstructor())
        source = construct->getArg(0)->IgnoreImplicit();
      const auto *ref = dyn_cast<clang::DeclRefExpr>(source);
      std::optional<Address> vector;
      if (ref && vectorBlocks.count(ref->getDecl()) &&
          !vectorSizes.count(ref->getDecl()))
        vector = places.lookup(ref->getDecl());
      else
        vector = createVector(value, type, value->getSourceRange());
      if (!vector)
        return;
      returned.push_back(vector->memref);
    } else if (isAggregate(type) && !isIterator(type)) {
      size_t made = cleanups.size();
      if (!initializeAggregate(value, *resultAddress))
        return;
      if (inlineDepth > 0)
        giveResultMemoryToCaller(made);
    } else if (type->isReferenceType() || isObjectPointer(type) ||
               isIterator(type)) {
      std::optional<Address> address =
          type->isReferenceType() ? lowerLValue(value) : lowerPointer(value);
      // The only return of a body inlined in place gives its place itself
      // (an integer packed among wider slots stays so: std::get of a
      // tuple); any other, an address.
      if (!returnedPlace || !type->isReferenceType())
        address = unpacked(address, value);
      if (!address)
        return;
      // (`nullptr` as the address 0: a stand-in of the callee's would not
      // outlive it, and the caller tests what it gets.)
      if (returnedPlace) {
        *returnedPlace = *address;
      } else if (inlineDepth == 0 && buildsNodesRecursively(decl)) {
        keepAddress(*address, *resultAddress, l);
      } else if (returnsMemoryAndOffset && !address->packedType &&
                 !nullPointers.contains(address->memref)) {
        // The memory (from its start) and the offset, not a view made here
        // (in a branch, a loop): commonReturnedMemory.
        returned.push_back(
            materialize(Address{address->memref, constantIndex(0, l)}, l));
        returned.push_back(address->offset);
      } else {
        returned.push_back(materializeAddress(*address, l));
        if (returnsMemoryAndOffset)
          returned.push_back(constantIndex(0, l));
      }
    } else {
      Value v = lowerRValue(value);
      if (!v)
        return;
      returned.push_back(v);
    }
  }
  if (returned.size() != returnBlock->getNumArguments())
    return;
  emitCleanups(returnCleanupDepth, l,
               isVector(decl->getReturnType()) && !returned.empty()
                   ? returned.front()
                   : Value());
  branchTo(l, returnBlock, returned);
  enter(newBlock());
}

/// The allocation `view` views (through casts).
static Value allocationOf(Value view) {
  while (auto cast = view.getDefiningOp<memref::CastOp>())
    view = cast.getSource();
  return view;
}

void FunctionLowering::giveResultMemoryToCaller(size_t made) {
  // The memory the result's fields designate (bound beside the object when
  // compiling, not kept in it).
  llvm::DenseSet<Value> designated;
  for (const auto &[slot, binding] : indirectFields)
    if (slot.first == resultAddress->memref && binding.memref)
      designated.insert(allocationOf(binding.memref));
  // Kept in order, so that what stays the callee's is still freed last
  // made, first freed.
  SmallVector<Value> stays;
  for (Value memory : ArrayRef(cleanups).drop_front(made))
    (designated.contains(allocationOf(memory)) ? resultCleanups : stays)
        .push_back(memory);
  cleanups.truncate(made);
  cleanups.append(stays);
}

/// Whether `stmt` holds a label a `goto` or an enclosing `switch` may jump
/// to.
static bool holdsLabel(const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<clang::LabelStmt, clang::SwitchCase>(stmt))
    return true;
  return llvm::any_of(stmt->children(), holdsLabel);
}

bool FunctionLowering::lowerTakenBranch(const clang::IfStmt *stmt, bool taken) {
  if (holdsLabel(taken ? stmt->getElse() : stmt->getThen()))
    return false;
  lowerScoped(taken ? stmt->getThen() : stmt->getElse());
  return true;
}

void FunctionLowering::lowerIf(const clang::IfStmt *stmt) {
  Location l = loc(stmt);
  if (stmt->isConsteval())
    return (void)unsupported(stmt, "'if consteval' cannot be "
                                   "differentiated");
  lowerStmt(stmt->getInit());
  if (stmt->isConstexpr()) {
    // Clang has already chosen the branch.
    std::optional<llvm::APSInt> taken =
        stmt->getCond()->getIntegerConstantExpr(ast);
    lowerStmt(taken && taken->getBoolValue() ? stmt->getThen()
                                             : stmt->getElse());
    return;
  }
  // A condition the compiler knows (`if (NumTraits<T>::RequireInitialization)`
  // in a template): only the branch taken, as Clang emits it, so that the
  // other may hold what differentiable code cannot express (a try block).
  // As Clang's own code generation decides it: folded without running
  // anything with effects (`false && object.data()` folds; `f() || true`
  // does not).
  clang::Expr::EvalResult known;
  if (!stmt->getConditionVariable() &&
      stmt->getCond()->getType()->isIntegralOrEnumerationType() &&
      stmt->getCond()->EvaluateAsInt(known, ast) &&
      lowerTakenBranch(stmt, !known.Val.getInt().isZero()))
    return;
  if (const clang::VarDecl *var = stmt->getConditionVariable())
    lowerVarDecl(var);
  Value cond = lowerRValue(stmt->getCond());
  if (!cond)
    return;
  cond = toBool(cond, stmt->getCond()->getType(), l);
  // A condition the lowering knows (a pointer that is null where it is
  // tested: a library's optional argument left out): the branch taken.
  if (std::optional<int64_t> taken = getConstantIntValue(cond);
      taken && lowerTakenBranch(stmt, *taken != 0))
    return;
  Block *current = b.getInsertionBlock();
  Block *thenBlock = newBlock();
  Block *elseBlock = stmt->getElse() ? newBlock() : nullptr;
  Block *merge = newBlock();
  enter(current);
  cf::CondBranchOp::create(b, l, cond, thenBlock,
                           elseBlock ? elseBlock : merge);
  enter(thenBlock);
  ++controlDepth;
  lowerScoped(stmt->getThen());
  branchTo(l, merge);
  if (elseBlock) {
    enter(elseBlock);
    lowerScoped(stmt->getElse());
    branchTo(l, merge);
  }
  --controlDepth;
  enter(merge);
}

void FunctionLowering::lowerSwitch(const clang::SwitchStmt *stmt) {
  Location l = loc(stmt);
  lowerStmt(stmt->getInit());
  if (const clang::VarDecl *var = stmt->getConditionVariable())
    lowerVarDecl(var);
  Value flag = lowerRValue(stmt->getCond());
  if (!flag)
    return;
  if (!isa<IntegerType>(flag.getType()))
    return (void)unsupported(stmt->getCond(),
                             "a 'switch' on this type is not supported");
  unsigned width = flag.getType().getIntOrFloatBitWidth();
  Block *current = b.getInsertionBlock();
  Block *exit = newBlock();
  Block *defaultBlock = exit;
  SmallVector<APInt> values;
  SmallVector<Block *> destinations;
  for (const clang::SwitchCase *label = stmt->getSwitchCaseList(); label;
       label = label->getNextSwitchCase()) {
    Block *block = newBlock();
    switchCases[label] = block;
    const auto *caseStmt = dyn_cast<clang::CaseStmt>(label);
    if (!caseStmt) {
      defaultBlock = block;
      continue;
    }
    if (caseStmt->caseStmtIsGNURange())
      return (void)unsupported(caseStmt, "case ranges ('case a ... b') are "
                                         "not supported; list the values");
    llvm::APSInt value = caseStmt->getLHS()->EvaluateKnownConstInt(ast);
    values.push_back(value.extOrTrunc(width));
    destinations.push_back(block);
  }
  enter(current);
  SmallVector<ValueRange> operands(values.size(), ValueRange{});
  cf::SwitchOp::create(b, l, flag, defaultBlock, ValueRange{}, values,
                       destinations, operands);
  // Code before the first label is unreachable.
  enter(newBlock());
  jumps.push_back({exit, jumps.empty() ? nullptr : jumps.back().continueTarget,
                   cleanups.size()});
  ++controlDepth;
  lowerStmt(stmt->getBody());
  --controlDepth;
  jumps.pop_back();
  branchTo(l, exit);
  enter(exit);
}

void FunctionLowering::emitLoop(Location l, function_ref<Value()> condition,
                                function_ref<void()> body,
                                function_ref<void()> increment,
                                bool conditionFirst) {
  Block *current = b.getInsertionBlock();
  Block *condBlock = newBlock();
  Block *bodyBlock = newBlock();
  Block *incBlock = newBlock();
  Block *exit = newBlock();
  enter(current);
  branchTo(l, conditionFirst ? condBlock : bodyBlock);

  enter(condBlock);
  ++controlDepth;
  loopReadMarks.push_back(loweredReads);
  llvm::scope_exit leave([&] {
    --controlDepth;
    loopReadMarks.pop_back();
  });
  Value more = condition();
  if (!more)
    return;
  cf::CondBranchOp::create(b, l, more, bodyBlock, exit);

  enter(bodyBlock);
  jumps.push_back({exit, incBlock, cleanups.size()});
  body();
  jumps.pop_back();
  branchTo(l, incBlock);

  enter(incBlock);
  increment();
  branchTo(l, condBlock);
  enter(exit);
}

void FunctionLowering::lowerLoop(const clang::Stmt *stmt,
                                 const clang::Stmt *init,
                                 const clang::Expr *cond,
                                 const clang::Expr *inc,
                                 const clang::Stmt *body, bool conditionFirst,
                                 const clang::VarDecl *conditionVariable) {
  Location l = loc(stmt);
  lowerStmt(init);
  std::optional<int64_t> checkpoint = getCheckpointPragma(ast, stmt);
  emitLoop(
      l,
      [&]() -> Value {
        if (!cond) // for (;;)
          return arith::ConstantOp::create(b, l, b.getBoolAttr(true));
        // `while (T x = ...)`: x is declared afresh before each test.
        if (conditionVariable)
          lowerVarDecl(conditionVariable);
        Value v = lowerRValue(cond);
        return v ? toBool(v, cond->getType(), l) : nullptr;
      },
      [&] {
        // The marker opens the body, which becomes the scf.for's body; it
        // knows how many loops are around it (this one included).
        if (checkpoint)
          cotangent::ct::CheckpointLoopOp::create(b, l, *checkpoint,
                                                  loopReadMarks.size());
        bool parallel = emitParallelLoopMarker(stmt);
        parallelBodyDepth += parallel;
        lowerScoped(body);
        parallelBodyDepth -= parallel;
      },
      [&] {
        if (inc)
          lowerDiscarded(inc);
      },
      conditionFirst);
}

/// Whether `type` is `std::array<T, N>`.
static bool isStdArray(clang::QualType type) {
  const auto *record = type->getAsCXXRecordDecl();
  return record && record->getQualifiedNameAsString() == "std::array";
}

const clang::CXXStdInitializerListExpr *
FunctionLowering::initializerList(const clang::Expr *range) {
  while (true) {
    range = strip(range);
    if (const auto *temporary =
            dyn_cast<clang::MaterializeTemporaryExpr>(range))
      range = temporary->getSubExpr();
    else if (const auto *cast = dyn_cast<clang::ImplicitCastExpr>(range))
      range = cast->getSubExpr();
    else
      return dyn_cast<clang::CXXStdInitializerListExpr>(range);
  }
}

/// `for (T v : range)` over a built-in array, a std::array, a std::vector
/// or a list of values: a counted loop over the elements, whose layout is
/// known, rather than over the library's iterators. (Any other range is
/// looped over as C++ expands the loop: lowerExpandedRangeFor.)
clang::QualType FunctionLowering::rangeElementType(const clang::Expr *&range,
                                                   clang::QualType &rangeType) {
  clang::QualType expected;
  if (const auto *array = ast.getAsConstantArrayType(rangeType))
    expected = array->getElementType();
  else if (isVector(rangeType))
    expected = ModuleLowering::getVectorElementType(rangeType);
  else if (const clang::CXXStdInitializerListExpr *list =
               initializerList(range)) {
    // `for (x : {a, b, c})`: over the list's array.
    range = list->getSubExpr();
    rangeType = range->getType().getCanonicalType();
    expected = ast.getAsConstantArrayType(rangeType)->getElementType();
  } else if (isStdArray(rangeType))
    expected = cast<clang::ClassTemplateSpecializationDecl>(
                   rangeType->getAsCXXRecordDecl())
                   ->getTemplateArgs()[0]
                   .getAsType();
  else if (ModuleLowering::isVectorObject(rangeType))
    expected = ModuleLowering::getVectorElementType(rangeType);
  return expected;
}

void FunctionLowering::lowerRangeForIteration(
    const clang::CXXForRangeStmt *stmt, Address element,
    const Layout &elementLayout, const VectorObject *vector) {
  Location l = loc(stmt);
  const clang::VarDecl *var = stmt->getLoopVariable();
  clang::QualType varType = var->getType();
  clang::QualType elementType = varType.getNonReferenceType();
  // What the loop variable owns (copies of rows and of objects that own
  // memory) is freed when the iteration ends.
  size_t depth = cleanups.size();
  // (Vector elements, of vectors, arrays and std::arrays, are kept in
  // memory.)
  bool row = isVector(elementType);
  if (varType->isReferenceType() && row) {
    // A row, by reference: a vector kept in memory.
    vectorObjectReferences[var] = element;
  } else if (varType->isReferenceType()) {
    places[var] = element;
  } else if (row) {
    // A copy of the row as a local vector, freed when the iteration ends.
    std::optional<Address> view =
        viewVectorInMemory(element, elementType, stmt);
    if (!view)
      return;
    Value length = memref::DimOp::create(b, l, view->memref, 0);
    std::optional<Address> copyPlace =
        allocateVector(elementType, length, var->getSourceRange());
    std::optional<Layout> rowElement = layoutOf(
        ModuleLowering::getVectorElementType(elementType.getCanonicalType()),
        stmt);
    if (!copyPlace || !rowElement)
      return;
    copyElements(*copyPlace, *view, length, *rowElement, l);
    places[var] = *copyPlace;
  } else if (vector && var->getInit()) {
    // A copy of an element of a vector kept in memory: made by the
    // element's copy constructor, destroyed when the iteration ends.
    std::optional<Address> copyPlace =
        allocate(varType, var->getSourceRange(), "the loop variable");
    if (!copyPlace || !constructElement(*vector, *copyPlace, element,
                                        /*move=*/false, var->getInit()))
      return;
    destroyAtScopeEnd(varType, *copyPlace, var->getInit());
    places[var] = *copyPlace;
  } else if (varType->isPointerType()) {
    // A pointer variable, from an array or vector of pointers.
    std::optional<Address> pointer =
        followStoredPointer(element, varType, stmt);
    if (!pointer)
      return;
    auto [known, fresh] =
        pointers.try_emplace(var, PointerVariable{pointer->memref, Address{}});
    known->second.memref = pointer->memref;
    if (fresh)
      known->second.offsetSlot = newIndexSlot(pointer->offset, l);
    else
      store(pointer->offset, known->second.offsetSlot, l);
  } else {
    std::optional<Address> copyPlace =
        allocate(varType, var->getSourceRange(), "the loop variable");
    if (!copyPlace)
      return;
    if (!copyObject(*copyPlace, element, elementLayout, stmt))
      return;
    places[var] = *copyPlace;
  }
  lowerHoldingVars(var);
  lowerScoped(stmt->getBody());
  if (!isTerminated())
    emitCleanups(depth, l);
  cleanups.resize(depth);
}

void FunctionLowering::lowerExpandedRangeFor(
    const clang::CXXForRangeStmt *stmt) {
  // As C++ defines it: the range bound to a reference, its begin and end
  // iterators, then a loop that tests, declares the loop variable from
  // `*begin`, runs the body and increments, each lowered from its own code
  // (a view's, a span's, a class of the user's) or called as compiled (a
  // library object kept so).
  Location l = loc(stmt);
  size_t depth = cleanups.size();
  lowerStmt(stmt->getInit());
  lowerStmt(stmt->getRangeStmt());
  lowerStmt(stmt->getBeginStmt());
  lowerStmt(stmt->getEndStmt());
  emitLoop(
      l,
      [&]() -> Value {
        Value v = lowerRValue(stmt->getCond());
        return v ? toBool(v, stmt->getCond()->getType(), l) : nullptr;
      },
      [&] {
        size_t bodyDepth = cleanups.size();
        lowerStmt(stmt->getLoopVarStmt());
        lowerStmt(stmt->getBody());
        emitCleanups(bodyDepth, module.getLoc(stmt->getBody()->getEndLoc()));
        cleanups.truncate(bodyDepth);
      },
      [&] { lowerDiscarded(stmt->getInc()); }, /*conditionFirst=*/true);
  emitCleanups(depth, module.getLoc(stmt->getEndLoc()));
  cleanups.truncate(depth);
}

void FunctionLowering::lowerRangeFor(const clang::CXXForRangeStmt *stmt) {
  Location l = loc(stmt);
  const clang::Expr *range = stmt->getRangeInit();
  clang::QualType rangeType = range->getType().getCanonicalType();
  if (const auto *record = rangeType->getAsCXXRecordDecl();
      record && ModuleLowering::isKeptAsCompiled(record))
    return lowerExpandedRangeFor(stmt);
  const clang::VarDecl *var = stmt->getLoopVariable();
  clang::QualType varType = var->getType();
  clang::QualType elementType = varType.getNonReferenceType();
  clang::QualType expected = rangeElementType(range, rangeType);
  if (expected.isNull())
    return lowerExpandedRangeFor(stmt);
  if (!ast.hasSameUnqualifiedType(elementType, expected))
    return module.error(var->getSourceRange(),
                        "the loop variable's type differs from the "
                        "elements'; convert inside the loop");
  lowerStmt(stmt->getInit());
  // (The rows of a vector of vectors are vectors kept in memory.)
  std::optional<Layout> elementLayout =
      isVector(expected)
          ? module.getVectorInMemoryLayout(expected, range->getSourceRange())
          : layoutOf(expected, range);
  std::optional<Address> base;
  Value count;
  std::optional<VectorObject> vector;
  if (ModuleLowering::isVectorObject(rangeType)) {
    // A vector kept in memory: its elements where its first address says.
    std::optional<Address> holder = lowerLValue(range);
    vector = holder ? vectorObjectAt(*holder, rangeType, range) : std::nullopt;
    if (vector) {
      base = Address{vectorObjectElements(*vector, l), constantIndex(0, l)};
      count = vectorObjectCount(*vector, vector->end, l);
    }
  } else if (isVector(rangeType)) {
    // The vector's size when the loop starts, as C++ reads end() once.
    base = range->isGLValue()
               ? lowerLValue(range)
               : createVector(range, rangeType, range->getSourceRange());
    if (base)
      count = vectorSize(*base, rangeType, l);
  } else {
    std::optional<Layout> rangeLayout = layoutOf(rangeType, range);
    base =
        range->isGLValue() ? lowerLValue(range) : materializeTemporary(range);
    if (rangeLayout && elementLayout)
      count = constantIndex(rangeLayout->size / elementLayout->size, l);
  }
  if (!elementLayout || !base || !count)
    return;

  // The counter lives in a slot, like any local, so that mem2reg and the
  // clean-up turn the loop into an scf.for.
  Address counterPlace = newIndexSlot(constantIndex(0, l), l);
  emitLoop(
      l,
      [&]() -> Value {
        return arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                     load(counterPlace, l), count);
      },
      [&] {
        Value offset = arith::MulIOp::create(
            b, l, load(counterPlace, l), constantIndex(elementLayout->size, l));
        lowerRangeForIteration(stmt, offsetBy(*base, offset, l), *elementLayout,
                               vector ? &*vector : nullptr);
      },
      [&] {
        store(arith::AddIOp::create(b, l, load(counterPlace, l),
                                    constantIndex(1, l)),
              counterPlace, l);
      },
      /*conditionFirst=*/true);
}

void lowerFunctionBody(ModuleLowering &module, const clang::FunctionDecl *decl,
                       func::FuncOp function) {
  if (!function)
    return;
  module.enter(decl);
  FunctionLowering(module, decl, function).lower();
  module.leave();
}

} // namespace cotangent::frontend
