//===- CallActivity.h - How calls take part in a derivative -----*- C++ -*-===//
//
// What a call passes its callee in a derivative: the activities of its
// arguments, and whether it calls code whose effects the engine cannot see.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_CALLACTIVITY_H
#define COTANGENT_LIB_AD_ANALYSIS_CALLACTIVITY_H

#include "cotangent/AD/Analysis/Activity.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace cotangent::ad {

/// The activities a call gives its callee's arguments: active floats are
/// active, memory with a shadow is dup (unless a function compiled
/// elsewhere only reads it), and so is memory the callee writes that is a
/// by-value copy or that nothing here reads usefully (with a scratch
/// shadow); the rest const.
llvm::SmallVector<ct::Activity>
getCallActivities(mlir::func::CallOp call, const ActivityAnalysis &activity);

/// Whether `call` gives its callee memory that has a derivative here, as
/// a dup argument (memory given only a scratch shadow does not count): the
/// call takes part in reverse mode through it.
bool passesDerivativeMemory(mlir::func::CallOp call,
                            const ActivityAnalysis &activity);

/// Whether argument `i` of `callee`, a function compiled elsewhere
/// (ct.external), points to memory it only reads (ct.readonly).
bool isReadOnlyExternalArgument(mlir::func::FuncOp callee, unsigned i);

/// Whether argument `i` of `function` is its own copy of an aggregate
/// passed by value (ct.by_value) that it may write: where a derivative
/// leaves it constant, it is dup with a zeroed scratch shadow, so that
/// values with derivatives stored into it keep them, as in a local.
bool isWrittenOwnCopy(mlir::func::FuncOp function, unsigned i);

/// Whether `op` calls a function compiled elsewhere (ct.external), or one
/// that does (ct.calls_external): its effects are unknown, so it is run
/// once and never again.
bool callsExternalCode(mlir::Operation *op);

/// Whether the code compiled elsewhere that `op` calls (itself, or through
/// the compiled functions it calls) is only functions of library objects
/// (ct.library_object: members and operators of standard classes) given
/// only memory for which `isOwn` holds of every root, or memory a function
/// made itself on the way down. Such code acts on those objects alone, so
/// running it again on objects made again repeats nothing elsewhere (a
/// table built and read inside a loop's iteration).
bool actsOnlyOnOwnObjects(mlir::Operation *op,
                          llvm::function_ref<bool(mlir::Value root)> isOwn);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_CALLACTIVITY_H
