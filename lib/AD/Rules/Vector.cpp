//===- Vector.cpp - Differentiating the lanes of vector mode --------------===//
//
// Vector mode (ct::lanes) carries K derivatives in vectors of floats; a
// derivative made that way, differentiated again, moves values between
// scalars and lanes with linear ops: a broadcast of a scalar to every lane,
// the extraction of one lane, a vector made of scalars, and (made by the
// reverse of those) the sum of the lanes and the insertion of one lane.
// Each one's tangent is the same op on the tangents, and its reverse the
// transpose (a sum over the lanes and a broadcast, one lane placed among
// zeros and extracted, the lanes split apart). Elementwise arithmetic on
// vectors follows the scalar rules; whole-lane loads and stores become
// element accesses first (scalarizeLaneAccesses).
//
//===----------------------------------------------------------------------===//

#include "../Derivatives.h"
#include "../ForwardEmitter.h"
#include "../ReverseEmitter.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

namespace {

/// A broadcast of a scalar to every lane (the only broadcast vector mode
/// makes).
bool isScalarBroadcast(vector::BroadcastOp op) {
  return !isa<VectorType>(op.getSource().getType());
}

/// One lane, at a constant position, of a vector of one dimension.
bool isLaneExtract(vector::ExtractOp op) {
  return op.getSourceVectorType().getRank() == 1 &&
         op.getDynamicPosition().empty() && !isa<VectorType>(op.getType());
}

/// One lane, at a constant position, of a vector of one dimension.
bool isLaneInsert(vector::InsertOp op) {
  return op.getDestVectorType().getRank() == 1 &&
         op.getDynamicPosition().empty() &&
         !isa<VectorType>(op.getValueToStoreType());
}

/// The sum of the lanes, with no accumulator.
bool isLaneSum(vector::ReductionOp op) {
  return op.getKind() == vector::CombiningKind::ADD && !op.getAcc() &&
         op.getSourceVectorType().getRank() == 1;
}

/// The forms vector mode makes; other vector code has no rules here.
LogicalResult checkSupported(Operation *op) {
  auto isNested = [](Type type) {
    auto vector = dyn_cast<VectorType>(type);
    return vector && vector.getRank() > 1;
  };
  if (llvm::any_of(op->getOperandTypes(), isNested) ||
      llvm::any_of(op->getResultTypes(), isNested))
    return op->emitError(
        "a derivative in vector mode over vector-mode code (ct::lanes, "
        "ct::jacobian or ct::hessian of a function that itself uses vector "
        "mode) cannot be differentiated again yet; compute one of the two "
        "vector-mode levels one lane at a time (ct::hvp, ct::pullback or "
        "ct::jvp without ct::lanes)");
  bool supported;
  if (isa<vector::TransposeOp>(op))
    supported = false;
  else if (auto broadcast = dyn_cast<vector::BroadcastOp>(op))
    supported = isScalarBroadcast(broadcast);
  else if (auto extract = dyn_cast<vector::ExtractOp>(op))
    supported = isLaneExtract(extract);
  else if (auto insert = dyn_cast<vector::InsertOp>(op))
    supported = isLaneInsert(insert);
  else if (auto sum = dyn_cast<vector::ReductionOp>(op))
    supported = isLaneSum(sum);
  else
    supported = cast<vector::FromElementsOp>(op).getType().getRank() == 1;
  if (supported)
    return success();
  return op->emitError("cannot differentiate this use of vector lanes: "
                       "only broadcasts of scalars, single lanes, sums of "
                       "lanes and vectors made of scalars have derivative "
                       "rules");
}

/// The tangent of each vector op is the op itself applied to the operands'
/// tangents (0 for inactive ones).
template <typename Op>
struct LinearLaneForward
    : public ForwardModeOpInterface::ExternalModel<LinearLaneForward<Op>,
                                                   Op> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    if (failed(checkSupported(op)))
      return failure();
    emitter.clonePrimal(b, *op);
    if (!emitter.isActive(op->getResult(0)))
      return success();
    IRMapping tangents;
    for (Value operand : op->getOperands())
      tangents.map(operand, emitter.tangent(b, op->getLoc(), operand));
    emitter.setTangent(op->getResult(0),
                       b.clone(*op, tangents)->getResult(0));
    return success();
  }
};

template <typename Op>
struct LinearLaneReverse
    : public ReverseModeOpInterface::ExternalModel<LinearLaneReverse<Op>,
                                                   Op> {
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    if (failed(checkSupported(op)))
      return failure();
    Location loc = op->getLoc();
    Value adjoint = emitter.readAndZero(b, loc, op->getResult(0));
    auto accumulate = [&](Value operand, Value contribution) {
      if (emitter.activity.isActive(operand))
        emitter.accumulate(b, loc, operand, contribution);
    };
    if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
      // Every lane read the scalar: its adjoint is their sum.
      accumulate(broadcast.getSource(),
                 vector::ReductionOp::create(b, loc,
                                             vector::CombiningKind::ADD,
                                             adjoint));
    } else if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
      Value zero = buildZero(b, loc, extract.getSourceVectorType());
      accumulate(extract.getSource(),
                 vector::InsertOp::create(b, loc, adjoint, zero,
                                          extract.getStaticPosition()));
    } else if (auto insert = dyn_cast<vector::InsertOp>(op)) {
      // The inserted lane takes that lane's adjoint; the rest of the
      // vector, the others.
      ArrayRef<int64_t> position = insert.getStaticPosition();
      accumulate(insert.getValueToStore(),
                 vector::ExtractOp::create(b, loc, adjoint, position));
      Value zero = buildZero(b, loc, insert.getValueToStoreType());
      accumulate(insert.getDest(),
                 vector::InsertOp::create(b, loc, zero, adjoint, position));
    } else if (auto sum = dyn_cast<vector::ReductionOp>(op)) {
      accumulate(sum.getVector(),
                 vector::BroadcastOp::create(
                     b, loc, sum.getSourceVectorType(), adjoint));
    } else {
      auto elements = cast<vector::FromElementsOp>(op);
      for (auto [k, element] : llvm::enumerate(elements.getElements()))
        accumulate(element, vector::ExtractOp::create(
                                b, loc, adjoint, static_cast<int64_t>(k)));
    }
    return success(!emitter.hadError);
  }
};

} // namespace

template <typename... Ops> static void attachLaneModels(MLIRContext *context) {
  (Ops::template attachInterface<LinearLaneForward<Ops>,
                                 LinearLaneReverse<Ops>>(*context),
   ...);
}

void ad::registerVectorDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, vector::VectorDialect *) {
    attachLaneModels<vector::BroadcastOp, vector::ExtractOp,
                     vector::FromElementsOp, vector::InsertOp,
                     vector::ReductionOp, vector::TransposeOp>(context);
  });
}
