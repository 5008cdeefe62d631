//===- TapeAliasScopes.h - Tape slots alias nothing else --------*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_TRANSFORMS_TAPEALIASSCOPES_H
#define COTANGENT_CODEGEN_TRANSFORMS_TAPEALIASSCOPES_H

#include "llvm/ADT/StringRef.h"

namespace cotangent::codegen {

/// The attribute the tape lowering puts on the loads and stores of tape
/// slots, for ct-tape-alias-scopes.
inline constexpr llvm::StringLiteral kTapeSlotAccess = "ct.tape_slot";

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_TRANSFORMS_TAPEALIASSCOPES_H
