//===- CrossTranslationUnit.cpp - Derivatives across translation units ----===//
//
// A function marked [[ct::differentiable]] and defined in one translation
// unit can be differentiated from another that sees only its declaration.
// The defining unit (when f is declared in a header) exports three functions in the engine's own convention
// (memrefs, adjoints as results), under names derived from the mangled one:
//
//   __ct_primal.<f>    f itself
//   __ct_pullback.<f>  its pullback with default activities
//   __ct_jvp.<f>       its forward-mode derivative with default activities
//
// A unit that calls f without its body binds f to those as custom rules:
// the engine then differentiates calls to f (in any activity) like calls to
// a function with a user rule. Only first-order derivatives cross units.
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "cotangent/Frontend/DifferentiableAttr.h"
#include "cotangent/Frontend/Lowering.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

static std::string exportName(StringRef kind, StringRef symbol) {
  return ("__ct_" + kind + "." + symbol).str();
}

static ArrayAttr defaultActivities(OpBuilder &b, FunctionType type) {
  return ct::getActivityArrayAttr(b.getContext(),
                                  ct::getDefaultActivities(type));
}

bool isExported(const clang::FunctionDecl *decl) {
  if (!decl->isThisDeclarationADefinition() || !isDifferentiable(decl) ||
      !decl->isExternallyVisible() || decl->isInlined() || decl->isMain() ||
      decl->getTemplatedKind() != clang::FunctionDecl::TK_NonTemplate)
    return false;
  // Other units see a function through a declaration in a header: export
  // only those, so that a program in one file pays nothing for this.
  const clang::SourceManager &sources = decl->getASTContext().getSourceManager();
  return llvm::any_of(decl->redecls(), [&](const clang::FunctionDecl *redecl) {
    return !sources.isInMainFile(sources.getExpansionLoc(redecl->getLocation()));
  });
}

void exportDerivatives(ModuleLowering &module,
                       const clang::FunctionDecl *decl) {
  func::FuncOp f = module.getFunction(decl);
  if (!f)
    return;
  FunctionType type = f.getFunctionType();
  Location loc = f.getLoc();
  OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getModule().getBody());
  auto define = [&](StringRef kind, FunctionType signature) {
    auto function =
        func::FuncOp::create(b, loc, exportName(kind, f.getSymName()), signature);
    function->setAttr(kExportAttr, b.getUnitAttr());
    return function;
  };
  unsigned n = type.getNumInputs();

  func::FuncOp primal = define("primal", type);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(primal.addEntryBlock());
    auto call = func::CallOp::create(b, loc, f, primal.getArguments());
    func::ReturnOp::create(b, loc, call.getResults());
  }

  FunctionType pullbackType = ct::getPullbackRuleType(type);
  func::FuncOp pullback = define("pullback", pullbackType);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(pullback.addEntryBlock());
    ValueRange args = pullback.getArguments();
    unsigned numSeeds =
        ct::getReverseSignature(type, ct::getDefaultActivities(type))
            .seeds.size();
    SmallVector<Type> results(type.getResults());
    llvm::append_range(results, pullbackType.getResults());
    auto request = ct::PullbackOp::create(
        b, loc, results, f.getSymName(), defaultActivities(b, type),
        args.take_front(n), args.slice(n, numSeeds),
        args.drop_front(n + numSeeds), /*lanes=*/IntegerAttr());
    func::ReturnOp::create(
        b, loc, request.getResults().drop_front(type.getNumResults()));
  }

  FunctionType jvpType = ct::getJvpRuleType(type);
  func::FuncOp jvp = define("jvp", jvpType);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(jvp.addEntryBlock());
    ValueRange args = jvp.getArguments();
    auto request = ct::JvpOp::create(b, loc, jvpType.getResults(),
                                     f.getSymName(), defaultActivities(b, type),
                                     args.take_front(n), args.drop_front(n),
                                     /*lanes=*/IntegerAttr());
    func::ReturnOp::create(b, loc, request.getResults());
  }
}

void importDerivatives(ModuleLowering &module, func::FuncOp f) {
  ModuleOp m = module.getModule();
  std::string symbol = f.getSymName().str();
  FunctionType type = f.getFunctionType();
  OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(m.getBody());
  auto declare = [&](StringRef kind, FunctionType signature) {
    auto function = func::FuncOp::create(b, f.getLoc(),
                                         exportName(kind, symbol), signature);
    function.setPrivate();
    return function;
  };
  // Calls of f go to the exported primal, whose ABI is the engine's.
  std::string primal = exportName("primal", symbol);
  if (failed(SymbolTable::replaceAllSymbolUses(f, b.getStringAttr(primal), m)))
    return;
  f.setName(primal);
  func::FuncOp pullback = declare("pullback", ct::getPullbackRuleType(type));
  func::FuncOp jvp = declare("jvp", ct::getJvpRuleType(type));
  ct::CustomGradientOp::create(b, f.getLoc(), primal, pullback.getSymName());
  ct::CustomJvpOp::create(b, f.getLoc(), primal, jvp.getSymName());
}

} // namespace cotangent::frontend
