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

/// The places of `loc`, innermost first: an op inlined into a caller has
/// the call site's location around its own (one level per inlining).
static void flattenCallSites(Location loc, SmallVectorImpl<Location> &places) {
  if (auto site = dyn_cast<CallSiteLoc>(loc)) {
    flattenCallSites(site.getCallee(), places);
    flattenCallSites(site.getCaller(), places);
    return;
  }
  places.push_back(loc);
}

/// For a location inside a library's (system header's) code inlined into
/// the user's: the calls that led there, innermost first, up to the first
/// one in the user's code.
static SmallVector<Location> getLibraryCallers(Location loc,
                                               clang::SourceManager &sm) {
  auto inLibrary = [&](Location at) {
    clang::SourceLocation clangLoc = toClang(at, sm);
    return clangLoc.isValid() && sm.isInSystemHeader(clangLoc);
  };
  SmallVector<Location> places, callers;
  flattenCallSites(loc, places);
  if (places.size() < 2 || !inLibrary(places.front()))
    return callers;
  for (Location caller : ArrayRef<Location>(places).drop_front()) {
    callers.push_back(caller);
    if (!inLibrary(caller))
      break;
  }
  return callers;
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
        // Inside a library's code inlined into the user's: the calls that
        // led there, as Clang notes template instantiations.
        for (Location caller : getLibraryCallers(diag.getLocation(), sm))
          report(DiagnosticSeverity::Note, caller, "in a call from here");
        for (Diagnostic &note : diag.getNotes())
          report(DiagnosticSeverity::Note, note.getLocation(), note.str());
        return success();
      }) {}

} // namespace cotangent
