//===- cotangent-cc.cpp - The Cotangent LibTooling driver -----------------===//
//
//   cotangent-cc file.cpp [--emit=mlir|ad|llvm|asm|obj] [-o out]
//                [--unconnected=zero|warn|error] [-O<n>] [-- <clang args>]
//
// Parses C++ like the compiler would (it reads compile_commands.json when
// no `--` is given) and writes one stage of Cotangent's pipeline for the
// derivatives the file requests. `--emit=obj` writes an object with just
// those derivatives, so that any Itanium-ABI compiler can build the file
// itself and link against it. Exits with status 1 when the code
// has errors, Clang's or Cotangent's.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Pipelines.h"
#include "cotangent/Driver/DebugOptions.h"
#include "cotangent/Driver/DerivativeCompiler.h"
#include "cotangent/Frontend/CheckpointPragma.h"
#include "cotangent/Frontend/DifferentiableAttr.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace clang;
using namespace clang::tooling;

static clang::ParsedAttrInfoRegistry::Add<
    cotangent::frontend::DifferentiableAttrInfo>
    differentiableAttr("ct-differentiable", "[[ct::differentiable]]");
static clang::ParsedAttrInfoRegistry::Add<
    cotangent::frontend::CheckpointAttrInfo>
    checkpointAttr("ct-checkpoint", "[[ct::checkpoint]]");
static clang::PragmaHandlerRegistry::Add<
    cotangent::frontend::CheckpointPragmaHandler>
    checkpointPragma("ct", "#pragma ct checkpoint");

namespace {
enum class Stage { MLIR, AD, LLVM, Asm, Obj, PTX };
} // namespace

static llvm::cl::OptionCategory category("cotangent-cc options");
/// Crashes on purpose once the compiler is set up, to test the crash
/// report (as clang's `#pragma clang __debug crash`).
static llvm::cl::opt<bool> debugCrash("debug-crash", llvm::cl::Hidden,
                                      llvm::cl::cat(category));

static llvm::cl::opt<Stage> emit(
    "emit", llvm::cl::desc("The stage to write"), llvm::cl::init(Stage::MLIR),
    llvm::cl::values(
        clEnumValN(Stage::MLIR, "mlir", "the lowered primal and requests"),
        clEnumValN(Stage::AD, "ad", "the differentiated MLIR"),
        clEnumValN(Stage::LLVM, "llvm", "LLVM IR of the derivatives"),
        clEnumValN(Stage::Asm, "asm", "assembly of the derivatives"),
        clEnumValN(Stage::Obj, "obj",
                   "an object file with the derivatives the file requests"),
        clEnumValN(Stage::PTX, "ptx",
                   "the PTX of the GPU kernels (with --target=cuda:sm_NN)")),
    llvm::cl::cat(category));
