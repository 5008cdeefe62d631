//===- RuleMemory.h - The memory a custom rule's pullback reads -*- C++ -*-===//
//
// Internal to lib/AD. A custom rule's pullback (or a split rule's backward
// half) takes the call's arguments, pointers included, and runs in the
// reverse sweep: it must read each argument's memory as the call left it,
// whatever the code after the call writes there, and also where the
// reverse code has no access to that memory (a buffer of a loop's
// iteration, a split derivative's other half).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_RULES_RULEMEMORY_H
#define COTANGENT_LIB_AD_RULES_RULEMEMORY_H

#include "ReverseMode/ReverseEmitter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace cotangent::ad {

/// In the forward sweep, right after `call` of `callee` (bound to a custom
/// rule): pushes the elements of each memory operand that may not be as the
/// call left it when the reverse sweep runs. Reports and fails where it
/// cannot tell which elements those are.
mlir::LogicalResult keepRuleMemory(mlir::OpBuilder &b,
                                   mlir::func::FuncOp callee,
                                   mlir::func::CallOp call,
                                   reverse::ReverseEmitter &e);

/// In the reverse sweep: replaces in `operands` (the call's operands as
/// the reverse code sees them) the memory keepRuleMemory kept by copies of
/// what it pushed; returns the copies, for the caller to free after the
/// rule's call.
llvm::SmallVector<mlir::Value>
restoreRuleMemory(mlir::OpBuilder &b, mlir::func::CallOp call,
                  llvm::SmallVectorImpl<mlir::Value> &operands,
                  reverse::ReverseEmitter &e);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_RULES_RULEMEMORY_H
