//===- ExternalCalls.h - Calls of code compiled elsewhere -------*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_EXTERNALCALLS_H
#define COTANGENT_CODEGEN_EXTERNALCALLS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace cotangent::codegen {

/// `ct-lower-external-calls`: every call of a function declared
/// `ct.external` (compiled elsewhere, called where no derivative flows)
/// becomes an `llvm.call` of the function's own symbol with the C ABI:
/// numbers as they are (narrow integers widened as `ct.extend` says), each
/// memref as the address of its first element. The declaration becomes an
/// `llvm.func`.
std::unique_ptr<mlir::Pass> createLowerExternalCallsPass();
void registerLowerExternalCallsPass();

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_EXTERNALCALLS_H
