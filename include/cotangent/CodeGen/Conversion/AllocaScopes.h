//===- AllocaScopes.h - Alloca scopes spliced into their block --*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_CONVERSION_ALLOCASCOPES_H
#define COTANGENT_CODEGEN_CONVERSION_ALLOCASCOPES_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace cotangent::codegen {

/// Moves `scope`'s body in front of it, its results replaced by what the
/// body returns, and erases it (ct-inline-alloca-scopes brackets that with
/// a stack save and restore; a GPU kernel's iteration needs neither).
void spliceAllocaScope(mlir::memref::AllocaScopeOp scope);

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_CONVERSION_ALLOCASCOPES_H
