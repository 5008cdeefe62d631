//===- TapeAliasScopes.h - Tape slots alias nothing else -------*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_TAPEALIASSCOPES_H
#define COTANGENT_CODEGEN_TAPEALIASSCOPES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace cotangent::codegen {

/// The attribute the tape lowering puts on the loads and stores of tape
/// slots, for createTapeAliasScopesPass.
inline constexpr llvm::StringLiteral kTapeSlotAccess = "ct.tape_slot";

/// `ct-tape-alias-scopes`: in each LLVM function that accesses tape slots,
/// gives those accesses a `tape` alias scope and every other memory access
/// `noalias` of it. Nothing but the tape ops reaches a tape's storage, so
/// this always holds; it spares LLVM the run-time overlap checks between the
/// tape and the user's arrays that otherwise keep reversed loops from
/// vectorising.
std::unique_ptr<mlir::Pass> createTapeAliasScopesPass();
void registerTapeAliasScopesPass();

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_TAPEALIASSCOPES_H
