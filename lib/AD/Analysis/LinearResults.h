//===- LinearResults.h - Loops whose result adjoints are known early -*- C++
//-*-===//
//
// Internal to lib/AD. A loop's iterations can be reversed as soon as each
// one has run (in the forward sweep) when the adjoint of every iteration's
// contribution is known before the loop: its carried values are sums
// (`acc + term`, so every iteration's `acc` has the adjoint of the result),
// and the code after the loop uses the results only linearly, with factors
// computed before the loop, on their way to the returned values.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_LINEARRESULTS_H
#define COTANGENT_LIB_AD_ANALYSIS_LINEARRESULTS_H

#include "cotangent/AD/Analysis/Activity.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace cotangent::ad {

/// The values that hold the running sum `loop` carries at `index`, if it is
/// one: from the block argument through `sum + x`, `x + sum`, `sum - x`,
/// branches that pass the sum on in every region, and nested loops that
/// carry it as a running sum of their own, to the yield at the same
/// position, each flowing on once per path. The adjoint of all of them is
/// that of the loop's result, in every iteration.
std::optional<llvm::DenseSet<mlir::Value>> getRunningSum(mlir::scf::ForOp loop,
                                                         unsigned index);

/// Whether each active value `loop` carries is a running sum.
bool carriesOnlySums(mlir::scf::ForOp loop, const ActivityAnalysis &activity);

/// Whether `value` is known when `op` starts: defined before it in a block
/// around it, or an argument of such a block.
bool isComputedBefore(mlir::Value value, mlir::Operation *op);

/// The ops after `loop` through which its active results reach the return,
/// or values whose adjoint will be known (`isKnown`; the running sums of
/// an enclosing eager loop): each is linear in the values it
/// takes from the loop (or from other ops of the set), with factors known
/// before the loop, or the yield of a branch around the loop, passing the
/// value to the branch's result; each of their values is used only by such
/// ops or the return. Fails if a result is used otherwise.
mlir::FailureOr<llvm::SetVector<mlir::Operation *>>
getLinearResultUses(mlir::scf::ForOp loop, const ActivityAnalysis &activity,
                    llvm::function_ref<bool(mlir::Value)> isKnown = {});

/// Builds, at `b`'s insertion point before `loop`, the adjoints of its
/// results and of the values in `uses` (from getLinearResultUses), given
/// the adjoints `seeds` of returned values (by return operand) and those
/// `knownAdjoint` gives (null for others). `primal` gives a value defined
/// before the loop as `b` sees it, and null for one defined after it (a
/// factor read after the loop is read again before it). A value absent
/// from the map reaches no seeded return.
llvm::DenseMap<mlir::Value, mlir::Value> buildLinearAdjoints(
    mlir::OpBuilder &b, mlir::scf::ForOp loop,
    const llvm::SetVector<mlir::Operation *> &uses,
    llvm::ArrayRef<std::pair<unsigned, mlir::Value>> seeds,
    llvm::function_ref<mlir::Value(mlir::Value)> primal,
    llvm::function_ref<mlir::Value(mlir::Value)> knownAdjoint = {});

/// How `value` reaches a value whose adjoint is known (`isKnown`) or a
/// returned value: the ops it passes, each linear in the value passed to it
/// with a factor known before `before`, and branch yields.
struct LinearPath {
  /// (op, operand number) in order from `value`.
  llvm::SmallVector<std::pair<mlir::Operation *, unsigned>> steps;
  /// The value with a known adjoint, or null if the path ends at the return.
  mlir::Value known;
  /// The return operand it ends at otherwise.
  unsigned returnIndex = 0;
};
std::optional<LinearPath>
getLinearPath(mlir::Value value, mlir::Operation *before,
              llvm::function_ref<bool(mlir::Value)> isKnown);

/// The adjoint of the value a path starts from, given the adjoint of where
/// it ends (`primal` as for buildLinearAdjoints).
mlir::Value
buildPathAdjoint(mlir::OpBuilder &b, mlir::Location loc, const LinearPath &path,
                 mlir::Value endAdjoint,
                 llvm::function_ref<mlir::Value(mlir::Value)> primal);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_LINEARRESULTS_H
