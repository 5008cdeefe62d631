//===- Gotos.cpp - goto and labels ----------------------------------------===//
//
// The function's body is lowered as blocks of one region (loops, `break`,
// `continue` and `return` are branches between them; the Structure pass
// makes structured loops and branches of them again), so `goto label;` is
// a branch to the block `label:` begins. Its scopes are C++'s: a goto
// leaves the blocks `{ ... }` between it and the label's block (their
// vectors and objects destroyed, as `break` destroys them), and a goto
// back to a label also destroys what was declared after the label. A goto
// into a block that has not begun, or forward past a declaration (C++
// allows one past a number left uninitialized), is an error.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

/// The child of `compound` whose source holds `loc`; none if none does.
static std::optional<size_t> childHolding(const clang::CompoundStmt *compound,
                                          clang::SourceLocation loc,
                                          const clang::SourceManager &sources) {
  for (auto [i, child] : llvm::enumerate(compound->body()))
    if (sources.isPointWithin(loc, child->getBeginLoc(), child->getEndLoc()))
      return i;
  return std::nullopt;
}

void FunctionLowering::lowerGoto(const clang::GotoStmt *stmt) {
  Location l = loc(stmt);
  const clang::LabelDecl *label = stmt->getLabel();
  const clang::LabelStmt *target = label->getStmt();
  const clang::SourceManager &sources = ast.getSourceManager();
  // (Blocks are the function body's: inside an operation's region, such as
  // a conditional expression's, there is none to branch to.)
  if (b.getInsertionBlock()->getParent() != &function.getBody())
    return (void)unsupported(stmt, "this 'goto' is inside an expression; "
                                   "rewrite it with 'if', 'break' or "
                                   "'return'");
  // The innermost open block holding the label among its statements.
  const OpenBlock *holder = nullptr;
  for (const OpenBlock &open : llvm::reverse(openBlocks))
    if (llvm::is_contained(open.compound->body(), target)) {
      holder = &open;
      break;
    }
  std::optional<size_t> from =
      holder ? childHolding(holder->compound, stmt->getBeginLoc(), sources)
             : std::nullopt;
  if (!from)
    return (void)unsupported(stmt, "this 'goto' jumps into a block it is not "
                                   "in; put the label in a block that holds "
                                   "the 'goto'");
  ArrayRef<clang::Stmt *> body(holder->compound->body_begin(),
                               holder->compound->body_end());
  size_t to = llvm::find(body, target) - body.begin();
  if (to > *from)
    for (const clang::Stmt *skipped : body.slice(*from + 1, to - *from - 1))
      if (isa<clang::DeclStmt>(skipped))
        return (void)unsupported(stmt, "this 'goto' jumps past a declaration; "
                                       "declare the variable before it");
  Block *block;
  size_t depth;
  if (auto placed = placedLabels.find(label);
      to <= *from && placed != placedLabels.end()) {
    std::tie(block, depth) = placed->second;
  } else {
    Block *&pending = pendingLabels[label];
    if (!pending) {
      // (Made aside: the goto's branch stays in the current block.)
      Block *current = b.getInsertionBlock();
      pending = newBlock();
      enter(current);
    }
    block = pending;
    depth = holder->statementDepth;
  }
  emitCleanups(depth, l);
  branchTo(l, block);
  enter(newBlock());
}

bool FunctionLowering::placeLabel(const clang::LabelStmt *stmt) {
  const clang::LabelDecl *label = stmt->getDecl();
  Block *block = pendingLabels.lookup(label);
  pendingLabels.erase(label);
  if (b.getInsertionBlock()->getParent() != &function.getBody()) {
    if (block)
      unsupported(stmt, "this label is inside an expression; a 'goto' "
                        "cannot jump to it");
    return false;
  }
  if (!block) {
    Block *current = b.getInsertionBlock();
    block = newBlock();
    enter(current);
  }
  branchTo(loc(stmt), block);
  enter(block);
  placedLabels[label] = {block, cleanups.size()};
  return true;
}

void FunctionLowering::lowerLabel(const clang::LabelStmt *stmt) {
  placeLabel(stmt);
  lowerStmt(stmt->getSubStmt());
}

} // namespace cotangent::frontend
