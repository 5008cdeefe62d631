//===- FunctionLowering.h - One C++ function body to MLIR -------*- C++ -*-===//
//
// Lowers like a classic code generator. Every object lives in memory: a
// local in a 1-D memref.alloca of its layout's size (a scalar is one
// element), a field at its offset inside its object, an array element at
// its index times the element's size. Control flow becomes cf branches. The
// module-level clean-up (SROA, mem2reg, CFG-to-SCF, while-to-for) then
// gives SSA values and structured loops, keeping in memory only what the
// program really addresses.
//
// The class is split by concern, like Clang's CodeGenFunction: each group
// of members below names the file that implements it (docs/Frontend.md's
// code map lists them all).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_FRONTEND_FUNCTIONLOWERING_H
#define COTANGENT_LIB_FRONTEND_FUNCTIONLOWERING_H

#include "DenseKernels.h"
#include "ModuleLowering.h"
#include "VectorPointerFlows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "llvm/ADT/DenseSet.h"

#include <array>
#include <functional>
#include <memory>

namespace cotangent::frontend {

/// One class a virtual call may find (VirtualCalls.cpp).
struct DispatchTarget;

/// `expr` without what does not change its meaning here: parentheses,
/// full-expression wrappers, substituted template parameters, a default
/// member initializer's use.
inline const clang::Expr *strip(const clang::Expr *expr) {
  while (true) {
    if (const auto *paren = llvm::dyn_cast<clang::ParenExpr>(expr))
      expr = paren->getSubExpr();
    else if (const auto *init = llvm::dyn_cast<clang::CXXDefaultInitExpr>(expr))
      expr = init->getExpr();
    else if (const auto *full = llvm::dyn_cast<clang::FullExpr>(expr))
      expr = full->getSubExpr();
    else if (const auto *subst =
                 llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(expr))
      expr = subst->getReplacement();
    else if (const auto *rewritten =
                 llvm::dyn_cast<clang::CXXRewrittenBinaryOperator>(expr))
      expr = rewritten->getSemanticForm(); // C++20 `a != b` as `!(a == b)`
    else
      return expr;
  }
}

/// `expr` without what does not change the object it makes: `strip`'s,
/// temporaries' materialization and binding, no-op and constructor
/// conversions.
inline const clang::Expr *stripTemporaries(const clang::Expr *expr) {
  while (true) {
    expr = strip(expr);
    if (const auto *t = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(expr))
      expr = t->getSubExpr();
    else if (const auto *bind =
                 llvm::dyn_cast<clang::CXXBindTemporaryExpr>(expr))
      expr = bind->getSubExpr();
    else if (const auto *cast = llvm::dyn_cast<clang::CastExpr>(expr);
             cast && (cast->getCastKind() == clang::CK_NoOp ||
                      cast->getCastKind() == clang::CK_ConstructorConversion))
      expr = cast->getSubExpr();
    else
      return expr;
  }
}

/// Whether `expr` is `nullptr`, `NULL` or `0` as a pointer, or a pointer
/// value-initialized (`pointer()`, a default argument's).
inline bool isNullPointer(const clang::Expr *expr, clang::ASTContext &ast) {
  if (!expr)
    return false;
  const clang::Expr *value = expr->IgnoreParenImpCasts();
  if (const auto *given = llvm::dyn_cast<clang::CXXDefaultArgExpr>(value))
    value = given->getExpr()->IgnoreParenImpCasts();
  if (llvm::isa<clang::CXXScalarValueInitExpr>(value) &&
      value->getType()->isPointerType())
    return true;
  return value->isNullPointerConstant(ast,
                                      clang::Expr::NPC_ValueDependentIsNotNull);
}

/// The object `std::move(x)` names, `x`; null for any other expression.
inline const clang::Expr *movedFrom(const clang::Expr *expr) {
  const auto *call =
      llvm::dyn_cast<clang::CallExpr>(expr->IgnoreParenImpCasts());
  const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || call->getNumArgs() != 1 || !callee->isInStdNamespace() ||
      !callee->getIdentifier() || callee->getName() != "move")
    return nullptr;
  return call->getArg(0);
}

/// The argument of `std::move`, `std::forward`, `std::as_const` or
/// `std::move_if_noexcept` (casts of it to a reference) when `expr` is a
/// call of one; null otherwise.
inline const clang::Expr *castToReferenceArgument(const clang::Expr *expr) {
  const auto *call = llvm::dyn_cast<clang::CallExpr>(expr);
  const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || call->getNumArgs() != 1)
    return nullptr;
  switch (callee->getBuiltinID()) {
  case clang::Builtin::BImove:
  case clang::Builtin::BIforward:
  case clang::Builtin::BIas_const:
  case clang::Builtin::BImove_if_noexcept:
    return call->getArg(0);
  default:
    return nullptr;
  }
}

/// Calls `bind(param, arg)` for each argument of `call` and the parameter
/// of `callee` it initializes (a member operator's object, its first
/// argument, initializes none).
inline void forEachBoundArgument(
    const clang::CallExpr *call, const clang::FunctionDecl *callee,
    llvm::function_ref<void(const clang::ParmVarDecl *, const clang::Expr *)>
        bind) {
  const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(callee);
  unsigned shift = llvm::isa<clang::CXXOperatorCallExpr>(call) && method &&
                           !method->isStatic()
                       ? 1
                       : 0;
  for (unsigned i = shift; i < call->getNumArgs(); ++i)
    if (i - shift < callee->getNumParams())
      bind(callee->getParamDecl(i - shift), call->getArg(i));
}

/// How to choose among objects whose pointer fields designate memory known
/// beside each (the end of the errors that refuse choosing them otherwise).
inline const char *chooseByIndexWayOut() {
  return "keep the objects in an array and choose one by its index "
         "(`objects[k]`)";
}

/// A local array or vector's pointer elements (no field) or one pointer
/// field of its elements.
using AddressHolder =
    std::pair<const clang::VarDecl *, const clang::FieldDecl *>;

/// The allocation or argument `memref` views.
mlir::Value memoryRoot(mlir::Value memref);
/// Whether `root` is memory the function allocated itself.
bool isOwnMemory(mlir::Value root);
/// Whether `expr` makes new memory: `new`, or C's allocation functions
/// cast to a typed pointer.
bool isFreshAllocation(const clang::Expr *expr);
/// Whether `type` is a pointer or reference to a function.
bool isFunctionPointer(clang::QualType type);
/// Whether `type` is `std::function` (or a reference to one).
bool isStdFunction(clang::QualType type);
/// Whether `type` is a pointer to an object, which designates memory (a
/// function pointer is an integer: FunctionPointers.cpp).
inline bool isObjectPointer(clang::QualType type) {
  return type->isPointerType() && !type->isFunctionPointerType();
}
/// Whether `call` calls one of C's allocation functions.
bool isCAllocation(const clang::CallExpr *call);

/// Whether `call` calls the global `operator new` (`operator new[]`) of
/// bytes, which differentiable code lowers as `malloc`.
bool isGlobalOperatorNew(const clang::CallExpr *call);

/// Whether `call` calls the global `operator delete` (`operator
/// delete[]`), which differentiable code lowers as `free`.
bool isGlobalOperatorDelete(const clang::CallExpr *call);
/// Whether `callee` is Eigen's `internal::handmade_aligned_free`, which
/// frees what its `handmade_aligned_malloc` made (HeapMemory.cpp).
bool isEigenHandmadeFree(const clang::FunctionDecl *callee);
/// Whether `type` is an empty class (or a pointer or reference to one): a
/// tag, a functor, a CRTP base, which holds no data.
bool isEmptyClass(clang::QualType type);
/// Whether `callee` is a member of an empty class or takes one by pointer
/// or reference (CRTP bases): its body is lowered in place.
bool takesEmptyClassObjects(const clang::FunctionDecl *callee);

/// Whether `stmt` only reads `var`'s value: every use of it is loaded at
/// once (not assigned, incremented, addressed or bound to a reference).
bool onlyReads(const clang::Stmt *stmt, const clang::VarDecl *var);

/// `offset` when the lowering computed it from constants only (a field's
/// offset, an element at a constant index, `a + 4`), before any folding.
std::optional<int64_t> staticOffset(mlir::Value offset);
/// The same, taking each condition of `choices` to hold or not as it says
/// in the selects it chooses, and a load as the value `loaded` gives for
/// it (null: not known).
std::optional<int64_t>
staticOffsetIn(mlir::Value offset,
               llvm::ArrayRef<std::pair<mlir::Value, bool>> choices,
               llvm::function_ref<mlir::Value(mlir::Value)> loaded = nullptr);

/// A place in memory: element `offset` (an index) of a 1-D memref of
/// scalars. An lvalue's address, and the value of a pointer.
/// Whether a call of `method` on a std::vector may change its size or
/// memory (GrowingVectors.cpp).
bool changesVectorMemory(const clang::CXXMethodDecl *method);
/// Whether `callee`'s parameter `index` is a non-const reference to a
/// std::vector whose size its body may change (itself, or through the
/// helpers it passes it to): the callee is then lowered in place, its
/// parameter being the caller's growing vector (GrowingVectors.cpp).
bool growsVectorParameter(const clang::FunctionDecl *callee, unsigned index);

/// The iterator a std::reverse_iterator<It> steps back over; null for
/// every other type (IteratorRanges.cpp).
clang::QualType reversedIteratorOf(clang::QualType type);

/// Emits a loop running `body(i)` for each i in [0, count).
void forEachIndex(mlir::OpBuilder &b, mlir::Location l, mlir::Value count,
                  llvm::function_ref<void(mlir::Value)> body);

struct Address {
  mlir::Value memref;
  mlir::Value offset;
  /// A scalar kept inside a wider slot (an `int` or `bool` field of a
  /// struct of doubles, see Layout): its type, its size in memory in bits
  /// and its first byte in the slot. Null for a whole slot.
  mlir::Type packedType = nullptr;
  unsigned packedBits = 0, packedByte = 0;
  /// A packed member of a union whose slot also holds floating-point data
  /// (`union { float f; std::uint32_t bits; }`): its bits are read and
  /// written through ct.bit_cast, which the engine follows.
  bool bitsShared = false;
};

/// Which of Eigen's product kernels (EigenKernels.cpp): the general one,
/// the one updating a triangle of its result, the one with a triangular
/// operand, the one with a self-adjoint operand.
enum class EigenProduct { General, TriangleOfResult, Triangular, SelfAdjoint };

class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &module, const clang::FunctionDecl *decl,
                   mlir::func::FuncOp function)
      : module(module), ast(module.getAST()), decl(decl), loweredDecl(decl),
        function(function), b(module.getContext()) {}

  void lower();

