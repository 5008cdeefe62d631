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

#include "cotangent/Dialect/CT/IR/OutsideVariables.h"
#include "cotangent/Frontend/Lowering.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

namespace cotangent::frontend {

std::string whyNotLowerable(clang::ASTContext &ast,
                            const clang::FunctionDecl *function,
                            std::string *place) {
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
  if (trial.hadError()) {
    if (place)
      *place = trial.getFirstErrorPlace();
    return trial.getFirstError();
  }
  if (failed(verify(*module)))
    return "it lowers to code that does not verify";
  if (Operation *write = ct::findWriteOfOutsideVariable(*module))
    return "it writes '" +
           ct::getVariableName(ct::getWrittenOutsideVariable(write)) +
           "', a variable outside the function";
  return "";
}

} // namespace cotangent::frontend
