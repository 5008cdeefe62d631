//===- cotangent-cc.cpp - The Cotangent LibTooling driver -----------------===//
//
//   cotangent-cc file.cpp [--emit=mlir] [-o out] [-- <clang args>]
//
// Parses C++ like the compiler would (it reads compile_commands.json when
// no `--` is given) and prints each stage of Cotangent's pipeline for the
// functions marked [[ct::differentiable]]. Exits with status 1 when the code
// has errors, Clang's or Cotangent's.
//
//===----------------------------------------------------------------------===//

#include "cotangent/Frontend/DifferentiableAttr.h"
#include "cotangent/Frontend/Lowering.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace clang;
using namespace clang::tooling;

static clang::ParsedAttrInfoRegistry::Add<
    cotangent::frontend::DifferentiableAttrInfo>
    differentiableAttr("ct-differentiable", "[[ct::differentiable]]");

static llvm::cl::OptionCategory category("cotangent-cc options");
static llvm::cl::opt<std::string>
    emit("emit", llvm::cl::desc("Stage to print: mlir (the lowered primal)"),
         llvm::cl::init("mlir"), llvm::cl::cat(category));
static llvm::cl::opt<bool>
    printLocations("print-locations",
                   llvm::cl::desc("Print the source location of every op"),
                   llvm::cl::init(false), llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    output("o", llvm::cl::desc("Output file (default: standard output)"),
           llvm::cl::value_desc("file"), llvm::cl::init("-"),
           llvm::cl::cat(category));

namespace {

class LoweringConsumer : public ASTConsumer {
public:
  explicit LoweringConsumer(llvm::raw_ostream &os) : os(os) {}

  void HandleTranslationUnit(ASTContext &ast) override {
    if (ast.getDiagnostics().hasErrorOccurred())
      return;
    mlir::MLIRContext context;
    cotangent::frontend::loadFrontendDialects(context);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
    // Cotangent's errors are Clang diagnostics, so Clang's exit status
    // reflects them.
    if (mlir::failed(cotangent::frontend::lowerTranslationUnit(ast, *module)))
      return;
    if (mlir::failed(mlir::verify(*module))) {
      unsigned id = ast.getDiagnostics().getCustomDiagID(
          DiagnosticsEngine::Error,
          "internal error: the lowered MLIR does not verify");
      ast.getDiagnostics().Report(id);
      return;
    }
    mlir::OpPrintingFlags flags;
    if (printLocations)
      flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
          .useLocalScope();
    module->print(os, flags);
  }

private:
  llvm::raw_ostream &os;
};

class LoweringAction : public ASTFrontendAction {
public:
  explicit LoweringAction(llvm::raw_ostream &os) : os(os) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<LoweringConsumer>(os);
  }

private:
  llvm::raw_ostream &os;
};

class LoweringActionFactory : public FrontendActionFactory {
public:
  explicit LoweringActionFactory(llvm::raw_ostream &os) : os(os) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<LoweringAction>(os);
  }

private:
  llvm::raw_ostream &os;
};

} // namespace

int main(int argc, const char **argv) {
  auto parser = CommonOptionsParser::create(argc, argv, category);
  if (!parser) {
    llvm::errs() << parser.takeError();
    return 1;
  }
  if (emit != "mlir") {
    llvm::errs() << "cotangent-cc: --emit=" << emit
                 << " is not available yet; only --emit=mlir is\n";
    return 1;
  }
  std::error_code error;
  llvm::ToolOutputFile out(output, error, llvm::sys::fs::OF_None);
  if (error) {
    llvm::errs() << "cotangent-cc: cannot open " << output << ": "
                 << error.message() << "\n";
    return 1;
  }
  ClangTool tool(parser->getCompilations(), parser->getSourcePathList());
  // Clang's own headers live next to the installed clang, not next to us.
  tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      "-resource-dir=" COTANGENT_CLANG_RESOURCE_DIR,
      ArgumentInsertPosition::BEGIN));
  tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster("-fsyntax-only", ArgumentInsertPosition::BEGIN));
  LoweringActionFactory factory(out.os());
  int status = tool.run(&factory);
  if (status == 0)
    out.keep();
  return status == 0 ? 0 : 1;
}
