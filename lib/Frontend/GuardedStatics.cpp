//===- GuardedStatics.cpp - Static locals initialized on the first call ---===//
//
// A static local whose initializer is not a constant
// (`static const std::array<double, 8> w = makeWeights();`,
// `static double scale = std::sqrt(n);`) is initialized when control first
// passes its declaration, under the guard variable the C++ ABI gives it.
// Derivative code uses the variable itself, where the unit keeps it (an
// external memref.global of its linkage name, like any variable outside
// the function), and honours the same guard: at the declaration it calls
// `__cxa_guard_acquire` on the variable's guard and, where that says the
// variable is not initialized yet, runs the initializer into the variable
// and calls `__cxa_guard_release`. So the primal and every derivative
// initialize it once between them, on whichever runs first, with the
// thread safety C++ gives it; the calls are external calls through which
// no derivative flows.
//
// An initializer that reads values with derivatives would make the
// variable's derivative depend on which call ran first; the engine reports
// the write (the variable keeps its place, OutsideVariableCopies.cpp).
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "clang/AST/Mangle.h"

using namespace mlir;

namespace cotangent::frontend {

bool ModuleLowering::isGuardedStatic(const clang::VarDecl *var) {
  const clang::Expr *init = var->getInit();
  return var->isStaticLocal() && init &&
         var->getTLSKind() == clang::VarDecl::TLS_None &&
         !var->hasConstantInitialization() &&
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
  // (The Itanium ABI's guard: 64 bits, its first byte set once done.)
  auto global = memref::GlobalOp::create(
      b, getLoc(var->getLocation()), name, b.getStringAttr("public"),
      MemRefType::get({1}, b.getI64Type()), /*initial_value=*/{},
      /*constant=*/false, /*alignment=*/nullptr);
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

bool FunctionLowering::lowerGuardedStatic(const clang::VarDecl *var) {
  Location l = module.getLoc(var->getLocation());
  clang::SourceRange range = var->getSourceRange();
  if (var->needsDestruction(ast) != clang::QualType::DK_none) {
    module.error(range,
                 "'" + var->getQualifiedNameAsString() +
                     "' is a static variable initialized when the function "
                     "first runs, of a class with a destructor (C++ runs it "
                     "at exit); differentiable functions initialize such "
                     "static variables only when destroying them does "
                     "nothing: keep the object outside the function, or "
                     "pass it as a parameter");
    return false;
  }
  std::optional<Address> place = constantGlobal(var, range);
  if (!place)
    return false;
  places[var] = *place;
  memref::GlobalOp guardGlobal = module.declareStaticGuard(var);
  Value guard = memref::GetGlobalOp::create(b, l, guardGlobal.getType(),
                                            guardGlobal.getSymName());
  func::FuncOp acquire =
      module.getStaticGuardFunction("__cxa_guard_acquire", true);
  func::FuncOp release =
      module.getStaticGuardFunction("__cxa_guard_release", false);
  Value acquired = func::CallOp::create(b, l, acquire, guard).getResult(0);
  Value first = arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::ne, acquired,
      arith::ConstantIntOp::create(b, l, acquired.getType(), 0));
  bool initialized = true;
  emitIf(l, first, [&] {
    initialized = initialize(var->getInit(), var->getType(), *place);
    func::CallOp::create(b, l, release, guard);
  });
  return initialized;
}

} // namespace cotangent::frontend
