//===- DerivativeCompiler.cpp - One translation unit's derivatives --------===//

#include "cotangent/Driver/DerivativeCompiler.h"
#include "DiagnosticBridge.h"

#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "cotangent/AD/Passes.h"
#include "cotangent/CodeGen/Pipelines.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/OutsideVariables.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "cotangent/Frontend/Lowering.h"
#include "cotangent/Structure/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace cotangent {

DerivativeCompiler::DerivativeCompiler(clang::ASTContext &ast,
                                       CompileOptions options)
    : ast(ast), options(std::move(options)) {
  timing.setEnabled(this->options.timeReport);
  timing.setDisplayMode(DefaultTimingManager::DisplayMode::Tree);
  rootTiming = timing.getRootScope();
  DialectRegistry registry;
  codegen::registerCodeGenInterfaces(registry);
  ad::registerDerivativeRules(registry);
  context.appendDialectRegistry(registry);
  // Diagnostics speak C++: no note that prints the MLIR op they came from.
  context.printOpOnDiagnostic(false);
  frontend::loadFrontendDialects(context);
  module = ModuleOp::create(UnknownLoc::get(&context));
}

DerivativeCompiler::~DerivativeCompiler() = default;

void DerivativeCompiler::dump(
    StringRef suffix, llvm::function_ref<void(llvm::raw_ostream &)> print) {
  if (options.dumpDir.empty())
    return;
  const clang::SourceManager &sm = ast.getSourceManager();
  StringRef mainFile = "input";
  if (auto entry = sm.getFileEntryRefForID(sm.getMainFileID()))
    mainFile = llvm::sys::path::filename(entry->getName());
  llvm::SmallString<256> path(options.dumpDir);
  (void)llvm::sys::fs::create_directories(path);
  llvm::sys::path::append(path, mainFile + suffix);
  std::error_code error;
  llvm::ToolOutputFile out(path, error, llvm::sys::fs::OF_Text);
  if (error) {
    clang::DiagnosticsEngine &diags = ast.getDiagnostics();
    diags.Report(diags.getCustomDiagID(clang::DiagnosticsEngine::Warning,
                                       "cotangent: cannot write %0: %1"))
        << path.str() << error.message();
    return;
  }
  print(out.os());
  out.keep();
}

LogicalResult DerivativeCompiler::refuseInternalCallsFromOwnObject() {
  // The plugin links the derivatives into the unit's own module, where a
  // function with internal linkage is reachable; an object file of their
  // own (cotangent-cc --emit=obj) cannot call one.
  if (options.entryLinkage == llvm::GlobalValue::LinkOnceODRLinkage)
    return success();
  bool refused = false;
  for (auto function : module->getOps<func::FuncOp>()) {
    if (!function->hasAttr(ct::kInternalLinkageAttr))
      continue;
    auto name = function->getAttrOfType<StringAttr>("ct.source_name");
    function.emitError()
        << "'" << (name ? name.getValue() : function.getSymName())
        << "' runs as C++ compiled as written and has internal linkage "
           "('static' or in an unnamed namespace), so derivatives emitted "
           "into an object file of their own cannot call it; give it "
           "external linkage, or compile the file with the plugin";
    refused = true;
  }
  for (auto global : module->getOps<memref::GlobalOp>()) {
    // (A static local's guard, `_ZGV...` in the C++ ABI, has the linkage of
    // the variable, which is reported.)
    if (!global->hasAttr(ct::kInternalLinkageAttr) ||
        global.getSymName().starts_with("_ZGV"))
      continue;
    global.emitError()
        << "'" << ct::getVariableName(global)
        << "' has internal linkage ('static', a static local of such a "
           "function, or in an unnamed namespace), so derivatives emitted "
           "into an object file of their own cannot reach it; give it "
           "external linkage, or compile the file with the plugin";
    refused = true;
  }
  module->walk([&](ct::VTableAddressOp table) {
    if (!table->hasAttr(ct::kInternalLinkageAttr))
      return;
    auto name = table->getAttrOfType<StringAttr>("ct.source_name");
    table.emitError() << "the virtual table of '"
                      << (name ? name.getValue() : table.getSymbol())
                      << "' has internal linkage (the class is in an unnamed "
                         "namespace), so derivatives emitted into an object "
                         "file of their own cannot reach it; give the class "
                         "external linkage, or compile the file with the "
                         "plugin";
    refused = true;
  });
  llvm::StringSet<> reported; // (once per function)
  module->walk([&](ct::FunctionAddressOp address) {
    if (!address->hasAttr(ct::kInternalLinkageAttr) ||
        !reported.insert(address.getSymbol()).second)
      return;
    if (auto lambda = address->getAttrOfType<StringAttr>("ct.lambda")) {
      address.emitError() << "the lambda at " << lambda.getValue()
                          << ", kept as a function pointer, has no "
                             "linkage, and differentiated code compares the "
                             "pointer with its address, which derivatives "
                             "emitted into an object file of their own "
                             "cannot reach; write a function with external "
                             "linkage, or compile the file with the plugin";
      refused = true;
      return;
    }
    auto name = address->getAttrOfType<StringAttr>("ct.source_name");
    address.emitError() << "'" << (name ? name.getValue() : address.getSymbol())
                        << "' has internal linkage ('static' or in an unnamed "
                           "namespace), and differentiated code compares a "
                           "function pointer with its address, which "
                           "derivatives emitted into an object file of their "
                           "own cannot reach; give it external linkage, or "
                           "compile the file with the plugin";
    refused = true;
  });
  return failure(refused);
}

