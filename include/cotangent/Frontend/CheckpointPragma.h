//===- CheckpointPragma.h - #pragma ct checkpoint ---------------*- C++ -*-===//
//
// `#pragma ct checkpoint` and `#pragma ct checkpoint snapshots(S)` before a
// loop ask reverse mode to keep snapshots of the loop's state instead of
// recording every iteration (binomial checkpointing). The pragma handler
// records where each pragma is; the lowering of a loop looks up the pragma
// right before it. A tool or plugin registers the handler with
//   static clang::PragmaHandlerRegistry::Add<
//       cotangent::frontend::CheckpointPragmaHandler> X("ct", "");
// in its own translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_FRONTEND_CHECKPOINTPRAGMA_H
#define COTANGENT_FRONTEND_CHECKPOINTPRAGMA_H

#include "clang/Lex/Pragma.h"

#include <optional>

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace cotangent::frontend {

/// Handles `#pragma ct ...`.
struct CheckpointPragmaHandler : public clang::PragmaHandler {
  CheckpointPragmaHandler() : clang::PragmaHandler("ct") {}
  void HandlePragma(clang::Preprocessor &pp, clang::PragmaIntroducer introducer,
                    clang::Token &token) override;
};

/// The snapshot count of the `#pragma ct checkpoint` right before `loop`
/// (0: the default), if there is one; marks the pragma used.
std::optional<int64_t> getCheckpointPragma(clang::ASTContext &ast,
                                           const clang::Stmt *loop);

/// Reports the pragmas of the translation unit that no loop follows, and
/// forgets them all; false if it reported any.
bool checkCheckpointPragmas(clang::ASTContext &ast);

} // namespace cotangent::frontend

#endif // COTANGENT_FRONTEND_CHECKPOINTPRAGMA_H
