//===- CotangentPlugin.cpp - Cotangent inside clang -----------------------===//
//
// One shared object, two plugins:
//
// * a Clang AST plugin ("cotangent"): at the end of the translation unit it
//   lowers and differentiates what the unit's entry points need
//   (DerivativeCompiler), translates that to LLVM IR in a context of its
//   own and leaves it, as bitcode, for the LLVM half, which it enables:
//   `-fplugin=` alone is enough.
// * an LLVM pass plugin: at the start of the optimisation pipeline (at every
//   -O level) it links the derivatives into the unit's module, where they
//   are optimised and inlined with their callers. The AST half registers it
//   with clang's backend (CodeGenOptions::PassBuilderCallbacks); it is also
//   a regular pass plugin (`llvmGetPassPluginInfo`) for -fpass-plugin.
//
// Arguments: -fplugin-arg-cotangent-dump-dir=DIR writes every stage;
// -fplugin-arg-cotangent-unconnected=zero|warn|error;
// -fplugin-arg-cotangent-ad-optimizations=on|off;
// -fplugin-arg-cotangent-auto-checkpoint=on|off;
// -fplugin-arg-cotangent-strong-zero (zero times any partial is zero);
// -fplugin-arg-cotangent-parallel-loops=all (testing: every loop is a
// candidate for ct-parallelize-loops);
// -fplugin-arg-cotangent-time-report prints the time of each phase and pass.
//
//===----------------------------------------------------------------------===//

#include "cotangent/Driver/DerivativeCompiler.h"
#include "cotangent/Frontend/CheckpointPragma.h"
#include "cotangent/Frontend/DifferentiableAttr.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <mutex>
#include <vector>

using namespace clang;

namespace {

/// Derivative modules as bitcode, by the name of the translation unit
/// they belong to, from the AST half to the LLVM half of the same process.
class Handoff {
public:
  static Handoff &get() {
    static Handoff instance;
    return instance;
  }
  void put(const std::string &unit, std::string bitcode) {
    std::lock_guard<std::mutex> lock(mutex);
    pending[unit] = std::move(bitcode);
  }
  std::string take(const std::string &unit) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = pending.find(unit);
    if (it == pending.end())
      return {};
    std::string bitcode = std::move(it->second);
    pending.erase(it);
    return bitcode;
  }

private:
  std::mutex mutex;
  std::map<std::string, std::string> pending;
};

void registerLinkDerivatives(llvm::PassBuilder &builder);

//===----------------------------------------------------------------------===//
// The AST half
//===----------------------------------------------------------------------===//

class DerivativeConsumer : public ASTConsumer {
public:
  DerivativeConsumer(cotangent::CompileOptions options, std::string unit,
                     bool generatesCode)
      : options(std::move(options)), unit(std::move(unit)),
        generatesCode(generatesCode) {}

  void HandleTranslationUnit(ASTContext &ast) override {
    if (ast.getDiagnostics().hasErrorOccurred())
      return;
    cotangent::DerivativeCompiler compiler(ast, options);
    if (failed(compiler.lower()) || !compiler.hasWork() ||
        failed(compiler.differentiate()) || !generatesCode)
      return;
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = compiler.translate(context);
    if (!module)
      return;
    std::string bitcode;
    llvm::raw_string_ostream stream(bitcode);
    llvm::WriteBitcodeToFile(*module, stream);
    Handoff::get().put(unit, std::move(bitcode));
  }

private:
  cotangent::CompileOptions options;
  std::string unit;
  bool generatesCode;
};

class CotangentAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer>
  CreateASTConsumer(CompilerInstance &ci, llvm::StringRef file) override {
    // The LLVM half: clang's backend calls these when it builds its pass
    // pipeline (the in-process form of -fpass-plugin).
    ci.getCodeGenOpts().PassBuilderCallbacks.push_back(registerLinkDerivatives);
    frontend::ActionKind action = ci.getFrontendOpts().ProgramAction;
    bool generatesCode =
        action == frontend::EmitObj || action == frontend::EmitAssembly ||
        action == frontend::EmitLLVM || action == frontend::EmitBC ||
        action == frontend::EmitLLVMOnly || action == frontend::EmitCodeGenOnly;
    return std::make_unique<DerivativeConsumer>(options, file.str(),
                                                generatesCode);
  }

  bool ParseArgs(const CompilerInstance &ci,
                 const std::vector<std::string> &args) override {
    DiagnosticsEngine &diags = ci.getDiagnostics();
    for (const std::string &arg : args) {
      auto [key, value] = llvm::StringRef(arg).split('=');
      if (key == "dump-dir") {
        options.dumpDir = value.str();
      } else if (key == "unconnected" &&
                 (value == "zero" || value == "warn" || value == "error")) {
        options.unconnected = value.str();
      } else if (key == "strong-zero" && value.empty()) {
        options.strongZero = true;
      } else if (key == "time-report" && value.empty()) {
        options.timeReport = true;
      } else if (key == "ad-optimizations" &&
                 (value == "on" || value == "off")) {
        options.optimizeDerivatives = value == "on";
      } else if (key == "auto-checkpoint" &&
                 (value == "on" || value == "off")) {
        options.autoCheckpoint = value == "on";
      } else if (key == "parallel-loops" && value == "all") {
        options.parallelizeAllLoops = true;
      } else if (key == "target" && value.starts_with("cuda:sm_") &&
                 value.size() > 8 &&
                 llvm::all_of(value.drop_front(8), llvm::isDigit)) {
        options.gpuChip = value.drop_front(5).str();
      } else {
        diags.Report(diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "cotangent: unknown plugin argument '%0'; expected "
            "dump-dir=DIR, unconnected=zero|warn|error, strong-zero, "
            "ad-optimizations=on|off, auto-checkpoint=on|off, "
            "parallel-loops=all, target=cuda:sm_NN "
            "or time-report"))
            << arg;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  cotangent::CompileOptions options;
};

//===----------------------------------------------------------------------===//
// The LLVM half
//===----------------------------------------------------------------------===//

/// Renames apart the declarations in `derivatives` of functions and
/// variables the unit defines with internal linkage (a `static` custom rule
/// called as compiled, a static local or a `static` variable the code
/// reads): the linker resolves no reference to a local symbol. Returns
/// (new name, the unit's name) for resolveLocalReferences.
std::vector<std::pair<std::string, std::string>>
setAsideLocalReferences(llvm::Module &unit, llvm::Module &derivatives) {
  std::vector<std::pair<std::string, std::string>> renamed;
  auto setAside = [&](llvm::GlobalValue &value) {
    llvm::GlobalValue *local = unit.getNamedValue(value.getName());
    if (!value.isDeclaration() || !local || !local->hasLocalLinkage())
      return;
    std::string name = value.getName().str();
    value.setName("__ct_local_reference." + name);
    renamed.push_back({value.getName().str(), name});
  };
  for (llvm::Function &function : derivatives)
    setAside(function);
  for (llvm::GlobalVariable &variable : derivatives.globals())
    setAside(variable);
  return renamed;
}

/// After linking: uses of each set-aside declaration use the unit's own
/// function or variable.
void resolveLocalReferences(
    llvm::Module &module,
    const std::vector<std::pair<std::string, std::string>> &renamed) {
  for (const auto &[reference, name] : renamed) {
    llvm::GlobalValue *declaration = module.getNamedValue(reference);
    llvm::GlobalValue *local = module.getNamedValue(name);
    if (!declaration || !local)
      continue;
    declaration->replaceAllUsesWith(local);
    declaration->eraseFromParent();
  }
}

/// The sanitizers the unit's code is instrumented by (`-fsanitize=address`
/// marks each function it instruments), on the derivatives too: the
/// sanitizer passes run after this one, and a derivative's loads and stores
/// are checked like the user's.
void addSanitizers(const llvm::Module &module, llvm::Module &derivatives) {
  for (llvm::Attribute::AttrKind kind :
       {llvm::Attribute::SanitizeAddress, llvm::Attribute::SanitizeHWAddress,
        llvm::Attribute::SanitizeMemory, llvm::Attribute::SanitizeThread}) {
    bool instrumented = llvm::any_of(module, [&](const llvm::Function &f) {
      return !f.isDeclaration() && f.hasFnAttribute(kind);
    });
    if (!instrumented)
      continue;
    for (llvm::Function &derivative : derivatives)
      if (!derivative.isDeclaration())
        derivative.addFnAttr(kind);
  }
}

struct LinkDerivativesPass : llvm::PassInfoMixin<LinkDerivativesPass> {
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &) {
    std::string bitcode = Handoff::get().take(module.getModuleIdentifier());
    if (bitcode.empty())
      return llvm::PreservedAnalyses::all();
    llvm::Expected<std::unique_ptr<llvm::Module>> derivatives =
        llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(bitcode, "cotangent-derivatives"),
            module.getContext());
    if (!derivatives) {
      module.getContext().emitError(
          "cotangent: cannot read the derivatives back: " +
          llvm::toString(derivatives.takeError()));
      return llvm::PreservedAnalyses::all();
    }
    (*derivatives)->setDataLayout(module.getDataLayout());
    (*derivatives)->setTargetTriple(module.getTargetTriple());
    // The unit's CPU and features, so that derivatives inline into callers.
    for (const llvm::Function &function : module) {
      if (function.isDeclaration() || !function.hasFnAttribute("target-cpu"))
        continue;
      for (llvm::Function &derivative : **derivatives)
        if (!derivative.isDeclaration())
          for (llvm::StringRef name :
               {"target-cpu", "target-features", "tune-cpu"})
            if (function.hasFnAttribute(name))
              derivative.addFnAttr(function.getFnAttribute(name));
      break;
    }
    addSanitizers(module, **derivatives);
    std::vector<std::pair<std::string, std::string>> renamed =
        setAsideLocalReferences(module, **derivatives);
    if (llvm::Linker::linkModules(module, std::move(*derivatives)))
      module.getContext().emitError(
          "cotangent: cannot link the derivatives into the module");
    resolveLocalReferences(module, renamed);
    return llvm::PreservedAnalyses::none();
  }
  /// Also at -O0 and on optnone functions.
  static bool isRequired() { return true; }
};

void registerLinkDerivatives(llvm::PassBuilder &builder) {
  builder.registerPipelineStartEPCallback(
      [](llvm::ModulePassManager &pm, llvm::OptimizationLevel) {
        pm.addPass(LinkDerivativesPass());
      });
}

} // namespace

static FrontendPluginRegistry::Add<CotangentAction>
    plugin("cotangent",
           "differentiate what ct::gradient<f> and friends ask for");
static ParsedAttrInfoRegistry::Add<cotangent::frontend::DifferentiableAttrInfo>
    differentiableAttr("ct-differentiable", "[[ct::differentiable]]");
static clang::ParsedAttrInfoRegistry::Add<
    cotangent::frontend::CheckpointAttrInfo>
    checkpointAttr("ct-checkpoint", "[[ct::checkpoint]]");
static clang::PragmaHandlerRegistry::Add<
    cotangent::frontend::CheckpointPragmaHandler>
    checkpointPragma("ct", "#pragma ct checkpoint");

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  llvm::PassPluginLibraryInfo info{LLVM_PLUGIN_API_VERSION, "cotangent", "0.1"};
  info.RegisterPassBuilderCallbacks = registerLinkDerivatives;
  return info;
}
