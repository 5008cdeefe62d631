//===- LinearResults.h - Loops whose result adjoints are known early -*- C++ -*-===//
//
// Internal to lib/AD. A loop's iterations can be reversed as soon as each
// one has run (in the forward sweep) when the adjoint of every iteration's
// contribution is known before the loop: its carried values are sums
// (`acc + term`, so every iteration's `acc` has the adjoint of the result),
// and the code after the loop uses the results only linearly, with factors
// computed before the loop, on their way to the returned values.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_LINEARRESULTS_H
#define COTANGENT_LIB_AD_LINEARRESULTS_H

#include "cotangent/AD/Activity.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace cotangent::ad {

/// Whether each active value `loop` carries is a running sum: its block
/// argument's only use is `arg + x`, `x + arg` or `arg - x`, whose only use
/// is the yield at the same position. The adjoint of such a value is the
/// same in every iteration.
bool carriesOnlySums(mlir::scf::ForOp loop, const ActivityAnalysis &activity);

/// The ops after top-level `loop` through which its active results reach
/// the return: each is linear in the values it takes from the loop (or
/// from other ops of the set), with factors defined before the loop, and
/// each of their values is used only by such ops or the return. Fails if
/// a result is used otherwise.
mlir::FailureOr<llvm::SetVector<mlir::Operation *>>
getLinearResultUses(mlir::scf::ForOp loop, const ActivityAnalysis &activity);

/// Builds, at `b`'s insertion point before `loop`, the adjoints of its
/// results and of the values in `uses` (from getLinearResultUses), given
/// the adjoints `seeds` of returned values (by return operand). `primal`
/// gives a value defined before the loop as `b` sees it. A value absent
/// from the map reaches no seeded return.
llvm::DenseMap<mlir::Value, mlir::Value> buildLinearAdjoints(
    mlir::OpBuilder &b, mlir::scf::ForOp loop,
    const llvm::SetVector<mlir::Operation *> &uses,
    llvm::ArrayRef<std::pair<unsigned, mlir::Value>> seeds,
    llvm::function_ref<mlir::Value(mlir::Value)> primal);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_LINEARRESULTS_H
