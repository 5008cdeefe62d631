//===- GuardedStatics.cpp - Static locals initialized on the first call ---===//
//
// A static local whose initializer is not a constant
// (`static const std::array<double, 8> w = makeWeights();`,
// `static double scale = std::sqrt(n);`,
// `static const std::vector<double> table = tabulate(n);`) is initialized
// when control first passes its declaration, under the guard variable the
// C++ ABI gives it.
// Derivative code uses the variable itself, where the unit keeps it (an
// external memref.global of its linkage name, like any variable outside
// the function), and honours the same guard: at the declaration it calls
// `__cxa_guard_acquire` on the variable's guard and, where that says the
// variable is not initialized yet, runs the initializer into the variable
// and calls `__cxa_guard_release`; one with a destructor (a std::vector)
// also has it registered with `__cxa_atexit`, as Clang's code does, so that
// C++ destroys it at exit. So the primal and every derivative
// initialize it once between them, on whichever runs first, with the
// thread safety C++ gives it; the calls are external calls through which
// no derivative flows.
//
// A variable nothing changes after its initializer keeps its place in
// every call (a thread waiting on the guard reads it once the guard is
// free): an initializer that reads values with derivatives would make its
// derivative depend on which call ran first, and the engine reports the
// write (OutsideVariableCopies.cpp). One the function changes on every
// call (a workspace, a state) is given a copy of its own per derivative
// call, as any variable outside the function is.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "clang/AST/Mangle.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

using namespace mlir;

namespace cotangent::frontend {

bool ModuleLowering::isGuardedStatic(const clang::VarDecl *var) {
  const clang::Expr *init = var->getInit();
  if (!var->isStaticLocal() || !init)
    return false;
  // (A thread's own copy is also guarded where it has a destructor: C++
  // registers it for the thread's exit when control first passes.)
  if (var->getTLSKind() != clang::VarDecl::TLS_None &&
      var->needsDestruction(ast) != clang::QualType::DK_none)
    return true;
  return !var->hasConstantInitialization() &&
         !init->isConstantInitializer(ast, /*ForRef=*/false) &&
         !isRecomputedStatic(var);
}

memref::GlobalOp ModuleLowering::declareStaticGuard(const clang::VarDecl *var) {
  std::string name;
  llvm::raw_string_ostream stream(name);
  mangler->mangleStaticGuardVariable(var, stream);
  if (auto existing = module.lookupSymbol<memref::GlobalOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  // (The Itanium ABI's guard: 64 bits, its first byte set once done; a
  // thread-local variable's is a thread-local byte, which Clang may make
  // one byte long.)
  bool threadLocal = var->getTLSKind() != clang::VarDecl::TLS_None;
  auto global = memref::GlobalOp::create(
      b, getLoc(var->getLocation()), name, b.getStringAttr("public"),
      MemRefType::get({1}, threadLocal ? b.getI8Type() : b.getI64Type()),
      /*initial_value=*/{},
      /*constant=*/false, /*alignment=*/nullptr);
  if (threadLocal)
    markThreadLocal(global);
  global->setAttr("ct.source_name",
                  b.getStringAttr("the guard of static variable '" +
                                  var->getQualifiedNameAsString() + "'"));
  if (ast.GetGVALinkageForVariable(var) == clang::GVA_Internal)
    global->setAttr(ct::kInternalLinkageAttr, b.getUnitAttr());
  return global;
}

func::FuncOp ModuleLowering::getStaticGuardFunction(StringRef name,
                                                    bool returnsFlag) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Type guard = MemRefType::get({1}, b.getI64Type());
  SmallVector<Type> results;
  if (returnsFlag)
    results.push_back(b.getI32Type());
  auto function = func::FuncOp::create(b, b.getUnknownLoc(), name,
                                       b.getFunctionType({guard}, results));
  function.setPrivate();
  function->setAttr(ct::kExternalAttr, b.getUnitAttr());
  function->setAttr(kStaticGuardAttr, b.getUnitAttr());
  return function;
}

func::FuncOp ModuleLowering::getAtExitFunction(bool threadLocal) {
  StringRef name = threadLocal ? "__cxa_thread_atexit" : "__cxa_atexit";
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  // (The destructor, the object and the unit's DSO handle, as addresses.)
  Type address = b.getI64Type();
  auto function = func::FuncOp::create(
      b, b.getUnknownLoc(), name,
      b.getFunctionType({address, address, address}, {b.getI32Type()}));
  function.setPrivate();
  function->setAttr(ct::kExternalAttr, b.getUnitAttr());
  function->setAttr(kStaticGuardAttr, b.getUnitAttr());
  return function;
}

/// The address of `global`'s memory, as an integer.
static Value addressOfGlobal(OpBuilder &b, Location l,
                             memref::GlobalOp global) {
  auto memory =
      memref::GetGlobalOp::create(b, l, global.getType(), global.getSymName());
  memory->setAttr(kVariableItselfAttr, b.getUnitAttr());
  Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, l, memory);
  return arith::IndexCastOp::create(b, l, b.getI64Type(), index);
}