private:
  // Lowerings too large for one member function, split into helper classes
  // that share their state: each lives beside the code it splits.
  friend class AlgorithmLowering;

  using Value = mlir::Value;
  using Location = mlir::Location;

  //===--- Statements (LowerStmt.cpp) -------------------------------------===//
  void lowerStmt(const clang::Stmt *stmt);
  /// A block: its statements, then the cleanups of what it declared.
  void lowerCompound(const clang::CompoundStmt *compound);
  /// A GNU statement expression, `({ double t = x; t * t; })`: its
  /// statements in a block of their own, then the value of the last.
  Value lowerStatementExpression(const clang::StmtExpr *expr);
  void lowerDeclStmt(const clang::DeclStmt *declStmt);
  /// 'break' or 'continue': the cleanups of the scopes it leaves, a branch.
  void lowerJump(const clang::Stmt *stmt);
  /// `goto label;` and `label:` (Gotos.cpp): a branch to the block the
  /// label begins, after the cleanups of the scopes it leaves.
  void lowerGoto(const clang::GotoStmt *stmt);
  void lowerLabel(const clang::LabelStmt *stmt);
  /// Begins the block of `label` here; false (after an error where a goto
  /// jumps to it) inside an operation's region, where no block begins.
  bool placeLabel(const clang::LabelStmt *label);
  void lowerVarDecl(const clang::VarDecl *var);
  /// A static local initialized when the function first runs: its
  /// initializer run under its guard (GuardedStatics.cpp); false after an
  /// error.
  bool lowerGuardedStatic(const clang::VarDecl *var);
  /// Whether `__cxa_guard_acquire` on `guard` says this call initializes
  /// the variable.
  Value acquireStaticGuard(Value guard, Location l);
  /// Whether the thread-local guard byte `guard` is still clear.
  Value isThreadsFirstPass(Value guard, Location l);
  /// Registers the destructor of `var`, a static local kept in `object`
  /// (of each element, for an array), with `__cxa_atexit`, as C++ does once
  /// it is initialized.
  void registerStaticDestructor(const clang::VarDecl *var,
                                mlir::memref::GlobalOp object);
  /// A pointer or iterator variable: where it starts, or (without an
  /// initializer) the assignment that declares it.
  void lowerPointerVarDecl(const clang::VarDecl *var, const clang::Expr *init,
                           Location loc);
  void lowerReturn(const clang::ReturnStmt *stmt);
  /// Makes `arg`, the value passed for `param`, the parameter's place: a
  /// reference or aggregate is its memory, a scalar gets a slot.
  void bindParameter(const clang::ParmVarDecl *param, Value arg, Location l);
  void lowerIf(const clang::IfStmt *stmt);
  /// Lowers only the branch of `stmt` taken when its condition is `taken`;
  /// false (nothing lowered) if the other holds a label.
  bool lowerTakenBranch(const clang::IfStmt *stmt, bool taken);
  /// `switch` with fall-through, `default` and `break`: a cf.switch to one
  /// block per label (CFG-to-SCF makes it an scf.index_switch).
  void lowerSwitch(const clang::SwitchStmt *stmt);
  void lowerLoop(const clang::Stmt *stmt, const clang::Stmt *init,
                 const clang::Expr *cond, const clang::Expr *inc,
                 const clang::Stmt *body, bool conditionFirst,
                 const clang::VarDecl *conditionVariable = nullptr);
  void lowerRangeFor(const clang::CXXForRangeStmt *stmt);
  /// False, after an error, where the pointer variable `var` to
  /// std::vectors is given `value`, a std::vector made by `new`.
  bool refusesNewVector(const clang::ValueDecl *var, const clang::Expr *value);
  /// The element type of the range `for` loops over (a list: its array,
  /// which `range` and `rangeType` become) where the loop counts over its
  /// elements; null for other ranges.
  clang::QualType rangeElementType(const clang::Expr *&range,
                                   clang::QualType &rangeType);
  /// The references a structured binding of a tuple-like type declares.
  void lowerHoldingVars(const clang::VarDecl *var);
  struct VectorObject;
  /// One iteration of a range `for`: the loop variable bound to `element`
  /// (by reference, as a pointer or a copy; a copy of an element of a
  /// vector kept in memory, `vector`, by the element's constructor), then
  /// the body.
  void lowerRangeForIteration(const clang::CXXForRangeStmt *stmt,
                              Address element, const Layout &elementLayout,
                              const VectorObject *vector = nullptr);

  //===--- Exceptions (Exceptions.cpp) ------------------------------------===//
  /// `try { ... } catch (...) { ... }`: the body, then each handler a
  /// `throw` in it reaches (handlers nothing reaches are not lowered).
  void lowerTry(const clang::CXXTryStmt *stmt);
  /// `throw e;`: the cleanups of the scopes it leaves, then a branch to the
  /// innermost enclosing handler that catches e's type (in this function or
  /// a caller whose body it is lowered in); with none, a message, then
  /// abort (derivatives do not unwind).
  void lowerThrow(const clang::CXXThrowExpr *expr);
  /// `c ? throw e : x` (or `c ? x : throw e`): the condition and the
  /// throw, lowered; `other` is then the arm left to evaluate, the
  /// expression's value (null after an error). False if neither arm throws.
  bool lowerThrowingArm(const clang::ConditionalOperator *expr,
                        const clang::Expr *&other);
  /// False, after an error, where `callee` runs as compiled elsewhere, may
  /// throw, and is called in a `try` whose handlers catch what libraries
  /// throw: an exception would unwind past them in a derivative.
  bool checkCompiledCallInTry(const clang::Expr *call,
                              const clang::FunctionDecl *callee);
  /// Whether `callee`, called inside a `try`, may throw (it, or a function
  /// it calls, up to a few calls deep): lowered in place, its `throw`
  /// reaches the handlers.
  bool throwsToEnclosingTry(const clang::FunctionDecl *callee);
  /// The `try` statements whose body is being lowered, innermost last.
  struct TryScope {
    const clang::CXXTryStmt *stmt;
    /// One block per handler, in order; a handler whose exception variable
    /// is a number used in it takes that number as its argument.
    llvm::SmallVector<mlir::Block *> handlers;
    llvm::SmallVector<bool> reached;
    /// The cleanups alive when the `try` started (cleanups.size()).
    size_t cleanupDepth;
  };
  llvm::SmallVector<TryScope> tries;

  //===--- OpenMP (OpenMP.cpp) --------------------------------------------===//
  /// `#pragma omp parallel for` and `#pragma omp atomic`; any other OpenMP
  /// construct is reported.
  void lowerOpenMPDirective(const clang::OMPExecutableDirective *directive);
  /// A loop `#pragma omp parallel for` marks: its reduction variables (with
  /// their kinds) and how many loops its `collapse` takes.
  struct ParallelLoopMarker {
    const clang::Stmt *loop;
    llvm::SmallVector<std::pair<const clang::Expr *, llvm::StringRef>> reduced;
    int64_t collapse;
    /// From a target directive: run it on a GPU when compiling for one.
    bool device = false;
  };
  /// The marker for the loop being lowered, emitted at the start of its body
  /// (once per loop: the body of a nested loop does not take it).
  std::optional<ParallelLoopMarker> parallelLoop;
  /// lowerOpenMPDirective's parts: an atomic update; the clauses of a
  /// parallel loop read into `marker`, with the array sections its maps
  /// name; and those sections' pointer variables viewed over the elements
  /// the loop may use (`unsized` keeps their whole memory). False after an
  /// error.
  void lowerOpenMPAtomic(const clang::OMPAtomicDirective *atomic);
  bool readParallelLoopClauses(
      const clang::OMPExecutableDirective *directive,
      ParallelLoopMarker &marker,
      llvm::SmallVectorImpl<const clang::ArraySectionExpr *> &sections);
  struct PointerVariable;
  bool sizeMappedSections(
      llvm::ArrayRef<const clang::ArraySectionExpr *> sections,
      llvm::SmallVectorImpl<std::pair<PointerVariable *, Value>> &unsized);
  /// Emits the marker if `loop` is the parallel loop; returns whether it
  /// was.
  bool emitParallelLoopMarker(const clang::Stmt *loop);
  /// How many parallel loop bodies are being lowered: what they allocate
  /// lives for one iteration.
  unsigned parallelBodyDepth = 0;
  /// The blocks every loop has: condition (an i1), body, increment, exit,
  /// with `break` and `continue` bound to exit and increment.
  void emitLoop(Location loc, llvm::function_ref<Value()> condition,
                llvm::function_ref<void()> body,
                llvm::function_ref<void()> increment, bool conditionFirst);
  void lowerConstructorInitializers(const clang::CXXConstructorDecl *ctor);
  /// `stmt`, with the vectors it creates freed at its end (a branch, a loop
  /// body, a statement's temporaries).
  void lowerScoped(const clang::Stmt *stmt);
  /// An expression evaluated for its side effects.
  void lowerDiscarded(const clang::Expr *expr);

  mlir::Block *newBlock() { return b.createBlock(&function.getBody()); }
  void enter(mlir::Block *block) { b.setInsertionPointToEnd(block); }
  bool isTerminated();
  void branchTo(Location loc, mlir::Block *target,
                mlir::ValueRange operands = {});

  //===--- Scalar expressions (LowerExpr.cpp) -----------------------------===//
  /// The value of a scalar expression; null after reporting an error.
  /// A namespace-scope scalar constant as a value; null for anything else.
  Value lowerGlobalConstant(const clang::Expr *expr);
  Value lowerRValue(const clang::Expr *expr);
  /// A literal, an enumerator, a constant defined outside the function, a
  /// scalar's braces or zero initialization, or an integer Clang evaluates
  /// (sizeof): its value (null after an error); nullopt for other
  /// expressions.
  std::optional<Value> lowerConstantValue(const clang::Expr *expr);
  /// The value of a call: folded when Clang evaluates it, std::min/max's
  /// choice, or the callee's result.
  Value lowerCallValue(const clang::CallExpr *call);
  /// `std::bit_cast` between numbers (`__builtin_bit_cast`): ct.bit_cast.
  Value lowerBitCast(const clang::CastExpr *expr);
  Value lowerCast(const clang::CastExpr *expr);
  /// `std::min`, `std::max`, `std::clamp` of numbers read as a value: the
  /// choice between the values (no place to choose, so the arguments'
  /// memory may differ in activity). Null for any other call.
  Value lowerMinMaxValue(const clang::CallExpr *call);
  Value lowerBinary(const clang::BinaryOperator *expr);
  Value lowerLogical(const clang::BinaryOperator *expr);
  Value lowerUnary(const clang::UnaryOperator *expr);
  Value lowerConditional(const clang::ConditionalOperator *expr);
  /// `address` as a place of its own scalar type: a packed integer field
  /// becomes an element of a view of its type over its slot, to be passed,
  /// returned, compared or written through a reference.
  std::optional<Address> unpacked(std::optional<Address> address,
                                  const clang::Stmt *where);
  /// Where `field` of the object at `object` is (PackedFields.cpp explains
  /// integer fields among wider slots); nullopt after an error.
  std::optional<Address> fieldAddress(Address object,
                                      const clang::FieldDecl *field,
                                      const clang::Stmt *where);
  /// `c ? x : y` as a place (`(a < b ? a : b) = v`, the body of
  /// `std::min`): the memory and offset chosen at run time.
  std::optional<Address>
  lowerConditionalLValue(const clang::ConditionalOperator *expr);
  /// The place `expr` chooses between its arms, each lowered by `arm`
  /// (lowerLValue's unpacked places, or pointers), all evaluated: selects
  /// of memory and offset.
  std::optional<Address> choosePlace(
      const clang::ConditionalOperator *expr,
      std::optional<Address> (FunctionLowering::*arm)(const clang::Expr *));
  /// `cond ? onTrue : onFalse` as one place (memrefs of different types
  /// viewed as pointers).
  Address chooseAddress(Value cond, Address onTrue, Address onFalse,
                        Location l);
  std::optional<Address> unpackedLValue(const clang::Expr *arm);
  /// The same where an arm has side effects: a branch (see PlaceChoice).
  std::optional<Address>
  lowerConditionalPlaceWithEffects(const clang::ConditionalOperator *expr);
  /// A choice between pointers whose arms have side effects: each branch
  /// stores its address in a slot, read after them.
  std::optional<Address>
  choosePointerWithEffects(const clang::ConditionalOperator *expr);
  /// The same, of arms lowered by `lowerArm` to memory of `scalar`s.
  std::optional<Address> choosePointerWithEffects(
      const clang::ConditionalOperator *expr, mlir::Type scalar,
      llvm::function_ref<std::optional<Address>(const clang::Expr *)> lowerArm);
  /// `(T *)((uintptr_t(p) + k) & ~k)`, p aligned to more than k bytes: p.
  std::optional<Address> alignedUp(const clang::CastExpr *cast);
  /// The places a conditional whose arms have side effects chooses among:
  /// each candidate's memory, defined before the conditional, and the index
  /// of the chosen one, which the branch passes out. The place is then a
  /// select among the candidates after the branch, which the AD engine
  /// follows like `c ? x : y` without side effects; nested conditionals
  /// merge their candidates. Keyed by the memref of the chosen place.
  struct PlaceChoice {
    llvm::SmallVector<mlir::Value, 2> candidates;
    mlir::Value which;
  };
  /// Places passed out of several branches into one block: each branch
  /// passes memory (as a pointer of `pointerType`), offset and the index of
  /// its candidate (passPlace); after them the place is a select among the
  /// candidates where all were defined before the branches (endPlaceMerge).
  struct PlaceMerge {
    mlir::Type pointerType;
    llvm::SmallVector<mlir::Value, 2> candidates;
    bool selectable = true;
    llvm::SmallPtrSet<mlir::Block *, 16> before;
    /// Where set, a place whose memory a branch makes (a pointer field
    /// read in it) keeps its address in `slot` instead, its candidate the
    /// view read back after the branches (null in `candidates`).
    bool keepsMadeAddresses = false;
    mlir::Value slot;
    /// Where set, an address a branch reads from slot k < `readableSlots`
    /// of `object` (every object it may be has that many) is read at the
    /// end of `origin`, before the branches, instead: a candidate like
    /// memory defined before them, which the engine follows better than an
    /// address kept in memory.
    mlir::Value object;
    int64_t readableSlots = 0;
    mlir::Block *origin = nullptr;
    /// The merge block's argument types.
    llvm::SmallVector<mlir::Type, 3> types(mlir::OpBuilder &b) const {
      return {pointerType, b.getIndexType(), b.getIndexType()};
    }
  };
  PlaceMerge beginPlaceMerge(mlir::Type scalar);
  void passPlace(PlaceMerge &merge, Address place,
                 llvm::SmallVectorImpl<Value> &passed, Location at);
  Address endPlaceMerge(PlaceMerge &merge, mlir::Block *joined, Location l);
  /// The address read in a branch at `memory`, read before the branches
  /// instead where `merge` allows it; null otherwise.
  Value readBeforeBranches(PlaceMerge &merge, Value memory);
  llvm::DenseMap<mlir::Value, PlaceChoice> placeChoices;
  /// `c ? a : b`: each arm in its own block, lowered by `lowerArm`, which
  /// gives the values passed to the merge block (of `mergeTypes`). Returns
  /// the merge block, or null after an error.
  mlir::Block *
  emitConditional(const clang::ConditionalOperator *expr,
                  mlir::TypeRange mergeTypes,
                  llvm::function_ref<bool(const clang::Expr *,
                                          llvm::SmallVectorImpl<Value> &)>
                      lowerArm);
  Value arithmetic(clang::BinaryOperatorKind kind, Value lhs, Value rhs,
                   clang::QualType type, Location loc);
  Value convert(Value value, clang::QualType from, clang::QualType to,
                Location loc);
  Value toBool(Value value, clang::QualType from, Location loc);
  Value index(Value value, clang::QualType from, Location loc);
  /// `++`/`--` on the scalar at `place`: the old and the new value.
  std::pair<Value, Value> increment(const clang::UnaryOperator *expr,
                                    Address place);
  mlir::Type typeOf(const clang::Expr *expr) {
    return module.lowerType(expr->getType(), expr->getSourceRange(),
                            "this expression");
  }

  //===--- Memory (LowerMemory.cpp) ---------------------------------------===//
  /// The address of a glvalue of any supported type.
  std::optional<Address> lowerLValue(const clang::Expr *expr);
  /// lowerLValue of a name and of a member access.
  std::optional<Address> lowerNamedPlace(const clang::DeclRefExpr *ref);
  std::optional<Address> lowerMemberPlace(const clang::MemberExpr *member);
  /// The value of a pointer-typed expression.
  std::optional<Address> lowerPointer(const clang::Expr *expr);
  /// `p + k`, `k + p`, `p - k`, an assignment or a comma giving a pointer.
  std::optional<Address>
  lowerPointerOperation(const clang::BinaryOperator *binary);
  /// The pointer a variable names: a pointer variable, a pointer bound to
  /// a reference, a std::unique_ptr bound to a reference.
  std::optional<Address> lowerNamedPointer(const clang::DeclRefExpr *ref);
  /// lowerPointer of a conversion to a pointer type.
  std::optional<Address> lowerPointerCast(const clang::CastExpr *cast);
  /// Assignments to pointer variables: they move within their memref.
  std::optional<Address>
  lowerPointerAssignment(const clang::BinaryOperator *expr);
  /// Makes the pointer field or element `place` designate `pointer`;
  /// false after an error at `where`.
  bool storePointerAt(const clang::Expr *place, Address pointer,
                      const clang::Stmt *where);
  /// Where `pointer` points, moved by `count` elements (back if
  /// `backwards`): `p + k`, `p - k`.
  std::optional<Address> movedPointer(const clang::Expr *pointer,
                                      const clang::Expr *count, bool backwards,
                                      const clang::Stmt *where);
  std::optional<Address>
  lowerScalarAssignment(const clang::BinaryOperator *expr);
  /// Initializes the object of `type` at `dest` with `init` (scalar or
  /// aggregate); false after an error.
  bool initialize(const clang::Expr *init, clang::QualType type, Address dest,
                  const clang::FieldDecl *field = nullptr);
  bool initializeAggregate(const clang::Expr *init, Address dest);
  /// The error for an initialization initializeAggregate cannot lower.
  bool unsupportedInitialization(const clang::Expr *init);
  /// `{a, b, ...}` for an array or a struct: each part from its
  /// initializer, the array filler or zero.
  bool initializeFromList(const clang::InitListExpr *list, Address dest);
  /// The same for the parts `inits` of `init` (a braced list, or C++20's
  /// parenthesized aggregate initialization `T(a, b)`), the rest from
  /// `filler` or zero.
  bool initializeParts(const clang::Expr *init,
                       llvm::ArrayRef<clang::Expr *> inits,
                       const clang::Expr *filler, Address dest);
  /// A new object of `type` in an alloca at the function entry.
  std::optional<Address> allocate(clang::QualType type,
                                  clang::SourceRange range,
                                  const llvm::Twine &what);
  /// Slots of `layout` in an alloca at the function entry (one per
  /// iteration in a parallel loop's body); bytes aligned to `alignment`.
  Address allocateSlots(const Layout &layout, int64_t alignment, Location l);
  /// A temporary holding the value of `expr`, for binding to a reference.
  std::optional<Address> materializeTemporary(const clang::Expr *expr);
  void copy(Address dest, Address source, int64_t size, Location loc);
  /// The same for a size known at run time: an scf.for.
  void copy(Address dest, Address source, Value size, Location loc);
  /// Copies slots [first, end) of an object of `layout`, each narrow run
  /// (Layout::narrow) in its own type.
  void copySlots(Address dest, Address source, const Layout &layout,
                 int64_t first, int64_t end, Location loc);
  /// Copies `scalars` slots of objects of layout `element`, end to end:
  /// as one run when the element has no narrow parts, else object by
  /// object.
  void copyElements(Address dest, Address source, Value scalars,
                    const Layout &element, Location loc);
  void copyElements(Address dest, Address source, int64_t scalars,
                    const Layout &element, Location loc);
  /// copyElements of pointers whose memory keeps addresses: each address
  /// loaded and stored, and the copy made to keep them too. False (and
  /// nothing done) for other memory.
  bool copyAddresses(Address dest, Address source, Value scalars,
                     const Layout &element, Location loc);
  /// Copies one object of layout `element`, the addresses of its `kept`
  /// pointers loaded and stored, the rest slot by slot.
  void copyKeepingAddresses(Address dest, Address source, const Layout &element,
                            llvm::ArrayRef<const Layout::IndirectField *> kept,
                            Location loc);
  /// Copies one element of a growing vector (whose pointers all keep
  /// addresses) or of its temporaries.
  void copyGrowingElement(Address dest, Address source, const Layout &element,
                          Location loc);
  void fillZero(Address dest, const Layout &layout, Location loc);
  /// The address `delta` scalars further.
  Address offsetBy(Address address, Value delta, Location loc);
  /// The address `delta` scalars further on, or back.
  Address moveBy(Address address, Value delta, bool backwards, Location loc);
  /// A new index slot at the function entry, holding `initial`.
  Address newIndexSlot(Value initial, Location loc);
  Address offsetBy(Address address, int64_t delta, Location loc);
  /// A memref starting at the addressed element, of the pointer type, to
  /// pass as an argument or return.
  Value materialize(Address address, Location loc);
  /// The same, to keep in memory as an address: `nullptr` is address 0
  /// there.
  Value materializeAddress(Address address, Location loc);
  /// The stand-ins of `nullptr` (memory of no elements, for pointers
  /// nobody follows).
  llvm::DenseSet<Value> nullPointers;
  /// `memory` without the choices of null it may make: a pointer that is
  /// null or points into an array can be followed only into that array
  /// (IndirectFields.cpp).
  Value memoryApartFromNull(Value memory);
  /// For a read of a moving pointer whose every array is one memory (an
  /// iterator moved among its container's positions by other iterators),
  /// that memory, made where it is, so that a field bound to it in a
  /// branch is known after the branch; otherwise `memref`.
  Value stableMemory(Value memref, Location l);
  /// Reads of moving pointers whose memory was taken apart from null for a
  /// field: a later array they would have to select is an error.
  llvm::DenseSet<mlir::Operation *> readsApartFromNull;
  /// The offset slots of pointer variables the function only reads,
  /// initialized with a choice among objects (`c ? &a : &b`), with the
  /// offset each holds throughout (see followChosenSlot).
  llvm::DenseMap<Value, Value> unchangedOffsets;
  /// How many scalars the memory holds from `address` to its end.
  Value scalarsFrom(Address address, Location loc);
  Value load(Address address, Location loc) {
    if (address.packedType)
      return loadPacked(address, loc);
    return mlir::memref::LoadOp::create(b, loc, address.memref, address.offset);
  }
  void store(Value value, Address address, Location loc) {
    if (address.packedType)
      return storePacked(value, address, loc);
    mlir::memref::StoreOp::create(b, loc, value, address.memref,
                                  address.offset);
  }
  /// The place of the base class a derived-to-base `cast` selects in the
  /// object at `derived` (packed in its slot when it is an integer among
  /// wider slots: PackedFields.cpp).
  Address basePlace(Address derived, const clang::CastExpr *cast, Location l);
  std::optional<Address> derivedPlace(Address base, const clang::CastExpr *cast,
                                      Location l);
  /// The place of the base `base` of the `derived` object at `object`.
  Address basePart(Address object, const clang::CXXRecordDecl *derived,
                   clang::QualType base, Location l);
  /// A packed field: bits of its slot (PackedFields.cpp).
  Value loadPacked(Address address, Location loc);
  void storePacked(Value value, Address address, Location loc);
  Value constantIndex(int64_t value, Location loc) {
    return mlir::arith::ConstantIndexOp::create(b, loc, value);
  }
  /// The layout of the object `expr` designates or produces.
  /// Whether `cast` reinterprets a pointer to objects made of some scalars
  /// as a pointer to objects made of the same scalars (no pointers or
  /// vectors in either): the same memory, the same address.
  bool isSameScalarReinterpretation(const clang::CastExpr *cast);
  std::optional<Layout> layoutOf(clang::QualType type,
                                 const clang::Stmt *where) {
    return module.getLayout(type, where->getSourceRange(), "this expression");
  }
  /// The layout of `type` as an element of an array: a std::vector is its
  /// three addresses there (VectorRows.cpp).
  std::optional<Layout> elementLayoutOf(clang::QualType type,
                                        const clang::Stmt *where) {
    return isVector(type.getCanonicalType())
               ? module.getVectorInMemoryLayout(type, where->getSourceRange())
               : layoutOf(type, where);
  }

  //===--- Calls (LowerCall.cpp) ------------------------------------------===//
  /// What a call produced: a scalar value, or the address a reference or
  /// pointer result designates, or nothing (void, or an aggregate written
  /// to its destination).
  struct CallResult {
    Value scalar;
    std::optional<Address> address;
  };
  /// Lowers a call of any kind; an aggregate result is written to `dest`
  /// (a temporary when none is given). Nullopt after an error.
  std::optional<CallResult> lowerCall(const clang::CallExpr *expr,
                                      std::optional<Address> dest);
  /// A call of a std::function that is a lambda or named function of the
  /// function (bindStdFunction): true, with `result`, if it is one.
  bool lowerStdFunctionCall(const clang::CallExpr *expr,
                            std::optional<Address> dest,
                            std::optional<CallResult> &result);
  //===--- Eigen's matrix kernels (EigenKernels.cpp) ----------------------===//
  /// A call of one of Eigen's product or triangular-solve kernels: true,
  /// with `result`, if it is one (a call of the matching DenseKernels.h
  /// kernel).
  bool lowerEigenKernelCall(const clang::CallExpr *call,
                            const clang::FunctionDecl *callee,
                            std::optional<CallResult> &result);
  /// A call of one of Eigen's math functions of packets (`pexp`, `plog`,
  /// `generic_pow`...: EigenPacketMath.cpp): true, with `result`, if it is
  /// one (the <cmath> function on each lane).
  bool lowerEigenPacketMathCall(const clang::CallExpr *call,
                                const clang::FunctionDecl *callee,
                                std::optional<Address> dest,
                                std::optional<CallResult> &result);
  std::optional<CallResult>
  lowerEigenProduct(const clang::CallExpr *call,
                    const clang::TemplateArgumentList &targs,
                    mlir::FloatType element, EigenProduct form);
  std::optional<CallResult>
  lowerEigenSolve(const clang::CallExpr *call,
                  const clang::TemplateArgumentList &targs,
                  mlir::FloatType element, bool vector);
  /// The matrix whose first element argument `pointer` of `call` points to.
  std::optional<DenseMatrix> lowerKernelMatrix(const clang::CallExpr *call,
                                               unsigned pointer,
                                               Value rowStride, Value colStride,
                                               mlir::FloatType element);
  /// Argument `k` of `call`, an integer, as an index.
  Value lowerIndexArgument(const clang::CallExpr *call, unsigned k);

  /// lowerCall of a call whose function, `callee`, is known.
  std::optional<CallResult> lowerCallOf(const clang::CallExpr *expr,
                                        const clang::FunctionDecl *callee,
                                        std::optional<Address> dest);
  /// Member functions of the standard classes modelled here (std::vector,
  /// std::unique_ptr): each class's own lowering.
  bool isModelledStdClass(clang::QualType type);
  std::optional<CallResult>
  lowerModelledStdCall(const clang::CallExpr *expr,
                       const clang::CXXMethodDecl *method,
                       llvm::ArrayRef<const clang::Expr *> args);
  //===--- Library objects kept as compiled (LibraryObjects.cpp) -------===//
  /// The class kept as compiled that the call `expr` of `callee` works on
  /// (its object, an argument or its result), if any.
  const clang::CXXRecordDecl *
  getLibraryObjectClass(const clang::CallExpr *expr,
                        const clang::FunctionDecl *callee);
  /// Calls the library's compiled `callee`, which works on an object of
  /// `record`.
  std::optional<CallResult> lowerLibraryObjectCall(
      const clang::CallExpr *expr, const clang::FunctionDecl *callee,
      const clang::CXXRecordDecl *record, std::optional<Address> dest);
  /// Whether the call of `callee` with `args` runs the library's compiled
  /// code: it works on a library object, or it is a library function whose
  /// body does not lower (then declared so).
  bool runsAsLibraryCompiledIt(const clang::FunctionDecl *callee,
                               llvm::ArrayRef<const clang::Expr *> args);
  /// A list of values (`{{0, 2.0}, {1, 3.0}}`) given to the library's
  /// code as a `std::initializer_list` of `type`, laid out as C++ does.
  std::optional<Address>
  lowerListForLibrary(const clang::CXXStdInitializerListExpr *list,
                      clang::QualType type);
  /// A string literal: constant characters, for the library to read.
  std::optional<Address>
  lowerStringLiteral(const clang::StringLiteral *literal);
  unsigned stringLiterals = 0;
  /// A range-`for` as C++ expands it, with the range's own iterators (a
  /// library object kept as compiled, a view, a span, a class of the
  /// user's).
  void lowerExpandedRangeFor(const clang::CXXForRangeStmt *stmt);
  /// Declares `callee` (a constructor or destructor of `record`, kept as
  /// compiled) as called as compiled; false after an error at `where`.
  bool callsLibraryCode(const clang::FunctionDecl *callee,
                        const clang::CXXRecordDecl *record,
                        const clang::Stmt *where);

  /// Calls `callee` with an object, explicit arguments and an aggregate
  /// result's address.
  /// Reports (true) an argument for a std::vector parameter `callee`
  /// resizes that the call cannot let grow (emitCall lowers the others in
  /// place).
  bool refusesResizedArguments(const clang::FunctionDecl *callee,
                               llvm::ArrayRef<const clang::Expr *> args);
  /// Whether a call of `callee` (not a library object's) passes places only
  /// the caller knows, so that its body is lowered in place: besides
  /// objects holding indirect fields, which takesIndirectFields says.
  bool passesCallersPlaces(const clang::FunctionDecl *callee,
                           llvm::ArrayRef<const clang::Expr *> args);
  /// Whether a virtual call of `callee` cannot go through the function
  /// that dispatches it.
  bool needsDispatchInPlace(const clang::FunctionDecl *callee,
                            bool passesCallersPlaces);
  /// A virtual call whose function the dispatch function cannot call (it
  /// returns a place, or takes objects known only here): the same chain
  /// of comparisons in place, each overrider's body lowered in its branch
  /// (VirtualCalls.cpp); the place returned is chosen among theirs.
  std::optional<CallResult>
  dispatchInPlace(const clang::Expr *expr, const clang::CXXMethodDecl *method,
                  Address object, llvm::ArrayRef<const clang::Expr *> args,
                  std::optional<Address> dest);
  /// dispatchInPlace's parts: checks that `method` is not being dispatched
  /// in place already (a virtual function reaching itself would unfold
  /// without end) and stops the program on an object of a class the unit
  /// does not define.
  bool enterDispatchInPlace(const clang::Expr *expr,
                            const clang::CXXMethodDecl *method);
  void abortUnlessDispatched(Value table, llvm::ArrayRef<Value> points,
                             const clang::Expr *expr,
                             const clang::CXXMethodDecl *method);
  bool prepareDispatch(const clang::Expr *expr,
                       const clang::CXXMethodDecl *method, Value view,
                       llvm::ArrayRef<DispatchTarget> targets,
                       std::optional<PlaceMerge> &places,
                       llvm::SmallVectorImpl<Value> &points,
                       llvm::SmallVectorImpl<Value> &selves);
  /// One branch: `overrider`'s body on `self`, its result passed to
  /// `joined`, the branch's temporaries (those after `depth`) destroyed.
  bool dispatchTo(const clang::Expr *expr,
                  const clang::CXXMethodDecl *overrider, Value self,
                  llvm::ArrayRef<const clang::Expr *> args,
                  std::optional<Address> dest,
                  std::optional<PlaceMerge> &places, mlir::Block *joined,
                  size_t depth);
  llvm::SmallPtrSet<const clang::CXXMethodDecl *, 4> methodsDispatchedInPlace;
  //===--- Function pointers (FunctionPointers.cpp) -----------------------===//
  /// The address a function pointer expression holds (an i64); null after
  /// an error.
  Value lowerFunctionPointer(const clang::Expr *expr);
  /// The named function a std::function `object` holds where that is
  /// known (made from it, or a variable or parameter bound to one).
  const clang::FunctionDecl *functionHeldBy(const clang::Expr *object);
  /// Binds a lambda or std::function parameter (of class `record`) of a
  /// call lowered in place to the closure `arg` designates; false after an
  /// error.
  bool bindClosureArgument(const clang::ParmVarDecl *param,
                           const clang::Expr *arg,
                           const clang::CXXRecordDecl *record);
  /// Binds a function pointer parameter of a call lowered in place to
  /// `arg`: its function where known, else the address; false after an
  /// error.
  bool bindFunctionPointerArgument(const clang::ParmVarDecl *param,
                                   const clang::Expr *arg, Location l);
  /// The address a cast of a function pointer gives (null after an
  /// error), or false if the cast is a place's to read.
  bool lowerFunctionPointerCast(const clang::CastExpr *cast, Value &address);
  /// `p == q`, `p != q` of function pointers (and of pointers to members).
  Value compareFunctionPointers(const clang::BinaryOperator *expr);
  /// A call through a function pointer: of the function it names where
  /// that is known (lowerCallOf), else lowerIndirectCall.
  std::optional<CallResult>
  lowerCallThroughPointer(const clang::CallExpr *expr,
                          std::optional<Address> dest);
  /// A call through a function pointer whose function is known only when
  /// it runs: compared with each function of the unit it may hold.
  std::optional<CallResult> lowerIndirectCall(const clang::CallExpr *expr,
                                              std::optional<Address> dest);
  /// Whether the dispatch of `expr` can call `target` (reported if not).
  bool canCallThroughPointer(const clang::CallExpr *expr,
                             const clang::FunctionDecl *target);
  /// The call `expr` of the function at `address`, one of `targets` (on
  /// `object`, for a member function): its result's place or block
  /// argument, then dispatchThroughPointer.
  std::optional<CallResult>
  callThroughAddress(const clang::CallExpr *expr, Value address,
                     llvm::ArrayRef<const clang::FunctionDecl *> targets,
                     std::optional<Address> object,
                     std::optional<Address> dest);
  /// The branches comparing `address` with each of `targets`, each
  /// calling the one it matches (on `object`, for member functions) and
  /// going to `merge` with its value (an aggregate is built in
  /// `resultPlace`); false after an error.
  bool
  dispatchThroughPointer(const clang::CallExpr *expr, Value address,
                         llvm::ArrayRef<const clang::FunctionDecl *> targets,
                         std::optional<Address> resultPlace, mlir::Block *merge,
                         std::optional<Address> object);

  //===--- Pointers to members (MemberPointers.cpp) -----------------------===//
  /// A pointer to a member as the number it is (an i64): a data member's
  /// offset in bytes (-1 when null), a member function's address (0 when
  /// null); null after an error.
  Value lowerMemberPointer(const clang::Expr *expr);
  /// `&C::m`.
  Value memberAddress(const clang::UnaryOperator *expr);
  /// A pointer to a member of a base as one of the derived class.
  Value lowerDerivedMemberPointer(const clang::CastExpr *cast);
  /// The object of `obj.*m` (its place) or `p->*m` (where p points).
  std::optional<Address>
  memberAccessObject(const clang::BinaryOperator *access);
  /// `obj.*m` and `p->*m` of a data member: its place.
  std::optional<Address> lowerMemberAccess(const clang::BinaryOperator *expr);
  /// Stores a pointer to a member of `type` at `dest`, with the second
  /// word a pointer to a member function has in memory.
  void storeMemberPointer(Value value, clang::QualType type, Address dest,
                          Location l);
  /// `(obj.*f)(args)`, `(p->*f)(args)`: compared with each member function
  /// it may hold, as a call through a function pointer is.
  std::optional<CallResult>
  lowerMemberFunctionPointerCall(const clang::CXXMemberCallExpr *expr,
                                 const clang::BinaryOperator *access,
                                 std::optional<Address> dest);
  /// `expr` lowered as a direct call of `target`, one of the functions its
  /// pointer may hold (a lambda's static invoker: the lambda's body).
  std::optional<CallResult>
  callDispatchTarget(const clang::CallExpr *expr,
                     const clang::FunctionDecl *target,
                     std::optional<Address> dest);

  /// Where a call returning an aggregate by its hidden pointer puts it:
  /// `dest`, else a temporary.
  std::optional<Address> resultPlaceFor(const clang::Expr *call,
                                        clang::QualType returnType,
                                        std::optional<Address> dest);
  /// `isVirtual`: a virtual call, through the function that dispatches it
  /// (ModuleLowering::getVirtualDispatch).
  std::optional<CallResult> emitCall(const clang::Expr *call,
                                     const clang::FunctionDecl *callee,
                                     std::optional<Address> object,
                                     llvm::ArrayRef<const clang::Expr *> args,
                                     std::optional<Address> dest,
                                     bool isVirtual = false);
  /// Whether a call of `method` on `object` (an expression of its class or
  /// a pointer to it) must find its target at run time.
  bool isVirtualCall(const clang::CXXMethodDecl *method,
                     const clang::Expr *object);
  /// What a constructor of `record` does after its bases' (VirtualCalls.cpp):
  /// the address points of `record`'s virtual table into each of the
  /// object's table pointers.
  void storeVTablePointers(const clang::CXXRecordDecl *record, Address self,
                           Location l);
  /// Destroys the object of static type `type` at `object` (what `delete`
  /// and a std::unique_ptr do): through its virtual destructor, the
  /// object's own class's destruction; `pointer` is the expression
  /// designating it (it may tell the class).
  void destroyDynamicObject(clang::QualType type, Address object,
                            const clang::Expr *where,
                            const clang::Expr *pointer);
  /// Writes `point` into the table pointer `byteOffset` bytes into the
  /// `record` object at `self`.
  void storeTablePointer(Value point, Address self, int64_t byteOffset,
                         const clang::CXXRecordDecl *record, Location l);
  /// `ct::stop_gradient`, `ct::pass_through` and the <cmath> functions:
  /// true when `callee` is one of them, with `result` set (nullopt after
  /// an error).
  /// <cmath> functions the C library computes, or that return a part
  /// through a pointer (MathLibraryCalls.cpp): true if `callee` is one
  /// (`result` then null after an error).
  bool lowerMathLibraryCall(const clang::Expr *expr,
                            const clang::FunctionDecl *callee,
                            llvm::ArrayRef<Value> operands, mlir::Type type,
                            std::optional<CallResult> &result);
  /// `modf(x, &integral)`: stores trunc(x), returns the fraction.
  Value lowerModf(Value x, Value integralPart, Location loc);
  bool lowerScalarBuiltin(const clang::Expr *expr,
                          const clang::FunctionDecl *callee,
                          llvm::ArrayRef<Value> operands,
                          std::optional<CallResult> &result);
  /// Clang's `__builtin_elementwise_*` of scalars: true if `call` is one
  /// (`result` then null after an error).
  bool lowerScalarElementwise(const clang::CallExpr *call,
                              std::optional<CallResult> &result);
  std::optional<CallResult> lowerPassThrough(const clang::Expr *expr,
                                             const clang::FunctionDecl *target,
                                             llvm::ArrayRef<Value> operands);
  /// `lhs = rhs` with a trivial assignment operator: a copy of the object.
  std::optional<CallResult> lowerTrivialAssignment(const clang::Expr *expr,
                                                   const clang::Expr *lhs,
                                                   const clang::Expr *rhs);
  /// Compiler builtins that only inform the optimizer or the constant
  /// evaluator, and calls of functions that do not return (abort, a failed
  /// assert): lowered without a callee (ErrorPaths.cpp). Nullopt when
  /// `expr` is none of them; an empty CallResult for a call that ends
  /// the program.
  std::optional<CallResult> lowerCheckCall(const clang::CallExpr *expr,
                                           const clang::FunctionDecl *callee);
  /// printf, fprintf(stderr, ...), puts and the other C output functions,
  /// kept as in the primal (OutputCalls.cpp); nullopt for other callees.
  std::optional<CallResult> lowerOutputCall(const clang::CallExpr *expr,
                                            const clang::FunctionDecl *callee);
  /// "file:line" of `where`, as the C library's messages start.
  std::string sourcePosition(const clang::Stmt *where);
  /// Where `condition` holds, the program prints "file:line: message" and
  /// aborts (ct.abort), as C++ would throw or assert there.
  void abortIf(Value condition, const clang::Stmt *where,
               const llvm::Twine &message);
  /// The address of constant data defined outside the function (a
  /// `constexpr` table, a `static const` local); nullopt after an error.
  std::optional<Address> constantGlobal(const clang::VarDecl *var,
                                        clang::SourceRange use) {
    std::optional<mlir::memref::GlobalOp> global =
        module.getConstantGlobal(var, use);
    if (!global)
      return std::nullopt;
    Location l = module.getLoc(use.getBegin());
    Value memref = mlir::memref::GetGlobalOp::create(b, l, global->getType(),
                                                     global->getSymName());
    return Address{memref, constantIndex(0, l)};
  }
  //===--- Lambdas (Lambdas.cpp) ------------------------------------------===//
  /// A lambda defined in this function: its expression, and the snapshots
  /// of what it captures by copy.
  struct Closure {
    const clang::LambdaExpr *lambda = nullptr;
    llvm::DenseMap<const clang::ValueDecl *, Address> copies;
    /// Pointers captured by copy: the memory each points into, and the
    /// lambda's own slot for the offset (set where it is defined).
    llvm::DenseMap<const clang::ValueDecl *, std::pair<Value, Address>>
        pointerCopies;
    /// A closure returned by the function that made it (a lambda factory)
    /// also keeps what the body needs of that function: the places of the
    /// variables it captures by reference, the closures it captures, and
    /// the object `this` designates.
    llvm::DenseMap<const clang::ValueDecl *, std::shared_ptr<Closure>> closures;
    std::optional<Address> self;
  };
  /// Records `var` if it holds a lambda (true), taking its copies.
  bool defineLambda(const clang::VarDecl *var);
  Closure makeClosure(const clang::LambdaExpr *lambda);
  /// The closure `expr` designates: a lambda variable, a closure parameter
  /// of a function being inlined, a lambda expression (copied or moved), a
  /// call returning a lambda (its body inlined where the call is).
  std::optional<Closure> closureOf(const clang::Expr *expr);
  /// The closure `call`'s body returns, the body lowered in place; nullopt
  /// after an error.
  std::optional<Closure> closureReturnedBy(const clang::CallExpr *call);
  /// At a return of a function inlined by closureReturnedBy: the closure
  /// `value` designates, made to outlive the function.
  void keepReturnedClosure(const clang::ReturnStmt *stmt);
  /// Where keepReturnedClosure puts the closure, and the inlining depth of
  /// the function whose returns it serves.
  std::optional<Closure> *returnedClosure = nullptr;
  unsigned returnedClosureDepth = 0;
  /// closureOf, but for generic lambdas (none).
  std::optional<Closure> concreteClosureOf(const clang::Expr *expr);

  /// Closures kept in memory (StoredClosures.cpp): a lambda stored in an
  /// object's field, a std::tuple or an array, by the place it lies at
  /// (memref, static offset). Its captures are where the closure that was
  /// stored keeps them.
  llvm::DenseMap<std::pair<Value, int64_t>, Closure> storedClosures;
  /// std::functions kept in memory made from a named function: that
  /// function, by the place.
  llvm::DenseMap<std::pair<Value, int64_t>, const clang::FunctionDecl *>
      storedFunctions;
  /// The memory holding such std::functions (emptied: their callables are
  /// recorded), where one chosen at run time cannot be followed.
  llvm::DenseSet<Value> callableMemory;
  /// The function a call of `callee` calls (its virtual dispatch when
  /// `isVirtual`), noted as called at `expr`; null after an error.
  mlir::func::FuncOp callTarget(const clang::Expr *expr,
                                const clang::FunctionDecl *callee,
                                bool isVirtual);
  /// Whether a call of library code (called as compiled) is given a lambda
  /// with captures or a std::function holding a recorded callable, which
  /// it would find empty (reported).
  bool givesCallablesToLibrary(const clang::Expr *expr,
                               llvm::ArrayRef<const clang::Expr *> args);
  /// Records at `dest` the lambda or named function `init` makes the
  /// std::function of `type` from (or that the std::function it copies
  /// holds), the library's object left empty (zero); nullopt if `init` is
  /// none of these (the library's), false after an error.
  std::optional<bool> storeStdFunction(const clang::Expr *init,
                                       clang::QualType type, Address dest);
  /// The place of a std::function `expr` designates, if a callable is
  /// recorded there.
  std::optional<std::pair<Value, int64_t>>
  storedCallablePlace(const clang::Expr *expr);
  /// Stores the closure `init` designates at `dest`; false after an error.
  bool storeClosure(const clang::Expr *init, Address dest);
  /// The closure kept at the place `expr` designates; nullopt after an
  /// error.
  std::optional<Closure> storedClosureOf(const clang::Expr *expr);
  /// A copy of a mutable lambda has state of its own: `closure`'s by-copy
  /// captures, copied to memory of the current scope (nothing for other
  /// lambdas, whose captures never change); false after an error.
  bool copyClosureState(Closure &closure, const clang::Stmt *where);
  /// Whether `expr` copies a lambda from another (not a move, nor the
  /// lambda expression itself).
  static bool copiesClosure(const clang::Expr *expr);
  /// The closures of an object of `layout`, copied from `source` to
  /// `dest`; false after an error.
  bool copyClosures(Address dest, Address source, const Layout &layout,
                    const clang::Stmt *where);
  /// Binds `decl`, a std::function variable or parameter, to the lambda or
  /// named function `init` makes it from; false if it is neither.
  bool bindStdFunction(const clang::ValueDecl *decl, const clang::Expr *init);
  /// Records in `closure` what its body reaches by the name `captured`
  /// where that name means what the lambda captured: a closure's copy, the
  /// place of a number, array or struct captured by reference, a lambda
  /// captured. False for a pointer, vector or iterator captured by
  /// reference (a variable whose place is not all of it).
  bool pinCapture(Closure &closure, const clang::ValueDecl *captured);
  /// Whether a parameter of `function` is a closure: such calls are
  /// inlined (inlineBody), since a closure has no memory layout.
  static bool takesClosure(const clang::FunctionDecl *function);
  /// The body of `callee` lowered in place, its parameters bound to `args`
  /// (or to `operands`, lowered already, when given) and `captures` (a
  /// lambda's copies) bound over the enclosing names.
  std::optional<CallResult>
  inlineBody(const clang::Expr *expr, const clang::FunctionDecl *callee,
             llvm::ArrayRef<const clang::Expr *> args, const Closure *closure,
             llvm::ArrayRef<Value> operands = {},
             std::optional<Address> object = std::nullopt,
             std::optional<Address> dest = std::nullopt);
  /// inlineBody's parts: the arguments bound as `callee`'s parameters
  /// (false after an error); a closure's copies bound over the names they
  /// capture, and those names restored; the statements lowered with the
  /// function state of `callee`, returning to `continuation`.
  bool bindInlinedArguments(const clang::FunctionDecl *callee,
                            llvm::ArrayRef<const clang::Expr *> args,
                            llvm::ArrayRef<Value> operands, Location l);
  /// What declarations were bound to, in every map binding declarations,
  /// to put back in reverse order.
  struct SavedBindings {
    llvm::SmallVector<std::function<void()>> undo;
  };
  void saveBindings(const clang::ValueDecl *decl, SavedBindings &saved);
  void restoreBindings(SavedBindings &saved);
  void bindCaptures(const Closure &closure, SavedBindings &saved);
  void lowerInlinedStatements(const clang::Expr *expr,
                              const clang::FunctionDecl *callee,
                              mlir::Block *continuation,
                              std::optional<Address> object,
                              std::optional<Address> result,
                              std::optional<Address> *place);
  unsigned inlineDepth = 0;
  /// Whether a call of `callee` at `expr` can be lowered in place (not
  /// recursion, not nested too deeply); reports why not.
  bool canLowerInPlace(const clang::Expr *expr,
                       const clang::FunctionDecl *callee);
  /// The functions being lowered in place, outermost first.
  llvm::SmallVector<const clang::FunctionDecl *> inlinedCallees;
  /// Whether `callee` is among them (a call of it now would be recursion:
  /// a function taking an empty class, a tag, is then called instead).
  bool isBeingInlined(const clang::FunctionDecl *callee) const {
    return llvm::is_contained(inlinedCallees, callee->getCanonicalDecl());
  }
  /// Whether a call of `callee` here is recursion: it is being lowered in
  /// place, or it is the function being lowered (a function inlined into
  /// its own body would be lowered twice).
  bool callsItself(const clang::FunctionDecl *callee) const {
    return isBeingInlined(callee) ||
           callee->getCanonicalDecl() == loweredDecl->getCanonicalDecl();
  }
  static constexpr unsigned kMaxInlineDepth = 128;
  /// `memcpy`/`memmove(dst, src, bytes)` between typed memory: a copy of
  /// the scalars, in the order that is right for overlapping ranges.
  std::optional<CallResult> lowerMemoryCopy(const clang::CallExpr *expr);
  /// `memcpy(&to, &from, sizeof to)` between numbers of one width and two
  /// types: `to` gets `from`'s bits (ct.bit_cast); none for other copies.
  std::optional<CallResult> copyNumberBits(const clang::CallExpr *expr,
                                           const clang::Expr *target,
                                           const clang::Expr *source);
  /// `memset(p, byte, bytes)` of typed memory: every scalar made of that
  /// byte (zero for any memory; other bytes for numbers only).
  std::optional<CallResult> lowerMemorySet(const clang::CallExpr *expr);
  /// A call of a lambda defined in this function: its body, in place.
  std::optional<CallResult> callLambda(const clang::CallExpr *expr,
                                       const clang::Expr *object,
                                       const clang::CXXMethodDecl *callOperator,
                                       llvm::ArrayRef<const clang::Expr *> args,
                                       std::optional<Address> dest);

  //===--- std::vector (StdVector.cpp) ------------------------------------===//
  /// Whether `type` is a std::vector of the memref model (not one kept in
  /// memory, see VectorObjects.cpp).
  static bool isVector(clang::QualType type) {
    return ModuleLowering::isMemrefVector(type);
  }
  /// A new vector built by `init` (null: empty), its memory freed when the
  /// enclosing scope ends; nullopt after an error.
  std::optional<Address> createVector(const clang::Expr *init,
                                      clang::QualType type,
                                      clang::SourceRange range);
  /// createVector's cases: a copy of the vector at `source`; one of the
  /// constructors (of `element`s): from a list, from a pointer range, with
  /// a size (and a value).
  std::optional<Address> copyVector(Address source, clang::QualType sourceType,
                                    clang::QualType type,
                                    clang::SourceRange range);
  std::optional<Address>
  constructVector(const clang::CXXConstructExpr *construct,
                  clang::QualType type, clang::SourceRange range,
                  const Layout &element);
  std::optional<Address>
  vectorFromList(const clang::CXXStdInitializerListExpr *list,
                 clang::QualType type, clang::SourceRange range,
                 const Layout &element);
  std::optional<Address> vectorFromRange(
      const clang::Expr *where, llvm::ArrayRef<const clang::Expr *> args,
      clang::QualType type, clang::SourceRange range, const Layout &element);
  std::optional<Address> sizedVector(const clang::CXXConstructExpr *construct,
                                     llvm::ArrayRef<const clang::Expr *> args,
                                     clang::QualType type,
                                     clang::SourceRange range,
                                     const Layout &element);
  /// A call of a member function or operator of std::vector, on the vector
  /// `object` designates.
  std::optional<CallResult>
  lowerVectorCall(const clang::CallExpr *expr,
                  const clang::CXXMethodDecl *method, const clang::Expr *object,
                  bool arrow, llvm::ArrayRef<const clang::Expr *> args);
  /// Its number of elements, as an index.
  Value vectorSize(Address vector, clang::QualType type, Location l);
  /// The index `arg` of `v[arg]` or `v.at(arg)` (`expr`), as an index; for
  /// `at` (`checkAgainst` set: the size), out of range ends the program
  /// with the library's message, as there are no exceptions. Null after an
  /// error.
  Value lowerElementIndex(const clang::CallExpr *expr, const clang::Expr *arg,
                          Value checkAgainst);
  /// Fresh memory for `count` elements of the vector type `type`, freed at
  /// the end of the enclosing scope.
  std::optional<Address> allocateVector(clang::QualType type, Value count,
                                        clang::SourceRange range);
  /// `vector.resize(n)` and the other calls that give a local vector new
  /// memory: allowed where the new memory replaces the old for every later
  /// use, i.e. as a statement of the block that declares the vector.
  std::optional<CallResult>
  resizeVector(const clang::CallExpr *expr, const clang::Expr *object,
               const clang::CXXMethodDecl *method,
               llvm::ArrayRef<const clang::Expr *> args);
  /// resizeVector's parts: `v = w` where v keeps its memory (the sizes
  /// must agree); the new memory of `reserve(n)` (its size kept in
  /// `sizeSlot`) and of `resize`/`assign` (`name`); the new memory put in
  /// place of the old (`memory`) for the variable `var` or the vector
  /// field `field`.
  std::optional<CallResult> assignVectorInPlace(const clang::CallExpr *expr,
                                                const clang::Expr *object,
                                                const clang::Expr *source);
  /// (`element`: the layout of the vector's elements.)
  std::optional<Address> reserveVector(const clang::CallExpr *expr,
                                       clang::QualType type,
                                       const Layout &element,
                                       const clang::Expr *n, Address old,
                                       Address knownSize, Address &sizeSlot);
  std::optional<Address>
  refillVector(const clang::CallExpr *expr, clang::QualType type,
               const Layout &element, llvm::StringRef name,
               llvm::ArrayRef<const clang::Expr *> args, Address old);
  void replaceVectorMemory(const clang::ValueDecl *var,
                           std::optional<std::pair<Value, int64_t>> field,
                           Address memory, Address fresh, llvm::StringRef name,
                           Address sizeSlot, int64_t elementSize, Location l);
  /// The memory of the vectors in scope, in order of creation: freed when
  /// their scope ends (by its end, `break`, `continue` or `return`).
  llvm::SmallVector<Value> cleanups;
  /// Frees the vectors created since `depth`, but `kept` (a vector being
  /// returned), and destroys the objects of classes that own memory.
  void emitCleanups(size_t depth, Location l, Value kept = nullptr);
  /// A declaration in a block: its variables and their temporaries live to
  /// the block's end, but std::shared_ptr temporaries to the declaration's.
  void lowerDeclaration(const clang::DeclStmt *decl);
  /// Objects in `cleanups` that are destroyed by a destructor of the
  /// user's (ModuleLowering::ownsMemory): its declaration, and the
  /// expression that made the object (where the destructor is reported).
  llvm::DenseMap<
      Value, std::pair<const clang::CXXDestructorDecl *, const clang::Expr *>>
      destructors;
  /// Destroys the object of `type` at `object`, made by `at`, where the
  /// scope being lowered ends, if its class owns memory.
  void destroyAtScopeEnd(clang::QualType type, Address object,
                         const clang::Expr *at);
  /// The cleanups a `return` runs: all of the function's, or those of the
  /// lambda body being inlined.
  size_t returnCleanupDepth = 0;
  /// Marks the local vectors `expr` names as pinned.
  void pinVectors(const clang::Stmt *expr);
  /// The block (and statement in it) being lowered, and the block each
  /// local vector is declared in, for resizeVector.
  const clang::CompoundStmt *currentBlock = nullptr;
  const clang::Stmt *currentStatement = nullptr;
  llvm::DenseMap<const clang::ValueDecl *, const clang::CompoundStmt *>
      vectorBlocks;
  /// Vectors a reference or pointer may still designate: never resized.
  llvm::DenseSet<const clang::ValueDecl *> pinnedVectors;
  /// Local vectors given a capacity (`reserve`), which `push_back` fills:
  /// their memory (in `places`) is the capacity, and this slot holds their
  /// size in elements. A use sees the view of the first `size` elements.
  llvm::DenseMap<const clang::ValueDecl *, Address> vectorSizes;
  /// The elements of the growing vector `var` (see vectorSizes).
  Address currentElements(const clang::ValueDecl *var, Location l);
  /// The first `size` (at `sizeSlot`) elements of `elementSize` scalars of
  /// `memory`.
  Address firstElements(Value memory, Address sizeSlot, int64_t elementSize,
                        Location l);
  /// The constructor of `type` that `emplace_back(args...)` runs, if one
  /// takes the arguments as they are; null otherwise.
  const clang::CXXConstructorDecl *
  constructorFor(clang::QualType type,
                 llvm::ArrayRef<const clang::Expr *> args);
  /// `a.swap(b)` (and `std::swap(a, b)`): the elements exchanged, the
  /// sizes checked to agree when running.
  std::optional<CallResult> swapVectors(const clang::CallExpr *expr,
                                        const clang::Expr *object, bool arrow,
                                        const clang::Expr *other,
                                        const Layout &element);
  /// `push_back`, `emplace_back`, `pop_back` on a vector with a capacity.
  std::optional<CallResult>
  growVector(const clang::CallExpr *expr, const clang::Expr *object,
             llvm::StringRef name, llvm::ArrayRef<const clang::Expr *> args);
  /// The error for growth of a vector growVector cannot follow (`named`:
  /// the call's object names the vector or a field holding it).
  std::optional<CallResult> unfollowedGrowth(const clang::CallExpr *expr,
                                             llvm::StringRef name, bool named);

  //===--- Vectors that grow at run time (GrowingVectors.cpp) -------------===//
  /// A local vector whose memory changes at run time anywhere in the
  /// function (docs/Memory.md): the address of its memory in a slot, and
  /// its size and capacity in elements.
  struct GrowingVector {
    Value addressSlot;
    Address size, capacity;
    /// The elements' layout (its size: scalars per element).
    Layout element;
    mlir::MemRefType viewType;
  };
  llvm::DenseMap<const clang::ValueDecl *, GrowingVector> growingVectors;
  /// The growing vector `expr` names, if it names one.
  const clang::ValueDecl *growingVectorNamed(const clang::Expr *expr);
  /// Whether a call of `callee` gives a reference parameter that it
  /// resizes a growing vector (the callee is then lowered in place).
  bool passesGrowingVectors(const clang::FunctionDecl *callee,
                            llvm::ArrayRef<const clang::Expr *> args);
  /// Binds the inlined reference parameter `param` to the growing vector
  /// `arg` names, if it is one the callee resizes; false otherwise.
  bool bindGrowingReference(const clang::ParmVarDecl *param,
                            const clang::Expr *arg);
  /// The address slots of the growing vectors in `cleanups`.
  llvm::DenseMap<Value, mlir::MemRefType> growingSlots;
  /// The local vectors of `body` (and vector parameters by value of its
  /// function `owner`) that grow at run time where the memref model cannot
  /// follow them (see GrowingVectors.cpp).
  const llvm::DenseSet<const clang::VarDecl *> &
  getGrowingVectors(const clang::FunctionDecl *owner, const clang::Stmt *body);
  llvm::DenseMap<const clang::Stmt *, llvm::DenseSet<const clang::VarDecl *>>
      growingVectorSets;
  /// Declares `var`, made from `init`, as a growing vector if it is one:
  /// true if so (lowered, or reported).
  bool declareGrowingVector(const clang::VarDecl *var, const clang::Expr *init);
  /// The memory the growing vector `vector` has now (all its capacity).
  Value growingMemory(const GrowingVector &vector, Location l);
  /// The view of the elements the growing vector `vector` has now.
  Address growingElements(const GrowingVector &vector, Location l);
  /// The elements of the growing vector `var` names (a vector, or a
  /// reference or pointer parameter bound to one): the view pinned for
  /// the loop being lowered, else a fresh one; nullopt for other names.
  std::optional<Address> namedGrowingElements(const clang::ValueDecl *var,
                                              Location l);
  /// Views of growing vectors that the loops being lowered read but cannot
  /// change, made before the outermost such loop.
  llvm::DenseMap<const clang::ValueDecl *, Address> pinnedGrowingViews;
  /// Adds to `pinnedGrowingViews` (and `pinned`) the growing vectors that
  /// `loop` reads and cannot change.
  void pinGrowingViews(const clang::Stmt *loop,
                       llvm::SmallVectorImpl<const clang::ValueDecl *> &pinned);
  /// The growing vector `object` names, if it names one.
  GrowingVector *growingVectorOf(const clang::Expr *object);
  /// Member functions of a growing vector that change its size or memory.
  std::optional<CallResult> lowerGrowingVectorCall(
      const clang::CallExpr *expr, const clang::CXXMethodDecl *method,
      GrowingVector &vector, llvm::ArrayRef<const clang::Expr *> args);
  /// Gives `vector` memory for at least `count` elements, moving its
  /// elements there (twice the capacity when it must grow).
  void reserveGrowing(GrowingVector &vector, Value count, Location l);
  /// Sets the size of `vector` to `count`, new elements copied from `value`
  /// (zero if null).
  void resizeGrowing(GrowingVector &vector, Value count,
                     std::optional<Address> value, Location l);
  /// The same without a value, for elements whose value-initialization
  /// runs a constructor (constructsElements); false after an error.
  bool resizeGrowingConstructing(const clang::Expr *where,
                                 GrowingVector &vector, Value count,
                                 clang::QualType elementType);
  std::optional<CallResult>
  pushGrowing(const clang::CallExpr *expr, GrowingVector &vector,
              llvm::StringRef name, llvm::ArrayRef<const clang::Expr *> args,
              clang::QualType elementType);
  /// `a.swap(b)` of two growing vectors: their memories and sizes.
  std::optional<CallResult> swapGrowing(const clang::CallExpr *expr,
                                        GrowingVector &vector,
                                        const clang::Expr *with);
  /// `v = w`: w's elements copied into v's memory (grown if needed).
  std::optional<CallResult> assignGrowing(const clang::CallExpr *expr,
                                          GrowingVector &vector,
                                          const clang::Expr *source);
  std::optional<CallResult> insertIntoGrowing(
      const clang::CallExpr *expr, GrowingVector &vector, llvm::StringRef name,
      llvm::ArrayRef<const clang::Expr *> args, clang::QualType elementType);
  /// `insert(pos, first, last)` and `insert(pos, {a, b, ...})` (also
  /// `assign(first, last)`, at 0 after a clear): the elements of `range`,
  /// of other memory (an array, another vector: first and last) or of a
  /// list, inserted at element `at`.
  std::optional<CallResult>
  insertRangeIntoGrowing(const clang::CallExpr *expr, GrowingVector &vector,
                         Value at, llvm::ArrayRef<const clang::Expr *> range);
  std::optional<CallResult>
  eraseFromGrowing(const clang::CallExpr *expr, GrowingVector &vector,
                   llvm::ArrayRef<const clang::Expr *> args);
  /// Moves elements [from, size) of `vector` by `delta` elements (toward
  /// the end if positive), last first or first first as needed.
  void shiftElements(GrowingVector &vector, Value from, Value size, Value delta,
                     bool towardEnd, Location l);
  /// The element index an iterator or pointer into `vector` designates.
  Value elementIndexOf(const clang::Expr *position, GrowingVector &vector);
  /// A value of `elementType` (`scalars` scalars) to put in the vector,
  /// evaluated and kept apart from its memory (which may move).
  std::optional<Address> elementValue(const clang::Expr *arg,
                                      clang::QualType elementType,
                                      int64_t scalars);

  //===--- Pointers and iterators as offsets (Iterators.cpp) --------------===//
  clang::QualType getIteratorElement(clang::QualType type) {
    return module.getIteratorElementType(type);
  }
  bool isIterator(clang::QualType type) {
    return !getIteratorElement(type).isNull();
  }
  /// The pointer a standard iterator expression holds.
  std::optional<Address> lowerIterator(const clang::Expr *expr);
  /// The elements a pair of pointers or iterators designates: where the
  /// first is and how many there are; a reversed range (of
  /// std::reverse_iterators over contiguous memory) steps back from
  /// `first`, the place its first iterator's base holds (IteratorRanges.cpp).
  struct IteratorRange {
    Address first;
    Value count;
    bool reversed = false;
  };
  std::optional<IteratorRange> lowerIteratorRange(const clang::Expr *first,
                                                  const clang::Expr *last,
                                                  int64_t scalars);
  /// How many elements of `scalars` scalars lie from `begin` to `end`
  /// (from `end` to `begin` when `reversed`); null after an error.
  Value countBetween(Address begin, Address end, bool reversed, int64_t scalars,
                     const clang::Expr *where);
  /// The place of element `i` of `range`, whose elements are `scalars`
  /// scalars each.
  Address rangeElement(const IteratorRange &range, Value i, int64_t scalars,
                       Location l);
  /// Copies the elements of `range` to consecutive memory at `dest`.
  void copyRange(Address dest, const IteratorRange &range,
                 const Layout &element, Location l);
  /// Whether `type` is a std::reverse_iterator over contiguous memory (of
  /// pointers or of a vector's iterators).
  bool isReversedContiguous(clang::QualType type);
  /// The place the base iterator of the std::reverse_iterator `it` holds.
  std::optional<Address> reverseIteratorBase(const clang::Expr *it);
  /// The std::reverse_iterator `call` (a vector's `rbegin`, `rend`) returns,
  /// holding the iterator at `position`.
  std::optional<CallResult> reverseIteratorAt(const clang::CallExpr *call,
                                              Address position);
  /// Moves the pointer or iterator variable `variable` by `delta` scalars;
  /// its old or new value.
  std::optional<Address> stepPointerVariable(const clang::Expr *variable,
                                             Value delta, bool backwards,
                                             bool returnOld);
  /// `lhs kind rhs` on two pointers or iterators into the same memory: a
  /// comparison (i1) or, for BO_Sub, their distance in elements (of
  /// `where`'s type).
  /// Whether `pointer` is null (an i1); null after an error.
  Value lowerNullTest(const clang::Expr *pointer);
  /// Whether the pointer into `memory` is null (an i1), where that can be
  /// told; null otherwise.
  Value nullTestOf(Value memory, Location l);
  Value lowerPointerRelation(clang::BinaryOperatorKind kind,
                             const clang::Expr *lhs, const clang::Expr *rhs,
                             const clang::Expr *where);
  /// `a <=> b` of two iterators over contiguous memory (C++20's
  /// std::reverse_iterator orders its bases so): the std::strong_ordering
  /// of the two places, in a temporary.
  std::optional<CallResult> orderPlaces(const clang::Expr *expr,
                                        const clang::Expr *lhs,
                                        const clang::Expr *rhs);
  /// C++20's `it < end` on iterators that define `<=>` (rewritten as
  /// `(it <=> end) < 0`): the relation of the two places; null for any
  /// other expression.
  Value lowerRewrittenIteratorRelation(const clang::Expr *expr);
  /// An overloaded operator applied to a standard iterator; `args` has the
  /// iterator first for member operators.
  std::optional<CallResult>
  lowerIteratorOperator(const clang::CallExpr *expr,
                        clang::OverloadedOperatorKind op,
                        llvm::ArrayRef<const clang::Expr *> args);
  /// lowerIteratorOperator's parts: `it + k`, `k + it`, `it - k` and
  /// `it - it`; `it = other` on an iterator variable; `k` elements as
  /// scalars of `iterator`'s elements.
  std::optional<CallResult>
  lowerIteratorOffset(const clang::CallExpr *expr,
                      clang::OverloadedOperatorKind op,
                      llvm::ArrayRef<const clang::Expr *> args);
  std::optional<CallResult>
  assignIteratorVariable(const clang::CallExpr *expr,
                         llvm::ArrayRef<const clang::Expr *> args);
  Value scaledIteratorIndex(const clang::Expr *iterator, const clang::Expr *k,
                            Location l);

  /// Where `left` and `right` are, comparably: their offsets when they
  /// share a memref, their positions in memory (in scalars) otherwise.
  std::optional<std::pair<Value, Value>>
  comparablePositions(Address left, Address right, const clang::Expr *where);
  /// Where `memref`'s memory starts, as an address in bytes, and the offset
  /// of its view's first element from there, in elements.
  std::pair<Value, Value> memoryStart(Value memref, Location l);

  //===--- <algorithm> and <numeric> (StdAlgorithms.cpp) ------------------===//
  /// Whether `expr` calls an algorithm lowered from its specification.
  bool isModelledAlgorithm(const clang::CallExpr *expr);
  std::optional<CallResult> lowerAlgorithm(const clang::CallExpr *expr);
  /// The element type a pointer or iterator expression steps through.
  clang::QualType elementTypeOf(const clang::Expr *pointer);
  clang::QualType commonType(clang::QualType a, clang::QualType c);
  /// `body(i)` for i in [0, count), as a loop the clean-up makes an scf.for
  /// (its body may create blocks, unlike an scf.for's).
  void emitCountedLoop(Location l, Value count,
                       llvm::function_ref<void(Value)> body);
  /// What an algorithm calls: a lambda's closure or a named function.
  struct Callable {
    std::optional<Closure> closure;
    const clang::FunctionDecl *function = nullptr;
    /// A function object's address, for its `operator()` (`function`).
    std::optional<Address> object;
    /// A function object's call operator template (`std::greater<>`'s):
    /// `function` is then the instance that takes the operands.
    const clang::FunctionTemplateDecl *generic = nullptr;
  };
  std::optional<Callable> callableOf(const clang::Expr *arg);
  /// The function a Callable calls (a lambda's call operator, a function,
  /// an object's operator()) and its result type, references stripped. For
  /// a generic lambda or a call operator template, the instance taking
  /// `operandTypes` (the first one made when none is given or matches).
  static const clang::FunctionDecl *
  calleeOf(const Callable &callable,
           llvm::ArrayRef<clang::QualType> operandTypes = {});
  static clang::QualType resultTypeOf(const Callable &callable);
  /// An argument of a Callable: an element in memory, or a value, of
  /// C++ type `type`.
  struct Operand {
    std::optional<Address> place;
    Value value;
    clang::QualType type;
  };
  /// Calls `callable` on `operands`; its scalar result (null for void or
  /// after an error).
  Value invoke(const Callable &callable, llvm::ArrayRef<Operand> operands,
               const clang::CallExpr *where);

  //===--- Pointer, reference and vector fields (IndirectFields.cpp) ------===//
  /// The first slot of the field `expr` names, in its object.
  std::optional<Address> fieldSlot(const clang::MemberExpr *expr);
  /// The memory an indirect field designates: for a pointer field its
  /// value, for a reference or std::vector field the object's address.
  std::optional<Address> lowerIndirectField(const clang::MemberExpr *expr);
  /// Makes the indirect field `decl` (null: a pointer element of an array
  /// or vector) whose slot is at `field` designate `target` (its first
  /// assignment binds it to target's memory); false after an error at
  /// `where`.
  bool bindIndirectField(Address field, Address target,
                         const clang::Stmt *where,
                         const clang::FieldDecl *decl);
  /// What the indirect field `decl` whose slot is at `slot` designates;
  /// nullopt after an error at `where`.
  std::optional<Address> followIndirectSlot(Address slot,
                                            const clang::FieldDecl *decl,
                                            const clang::Stmt *where);
  /// The same for a slot of an object chosen by a conditional among
  /// objects whose fields are known: the choice of each one's; nullopt
  /// where the choice cannot be followed (nothing reported).
  std::optional<Address> followChosenSlot(Address slot,
                                          const clang::FieldDecl *decl,
                                          const clang::Stmt *where);
  std::optional<Address>
  followChosenSlot(Value memref, Value offset,
                   llvm::ArrayRef<std::pair<Value, bool>> choices,
                   const clang::FieldDecl *decl, const clang::Stmt *where);
  /// The pointer stored at `slot` (an element of an array or vector of
  /// pointers).
  std::optional<Address> loadStoredPointer(const clang::Expr *element);
  /// The pointer of type `pointer` kept in `slot` (an element of an array
  /// or vector of pointers): the address there, for memory that keeps
  /// addresses, else what the memref model bound to the slot.
  std::optional<Address> followStoredPointer(Address slot,
                                             clang::QualType pointer,
                                             const clang::Stmt *where);
  /// The address of type `pointer` held in memory at `slot`, as the place
  /// it points to (ct.load_address: docs/Memory.md); nullopt after an
  /// error at `where`.
  std::optional<Address> loadAddress(Address slot, clang::QualType pointer,
                                     const clang::Stmt *where);
  /// A copy of the elements of `vector`, a std::vector of `type`, in memory
  /// of its own (not freed here); nullopt after an error.
  std::optional<Address> copyOfVector(Address vector, clang::QualType type,
                                      const clang::Stmt *where);
  /// Copies the object of `layout` at `source` to `dest`: its data slots,
  /// and what its indirect fields designate.
  bool copyObject(Address dest, Address source, const Layout &layout,
                  const clang::Stmt *where);
  /// Binds the indirect fields of the object of `type` at `object` to the
  /// function's extra arguments `args`, consuming them.
  void bindIndirectArguments(Address object, clang::QualType type,
                             llvm::ArrayRef<mlir::BlockArgument> &args);
  /// Whether calls of `callee` are inlined because an object it takes or
  /// returns has indirect fields (known to the caller only).
  bool takesIndirectFields(const clang::FunctionDecl *callee);
  /// Whether a call of `callee` passes memory beside its arguments: that
  /// of the indirect fields that do not keep addresses
  /// (ModuleLowering::getArgumentFields), or an object holding pointers as
  /// its result.
  bool takesArgumentFields(const clang::FunctionDecl *callee);
  /// Whether a call of `callee`, which takes objects holding pointers, is
  /// recursion that can be a call: every pointer field it reaches keeps
  /// its address in memory, and it returns no place.
  bool callsItselfByAddress(const clang::FunctionDecl *callee,
                            std::optional<Address> object,
                            bool passesCallersPlaces);
  /// Whether the object a parameter of `type` gives access to has
  /// indirect fields.
  bool holdsIndirectFields(clang::QualType type);
  /// Whether a call of `callee`, which takes objects whose pointer,
  /// reference and vector fields designate memory known beside them (a
  /// span), is recursion that can be a call: each such object is passed by
  /// value or as a constant (the callee cannot re-seat the caller's
  /// fields), with the memory its fields designate as arguments of their
  /// own, as a function lowered on its own takes them; it returns no place.
  bool callsItselfWithFieldMemory(const clang::FunctionDecl *callee,
                                  std::optional<Address> object,
                                  bool passesCallersPlaces);
  /// Appends to `operands` of the call `expr` of `target` (the lowered
  /// `callee`) the memory the fields of the objects at `places` (one per
  /// parameter) designate (ModuleLowering::getArgumentFields); false after
  /// an error.
  bool appendFieldOperands(const clang::Expr *expr,
                           const clang::FunctionDecl *callee,
                           llvm::ArrayRef<std::optional<Address>> places,
                           mlir::func::FuncOp target,
                           llvm::SmallVectorImpl<mlir::Value> &operands);

  //===--- SIMD vectors (SimdVectors.cpp) --------------------------------===//
  /// Lowers the SIMD-vector-valued `expr` into the lanes at `dest`.
  bool lowerVectorInto(const clang::Expr *expr, Address dest);
  /// A conversion to a SIMD vector (a splat, a reinterpretation) into the
  /// lanes at `dest`.
  bool lowerVectorCastInto(const clang::CastExpr *cast, Address dest);
  /// The lanes of a SIMD vector expression (a place's, or a temporary's).
  std::optional<llvm::SmallVector<Value>> vectorLanes(const clang::Expr *expr);
  /// The lanes of an operation on SIMD vectors: arithmetic, comparisons,
  /// shuffles, conversions.
  std::optional<llvm::SmallVector<Value>>
  vectorOperation(const clang::Expr *expr);
  /// Clang's `__builtin_elementwise_*` on SIMD vectors, lane by lane.
  std::optional<llvm::SmallVector<Value>>
  elementwiseBuiltin(const clang::CallExpr *call);
  /// `lanes` read as lanes of `laneType` (split or joined by width).
  llvm::SmallVector<Value> reinterpretLanes(llvm::ArrayRef<Value> lanes,
                                            mlir::Type laneType, Location l);
  /// Assembly computing a SIMD packet's minimum or maximum (Eigen's `pmin`
  /// for Clang): the builtin it is, lane by lane; false for other assembly.
  bool lowerPacketAssembly(const clang::GCCAsmStmt *statement);
  //===--- x86's integer builtins (X86IntegerBuiltins.cpp)
  //-----------------===//
  /// x86's builtins that make no SIMD vector: an integer of vectors
  /// (movemasks, `ptest`), a lane (lowerLaneExtract), AVX-512's masks and
  /// masked stores (lowerX86MaskBuiltin): true if `call` is one (`result`
  /// then null after an error).
  bool lowerX86ScalarBuiltin(const clang::CallExpr *call,
                             std::optional<CallResult> &result);
  /// x86's extraction of one lane by a constant (`vec_ext_v4si`): the lane.
  bool lowerLaneExtract(const clang::CallExpr *call,
                        std::optional<CallResult> &result);
  /// The lanes of x86's shifts of integer lanes and conversions between
  /// integer and floating-point lanes (`name` past `__builtin_ia32_`);
  /// `handled` false for another builtin (nullopt after an error).
  std::optional<llvm::SmallVector<Value>>
  x86IntegerBuiltin(const clang::CallExpr *call, llvm::StringRef name,
                    bool &handled);
  //===--- AVX-512's masks (X86MaskedBuiltins.cpp) -----------------------===//
  /// AVX-512's builtins with a mask that make a SIMD vector: `select`, the
  /// `_mask` forms of x86BuiltinLanes' builtins (the operation, then each
  /// lane from the passthrough operand where the mask's bit is clear),
  /// masked loads and gathers, `undef`; `handled` false for another
  /// builtin (nullopt after an error).
  std::optional<llvm::SmallVector<Value>>
  x86MaskedBuiltin(const clang::CallExpr *call, llvm::StringRef name,
                   bool &handled);
  /// AVX-512's builtins with masks that make no vector: comparisons into a
  /// mask, operations on masks (`kortest`, `kand`...), masked stores and
  /// scatters: true if `call` is one (`result` null after an error).
  bool lowerX86MaskBuiltin(const clang::CallExpr *call,
                           std::optional<CallResult> &result);
  /// The first `lanes` bits of `mask` as i1 values (constants where the
  /// mask is known at compile time).
  llvm::SmallVector<Value> maskBits(const clang::Expr *mask, unsigned lanes);
  /// The value at `address` where `on`, else `otherwise`: memory is read
  /// only where the lane is on.
  Value loadWhere(Value on, Address address, Value otherwise, Location l);
  /// Stores `value` at `address` where `on`.
  void storeWhere(Value on, Value value, Address address, Location l);
  /// The place of a gather's or scatter's lane: `base` offset by the
  /// lane's index `lane` times `scale` bytes (whole lanes only).
  std::optional<Address> maskedLaneAddress(Address base,
                                           const clang::Expr *index, Value lane,
                                           uint64_t scale, unsigned laneBytes);
  std::optional<llvm::SmallVector<Value>>
  maskedMemoryLanes(const clang::CallExpr *call, llvm::StringRef name);
  std::optional<llvm::SmallVector<Value>>
  maskedOperationLanes(const clang::CallExpr *call, llvm::StringRef name);
  Value comparisonMask(const clang::CallExpr *call, llvm::StringRef name);
  Value maskOperation(const clang::CallExpr *call, llvm::StringRef name);
  bool maskedStore(const clang::CallExpr *call, llvm::StringRef name);
  /// `v = w`, `v op= w` on SIMD vectors: the place.
  std::optional<Address>
  lowerVectorAssignment(const clang::BinaryOperator *expr);
  /// `a[i]`: the element's place (a lane's, of a SIMD vector).
  std::optional<Address>
  lowerSubscriptPlace(const clang::ArraySubscriptExpr *expr);
  /// `v[i]` of a SIMD vector: the lane's place.
  std::optional<Address> lowerVectorLane(const clang::ArraySubscriptExpr *expr);

  //===--- Complex numbers (ComplexNumbers.cpp) ---------------------------===//
  /// Lowers the complex-valued `expr` into the two scalars at `dest`.
  bool lowerComplexInto(const clang::Expr *expr, Address dest);
  bool lowerComplexConversion(const clang::CastExpr *conversion, Address dest);
  bool lowerComplexChoice(const clang::ConditionalOperator *choice,
                          Address dest);
  /// The real and imaginary parts of `expr` (a real expression: itself and
  /// 0).
  std::optional<std::pair<Value, Value>> complexParts(const clang::Expr *expr);
  /// `z = w`, `z op= w` on a complex place: the place.
  std::optional<Address>
  lowerComplexAssignment(const clang::BinaryOperator *expr);
  /// `__real__ z`, `__imag__ z` as places, and as values.
  std::optional<Address> lowerComplexPart(const clang::UnaryOperator *expr);
  Value lowerComplexPartValue(const clang::Expr *complex, bool imaginary);
  /// The C library's complex functions (__builtin_cexp, __builtin_cabs,
  /// ...), which std::complex's functions call.
  static bool isComplexBuiltin(const clang::FunctionDecl *callee);
  std::optional<CallResult>
  lowerComplexBuiltin(const clang::CallExpr *expr,
                      const clang::FunctionDecl *callee,
                      std::optional<Address> dest);

  //===--- std::vector kept in memory (VectorObjects.cpp) -----------------===//
  /// A std::vector whose object lives in memory as C++ lays it out
  /// (ModuleLowering::isVectorObject): three address slots in `holder`.
  struct VectorObject {
    Address holder;
    clang::QualType element;
    /// The elements' layout; none for elements differentiable code cannot
    /// lay out (std::string), whose vector only tells its size.
    std::optional<Layout> layout;
    /// What the first element's address is loaded as.
    mlir::MemRefType view;
    int64_t elementSlots = 1, elementBytes = 1;
    /// The slots of the first, end and end-of-capacity addresses.
    int64_t first = 0, end = 1, capacity = 2;
    std::array<int64_t, 3> addressSlots() const {
      return {first, end, capacity};
    }
    /// Whether its elements are vectors (kept in memory too: rows).
    bool holdsRows() const {
      return !ModuleLowering::getVectorElementType(element.getCanonicalType())
                  .isNull();
    }
  };
  std::optional<VectorObject> vectorObjectAt(Address holder,
                                             clang::QualType type,
                                             const clang::Stmt *where);
  /// Whether `vector`'s elements have a layout; false after reporting at
  /// `where` that they cannot be `use`d (std::string: only the size is
  /// read).
  bool hasElementLayout(const VectorObject &vector, const clang::Stmt *where,
                        llvm::StringRef use);
  /// The address of the first element, as a view of the elements.
  Value vectorObjectElements(const VectorObject &vector, Location l);
  /// How many elements lie between the first and the address at `slot`.
  Value vectorObjectCount(const VectorObject &vector, int64_t slot, Location l);
  Address vectorObjectElement(const VectorObject &vector, Value elements,
                              Value i, Location l);
  /// Stores `elements + count` (in elements) at `slot`.
  void setVectorObjectSlot(const VectorObject &vector, int64_t slot,
                           Value elements, Value count, Location l);
  /// Gives the vector room for `count` elements: new memory of twice the
  /// capacity (at least `count`), its elements moved there, the old freed.
  void reserveVectorObject(const VectorObject &vector, Value count,
                           const clang::Stmt *where);
  /// Destroys the elements past `count`, or constructs the missing ones
  /// (copies of `value`, default-constructed without one).
  bool resizeVectorObject(const VectorObject &vector, Value count,
                          std::optional<Address> value,
                          const clang::Stmt *where);
  /// Runs a constructor of `vector`'s element type on the element at `at`:
  /// the copy (or, with `move`, move) constructor from `source`, or the
  /// default one.
  bool constructElement(const VectorObject &vector, Address at,
                        std::optional<Address> source, bool move,
                        const clang::Stmt *where);
  /// Moves the element at `from` into the unmade element at `to`, leaving
  /// `from` unmade: its bytes and addresses, or its move constructor and
  /// destructor (ModuleLowering::movesByConstructor).
  bool relocateElement(const VectorObject &vector, Address to, Address from,
                       const clang::Stmt *where);
  /// The same for a std::unique_ptr of `type` at `at`: null, or what
  /// `source` owns (moved: `source` left null; copies of one are
  /// ill-formed C++).
  bool constructOwner(clang::QualType type, Address at,
                      std::optional<Address> source, bool move,
                      const clang::Stmt *where);
  /// Runs the destructors of the objects of `type` at `object`: a class
  /// that owns memory, a vector kept in memory (its elements, then its
  /// memory), or a class holding such objects (its parts, last first).
  void destroyObject(clang::QualType type, Address object,
                     const clang::Stmt *where);
  /// Destroys the parts of an object of `record` (a class without a
  /// destructor of its own) at `object`: its fields, last first, then its
  /// bases.
  void destroyParts(const clang::CXXRecordDecl *record, Address object,
                    const clang::Stmt *where);
  /// The records whose parts are being destroyed here, outermost first: a
  /// node owning nodes of its own class (through std::unique_ptr) destroys
  /// them by a call of its destructor, lowered on its own, which does the
  /// same (recursion over a tree).
  llvm::SmallVector<const clang::CXXRecordDecl *> destroyedRecords;
  /// Destroys an object of `record` at `object` by a call of its
  /// destructor's function (ModuleLowering::markDestroyedByCall).
  void callDestructor(const clang::CXXRecordDecl *record, Address object,
                      const clang::Stmt *where);
  /// Destroys the `count` objects of type `element` from `first`, last
  /// first.
  void destroyElements(clang::QualType element, Address first, Value count,
                       const clang::Stmt *where);
  /// Destroys the vector kept in memory at `holder`: its elements, then
  /// its memory.
  void destroyVectorObject(clang::QualType type, Address holder,
                           const clang::Stmt *where);
  bool constructVectorObject(const clang::CXXConstructExpr *expr, Address dest);
  /// Moves the three addresses of `source` into `vector`, leaving
  /// `source` empty.
  void moveVectorAddresses(const VectorObject &vector,
                           const VectorObject &source, Location l);
  /// Stores null in the three address slots of `vector`.
  void clearVectorObject(const VectorObject &vector, Location l);
  /// The element `push_back`, `emplace_back`, `insert` or `emplace` adds,
  /// made aside from `args` (a copy, a move, or a constructor's arguments).
  std::optional<Address>
  makeElementAside(const clang::CallExpr *expr, const VectorObject &vector,
                   llvm::ArrayRef<const clang::Expr *> args, bool emplace);
  /// Moves `made` into `vector` at position `at`, after the elements from
  /// `at` on move up by one; where it now is.
  std::optional<Address> placeElement(const clang::Expr *expr,
                                      const VectorObject &vector, Address made,
                                      Value at);
  /// The position (in elements) of the iterator `iterator` into `vector`.
  Value vectorObjectPosition(const VectorObject &vector,
                             const clang::Expr *iterator);
  /// `insert` of a count of copies, of a range or of a list (`source`: n
  /// and the value, first and last, or the list) at element `at`; also
  /// `assign(first, last)`, at 0 after a clear, and the constructor from a
  /// range, at 0. `type` is the vector's.
  std::optional<CallResult> insertManyIntoVectorObject(
      const clang::Expr *expr, const VectorObject &vector, clang::QualType type,
      Value at, llvm::ArrayRef<const clang::Expr *> source);
  std::optional<CallResult>
  eraseFromVectorObject(const clang::CallExpr *expr, const VectorObject &vector,
                        llvm::ArrayRef<const clang::Expr *> args);
  /// Makes `vector` hold copies of the elements of `from` (another
  /// vector).
  bool copyVectorObject(const clang::Stmt *where, const VectorObject &vector,
                        const VectorObject &from);
  /// Whether the vectors kept in memory at `a` and `c` are two objects.
  Value areDistinctVectorObjects(Address a, Address c, Location l);
  std::optional<CallResult> assignVectorObject(const clang::CallExpr *expr,
                                               const VectorObject &vector,
                                               const clang::Expr *source);
  std::optional<CallResult> moveAssignVectorObject(const clang::CallExpr *expr,
                                                   const VectorObject &vector,
                                                   clang::QualType type,
                                                   const clang::Expr *source);
  /// A vector of `type` made of the list `list`, in memory of its own (the
  /// list's values may be elements of the vector it is then assigned to or
  /// inserted into): `v = {a, b}`, `assign({a, b})`, `insert(pos, {a, b})`.
  std::optional<VectorObject>
  listVectorObject(const clang::Expr *where, clang::QualType type,
                   const clang::CXXStdInitializerListExpr *list);
  /// `v = {a, b}` and `v.assign({a, b})`: the list's vector, moved in.
  std::optional<CallResult>
  assignListToVectorObject(const clang::Expr *expr, const VectorObject &vector,
                           clang::QualType type,
                           const clang::CXXStdInitializerListExpr *list);
  /// lowerVectorObjectCall's halves: the member functions that read the
  /// vector, and those that change it.
  std::optional<CallResult>
  readVectorObject(const clang::CallExpr *expr,
                   const clang::CXXMethodDecl *method,
                   const VectorObject &vector, llvm::StringRef name,
                   llvm::ArrayRef<const clang::Expr *> args);
  std::optional<CallResult> changeVectorObject(
      const clang::CallExpr *expr, const clang::CXXMethodDecl *method,
      const VectorObject &vector, clang::QualType type, llvm::StringRef name,
      llvm::ArrayRef<const clang::Expr *> args);
  /// `v.swap(with)`: the two vectors' addresses exchanged.
  std::optional<CallResult> swapVectorObjects(const clang::CallExpr *expr,
                                              const VectorObject &vector,
                                              const clang::Expr *with);
  /// `assign(n, value)` on a vector kept in memory.
  std::optional<CallResult>
  assignCopiesToVectorObject(const clang::CallExpr *expr,
                             const VectorObject &vector,
                             llvm::ArrayRef<const clang::Expr *> args);
  std::optional<CallResult>
  lowerVectorObjectCall(const clang::CallExpr *expr,
                        const clang::CXXMethodDecl *method,
                        const clang::Expr *object, bool arrow,
                        llvm::ArrayRef<const clang::Expr *> args);

  /// The `{a, b, c}` a std::initializer_list `expr` is made of, if any.
  static const clang::CXXStdInitializerListExpr *
  initializerList(const clang::Expr *expr);
  /// Constructs the elements of the empty `vector` from the list `list`
  /// (rows from lists of their own, objects by their copy constructors).
  bool fillVectorObjectFromList(const VectorObject &vector,
                                const clang::CXXStdInitializerListExpr *list,
                                const clang::Stmt *where);

  //===--- Rows of vectors of vectors (VectorRows.cpp) --------------------===//
  /// Whether `expr` designates a row of a vector of vectors (`m[i]`,
  /// `m.back()`) or a vector element of an array or std::array: a vector
  /// kept in memory.
  bool isRowExpr(const clang::Expr *expr);
  /// The three address slots of the row `expr` designates.
  std::optional<Address> lowerRowHolder(const clang::Expr *expr);
  /// Runs `body` on each vector of an array of `type` (its vector type and
  /// offset in scalars), in a loop; false if `body` failed.
  bool forEachArrayVector(
      clang::QualType type, const clang::Stmt *where,
      llvm::function_ref<bool(clang::QualType vector, Value offset)> body);
  /// Constructs the vectors of the array of `type` at `dest` empty.
  bool emptyVectorArray(Address dest, clang::QualType type,
                        const clang::Stmt *where);
  /// Constructs the vectors of the array of `type` at `dest` as copies of
  /// those at `from` (with `move`, takes their memory): an array of
  /// vectors copied element by element.
  bool copyVectorArray(Address dest, Address from, clang::QualType type,
                       bool move, const clang::Stmt *where);
  /// The place of the element of a std::array that `call` to its
  /// `accessor` (`operator[]`, `at`, `front`, `back`) designates.
  std::optional<Address>
  lowerStdArrayElement(const clang::CallExpr *call,
                       const clang::CXXMethodDecl *accessor);
  /// Fresh slots for a row of `type` (uninitialized).
  std::optional<Address> allocateRow(clang::QualType type,
                                     const clang::Stmt *where);
  /// Fresh memory for one element of `vector` (a row's slots too).
  std::optional<Address> allocateElement(const VectorObject &vector,
                                         const clang::Stmt *where);
  /// constructElement for rows: empty, or a copy (or, with `move`, the
  /// memory) of the row whose slots are `source`.
  bool constructRow(const VectorObject &vector, Address at,
                    std::optional<Address> source, bool move,
                    const clang::Stmt *where);
  /// A row made aside from a constructor's arguments (none, a vector of
  /// any kind, a size and a value).
  std::optional<Address> makeRowAside(const clang::Expr *expr,
                                      const VectorObject &vector,
                                      llvm::ArrayRef<const clang::Expr *> args);
  /// Resizes `vector` to the size `sizeAndValue` gives (none: 0), with
  /// copies of its value if it gives one (`resize(n, v)`, `vector(n, v)`,
  /// `clear()`).
  bool resizeToSizeAndValue(const VectorObject &vector,
                            llvm::ArrayRef<const clang::Expr *> sizeAndValue,
                            const clang::Expr *where);
  /// The element `value` designates, to make copies of: its place; for
  /// rows, the slots of one (made aside from a vector that is not kept in
  /// memory: `madeAside` says the caller destroys it).
  std::optional<Address> lowerElementValue(const clang::Expr *expr,
                                           const VectorObject &vector,
                                           const clang::Expr *value,
                                           bool &madeAside);

  //===--- Vector fields of structs that vectors hold (VectorFields.cpp) --===//
  /// Whether `expr` designates a std::vector kept in memory: one of a type
  /// kept so (ModuleLowering::isVectorObject), a field kept so
  /// (ModuleLowering::keepsVectorInMemory), or a reference bound to one.
  bool isVectorObjectExpr(const clang::Expr *expr);
  /// Whether `expr` is `*owner` (op: OO_Star) or `owner->` (OO_Arrow) of a
  /// smart pointer owning a std::vector (kept in memory).
  bool isOwnedVectorAccess(const clang::Expr *expr,
                           clang::OverloadedOperatorKind op);
  /// The three address slots of the vector kept in memory `expr`
  /// designates.
  std::optional<Address> lowerVectorHolder(const clang::Expr *expr);
  /// What pointer variable `var` is given by `value`: for one that
  /// keepsVectorAddress, the address of a vector kept in memory (a vector
  /// of the memref model is given as a view of it laid out so:
  /// viewAsVectorObject); otherwise lowerPointer's.
  std::optional<Address> lowerPointerValue(const clang::ValueDecl *var,
                                           const clang::Expr *value);
  /// Three address slots describing `vector`, a variable that is a vector
  /// of the memref model (its elements, their end, the same end), one per
  /// variable at the function's entry, written where asked.
  std::optional<Address> viewAsVectorObject(const clang::Expr *vector);
  llvm::DenseMap<const clang::ValueDecl *, Value> vectorObjectViews;
  /// The vector kept in memory `expr` designates (diagnosed at `where`).
  std::optional<VectorObject> vectorObjectOf(const clang::Expr *expr,
                                             const clang::Stmt *where);
  /// The elements of the vector kept in memory at `holder`, as a vector
  /// of the memref model sees them (a view of its size).
  std::optional<Address> viewVectorInMemory(Address holder,
                                            clang::QualType type,
                                            const clang::Stmt *where);
  /// The std::vector variable outside the function that `expr` names (a
  /// global, a static data member, a static local that changes), or null.
  const clang::VarDecl *outsideVectorOf(const clang::Expr *expr);
  /// The three address slots of `var`, an outside vector; nullopt after an
  /// error (OutsideVectors.cpp).
  std::optional<Address> outsideVectorHolder(const clang::VarDecl *var,
                                             clang::SourceRange use);
  /// Its elements, as a vector of the memref model sees them.
  std::optional<Address> outsideVectorElements(const clang::VarDecl *var,
                                               const clang::Expr *use);
  /// Makes `vector` hold copies of the `count` elements at `elements`.
  void fillVectorObject(const VectorObject &vector, Address elements,
                        Value count, const clang::Stmt *where);
  /// Makes `vector` hold copies of the elements of the vector `source`
  /// (of type `type`) is or makes.
  bool assignVectorInMemory(const VectorObject &vector, clang::QualType type,
                            const clang::Expr *source);
  bool constructsInPlace(const clang::CXXConstructExpr *construct);
  /// Constructs the vector kept in memory at `holder` from `init`.
  bool initializeVectorInMemory(const clang::Expr *init, clang::QualType type,
                                Address holder);
  /// Binds the reference `var` (a variable or an inlined parameter) to
  /// the vector kept in memory `init` designates, if it is one; false
  /// otherwise.
  bool bindVectorReference(const clang::ValueDecl *var,
                           const clang::Expr *init);
  /// Whether a call of `callee` gives a non-const reference parameter a
  /// vector field kept in memory (which its body may grow: it is lowered
  /// in place, with the parameter bound to the field's slots).
  bool passesVectorsInMemory(const clang::FunctionDecl *callee,
                             llvm::ArrayRef<const clang::Expr *> args);
  /// Reference variables bound to vector fields kept in memory, with the
  /// fields' address slots.
  llvm::DenseMap<const clang::ValueDecl *, Address> vectorObjectReferences;
  /// The arguments that are the caller's vectors the function resizes
  /// (keepsVectorParameterInMemory): the entry point gives their derivative
  /// vectors the seeds of the final contents, so reverse mode grows them.
  llvm::DenseSet<Value> resizedVectorArguments;

  /// `then()` where `condition` holds (blocks, so that `then` may inline
  /// bodies).
  void emitIf(Location l, Value condition, llvm::function_ref<void()> then);
  /// `then` where the memory `memref` views is not at address 0.
  void emitIfNotNull(Value memref, Location l, llvm::function_ref<void()> then);
  /// Objects in `cleanups` destroyed by destroyObject, with their type and
  /// what made them.
  llvm::DenseMap<Value, std::pair<clang::QualType, const clang::Stmt *>>
      objectCleanups;

  //===--- std::unique_ptr (UniquePointers.cpp) ---------------------------===//
  static clang::QualType getUniquePointee(clang::QualType type) {
    return ModuleLowering::getUniquePointee(type);
  }
  /// A local std::unique_ptr: true if `var` is one (lowered, or reported).
  bool lowerUniquePointerDecl(const clang::VarDecl *var);
  /// Reports (and says so) a std::unique_ptr of `pointee` made from
  /// `source`, an object of a class whose `pointee` part is a second base.
  bool ownsThroughLaterBase(const clang::Expr *source, clang::QualType pointee);
  /// The same for an object of class `made` an `owner` of `pointee` owns.
  bool ownsThroughLaterBase(const clang::Expr *where, clang::QualType made,
                            clang::QualType pointee, llvm::StringRef owner);
  /// The memory std::make_unique<pointee>(...) makes.
  std::optional<Address> lowerMakeUnique(const clang::CallExpr *call,
                                         clang::QualType pointee);
  /// What a std::unique_ptr of `type` made from `init` owns (null for a
  /// default-made one; moving from another leaves it null).
  std::optional<Address> lowerOwnedSource(const clang::Expr *init,
                                          clang::QualType type);
  /// Makes std::unique_ptr `var` (a local or a parameter taken by value)
  /// keep what `init` gives in an address slot, freed where its scope
  /// ends; false after an error.
  bool declareOwningSlot(const clang::VarDecl *var, const clang::Expr *init);
  /// What a std::unique_ptr temporary owns (`make()[i]`), freed where the
  /// enclosing scope ends.
  std::optional<Address>
  lowerOwnedTemporary(const clang::CXXBindTemporaryExpr *bound);
  /// Binds a std::unique_ptr parameter of a body lowered in place to `arg`:
  /// by reference, the caller's slot; by value, a slot of its own.
  bool bindUniquePointerParameter(const clang::ParmVarDecl *param,
                                  const clang::Expr *arg);
  /// `memory[from + i] = value` for i < count (scalars; `from` 0 when
  /// null).
  void fill(Value memory, Value count, Value value, Location l,
            Value from = nullptr);
  /// `nullptr` as memory of `scalar`s: a view of no elements (recorded in
  /// nullPointers), which is address 0 where it is kept in memory.
  Address nullAddress(mlir::Type scalar, Location l);
  /// Whether `object`, a std::unique_ptr, is an element of a std::vector
  /// or an array (`v[i]`, `v.back()`, `*it`): its slot is its place.
  bool isOwnedElement(const clang::Expr *object);
  /// The null address, as memory of the elements a std::unique_ptr of
  /// `type` owns.
  std::optional<Address> nullOwned(clang::QualType type,
                                   const clang::Expr *where);
  /// The slot of the std::unique_ptr that `object` names (a member, a
  /// variable keeping its address, a reference bound to one).
  std::optional<Address> uniquePointerSlot(const clang::Expr *object);
  /// Frees what the std::unique_ptr of `type` in `slot` owns.
  void destroyUniquePointer(clang::QualType type, Address slot,
                            const clang::Stmt *where);
  /// Destroys (when not null) and frees `owned`, what a std::unique_ptr of
  /// `type` owned.
  void freeOwned(clang::QualType type, Address owned, const clang::Stmt *where);
  /// A std::unique_ptr's deleter of the program's called on `owned`, of
  /// type `pointer` (its call operator lowered in place); false after an
  /// error.
  bool callDeleter(const clang::CXXRecordDecl *deleter, clang::QualType pointer,
                   Address owned, const clang::Stmt *where);
  /// reset, release, assignment and swap of a std::unique_ptr member.
  std::optional<CallResult>
  changeUniquePointer(const clang::CallExpr *expr, clang::QualType type,
                      const clang::Expr *object,
                      llvm::ArrayRef<const clang::Expr *> args);
  std::optional<CallResult> lowerUniquePointerCall(
      const clang::CallExpr *expr, const clang::CXXMethodDecl *method,
      const clang::Expr *object, llvm::ArrayRef<const clang::Expr *> args);

  //===--- std::shared_ptr (SharedPointers.cpp) ---------------------------===//
  /// What a std::shared_ptr's two slots hold: the object's address and its
  /// control block's.
  struct SharedParts {
    Address object;
    Address count;
  };
  std::optional<SharedParts> loadShared(Address slot, clang::QualType type,
                                        const clang::Stmt *where);
  /// loadShared to read what it holds (not to destroy it): refused, with an
  /// error at `where`, for a std::weak_ptr in the caller's memory.
  std::optional<SharedParts> readShared(Address slot, clang::QualType type,
                                        const clang::Stmt *where);
  /// Keeps `parts` in the std::shared_ptr at `slot`; false (after an
  /// error at `where`) where that is the caller's memory.
  bool keepShared(const SharedParts &parts, Address slot,
                  const clang::Stmt *where);
  std::optional<SharedParts> nullShared(clang::QualType type,
                                        const clang::Stmt *where);
  /// `count` null std::shared_ptrs of `type` from `dest` on.
  bool emptyShared(clang::QualType type, Address dest, int64_t count,
                   const clang::Stmt *where);
  /// `then` where the control block `count` is one the function made.
  void ifOwnBlock(Address count, Location l, llvm::function_ref<void()> then);
  /// Adds `delta` to the use count of `block`, a control block the
  /// function made; the new count.
  Value addToUseCount(Address block, int64_t delta, Location l);
  /// One owner more (of a std::weak_ptr if `weak`: one observer more), or
  /// fewer (the last owner destroys and frees the object; the block goes
  /// with the last of owners and observers).
  void acquireShared(const SharedParts &parts, bool weak, Location l);
  /// Whether the object of `parts` is alive (never null, with an owner:
  /// a borrowed block's is); with `own`, one owner more if it is.
  Value isAliveShared(const SharedParts &parts, bool own, Location l);
  /// std::weak_ptr's `lock()` of `parts` kept in the std::shared_ptr of
  /// `type` at `dest`: a new owner of the object if it is alive, else null
  /// (stops the program with a message when `mustBeAlive`, where a
  /// std::shared_ptr made from an expired one throws); false after an
  /// error.
  bool lockWeak(const SharedParts &parts, clang::QualType type,
                bool mustBeAlive, Address dest, const clang::Expr *where);
  void releaseParts(clang::QualType type, const SharedParts &parts,
                    const clang::Stmt *where);
  void releaseShared(clang::QualType type, Address slot,
                     const clang::Stmt *where);
  /// A control block of one owner.
  Address newControlBlock(Location l);
  /// The object std::make_shared makes, with its control block.
  std::optional<SharedParts> makeShared(const clang::CallExpr *call);
  /// What the std::shared_ptr of `type` that `from` names or makes gives a
  /// new owner: copied (one owner more), moved (null left behind) or taken
  /// from a prvalue.
  std::optional<SharedParts> takeShared(const clang::Expr *from, bool move,
                                        clang::QualType type,
                                        clang::QualType dest);
  /// Makes the std::shared_ptr of `type` at `dest` from `init`; false
  /// after an error.
  bool initializeShared(const clang::Expr *init, clang::QualType type,
                        Address dest);
  /// A std::vector's element: a copy (or move) of `source`, or null.
  bool constructShared(clang::QualType type, Address at,
                       std::optional<Address> source, bool move,
                       const clang::Stmt *where);
  /// The place of the std::shared_ptr `object` (a temporary made here).
  std::optional<Address> sharedPlace(const clang::Expr *object,
                                     clang::QualType type);
  /// A temporary holding the std::shared_ptr `prvalue` makes.
  std::optional<Address> sharedTemporary(const clang::Expr *prvalue,
                                         clang::QualType type,
                                         const clang::Expr *where);
  /// Binds `param`, a std::shared_ptr the callee takes by value, to an
  /// owner made from `arg` (in sharedArguments); false after an error.
  bool bindSharedArgument(const clang::ParmVarDecl *param,
                          const clang::Expr *arg);
  /// Lets go of sharedArguments from `first` on: their call returned.
  void releaseSharedArguments(size_t first);
  /// The std::shared_ptrs the calls being inlined take by value (with
  /// their argument), let go when each call returns.
  llvm::SmallVector<std::tuple<clang::QualType, Address, const clang::Expr *>>
      sharedArguments;
  /// `reset` and assignment: what it will own, then what it owned let go.
  std::optional<CallResult>
  replaceShared(const clang::CallExpr *expr, const clang::CXXMethodDecl *method,
                const clang::Expr *object, clang::QualType type,
                llvm::ArrayRef<const clang::Expr *> args);
  std::optional<CallResult> useCountOf(const SharedParts &parts,
                                       const clang::CallExpr *expr);
  std::optional<CallResult> lowerSharedPointerCall(
      const clang::CallExpr *expr, const clang::CXXMethodDecl *method,
      const clang::Expr *object, llvm::ArrayRef<const clang::Expr *> args);

  //===--- Heap memory (HeapMemory.cpp) -----------------------------------===//
  std::optional<Address> lowerNew(const clang::CXXNewExpr *expr);
  std::optional<Address> lowerPlacementNew(const clang::CXXNewExpr *expr);
  /// `new T[n]{e0, ..., ek-1}` at `first` (`count` objects of `layout`):
  /// the first k objects initialized from the list, the others
  /// value-initialized, as C++ does.
  bool initializeNewArray(const clang::CXXNewExpr *expr,
                          const clang::InitListExpr *list, const Layout &layout,
                          Address first, Value count);
  /// Initializes the object of `type` that `new` made at `dest` with
  /// `init` (a std::vector: kept in memory, its three addresses).
  bool initializeObject(const clang::Expr *init, clang::QualType type,
                        Address dest);
  /// Runs `ctor` (a default constructor, its parameters given their default
  /// arguments; none for a trivial one) on each of the `count` objects of
  /// `type` from `first`, each zeroed first with `zeroFirst` (`new T[n]`,
  /// `new T[n]()`); false after an error.
  bool constructEach(const clang::Expr *where,
                     const clang::CXXConstructorDecl *ctor,
                     clang::QualType type, Address first, Value count,
                     bool zeroFirst);
  /// Value-initializes `count` objects of `type` from `first`, as
  /// `std::vector<T>(n)` and `resize(n)` do: zeros, then the default
  /// constructor, unless the class provides one (then only it runs).
  bool valueInitializeEach(const clang::Expr *where, clang::QualType type,
                           Address first, Value count);
  /// Whether value-initializing a `type` runs a constructor (a class whose
  /// default constructor does work), rather than only zeroing it.
  static bool constructsElements(clang::QualType type) {
    const auto *record = type->getAsCXXRecordDecl();
    return record && !record->hasTrivialDefaultConstructor();
  }
  /// The default arguments of `callee`'s parameters after the first
  /// `given`; an error at `where` if one is not available.
  std::optional<llvm::SmallVector<const clang::Expr *>>
  defaultArguments(const clang::FunctionDecl *callee, unsigned given,
                   const clang::Stmt *where);
  /// `double a[n];`, `double a[n][m];` (variable-length arrays, Clang's
  /// extension to C++): memory of n (times m) elements made where it is
  /// declared and freed where its scope ends; each length evaluated there,
  /// once, as C does (variableLengths).
  bool declareVariableLengthArray(const clang::VarDecl *var);
  /// The scalars an array of `type`, which has variable lengths, holds
  /// (its lengths as the declaration evaluated them); null if unknown.
  Value variableArrayScalars(clang::QualType type, Location l,
                             clang::SourceRange range);
  /// The length of each variable-length array type the function declared.
  llvm::DenseMap<const clang::VariableArrayType *, Value> variableLengths;
  void lowerDelete(const clang::CXXDeleteExpr *expr);
  /// Frees the memory `pointer` designates, which the function allocated
  /// (`how` names the freeing call, `made` the allocation, for the error).
  /// Runs the destructors of what `delete` (or `delete[]`) frees at
  /// `pointer`; false after an error.
  bool destroyDeleted(const clang::CXXDeleteExpr *expr, Address pointer);
  bool freeMemory(Address pointer, const clang::Expr *where,
                  llvm::StringRef how, llvm::StringRef made);
  /// `(T *)malloc(n)` and calloc, realloc, aligned_alloc cast to `T *`:
  /// memory of T's scalars.
  std::optional<Address> lowerCAllocation(const clang::CastExpr *cast);
  /// `malloc(n)` (or calloc, aligned_alloc, realloc) kept as `void *`:
  /// memory of bytes, typed by the first cast to `T *` (a realloc of typed
  /// memory is typed at once).
  std::optional<Address> lowerUntypedAllocation(const clang::CallExpr *call);
  /// `(T *)p` of a `void *` p: the memory p points at, which must hold T's
  /// scalars, or be untyped memory, which takes them here.
  std::optional<Address> lowerVoidPointerCast(const clang::CastExpr *cast);
  /// Allocations of bytes not yet typed by a cast, and whether calloc made
  /// them (to zero once typed).
  llvm::DenseMap<mlir::Operation *, bool> untypedAllocations;
  /// The bytes a C allocation asks for.
  Value allocationBytes(const clang::CallExpr *call);
  /// Memory realloc is given: where it is, and how many scalars it holds.
  struct OldMemory {
    Address memory;
    Value scalars;
  };
  /// realloc's memory, which the function allocated and typed (named, or
  /// held by a pointer variable that is only ever given allocations).
  std::optional<OldMemory> reallocatedMemory(const clang::CallExpr *call);
  /// The allocation `call` makes, of `count` `element`s: on the stack for
  /// alloca, else on the heap.
  mlir::Operation *makeCMemory(const clang::CallExpr *call, mlir::Type element,
                               Value count,
                               mlir::IntegerAttr alignment = nullptr);
  /// The layout of what `cast` (to `T *`) points at, which memory from C's
  /// allocation functions can hold (numbers, pointers, structs of them).
  std::optional<Layout> cMemoryLayout(const clang::CastExpr *cast);
  /// Makes C's `memory`, of objects of `layout`, keep the addresses of all
  /// their pointers (cMemoryLayout).
  void keepCMemoryAddresses(Address memory, const Layout &layout);
  /// Memory of `bytes` bytes of `scalar`s, zero for calloc, holding what
  /// fits of `old` (realloc, which frees it).
  std::optional<Address> allocateCMemory(const clang::CallExpr *call,
                                         mlir::Type scalar, Value bytes,
                                         std::optional<OldMemory> old);
  /// The scalars from `target` to the end of its memory (0 for nullptr):
  /// what a pointer variable given only allocations holds (reallocSize).
  Value extentFrom(Address target, Location l);
  /// Gives untyped memory the type of `scalar`s.
  bool typeAllocation(mlir::Operation *untyped, mlir::Type scalar,
                      const clang::Expr *where);
  /// `pointer`, a `void *` cast by `cast`, as memory of `scalar`s: typed
  /// memory of them, the null pointer, or untyped memory, which takes the
  /// type here.
  std::optional<Address>
  typedMemory(Address pointer, const clang::CastExpr *cast, mlir::Type scalar);
  /// The alignment of the memory C's allocation functions and alloca give.
  static constexpr int64_t kCAlignment = 16;
  /// The largest alignment an address of C memory is rounded up to
  /// (alignedUp): AVX-512's packets', 64 bytes.
  static constexpr uint64_t kMostRoundedAlignment = 64;
  bool lowerFree(const clang::CallExpr *call);

  /// Runs a constructor on the object at `dest`.
  bool lowerConstruct(const clang::CXXConstructExpr *expr, Address dest);
  /// Whether a call of `callee` (not virtual, not the library's) is lowered
  /// in place: it takes objects known to the caller only (holding
  /// pointers, packed), passes the caller's places, or throws to the
  /// caller's `try`, unless it is recursion that can be a call.
  bool lowersInPlace(const clang::FunctionDecl *callee,
                     std::optional<Address> object, bool passesCallersPlaces,
                     bool recursesWithFields);
  /// The operands of `callee`'s parameters for `args`, appended to
  /// `operands`; with `places`, also the address of each (lowerArgument).
  /// False after an error.
  bool lowerArguments(
      llvm::ArrayRef<const clang::Expr *> args,
      const clang::FunctionDecl *callee,
      llvm::SmallVectorImpl<mlir::Value> &operands,
      llvm::SmallVectorImpl<std::optional<Address>> *places = nullptr);
  /// The argument of one parameter: a scalar, or the address of memory
  /// (also given in `place`, when asked for).
  Value lowerArgument(const clang::Expr *arg, clang::QualType paramType,
                      std::optional<Address> *place = nullptr);

  Location loc(const clang::Stmt *stmt) {
    return module.getLoc(stmt->getBeginLoc());
  }
  /// Reports `message` at `stmt` and returns null (or nullopt, as `T`).
  template <typename T = Value>
  T unsupported(const clang::Stmt *stmt, const llvm::Twine &message) {
    module.error(stmt->getSourceRange(), message);
    return T{};
  }

  ModuleLowering &module;
  clang::ASTContext &ast;
  /// The function whose body is being lowered: `loweredDecl`'s, or one's
  /// it calls, lowered in place.
  const clang::FunctionDecl *decl;
  const clang::FunctionDecl *loweredDecl;
  mlir::func::FuncOp function;
  mlir::OpBuilder b;

  /// Where each local, parameter and reference lives.
  llvm::DenseMap<const clang::ValueDecl *, Address> places;
  llvm::DenseMap<const clang::ValueDecl *, Closure> lambdas;
  /// Function pointer parameters of calls lowered in place: the function
  /// each was given (Eigen's `pmax<Packet>` passed to a NaN policy).
  llvm::DenseMap<const clang::ValueDecl *, const clang::FunctionDecl *>
      functionParameters;
  /// The function `callee` (a call's callee expression) designates when
  /// it is known where the code is lowered: a function, or a function
  /// pointer parameter bound to one.
  const clang::FunctionDecl *knownFunction(const clang::Expr *callee);
  /// Pointer variables: the memref they move within, and a slot holding
  /// their current offset.
  struct PointerVariable {
    Value memref;
    Address offsetSlot;
    /// For a std::vector field given a capacity (`reserve`): its size, in
    /// elements of `elementSize` scalars (see vectorSizes).
    Address sizeSlot = {};
    int64_t elementSize = 1;
    /// For a std::vector field: the controlDepth where it was created; it
    /// may get new memory only there (see vectorFieldOf).
    unsigned depth = 0;
    /// For a variable assigned what another designates at run time: the
    /// slot holding its address (`memref` null, offset 0).
    Value addressSlot = nullptr;
    /// For such a variable given only allocations or nullptr (`p = (T
    /// *)realloc(p, ...)` in a loop): a slot holding how many scalars the
    /// memory it designates has, which realloc copies.
    Address reallocSize = {};
    /// For a reference field bound to a place known when compiling: that
    /// offset (a reference is never re-seated), so that the fields of the
    /// object it designates stay known.
    std::optional<int64_t> fixedOffset;
  };
  /// Pointer variables the function assigns after their declaration
  /// (MovingPointers.cpp): the arrays they have designated (as views of one
  /// type), a slot saying which one they designate now, and the reads
  /// lowered so far (each a memref.cast of the selected array).
  struct MovingPointer {
    llvm::SmallVector<Value> arrays;
    Address which;
    /// With the number of reads lowered before each (loweredReads).
    llvm::SmallVector<std::pair<mlir::Operation *, size_t>> reads;
    /// For pointers to std::vectors: the group whose pointers share
    /// `arrays` (joinVectorPointerGroup); null otherwise.
    const clang::VarDecl *group = nullptr;
  };
  /// Pointers to std::vectors by the group of those that exchange values
  /// (VectorPointerFlows.h), and the index each of their reads loaded,
  /// with the group of the pointer read.
  VectorPointerFlows vectorPointerFlows;
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::ValueDecl *>>
      vectorPointerGroups;
  llvm::DenseMap<mlir::Operation *, std::pair<Value, const clang::VarDecl *>>
      groupedReads;
  void joinVectorPointerGroup(const clang::VarDecl *var, MovingPointer &moving,
                              Value initial, Location l);
  /// Reads of moving pointers lowered so far, and that number when each
  /// loop being lowered started: a read since the outermost one's start
  /// may run again after an assignment met later in the loop.
  size_t loweredReads = 0;
  llvm::SmallVector<size_t> loopReadMarks;
  llvm::DenseMap<const clang::ValueDecl *, MovingPointer> movingPointers;
  /// Whether `read`, a read of a moving pointer, still designates the
  /// array the pointer designates where the lowering is.
  bool isUnmovedRead(MovingPointer &state, mlir::Operation *read);
  /// Whether every array the moving pointer `var` may designate is defined
  /// where `read`, a read of it, is (one made in a loop is not after it).
  bool reachesEveryChoice(const clang::ValueDecl *var, Value read);
  /// Declares the pointer (or iterator) variable `var` at `initial`.
  void declarePointerVariable(const clang::VarDecl *var, Address initial,
                              Location l);
  /// Declares `var` as a pointer that keeps its address, first `initial`,
  /// in a slot of its own at the function's entry (so that it and its
  /// shadow outlive the loops that use it).
  void declareAddressSlot(const clang::VarDecl *var, Address initial,
                          Location l);
  /// Stores the address of `target` (0 for `nullptr`) into `slot`.
  void keepAddress(Address target, Address slot, Location l);
  /// Whether the address of objects of `pointee` may be kept in memory by
  /// `var`; reports an error (and marks `var` invalid) if not.
  bool canKeepAddressOf(clang::QualType pointee, const clang::ValueDecl *var);
  /// `std::swap(p, q)` of two pointer variables to std::vectors, which stay
  /// selections among the vectors they designate (no address slot): each
  /// is moved to what the other designated.
  bool isVectorPointerSwap(const clang::CallExpr *call);
  std::optional<CallResult> lowerVectorPointerSwap(const clang::CallExpr *call);
  /// The memory `var` designates now.
  Value pointerMemory(const clang::ValueDecl *var,
                      const PointerVariable &pointer, Location l);
  /// Makes `var` designate `target`; false after an error at `where`.
  bool movePointer(const clang::ValueDecl *var, Address target,
                   const clang::Stmt *where);
  /// The pointer variables of `body` that keep their address in a slot:
  /// those assigned what another variable designates at run time, and
  /// those whose address is taken or bound to a reference.
  const llvm::DenseSet<const clang::VarDecl *> &
  getAddressSlotVariables(const clang::Stmt *body);
  llvm::DenseMap<const clang::Stmt *, llvm::DenseSet<const clang::VarDecl *>>
      addressSlotVariables;
  /// The pointer variables of `body` declared without a value and first
  /// assigned as a statement of their block: that assignment, which
  /// initializes them.
  const llvm::DenseMap<const clang::VarDecl *, const clang::BinaryOperator *> &
  getInitializingAssignments(const clang::Stmt *body);
  /// The assignment that initializes `var`, if it is declared without a
  /// value (getInitializingAssignments).
  const clang::BinaryOperator *
  initializingAssignment(const clang::VarDecl *var);
  /// The body of the function that declares `var`.
  const clang::Stmt *bodyDeclaring(const clang::VarDecl *var);
  llvm::DenseMap<
      const clang::Stmt *,
      llvm::DenseMap<const clang::VarDecl *, const clang::BinaryOperator *>>
      initializingAssignments;
  /// The address slots (newAddressSlot): memory of the function's own that
  /// holds addresses (not the offsets of the memref model's pointer arrays).
  llvm::DenseSet<Value> addressSlots;
  /// Those of `body` that keep addresses (AddressHolders.cpp): given
  /// pointers into different memories, indexed at run time.
  const llvm::DenseSet<AddressHolder> &
  getAddressHolders(const clang::Stmt *body);
  llvm::DenseMap<const clang::Stmt *, llvm::DenseSet<AddressHolder>>
      addressHolders;
  /// Makes `memory`, the memory of `var`, keep the addresses that
  /// getAddressHolders says it keeps.
  void markAddressHolder(const clang::VarDecl *var, Value memory);
  /// The vector variable whose memory allocateVector makes next, if it
  /// must be marked (markAddressHolder) before its elements are set.
  const clang::VarDecl *vectorBeingDeclared = nullptr;
  /// Whether the memory allocateVector makes next keeps the addresses of
  /// all its pointers (a growing vector's first memory).
  bool vectorKeepsAllAddresses = false;
  /// Makes `memory`, holding objects of layout `element`, keep the
  /// addresses of all their pointers.
  void keepAllAddresses(Value memory, const Layout &element);
  /// Makes the pointer field `field` (null: pointer elements) of objects in
  /// the memory of `root` keep its address.
  void keepAddressAt(Value root, const clang::FieldDecl *field);
  /// Whether the pointer field `field` (null: pointer elements) of objects
  /// in the memory of `root` keeps its address: marked so, or in a
  /// growing vector's memory (whose copies are addresses).
  bool keepsAddressIn(Value root, const clang::FieldDecl *field);
  /// Whether `root` is a growing vector's memory, read from its slot.
  bool isGrowingMemory(Value root);
  /// The pointer fields of the elements of own memory that keep addresses.
  llvm::DenseSet<std::pair<Value, const clang::FieldDecl *>> addressFields;

  /// A slot holding one address, at the function entry.
  Value newAddressSlot(Location l);
  /// Whether `root`'s pointer slots hold addresses: memory the caller
  /// passed, or a variable's address slot.
  /// Whether `target`, the table of pointers a `pointer` stored in memory
  /// designates, keeps addresses (else an error at `where`); true for any
  /// other pointer.
  bool isFindableTable(Address target, clang::QualType pointer,
                       const clang::Stmt *where);
  bool holdsAddresses(Value root) {
    return !isOwnMemory(root) || addressSlots.contains(root);
  }
  /// Makes `pointer` designate `target`, within the array it designates
  /// (or anywhere, for one with an address slot).
  void setPointer(PointerVariable &pointer, Address target, Location l);
  /// The index of `memref` among the arrays of `state`, added (and the
  /// reads lowered so far made to select it) if new; nullopt after an
  /// error at `where`.
  std::optional<size_t> addArray(MovingPointer &state, Value memref,
                                 const clang::Stmt *where);
  /// `memref` as the pointer memref type of its elements, cast right
  /// after its definition.
  Value commonView(Value memref, Location l);
  /// `target.offset` as an index into `memref`, where `target.memref` is
  /// `memref` or another view of the memory `memref` views (two
  /// materialized pointers into one array); nullopt where the memory
  /// differs or cannot be told.
  std::optional<Value> offsetInView(Address target, Value memref, Location l);
  /// The index among the arrays of `state` of the array `memref` views
  /// (added by addArray if new), or the choice of such indices where
  /// `memref` is a choice between arrays; null after an error at `where`.
  Value arrayIndex(MovingPointer &state, Value memref,
                   const clang::Stmt *where);
  /// `which == k ? array : otherwise`.
  Value selectArray(Value which, size_t k, Value array, Value otherwise,
                    Location l);
  /// How many branches, loops and switches enclose the code being lowered.
  unsigned controlDepth = 0;
  /// The binding of the indirect field whose slot is `slot`, when the
  /// object is one the function names; null otherwise.
  PointerVariable *indirectFieldAt(Address slot);
  /// The std::vector field `object` names, of an object the function
  /// names: the key of its binding in indirectFields; nullopt otherwise.
  std::optional<std::pair<Value, int64_t>>
  vectorFieldOf(const clang::Expr *object);
  llvm::DenseMap<const clang::ValueDecl *, PointerVariable> pointers;
  /// The memory indirect fields designate, by the field's slot: the
  /// object's memref and the slot's offset in it, known when compiling.
  llvm::DenseMap<std::pair<Value, int64_t>, PointerVariable> indirectFields;
  /// For objects in memory the function created, which may be chosen at
  /// run time (elements of arrays and vectors): each indirect field keeps
  /// its offset in its own slot, and this gives the memory that the field
  /// designates in every object of that memory (by its allocation and the
  /// field); null once two objects' fields designate different memory.
  llvm::DenseMap<std::pair<Value, const clang::FieldDecl *>, Value> fieldMemory;
  /// Pointer parameters to objects with indirect fields: they never move,
  /// so their fields stay known.
  llvm::DenseMap<const clang::ValueDecl *, Address> fixedPointers;
  /// Variables whose declaration was an error: uses say nothing more.
  llvm::DenseSet<const clang::ValueDecl *> invalid;
  /// `this` in member functions.
  std::optional<Address> self;
  /// Where an aggregate result is built.
  std::optional<Address> resultAddress;
  /// What the returns of the body being inlined made for its aggregate
  /// result (the memory of its vector fields): the caller's to free, with
  /// the scope the call is in, not the callee's at its return.
  llvm::SmallVector<Value> resultCleanups;
  /// Moves the memory the aggregate result's fields designate from the
  /// cleanups made since `made` (the result's initialization) to
  /// resultCleanups; its temporaries stay the callee's.
  void giveResultMemoryToCaller(size_t made);

  struct JumpTargets {
    mlir::Block *breakTarget;
    mlir::Block *continueTarget;
    /// The vectors alive when the loop or switch started (cleanups.size()).
    size_t cleanupDepth;
  };
  llvm::SmallVector<JumpTargets> jumps;
  /// The blocks `{ ... }` being lowered, innermost last: each with the
  /// cleanups alive when its current statement began (what a `goto` to one
  /// of its labels keeps).
  struct OpenBlock {
    const clang::CompoundStmt *compound;
    size_t statementDepth;
  };
  llvm::SmallVector<OpenBlock> openBlocks;
  /// The blocks of labels a `goto` before them jumps to, made at the first
  /// such goto; and of labels already lowered, with the cleanups alive
  /// there, for gotos after them.
  llvm::DenseMap<const clang::LabelDecl *, mlir::Block *> pendingLabels;
  llvm::DenseMap<const clang::LabelDecl *, std::pair<mlir::Block *, size_t>>
      placedLabels;
  /// The block of each case label of the switches being lowered.
  llvm::DenseMap<const clang::SwitchCase *, mlir::Block *> switchCases;
  /// Every return branches here, passing the returned value (if any).
  mlir::Block *returnBlock = nullptr;
  /// Set while inlining a body whose one return, its last statement,
  /// returns a pointer or reference: that place, kept as it is (memory and
  /// offset) rather than passed as a view.
  std::optional<Address> *returnedPlace = nullptr;
  /// Set while inlining a body with several returns of a pointer or
  /// reference: each passes the memory it points into and the offset
  /// there.
  bool returnsMemoryAndOffset = false;
  /// The memory every return of such a body passes to `continuation`, if
  /// they all pass the same one, made before the call; null otherwise.
  Value commonReturnedMemory(mlir::Block *continuation);
  /// The place such a body returns: at the offset passed, in that common
  /// memory where there is one, else in the memory passed.
  Address placeReturned(mlir::Block *continuation);
  /// Binds the inlined parameter `param`, a reference to a pointer or an
  /// iterator, to `arg`: a const one to its value, a non-const one to the
  /// caller's pointer variable `arg` names. Nullopt where `param` is not
  /// such a reference or `arg` such a variable; false after an error.
  /// Whether the body of the function declaring `param`, a reference to a
  /// pointer or iterator, may change what it refers to (an assignment, a
  /// step, its address, or a callee that may), as far as it can be seen.
  bool mayChangeReferenceParameter(const clang::ParmVarDecl *param);
  std::optional<bool> bindPointerReference(const clang::ParmVarDecl *param,
                                           const clang::Expr *arg, Location l);
  /// The arguments of the block after an inlined call that its returns
  /// pass: the result (a pointer or reference as a view; with
  /// `splitsPlace`, the memory and an offset); false after an error.
  bool addResultArguments(mlir::Block *continuation, clang::QualType returnType,
                          clang::QualType owned, bool splitsPlace,
                          const clang::Expr *expr);
};

} // namespace cotangent::frontend

#endif // COTANGENT_LIB_FRONTEND_FUNCTIONLOWERING_H
