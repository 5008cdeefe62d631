//===- AllocaScopes.h - Alloca scopes become stack save/restore -*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_ALLOCASCOPES_H
#define COTANGENT_CODEGEN_ALLOCASCOPES_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace cotangent::codegen {

/// `ct-inline-alloca-scopes`: replaces each `memref.alloca_scope` (which
/// convert-scf-to-openmp wraps around a parallel loop's body) by its body
/// between an `llvm.intr.stacksave` and an `llvm.intr.stackrestore`, as its
/// lowering to LLVM would, but before scf becomes cf: the scope's region
/// must stay one block until then, and loops in the body would split it.
std::unique_ptr<mlir::Pass> createInlineAllocaScopesPass();

/// Moves `scope`'s body in front of it, its results replaced by what the
/// body returns, and erases it (ct-inline-alloca-scopes brackets that with
/// a stack save and restore; a GPU kernel's iteration needs neither).
void spliceAllocaScope(mlir::memref::AllocaScopeOp scope);
void registerInlineAllocaScopesPass();

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_ALLOCASCOPES_H
