//===- CrossTranslationUnit.cpp - Derivatives across translation units ----===//
//
// A function marked [[ct::differentiable]] and defined in one translation
// unit can be differentiated from another that sees only its declaration.
// The defining unit (when f is declared in a header) exports functions in
// the engine's own convention (memrefs, adjoints as results), under names
// derived from the mangled one:
//
//   __ct_primal.<f>             f itself
//   __ct_pullback.<f>           its pullback, default activities
//   __ct_jvp.<f>                its forward-mode derivative, likewise
//   __ct_pullback_pullback.<f>  the pullback of __ct_pullback.<f>,
//   __ct_pullback_jvp.<f>       its forward-mode derivative,
//   __ct_jvp_pullback.<f>       the pullback of __ct_jvp.<f> (ct::hvp),
//   __ct_jvp_jvp.<f>            and its forward-mode derivative
//
// A unit that calls f without its body binds f to the first-order ones as
// custom rules, and those rules to the second-order ones: the engine then
// differentiates calls to f (in any activity) like calls to a function with
// a user rule, to second order in either mode.
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "cotangent/Frontend/DifferentiableAttr.h"
#include "cotangent/Frontend/Lowering.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
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

bool isDeclaredInHeader(const clang::FunctionDecl *decl) {
  const clang::SourceManager &sources =
      decl->getASTContext().getSourceManager();
  return llvm::any_of(decl->redecls(), [&](const clang::FunctionDecl *redecl) {
    return !sources.isInMainFile(
        sources.getExpansionLoc(redecl->getLocation()));
  });
}

bool isExported(const clang::FunctionDecl *decl) {
  if (!decl->isThisDeclarationADefinition() || !isDifferentiable(decl) ||
      !decl->isExternallyVisible() || decl->isInlined() || decl->isMain() ||
      decl->getTemplatedKind() != clang::FunctionDecl::TK_NonTemplate)
    return false;
  // Other units see a function through a declaration in a header: export
  // only those, so that a program in one file pays nothing for this.
  return isDeclaredInHeader(decl);
}

/// An exported function `name` of `type`, with an empty entry block.
static func::FuncOp defineExport(OpBuilder &b, Location loc, StringRef name,
                                 FunctionType type) {
  auto function = func::FuncOp::create(b, loc, name, type);
  function->setAttr(kExportAttr, b.getUnitAttr());
  function.addEntryBlock();
  return function;
}

/// Defines `name` as the pullback of `target` with default activities, in
/// the signature of a pullback rule.
static func::FuncOp definePullbackOf(OpBuilder &b, Location loc, StringRef name,
                                     func::FuncOp target) {
  FunctionType type = target.getFunctionType();
  FunctionType pullbackType = ct::getPullbackRuleType(type);
  func::FuncOp pullback = defineExport(b, loc, name, pullbackType);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&pullback.front());
  ValueRange args = pullback.getArguments();
  unsigned n = type.getNumInputs();
  unsigned numSeeds =
      ct::getReverseSignature(type, ct::getDefaultActivities(type))
          .seeds.size();
  SmallVector<Type> results(type.getResults());
  llvm::append_range(results, pullbackType.getResults());
  auto request = ct::PullbackOp::create(
      b, loc, results, target.getSymName(), defaultActivities(b, type),
      args.take_front(n), args.slice(n, numSeeds),
      args.drop_front(n + numSeeds), /*lanes=*/IntegerAttr());
  func::ReturnOp::create(b, loc,
                         request.getResults().drop_front(type.getNumResults()));
  return pullback;
}

/// Defines `name` as the forward-mode derivative of `target` with default
/// activities, in the signature of a JVP rule.
static func::FuncOp defineJvpOf(OpBuilder &b, Location loc, StringRef name,
                                func::FuncOp target) {
  FunctionType type = target.getFunctionType();
  FunctionType jvpType = ct::getJvpRuleType(type);
  func::FuncOp jvp = defineExport(b, loc, name, jvpType);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&jvp.front());
  ValueRange args = jvp.getArguments();
  unsigned n = type.getNumInputs();
  auto request = ct::JvpOp::create(
      b, loc, jvpType.getResults(), target.getSymName(),
      defaultActivities(b, type), args.take_front(n), args.drop_front(n),
      /*lanes=*/IntegerAttr());
  func::ReturnOp::create(b, loc, request.getResults());
  return jvp;
}

