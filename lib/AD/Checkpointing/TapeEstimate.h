//===- TapeEstimate.h - Bytes a loop's iterations record -----*- C++ -*-===//
//
// Internal to lib/AD/Checkpointing. Whether to checkpoint a loop on its own
// (AutoCheckpoints.cpp) depends on how much its recorded reverse sweep
// would keep. Before differentiation that is estimated from the ops: the
// operands of non-linear floating-point ops (products, quotients, math
// functions) that change from one iteration to the next and cannot be read
// again from memory the loop leaves alone, times the trips of the loops
// nested in it. The estimate is built as code, since trip counts are
// known only when the loop starts.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_CHECKPOINTING_TAPEESTIMATE_H
#define COTANGENT_LIB_AD_CHECKPOINTING_TAPEESTIMATE_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace cotangent::ad {

/// Builds at `b` (before `loop`) the estimated bytes one iteration of
/// `loop` records, as an f64; none when a nested loop's trip count is not
/// known before `loop` starts (it depends on the iteration).
std::optional<mlir::Value> buildTapeEstimate(mlir::OpBuilder &b,
                                             mlir::scf::ForOp loop);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_CHECKPOINTING_TAPEESTIMATE_H