static llvm::cl::opt<bool>
    printLocations("print-locations",
                   llvm::cl::desc("Print the source location of every op"),
                   llvm::cl::init(false), llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    output("o", llvm::cl::desc("Output file (default: standard output)"),
           llvm::cl::value_desc("file"), llvm::cl::init("-"),
           llvm::cl::cat(category));
static llvm::cl::opt<std::string> unconnected(
    "unconnected",
    llvm::cl::desc("Unconnected active parameters: zero, warn or error"),
    llvm::cl::init("warn"), llvm::cl::cat(category));
static llvm::cl::opt<bool> adOptimizations(
    "ad-optimizations",
    llvm::cl::desc("Optimise derivatives (off: the plain strategy)"),
    llvm::cl::init(true), llvm::cl::cat(category));
static llvm::cl::opt<bool> autoCheckpoint(
    "auto-checkpoint",
    llvm::cl::desc("Checkpoint loops whose recorded tape would be long, "
                   "chosen when they start"),
    llvm::cl::init(true), llvm::cl::cat(category));
static llvm::cl::opt<bool> strongZero(
    "strong-zero",
    llvm::cl::desc("A zero adjoint or tangent times any partial is zero"),
    llvm::cl::init(false), llvm::cl::cat(category));
static llvm::cl::opt<bool> allLoopsParallel(
    "all-loops-parallel",
    llvm::cl::desc("Treat every loop as parallel (a test of the proof that "
                   "makes derivative loops parallel)"),
    llvm::cl::init(false), llvm::cl::cat(category));
static llvm::cl::opt<std::string> target(
    "target",
    llvm::cl::desc("cuda:sm_NN: loops under '#pragma omp target ... parallel "
                   "for' become kernels for that NVIDIA architecture"),
    llvm::cl::init(""), llvm::cl::cat(category));
static llvm::cl::opt<bool>
    timeReport("time-report",
               llvm::cl::desc("Print the time of each phase and MLIR pass"),
               llvm::cl::init(false), llvm::cl::cat(category));
static llvm::cl::opt<unsigned>
    optLevel("O", llvm::cl::desc("LLVM optimisation level for asm and obj"),
             llvm::cl::init(2), llvm::cl::Prefix, llvm::cl::cat(category));

namespace {

class StageConsumer : public ASTConsumer {
public:
  explicit StageConsumer(llvm::raw_pwrite_stream &os) : os(os) {}

  void HandleTranslationUnit(ASTContext &ast) override {
    if (ast.getDiagnostics().hasErrorOccurred())
      return;
    cotangent::CompileOptions options;
    options.unconnected = unconnected;
    options.optimizeDerivatives = adOptimizations;
    options.autoCheckpoint = autoCheckpoint;
    options.strongZero = strongZero;
    options.parallelizeAllLoops = allLoopsParallel;
    options.timeReport = timeReport;
    llvm::StringRef chip = target;
    if (!chip.empty() &&
        (!chip.consume_front("cuda:") || !chip.starts_with("sm_") ||
         chip.size() < 4 || !llvm::all_of(chip.drop_front(3), llvm::isDigit))) {
      DiagnosticsEngine &diags = ast.getDiagnostics();
      diags.Report(diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "cotangent: unknown target '%0'; expected cuda:sm_NN"))
          << target;
      return;
    }
    options.gpuChip = chip.str();
    // The object stands alone: its entry points must survive to the link.
    options.entryLinkage = llvm::GlobalValue::WeakODRLinkage;
    cotangent::DerivativeCompiler compiler(ast, options);
    if (debugCrash)
      LLVM_BUILTIN_TRAP;
    if (failed(compiler.lower()))
      return;
    if (emit == Stage::MLIR)
      return print(compiler.getModule());
    if (failed(compiler.differentiate()))
      return;
    if (emit == Stage::AD)
      return print(compiler.getModule());
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> module = compiler.translate(llvmContext);
    if (!module)
      return;
    if (emit == Stage::LLVM) {
      module->print(os, nullptr);
      return;
    }
    if (emit == Stage::PTX) {
      // Each kernel module's PTX, as embedded in the object.
      compiler.getModule().walk([&](mlir::gpu::BinaryOp binary) {
        for (auto object :
             binary.getObjects().getAsRange<mlir::gpu::ObjectAttr>())
          os << "// gpu module " << binary.getSymName() << "\n"
             << object.getObject().getValue();
      });
      return;
    }
    std::string error;
    if (failed(cotangent::codegen::emitMachineCode(
            *module, os, emit == Stage::Asm, optLevel, error))) {
      DiagnosticsEngine &diags = ast.getDiagnostics();
      diags.Report(
          diags.getCustomDiagID(DiagnosticsEngine::Error, "cotangent: %0"))
          << error;
    }
  }

private:
  void print(mlir::ModuleOp module) {
    mlir::OpPrintingFlags flags;
    if (printLocations)
      flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
          .useLocalScope();
    module->print(os, flags);
  }

  llvm::raw_pwrite_stream &os;
};

class StageAction : public ASTFrontendAction {
public:
  explicit StageAction(llvm::raw_pwrite_stream &os) : os(os) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<StageConsumer>(os);
  }

private:
  llvm::raw_pwrite_stream &os;
};

class StageActionFactory : public FrontendActionFactory {
public:
  explicit StageActionFactory(llvm::raw_pwrite_stream &os) : os(os) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<StageAction>(os);
  }

private:
  llvm::raw_pwrite_stream &os;
};

} // namespace

int main(int argc, const char **argv) {
  // Stack traces and the crash report line on a crash.
  llvm::InitLLVM init(argc, argv);
  cotangent::registerDebugOptions();
  auto parser = CommonOptionsParser::create(argc, argv, category);
  if (!parser) {
    llvm::errs() << parser.takeError();
    return 1;
  }
  std::error_code error;
  llvm::ToolOutputFile out(output, error,
                           emit == Stage::Obj ? llvm::sys::fs::OF_None
                                              : llvm::sys::fs::OF_Text);
  if (error) {
    llvm::errs() << "cotangent-cc: cannot open " << output << ": "
                 << error.message() << "\n";
    return 1;
  }
  ClangTool tool(parser->getCompilations(), parser->getSourcePathList());
  // Clang's own headers live next to the installed clang, not next to us.
  tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster("-resource-dir=" COTANGENT_CLANG_RESOURCE_DIR,
                                ArgumentInsertPosition::BEGIN));
  tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      "-fsyntax-only", ArgumentInsertPosition::BEGIN));
  StageActionFactory factory(out.os());
  int status = tool.run(&factory);
  if (status == 0)
    out.keep();
  return status == 0 ? 0 : 1;
}
