//===- IndexIntervals.h - Bounds of a loop's index expressions --*- C++ -*-===//

#ifndef COTANGENT_AD_ANALYSIS_INDEXINTERVALS_H
#define COTANGENT_AD_ANALYSIS_INDEXINTERVALS_H

#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace cotangent::ad {

/// An inclusive range of index values.
struct Interval {
  mlir::Value lo, hi;
};

/// The interval of `result`, an operation's result, from those of the
/// values it is computed from (`operand` gives them, or none), built with
/// `b` at `loc` and folded as built: integer casts keep it (an integer of
/// at most 8 bits widened without one has its type's range); +, -, *, signed
/// min and max, select, signed division and remainder by a positive
/// constant, and the result of an scf.if (either branch's value). None for
/// other ops, or when an operand has none. The interval arithmetic every
/// bound in the engine uses (IntervalBuilder, and checkpoints' access
/// ranges).
std::optional<Interval> buildResultInterval(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value result,
    llvm::function_ref<std::optional<Interval>(mlir::Value)> operand);

/// The values the counter of a loop from `lb` below `ub` by `step` (a
/// positive constant, or 1 where unknown to be larger) takes: [lb, ub - 1],
/// narrowed to the last value a step reaches, lb + floor((ub - 1 - lb) /
/// step) * step, where the loop starts at one value (so that `i + 3` in a
/// loop `i < n` by 4 over a multiple n of 4 stays below n).
Interval buildCounterInterval(mlir::OpBuilder &b, mlir::Location loc,
                              Interval lb, Interval ub, int64_t step);

/// Bounds, built before `loop` (an scf.for or scf.parallel), of index
/// expressions in its body: sums, differences, products, min/max and
/// divisions by positive constants of constants, values computed before the
/// loop (or from them only, by pure operations: hoisted) and counters of
/// scf.for and scf.parallel loops (with their bounds). Private copies of
/// accumulated buffers and the device copies of a GPU loop's arrays are
/// sized with them.
class IntervalBuilder {
public:
  explicit IntervalBuilder(mlir::Operation *loop) : loop(loop), b(loop) {}

  /// The bounds of `value`, or none if it is not such an expression.
  std::optional<Interval> get(mlir::Value value);

private:
  mlir::Value hoist(mlir::Value value, unsigned depth = 6);
  std::optional<Interval> compute(mlir::Value value);

  mlir::Operation *loop;
  mlir::OpBuilder b;
  llvm::DenseMap<mlir::Value, Interval> cache;
};

} // namespace cotangent::ad

#endif // COTANGENT_AD_ANALYSIS_INDEXINTERVALS_H
