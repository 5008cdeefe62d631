//===- Vector.cpp - Differentiating the lanes of vector mode --------------===//
//
// Vector mode (ct::lanes) carries K derivatives in vectors of floats; a
// derivative made that way, differentiated again, moves values between
// scalars and lanes with linear ops: a broadcast of a scalar to every lane,
// the extraction of one lane, a vector made of scalars, and (made by the
// reverse of those) the sum of the lanes and the insertion of one lane;
// vector mode over vector-mode code adds broadcasts of lanes along outer
// lanes and transposes. Each one's tangent is the same op on the
// tangents, and its reverse the transpose (a sum over the broadcast
// dimensions and a broadcast, one lane placed among zeros and extracted,
// the lanes split apart, the inverse permutation). Elementwise arithmetic on
// vectors follows the scalar rules; whole-lane loads and stores become
// element accesses first (scalarizeLaneAccesses).
//
//===----------------------------------------------------------------------===//

#include "DerivativeRegistry.h"
#include "ForwardMode/ForwardEmitter.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Utils/IRBuilders.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

namespace {

/// A broadcast that adds leading dimensions only (of a scalar to every
/// lane; of lanes along outer lanes, in lanes of lanes): no dimension of
/// the source is stretched.
bool isLeadingBroadcast(vector::BroadcastOp op) {
  auto source = dyn_cast<VectorType>(op.getSource().getType());
  return !source || op.getResultVectorType().getShape().take_back(
                        source.getRank()) == source.getShape();
}

/// The sum of the lanes of a vector of one dimension, no accumulator.
bool isLaneSum(vector::ReductionOp op) {
  return op.getKind() == vector::CombiningKind::ADD && !op.getAcc() &&
         op.getSourceVectorType().getRank() == 1;
}

/// The forms vector mode (and vector mode over vector-mode code) makes;
/// other vector code has no rules here.
LogicalResult checkSupported(Operation *op) {
  bool supported = true;
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op))
    supported = isLeadingBroadcast(broadcast);
  else if (auto extract = dyn_cast<vector::ExtractOp>(op))
    supported = extract.getDynamicPosition().empty();
  else if (auto insert = dyn_cast<vector::InsertOp>(op))
    supported = insert.getDynamicPosition().empty();
  else if (auto sum = dyn_cast<vector::ReductionOp>(op))
    supported = isLaneSum(sum);
  if (supported)
    return success();
  return op->emitError("cannot differentiate this use of vector lanes: "
                       "only broadcasts along new lanes, lanes at constant "
                       "positions, sums of lanes, transposes and vectors "
                       "made of scalars have derivative rules");
}

/// The tangent of each vector op is the op itself applied to the operands'
/// tangents (0 for inactive ones).
template <typename Op>
struct LinearLaneForward
    : public ForwardModeOpInterface::ExternalModel<LinearLaneForward<Op>, Op> {
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
    emitter.setTangent(op->getResult(0), b.clone(*op, tangents)->getResult(0));
    return success();
  }
};

template <typename Op>
struct LinearLaneReverse
    : public ReverseModeOpInterface::ExternalModel<LinearLaneReverse<Op>, Op> {
  LogicalResult emitReverse(Operation *op, OpBuilder &b,
                            ReverseEmitter &emitter) const {
    if (failed(checkSupported(op)))
      return failure();
    Location loc = op->getLoc();
    Value adjoint = emitter.readAndZero(b, loc, op->getResult(0));
    auto accumulate = [&](Value operand, Value contribution) {
      if (emitter.getActivity().isActive(operand))
        emitter.accumulate(b, loc, operand, contribution);
    };
    if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
      // Every lane read the source: its adjoint is their sum, over the
      // leading dimensions the broadcast added.
      accumulate(broadcast.getSource(),
                 sumOverLeading(b, loc, adjoint, broadcast.getSourceType()));
    } else if (auto transpose = dyn_cast<vector::TransposeOp>(op)) {
      ArrayRef<int64_t> order = transpose.getPermutation();
      SmallVector<int64_t> inverse(order.size());
      for (auto [to, from] : llvm::enumerate(order))
        inverse[from] = to;
      accumulate(transpose.getVector(),
                 vector::TransposeOp::create(b, loc, adjoint, inverse));
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
                 vector::BroadcastOp::create(b, loc, sum.getSourceVectorType(),
                                             adjoint));
    } else {
      auto elements = cast<vector::FromElementsOp>(op);
      ArrayRef<int64_t> shape = elements.getType().getShape();
      for (auto [k, element] : llvm::enumerate(elements.getElements()))
        accumulate(element, vector::ExtractOp::create(
                                b, loc, adjoint,
                                delinearize(static_cast<int64_t>(k), shape)));
    }
    return success(!emitter.hadFailure());
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
