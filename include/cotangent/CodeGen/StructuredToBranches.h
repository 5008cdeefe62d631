//===- StructuredToBranches.h - scf to cf in linear time --------*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_STRUCTUREDTOBRANCHES_H
#define COTANGENT_CODEGEN_STRUCTUREDTOBRANCHES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace cotangent::codegen {

/// `ct-structured-to-branches`: lowers scf loops and conditionals to cf
/// branches with upstream's patterns, in the conversion driver's order
/// (outer ops before the ops in their regions) except that within a block
/// the last op goes first. Each lowering splits its block after the op; in
/// that order the ops moved by a split are only those up to the next
/// lowered op, so the whole pass is linear in the function's size. (The
/// conversion driver behind `convert-scf-to-cf` goes first to last: every split
/// moves the rest of the function, quadratic in a function with many loops.)
/// What the patterns leave structured (scf.parallel becomes scf.for) is left
/// for `convert-scf-to-cf`.
std::unique_ptr<mlir::Pass> createStructuredToBranchesPass();
void registerStructuredToBranchesPass();

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_STRUCTUREDTOBRANCHES_H
