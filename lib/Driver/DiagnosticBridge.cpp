//===- DiagnosticBridge.cpp - MLIR diagnostics as Clang's -----------------===//

#include "DiagnosticBridge.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent {

/// The Clang location of the first file location in `loc`.
static clang::SourceLocation toClang(Location loc, clang::SourceManager &sm) {
  clang::SourceLocation result;
  loc->walk([&](Location nested) {
    auto file = dyn_cast<FileLineColLoc>(nested);
    if (!file)
      return WalkResult::advance();
    llvm::Expected<clang::FileEntryRef> entry =
        sm.getFileManager().getFileRef(file.getFilename().getValue());
    if (!entry) {
      llvm::consumeError(entry.takeError());
      return WalkResult::advance();
    }
    result = sm.translateFileLineCol(*entry, file.getLine(), file.getColumn());
    return result.isValid() ? WalkResult::interrupt() : WalkResult::advance();
  });
  return result;
}

static clang::DiagnosticsEngine::Level toClang(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return clang::DiagnosticsEngine::Error;
  case DiagnosticSeverity::Warning:
    return clang::DiagnosticsEngine::Warning;
  case DiagnosticSeverity::Note:
    return clang::DiagnosticsEngine::Note;
  case DiagnosticSeverity::Remark:
    return clang::DiagnosticsEngine::Remark;
  }
  llvm_unreachable("unknown severity");
}

DiagnosticBridge::DiagnosticBridge(MLIRContext *context, clang::ASTContext &ast)
    : ScopedDiagnosticHandler(context, [&ast](Diagnostic &diag) {
        clang::DiagnosticsEngine &engine = ast.getDiagnostics();
        clang::SourceManager &sm = ast.getSourceManager();
        auto report = [&](DiagnosticSeverity severity, Location loc,
                          const std::string &message) {
          unsigned id = engine.getCustomDiagID(toClang(severity), "%0");
          engine.Report(toClang(loc, sm), id) << message;
        };
        report(diag.getSeverity(), diag.getLocation(), diag.str());
        for (Diagnostic &note : diag.getNotes())
          report(DiagnosticSeverity::Note, note.getLocation(), note.str());
        return success();
      }) {}

} // namespace cotangent
