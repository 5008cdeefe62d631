//===- ParallelLoops.h - Marked loops become scf.parallel -------*- C++ -*-===//

#ifndef COTANGENT_LIB_STRUCTURE_PARALLELLOOPS_H
#define COTANGENT_LIB_STRUCTURE_PARALLELLOOPS_H

#include "mlir/IR/BuiltinOps.h"

namespace cotangent::structure {

/// Turns each scf.for that a `ct.parallel_loop` marker opens (with the
/// loops its `collapse` takes) into an scf.parallel whose reductions are
/// the marker's; reports loops that carry other values from one iteration
/// to the next.
mlir::LogicalResult convertParallelLoops(mlir::ModuleOp module);

} // namespace cotangent::structure

#endif // COTANGENT_LIB_STRUCTURE_PARALLELLOOPS_H