LogicalResult DerivativeCompiler::lower() {
  DiagnosticBridge bridge(&context, ast);
  {
    TimingScope frontendTiming = rootTiming.nest("C++ to MLIR (frontend)");
    if (failed(frontend::lowerTranslationUnit(ast, *module)) ||
        failed(refuseInternalCallsFromOwnObject()))
      return failure();
  }
  PassManager pm(&context);
  pm.addPass(structure::createStructure());
  TimingScope structureTiming = rootTiming.nest("structuring");
  pm.enableTiming(structureTiming);
  if (failed(pm.run(*module)))
    return failure();
  dump(".mlir", [&](llvm::raw_ostream &os) { module->print(os); });
  return success();
}

bool DerivativeCompiler::hasWork() {
  for (auto function : module->getOps<func::FuncOp>())
    if (function->hasAttr(frontend::kEntryPointAttr) ||
        function->hasAttr(frontend::kExportAttr))
      return true;
  return false;
}

LogicalResult DerivativeCompiler::differentiate() {
  DiagnosticBridge bridge(&context, ast);
  PassManager pm(&context);
  ad::AutodiffPipelineOptions autodiff;
  autodiff.unconnected = options.unconnected;
  autodiff.optimize = options.optimizeDerivatives;
  autodiff.autoCheckpoint = options.autoCheckpoint;
  autodiff.strongZero = options.strongZero;
  autodiff.allLoopsParallel = options.parallelizeAllLoops;
  autodiff.deviceLoops = !options.gpuChip.empty();
  ad::buildDerivativesPipeline(pm, autodiff);
  TimingScope derivativesTiming = rootTiming.nest("differentiation");
  pm.enableTiming(derivativesTiming);
  if (failed(pm.run(*module)))
    return failure();
  dump(".ad.mlir", [&](llvm::raw_ostream &os) { module->print(os); });
  return success();
}

namespace {
/// The instantiated definitions of the unit's function templates.
struct FunctionTemplateInstantiations
    : clang::RecursiveASTVisitor<FunctionTemplateInstantiations> {
  bool VisitFunctionTemplateDecl(clang::FunctionTemplateDecl *decl) {
    for (clang::FunctionDecl *spec : decl->specializations())
      if (spec->isThisDeclarationADefinition() &&
          spec->getTemplateSpecializationKind() ==
              clang::TSK_ImplicitInstantiation)
        found.push_back(spec);
    return true;
  }
  std::vector<clang::FunctionDecl *> found;
};
} // namespace