void FunctionLowering::registerStaticDestructor(const clang::VarDecl *var,
                                                memref::GlobalOp object) {
  Location l = module.getLoc(var->getLocation());
  clang::QualType type = ast.getBaseElementType(var->getType());
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  const clang::CXXDestructorDecl *destructor = record->getDestructor();
  // What Clang registers: the complete-object destructor, which without
  // virtual bases is the base-object one that every compiler emits (Clang
  // emits only that one for an inline destructor).
  clang::CXXDtorType kind =
      record->getNumVBases() ? clang::Dtor_Complete : clang::Dtor_Base;
  Value function = ct::FunctionAddressOp::create(
      b, l, module.mangle(clang::GlobalDecl(destructor, kind)));
  ModuleOp top = module.getModule();
  auto handle = top.lookupSymbol<memref::GlobalOp>("__dso_handle");
  if (!handle) {
    auto atStart = OpBuilder::atBlockBegin(top.getBody());
    handle = memref::GlobalOp::create(
        atStart, l, "__dso_handle", atStart.getStringAttr("public"),
        MemRefType::get({1}, b.getI8Type()), /*initial_value=*/{},
        /*constant=*/false, /*alignment=*/nullptr);
  }
  Value start = addressOfGlobal(b, l, object);
  Value dso = addressOfGlobal(b, l, handle);
  // An array's elements one by one, first to last: exit runs them in the
  // opposite order, last first, as C++ destroys arrays.
  uint64_t count = 1;
  if (const auto *array = ast.getAsConstantArrayType(var->getType()))
    count = ast.getConstantArrayElementCount(array);
  int64_t size = ast.getTypeSizeInChars(type).getQuantity();
  auto register_ = [&](Value offset) {
    Value element = arith::AddIOp::create(b, l, start, offset);
    func::CallOp::create(
        b, l,
        module.getAtExitFunction(var->getTLSKind() != clang::VarDecl::TLS_None),
        ValueRange{function, element, dso});
  };
  if (count == 1) {
    register_(arith::ConstantIntOp::create(b, l, b.getI64Type(), 0));
    return;
  }
  Value step = arith::ConstantIntOp::create(b, l, b.getI64Type(), size);
  auto loop = scf::ForOp::create(
      b, l, arith::ConstantIntOp::create(b, l, b.getI64Type(), 0),
      arith::ConstantIntOp::create(b, l, b.getI64Type(), count * size), step);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  register_(loop.getInductionVar());
}

/// Whether nothing changes `var`, a static local, after its initializer:
/// it is `const`, or its function never writes it (nor passes it on to be
/// written). One the function changes on every call is the function's
/// state, which concurrent calls could not share in C++ either.
static bool isInitializedOnce(const clang::VarDecl *var,
                              clang::ASTContext &ast) {
  if (var->getType().isConstant(ast))
    return true;
  const auto *function =
      dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  const clang::Stmt *body = function ? function->getBody() : nullptr;
  return body && !clang::ExprMutationAnalyzer(*body, ast).isMutated(var);
}

Value FunctionLowering::acquireStaticGuard(Value guard, Location l) {
  func::FuncOp acquire =
      module.getStaticGuardFunction("__cxa_guard_acquire", true);
  Value acquired = func::CallOp::create(b, l, acquire, guard).getResult(0);
  return arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::ne, acquired,
      arith::ConstantIntOp::create(b, l, acquired.getType(), 0));
}

Value FunctionLowering::isThreadsFirstPass(Value guard, Location l) {
  // (No other thread reads this one's guard: no lock, as Clang does.)
  Value done = memref::LoadOp::create(b, l, guard, constantIndex(0, l));
  return arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::eq, done,
      arith::ConstantIntOp::create(b, l, b.getI8Type(), 0));
}

bool FunctionLowering::lowerGuardedStatic(const clang::VarDecl *var) {
  Location l = module.getLoc(var->getLocation());
  clang::SourceRange range = var->getSourceRange();
  clang::QualType type = var->getType();
  // A std::vector is kept as C++ lays it out (OutsideVectors.cpp); other
  // variables as the numbers they hold.
  bool isVector =
      !ModuleLowering::getVectorElementType(type.getCanonicalType()).isNull();
  std::optional<memref::GlobalOp> global =
      isVector ? module.getOutsideVector(var, range)
               : module.getConstantGlobal(var, range);
  if (!global)
    return false;
  // (The same global, made above.)
  std::optional<Address> place =
      isVector ? outsideVectorHolder(var, range) : constantGlobal(var, range);
  if (!place)
    return false;
  if (!isVector)
    places[var] = *place;
  // (A thread's own copy is no other thread's to wait on: it is copied
  // per call like other outside variables the function writes.)
  bool threadLocal = var->getTLSKind() != clang::VarDecl::TLS_None;
  if (isInitializedOnce(var, ast) && !threadLocal)
    (*global)->setAttr(kInitializedOnceAttr, b.getUnitAttr());
  memref::GlobalOp guardGlobal = module.declareStaticGuard(var);
  Value guard = memref::GetGlobalOp::create(b, l, guardGlobal.getType(),
                                            guardGlobal.getSymName());
  Value first =
      threadLocal ? isThreadsFirstPass(guard, l) : acquireStaticGuard(guard, l);
  bool initialized = true;
  emitIf(l, first, [&] {
    // (Temporaries of the initializer live in the branch.)
    size_t depth = cleanups.size();
    // (A static vector's bytes are zeros until then, holding no memory; a
    // call's copy of it holds the empty memory the copy was given.)
    if (isVector)
      destroyVectorObject(type, *place, var->getInit());
    initialized = isVector
                      ? initializeVectorInMemory(var->getInit(), type, *place)
                      : initialize(var->getInit(), type, *place);
    // C++ destroys it at exit, as it does the one the primal initializes.
    if (initialized &&
        var->needsDestruction(ast) == clang::QualType::DK_cxx_destructor)
      registerStaticDestructor(var, *global);
    emitCleanups(depth, l);
    cleanups.truncate(depth);
    if (threadLocal)
      memref::StoreOp::create(
          b, l, arith::ConstantIntOp::create(b, l, b.getI8Type(), 1), guard,
          ValueRange{constantIndex(0, l)});
    else
      func::CallOp::create(
          b, l, module.getStaticGuardFunction("__cxa_guard_release", false),
          guard);
  });
  return initialized;
}

} // namespace cotangent::frontend
