//===- AccessBounds.h - Which elements of a buffer a function touches -*- C++
//-*-===//
//
// Internal to lib/AD. A C pointer does not carry its extent, so copying the
// memory a checkpointed loop keeps in snapshots needs the range of elements
// the loop's body may touch. This builds code that computes it, by interval
// arithmetic over the index expressions of the body's loads and stores
// (sums, differences, products, casts, loop counters with their bounds),
// into the functions it calls;
// an index computed any other way (read from memory) has no bound.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_CHECKPOINTING_ACCESSBOUNDS_H
#define COTANGENT_LIB_AD_CHECKPOINTING_ACCESSBOUNDS_H

#include "cotangent/AD/Analysis/IndexIntervals.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace cotangent::ad {

/// `value` as a base plus a constant, through additions of constants:
/// `(value, 0)` when it is no such addition.
std::pair<mlir::Value, int64_t> splitConstantOffset(mlir::Value value);

/// Builds at `b` the range of indices `function` may access in its 1-D
/// memref argument `argument` (through views of it and in the functions it
/// passes it to). `known` gives, for scalar arguments of `function` the
/// caller knows, their value at `b`; `ranges` the range of others (a loop
/// counter). An empty range (lo > hi) when nothing is accessed; none if
/// some index cannot be bounded.
std::optional<Interval>
buildAccessRange(mlir::OpBuilder &b, mlir::Location loc,
                 mlir::func::FuncOp function, unsigned argument,
                 const mlir::IRMapping &known,
                 llvm::ArrayRef<std::pair<mlir::Value, Interval>> ranges);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_CHECKPOINTING_ACCESSBOUNDS_H