/// The inline functions of the unit that `derivatives` calls (library
/// code run as compiled: std::map's members, std::generate_canonical):
/// an object file of its own cannot count on the unit's object to define
/// them (an optimized unit inlines them and drops its copies), so it gets
/// its own (linkonce_odr) copies, from Clang's CodeGen of the unit. With
/// the plugin too: an optimising Clang emits an inline structor under one
/// of its names only, or folds it into its base's (std::vector<bool>'s
/// destructor), so the unit may lack the names the derivatives call; a
/// copy the unit has wins when the two are linked.
static bool linkLibraryDefinitions(clang::ASTContext &ast,
                                   llvm::Module &derivatives) {
  clang::HeaderSearchOptions headerSearch;
  clang::PreprocessorOptions preprocessor;
  clang::CodeGenOptions codeGen;
  // As Clang compiles for the target by default: a structor's complete-
  // object name an alias of its base-object one, so both are defined (the
  // derivatives call the base-object names).
  codeGen.CXXCtorDtorAliases = true;
  std::unique_ptr<clang::CodeGenerator> generator =
      clang::CreateLLVMCodeGen(ast.getDiagnostics(), "cotangent-library-code",
                               llvm::vfs::getRealFileSystem(), headerSearch,
                               preprocessor, codeGen, derivatives.getContext());
  generator->Initialize(ast);
  for (clang::Decl *decl : ast.getTranslationUnitDecl()->decls())
    generator->HandleTopLevelDecl(clang::DeclGroupRef(decl));
  // Instantiations of function templates are not among the unit's
  // declarations (Sema hands them to CodeGen as it makes them); CodeGen
  // defers each until something uses it.
  FunctionTemplateInstantiations instantiations;
  instantiations.TraverseDecl(ast.getTranslationUnitDecl());
  for (clang::FunctionDecl *function : instantiations.found)
    generator->HandleTopLevelDecl(clang::DeclGroupRef(function));
  generator->HandleTranslationUnit(ast);
  std::unique_ptr<llvm::Module> unit(generator->ReleaseModule());
  if (!unit)
    return false;
  // Only what may be defined in every object file: the unit's own
  // functions and variables (and aliases of them: constructors) stay in
  // the unit's object.
  auto isShared = [](const llvm::GlobalValue &value) {
    return value.hasLinkOnceODRLinkage() || value.hasWeakODRLinkage() ||
           value.hasAvailableExternallyLinkage();
  };
  for (llvm::GlobalAlias &alias : llvm::make_early_inc_range(unit->aliases())) {
    if (isShared(alias))
      continue;
    llvm::GlobalValue *declaration =
        alias.getValueType()->isFunctionTy()
            ? static_cast<llvm::GlobalValue *>(llvm::Function::Create(
                  cast<llvm::FunctionType>(alias.getValueType()),
                  llvm::GlobalValue::ExternalLinkage, "", unit.get()))
            : new llvm::GlobalVariable(*unit, alias.getValueType(), false,
                                       llvm::GlobalValue::ExternalLinkage,
                                       nullptr);
    alias.replaceAllUsesWith(declaration);
    declaration->takeName(&alias);
    alias.eraseFromParent();
  }
  for (llvm::Function &function : *unit) {
    if (!function.isDeclaration() && !isShared(function)) {
      function.deleteBody();
      function.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
    // (Made without optimisation, they are optimised with the derivatives
    // that call them.)
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    function.removeFnAttr(llvm::Attribute::NoInline);
  }
  for (llvm::GlobalVariable &variable : unit->globals())
    if (!variable.isDeclaration() && !isShared(variable) &&
        !variable.hasLocalLinkage()) {
      variable.setInitializer(nullptr);
      variable.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
  unit->setDataLayout(derivatives.getDataLayout());
  unit->setTargetTriple(derivatives.getTargetTriple());
  return !llvm::Linker::linkModules(derivatives, std::move(unit),
                                    llvm::Linker::Flags::LinkOnlyNeeded);
}

std::unique_ptr<llvm::Module>
DerivativeCompiler::translate(llvm::LLVMContext &llvmContext) {
  DiagnosticBridge bridge(&context, ast);
  llvm::StringSet<> entries, exports;
  bool callsLibraryCode = false;
  for (auto function : module->getOps<func::FuncOp>()) {
    if (function->hasAttr(frontend::kEntryPointAttr))
      entries.insert(function.getSymName());
    if (function->hasAttr(frontend::kExportAttr))
      exports.insert(function.getSymName());
    callsLibraryCode |= function->hasAttr(ct::kLibraryObjectAttr) ||
                        function->hasAttr(ct::kLibraryCodeAttr);
  }
  PassManager pm(&context);
  codegen::LowerToLLVMOptions lowering;
  lowering.openmp = ast.getLangOpts().OpenMP != 0;
  lowering.gpuChip = options.gpuChip;
  codegen::buildLowerToLLVMPipeline(pm, lowering);
  TimingScope loweringTiming = rootTiming.nest("lowering to LLVM");
  pm.enableTiming(loweringTiming);
  if (failed(pm.run(*module)))
    return nullptr;
  loweringTiming.stop();
  TimingScope translationTiming = rootTiming.nest("translation to LLVM IR");
  const clang::TargetInfo &target = ast.getTargetInfo();
  std::unique_ptr<llvm::Module> result =
      codegen::translateToLLVMIR(*module, llvmContext, target.getTriple().str(),
                                 target.getDataLayoutString());
  if (!result)
    return nullptr;
  for (llvm::Function &function : *result) {
    if (function.isDeclaration())
      continue;
    // Derivatives do not throw; saying so lets C++ callers drop cleanups.
    function.addFnAttr(llvm::Attribute::NoUnwind);
    if (entries.contains(function.getName())) {
      function.setLinkage(options.entryLinkage);
      if (result->getTargetTriple().isOSBinFormatELF())
        function.setComdat(result->getOrInsertComdat(function.getName()));
    } else if (!exports.contains(function.getName()) &&
               !function.hasLinkOnceODRLinkage()) {
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
  }
  if (callsLibraryCode && !linkLibraryDefinitions(ast, *result)) {
    module->emitError("cannot link the library's code into the derivatives");
    return nullptr;
  }
  dump(".ll", [&](llvm::raw_ostream &os) { result->print(os, nullptr); });
  return result;
}

} // namespace cotangent
