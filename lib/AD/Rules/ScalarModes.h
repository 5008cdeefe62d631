//===- ScalarModes.h - Every mode from an op's partials ---------*- C++ -*-===//
//
// Forward and reverse mode of an op with a ScalarDerivativeOpInterface
// rule, written once: forward mode multiplies the partials by the
// operands' tangents and sums; reverse mode multiplies the result's adjoint
// by each partial and accumulates into the operands.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_RULES_SCALARMODES_H
#define COTANGENT_LIB_AD_RULES_SCALARMODES_H

#include "DerivativeRegistry.h"
#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "cotangent/AD/Interfaces/ScalarDerivativeOpInterface.h"
namespace cotangent::ad {

mlir::LogicalResult emitScalarTangent(mlir::Operation *op,
                                      mlir::OpBuilder &builder,
                                      ForwardEmitter &emitter);
mlir::LogicalResult emitScalarReverse(mlir::Operation *op,
                                      mlir::OpBuilder &builder,
                                      reverse::ReverseEmitter &emitter);

template <typename Op>
struct ScalarForwardModel
    : public ForwardModeOpInterface::ExternalModel<ScalarForwardModel<Op>, Op> {
  mlir::LogicalResult emitTangent(mlir::Operation *op, mlir::OpBuilder &b,
                                  ForwardEmitter &emitter) const {
    return emitScalarTangent(op, b, emitter);
  }
};

template <typename Op>
struct ScalarReverseModel
    : public ReverseModeOpInterface::ExternalModel<ScalarReverseModel<Op>, Op> {
  mlir::LogicalResult emitReverse(mlir::Operation *op, mlir::OpBuilder &b,
                                  reverse::ReverseEmitter &emitter) const {
    return emitScalarReverse(op, b, emitter);
  }
};

/// Forward and reverse mode of `Op` from its partials.
template <typename Op> void attachScalarModes(mlir::MLIRContext *context) {
  Op::template attachInterface<ScalarForwardModel<Op>, ScalarReverseModel<Op>>(
      *context);
}

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_RULES_SCALARMODES_H
