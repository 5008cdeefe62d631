//===- TrialLowering.cpp - Whether a function lowers, reporting nothing ---===//
//
// A custom rule is ordinary C++: it may call a library, count its calls in
// a variable, or use what differentiable code does not express. Whether a
// rule is lowered (so that a higher derivative can go through it) or called
// as Clang compiles it is decided by lowering it, with everything it calls,
// into a module and context of their own whose errors nobody sees.
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Frontend/Lowering.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

namespace cotangent::frontend {

/// The name of a variable outside the function that the module writes
/// (which ct-structure refuses in differentiable code), or nullopt.
static std::optional<std::string> findWrittenOutsideVariable(ModuleOp module) {
  std::optional<std::string> found;
  module.walk([&](memref::StoreOp store) {
    Value memory = store.getMemRef();
    while (auto view = memory.getDefiningOp<ViewLikeOpInterface>())
      memory = view.getViewSource();
    auto get = memory.getDefiningOp<memref::GetGlobalOp>();
    auto global = get ? SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
                            get, get.getNameAttr())
                      : nullptr;
    if (global && !global.getConstant()) {
      auto name = global->getAttrOfType<StringAttr>("ct.source_name");
      found = (name ? name.getValue() : global.getSymName()).str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

std::string whyNotLowerable(clang::ASTContext &ast,
                            const clang::FunctionDecl *function) {
  MLIRContext context;
  loadFrontendDialects(context);
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  ModuleLowering trial(ast, *module);
  trial.beSpeculative();
  if (!trial.getFunction(function) && !trial.hadError())
    return "its signature cannot be lowered";
  trial.lowerPending();
  if (trial.hadError())
    return trial.getFirstError();
  if (failed(verify(*module)))
    return "it lowers to code that does not verify";
  if (std::optional<std::string> name = findWrittenOutsideVariable(*module))
    return "it writes '" + *name + "', a variable outside the function";
  return "";
}

} // namespace cotangent::frontend
