//===- CheckpointPragma.cpp - #pragma ct checkpoint -----------------------===//

#include "cotangent/Frontend/CheckpointPragma.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace cotangent::frontend {

namespace {

struct PragmaRecord {
  SourceLocation at;   // `#pragma`
  SourceLocation last; // the pragma's last token
  int64_t snapshots;   // 0: the default
  bool used = false;
};

/// The pragmas seen in each translation unit being compiled, by its source
/// manager (a tool may compile several files in one process).
llvm::DenseMap<const SourceManager *, llvm::SmallVector<PragmaRecord>> &
records() {
  static llvm::DenseMap<const SourceManager *, llvm::SmallVector<PragmaRecord>>
      all;
  return all;
}

/// The largest snapshot count accepted (the schedule's state is sized by it).
constexpr int64_t kMaxSnapshots = 1 << 20;

void report(Preprocessor &pp, SourceLocation at, llvm::StringRef message) {
  DiagnosticsEngine &diags = pp.getDiagnostics();
  diags.Report(at, diags.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
      << message;
}

/// Skips the rest of the directive.
void skipToEnd(Preprocessor &pp, Token &token) {
  while (token.isNot(tok::eod))
    pp.Lex(token);
}

} // namespace

void CheckpointPragmaHandler::HandlePragma(Preprocessor &pp,
                                           PragmaIntroducer introducer,
                                           Token &token) {
  pp.LexUnexpandedToken(token);
  IdentifierInfo *name = token.getIdentifierInfo();
  if (!name || name->getName() != "checkpoint") {
    report(pp, token.getLocation(),
           "unknown '#pragma ct' directive; Cotangent has "
           "'#pragma ct checkpoint [snapshots(N)]', before a loop");
    return skipToEnd(pp, token);
  }
  SourceLocation last = token.getLocation();
  int64_t snapshots = 0;
  pp.Lex(token);
  if (token.isNot(tok::eod)) {
    IdentifierInfo *clause = token.getIdentifierInfo();
    if (!clause || clause->getName() != "snapshots") {
      report(pp, token.getLocation(),
             "unknown clause of '#pragma ct checkpoint'; expected "
             "'snapshots(N)' with N a positive integer, or nothing");
      return skipToEnd(pp, token);
    }
    pp.Lex(token);
    if (token.isNot(tok::l_paren)) {
      report(pp, token.getLocation(), "expected '(' after 'snapshots'");
      return skipToEnd(pp, token);
    }
    pp.Lex(token);
    SourceLocation literal = token.getLocation();
    uint64_t value = 0;
    if (token.isNot(tok::numeric_constant) ||
        !pp.parseSimpleIntegerLiteral(token, value)) {
      report(pp, token.getLocation(),
             "'snapshots' takes a positive integer literal: how many "
             "copies of the loop's state the reverse sweep may keep");
      return skipToEnd(pp, token);
    }
    // parseSimpleIntegerLiteral has read the token after the literal.
    if (value < 1 || value > uint64_t(kMaxSnapshots)) {
      report(pp, literal, "'snapshots' must be between 1 and 1048576");
      return skipToEnd(pp, token);
    }
    snapshots = int64_t(value);
    if (token.isNot(tok::r_paren)) {
      report(pp, token.getLocation(), "expected ')' after the snapshot count");
      return skipToEnd(pp, token);
    }
    last = token.getLocation();
    pp.Lex(token);
    if (token.isNot(tok::eod)) {
      report(pp, token.getLocation(),
             "unexpected text after '#pragma ct checkpoint snapshots(N)'");
      return skipToEnd(pp, token);
    }
  }
  records()[&pp.getSourceManager()].push_back(
      {introducer.Loc, last, snapshots});
}

/// The first token after the pragma in the file that is not on a directive
/// line (a pragma wrapped in `#ifdef ... #endif` still precedes its loop).
static std::optional<Token> nextTokenAfter(ASTContext &ast,
                                           const PragmaRecord &record) {
  const SourceManager &sources = ast.getSourceManager();
  SourceLocation after =
      Lexer::getLocForEndOfToken(record.last, 0, sources, ast.getLangOpts());
  if (after.isInvalid() || after.isMacroID())
    return std::nullopt;
  auto [file, offset] = sources.getDecomposedLoc(after);
  bool invalid = false;
  llvm::StringRef buffer = sources.getBufferData(file, &invalid);
  if (invalid)
    return std::nullopt;
  Lexer lexer(sources.getLocForStartOfFile(file), ast.getLangOpts(),
              buffer.begin(), buffer.begin() + offset, buffer.end());
  Token token;
  bool inDirective = false;
  while (!lexer.LexFromRawLexer(token) || token.isNot(tok::eof)) {
    if (token.isAtStartOfLine())
      inDirective = token.is(tok::hash);
    if (!inDirective)
      return token;
  }
  return std::nullopt;
}

std::optional<int64_t> getCheckpointPragma(ASTContext &ast, const Stmt *loop) {
  auto found = records().find(&ast.getSourceManager());
  if (found == records().end())
    return std::nullopt;
  SourceLocation begin = ast.getSourceManager().getFileLoc(loop->getBeginLoc());
  for (PragmaRecord &record : found->second)
    if (std::optional<Token> next = nextTokenAfter(ast, record);
        next && next->getLocation() == begin) {
      record.used = true;
      return record.snapshots;
    }
  return std::nullopt;
}

bool checkCheckpointPragmas(ASTContext &ast) {
  auto found = records().find(&ast.getSourceManager());
  if (found == records().end())
    return true;
  bool ok = true;
  DiagnosticsEngine &diags = ast.getDiagnostics();
  for (const PragmaRecord &record : found->second) {
    if (record.used)
      continue;
    // A pragma before a loop of a function nothing differentiates does
    // nothing, as an OpenMP pragma in a serial build.
    std::optional<Token> next = nextTokenAfter(ast, record);
    if (next && next->is(tok::raw_identifier) &&
        llvm::is_contained({"for", "while", "do"}, next->getRawIdentifier()))
      continue;
    diags.Report(record.at,
                 diags.getCustomDiagID(DiagnosticsEngine::Error,
                                       "'#pragma ct checkpoint' must come "
                                       "right before a 'for', 'while' or "
                                       "'do' loop"));
    ok = false;
  }
  records().erase(found);
  return ok;
}

} // namespace cotangent::frontend