void exportDerivatives(ModuleLowering &module,
                       const clang::FunctionDecl *decl) {
  // Other units lower their calls from the declaration, which cannot say
  // that f takes a vector it resizes as the caller's object.
  for (const clang::ParmVarDecl *param : decl->parameters())
    if (ModuleLowering::keepsVectorParameterInMemory(param)) {
      module.error(param->getSourceRange(),
                   "'" + decl->getQualifiedNameAsString() +
                       "' changes the size of its std::vector parameter '" +
                       param->getName() +
                       "', which other translation units cannot see from "
                       "its declaration; define it inline in the header, or "
                       "size the vector before the call");
      return;
    }
  func::FuncOp f = module.getFunction(decl);
  if (!f)
    return;
  FunctionType type = f.getFunctionType();
  Location loc = f.getLoc();
  StringRef symbol = f.getSymName();
  OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getModule().getBody());

  func::FuncOp primal =
      defineExport(b, loc, exportName("primal", symbol), type);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&primal.front());
    auto call = func::CallOp::create(b, loc, f, primal.getArguments());
    func::ReturnOp::create(b, loc, call.getResults());
  }
  func::FuncOp pullback =
      definePullbackOf(b, loc, exportName("pullback", symbol), f);
  func::FuncOp jvp = defineJvpOf(b, loc, exportName("jvp", symbol), f);
  definePullbackOf(b, loc, exportName("pullback_pullback", symbol), pullback);
  defineJvpOf(b, loc, exportName("pullback_jvp", symbol), pullback);
  definePullbackOf(b, loc, exportName("jvp_pullback", symbol), jvp);
  defineJvpOf(b, loc, exportName("jvp_jvp", symbol), jvp);
}

/// Marks the arguments of `function` that come from `decl`'s parameters
/// pointing to const (its first ones: the primal's, also in a derivative's
/// signature) ct.readonly: another unit's code does not write through them.
static void markReadOnlyParameters(const clang::FunctionDecl *decl,
                                   func::FuncOp primal, func::FuncOp function) {
  OpBuilder b(function);
  const auto *method = dyn_cast<clang::CXXMethodDecl>(decl);
  unsigned first = method && method->isInstance() ? 1 : 0;
  // (Only where each parameter is one argument.)
  if (primal.getNumArguments() != first + decl->getNumParams())
    return;
  if (first && method->isConst())
    function.setArgAttr(0, ct::kReadOnlyAttr, b.getUnitAttr());
  for (auto [i, param] : llvm::enumerate(decl->parameters())) {
    clang::QualType type = param->getType().getCanonicalType();
    if ((type->isPointerType() || type->isReferenceType()) &&
        type->getPointeeType().isConstQualified() &&
        isa<MemRefType>(function.getArgumentTypes()[first + i]))
      function.setArgAttr(first + i, ct::kReadOnlyAttr, b.getUnitAttr());
  }
}

void importDerivatives(ModuleLowering &module, const clang::FunctionDecl *decl,
                       func::FuncOp f) {
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
  // Each declared derivative has its own derivatives as rules; those of
  // the highest order exported have none, and say so when asked for.
  auto bindRules = [&](StringRef to, FunctionType toType, StringRef prefix,
                       bool lastOrder) {
    func::FuncOp pullback =
        declare((prefix + "pullback").str(), ct::getPullbackRuleType(toType));
    func::FuncOp jvp =
        declare((prefix + "jvp").str(), ct::getJvpRuleType(toType));
    ct::CustomGradientOp::create(b, f.getLoc(), to, pullback.getSymName());
    ct::CustomJvpOp::create(b, f.getLoc(), to, jvp.getSymName());
    if (lastOrder)
      for (func::FuncOp last : {pullback, jvp}) {
        last->setAttr(ct::kImportedLastOrder, b.getUnitAttr());
        if (Attribute name = f->getAttr("ct.source_name"))
          last->setAttr("ct.source_name", name);
      }
    return std::make_pair(pullback, jvp);
  };
  auto [pullback, jvp] = bindRules(primal, type, "", /*lastOrder=*/false);
  auto [pullbackPullback, pullbackJvp] =
      bindRules(pullback.getSymName(), pullback.getFunctionType(), "pullback_",
                /*lastOrder=*/true);
  auto [jvpPullback, jvpJvp] = bindRules(
      jvp.getSymName(), jvp.getFunctionType(), "jvp_", /*lastOrder=*/true);
  for (func::FuncOp function :
       {f, pullback, jvp, pullbackPullback, pullbackJvp, jvpPullback, jvpJvp})
    markReadOnlyParameters(decl, f, function);
}

} // namespace cotangent::frontend
