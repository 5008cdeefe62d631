//===- TapeEstimate.cpp - Bytes a loop's iterations record ----------------===//

#include "Checkpointing/TapeEstimate.h"
#include "Checkpointing/AccessBounds.h"
#include "Utils/IRBuilders.h"
#include "cotangent/AD/Analysis/Activity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace cotangent;

namespace {

/// Bytes: a constant part and a part computed at run time (or null).
struct Bytes {
  double constant = 0;
  Value dynamic;
};

/// The bytes of `type` when it is floating-point (a scalar or a vector of
/// them), else 0.
double floatBytes(Type type) {
  int64_t lanes = 1;
  if (auto vector = dyn_cast<VectorType>(type)) {
    lanes = vector.getNumElements();
    type = vector.getElementType();
  }
  auto element = dyn_cast<FloatType>(type);
  return element ? double(lanes) * element.getWidth() / 8 : 0;
}

/// Whether the reverse sweep needs `op`'s operands (beyond their adjoints).
bool isNonLinear(Operation *op) {
  if (isa<arith::MulFOp, arith::DivFOp, arith::RemFOp, arith::MaximumFOp,
          arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp, func::CallOp>(
          op))
    return true;
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return dialect == "math" || (dialect == "ct" && op->getNumResults() == 1 &&
                               floatBytes(op->getResult(0).getType()) > 0);
}

class Estimator {
public:
  Estimator(OpBuilder &b, scf::ForOp loop) : b(b), loop(loop) {
    loop->walk([&](Operation *op) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (!effects) {
        // A call may write any memory it is passed.
        if (isa<CallOpInterface>(op))
          for (Value operand : op->getOperands())
            if (isa<MemRefType>(operand.getType()))
              addWritten(operand);
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> found;
      effects.getEffects(found);
      for (const auto &effect : found) {
        if (!isa<MemoryEffects::Write>(effect.getEffect()))
          continue;
        if (Value value = effect.getValue())
          addWritten(value);
        else
          writesAnyMemory = true;
      }
    });
  }

  std::optional<Bytes> estimate(Block &block) {
    Bytes sum;
    for (Operation &op : block) {
      std::optional<Bytes> part = estimate(op);
      if (!part)
        return std::nullopt;
      sum = add(sum, *part);
    }
    return sum;
  }

  Value materialize(Bytes bytes) {
    if (bytes.dynamic && bytes.constant == 0)
      return bytes.dynamic;
    Value constant = arith::ConstantOp::create(
        b, loop.getLoc(), b.getF64FloatAttr(bytes.constant));
    return bytes.dynamic ? arith::AddFOp::create(b, loop.getLoc(), constant,
                                                 bytes.dynamic)
                               .getResult()
                         : constant;
  }

private:
  void addWritten(Value memory) {
    for (Value root : ad::getMemoryRoots(memory))
      writtenRoots.insert(root);
  }

  bool isDefinedOutside(Value value) {
    return !loop.getRegion().isAncestor(value.getParentRegion());
  }

  /// Whether the reverse sweep could not have `value` without keeping it:
  /// it changes from one iteration to the next, and is not a load of memory
  /// the loop leaves alone (which is read again instead).
  bool isRecorded(Value value) {
    if (isDefinedOutside(value) || matchPattern(value, m_Constant()))
      return false;
    Operation *def = value.getDefiningOp();
    if (!def || writesAnyMemory || !isa<memref::LoadOp>(def))
      return true;
    return llvm::any_of(
        ad::getMemoryRoots(def->getOperand(0)),
        [&](Value root) { return writtenRoots.contains(root); });
  }

  double recordedBytes(Operation *op) {
    if (!isNonLinear(op))
      return 0;
    double bytes = 0;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      // A product by a constant needs only the constant.
      if (isa<arith::MulFOp>(op) &&
          matchPattern(op->getOperand(1 - i), m_Constant()))
        continue;
      if (isRecorded(operand))
        bytes += floatBytes(operand.getType());
    }
    return bytes;
  }

  std::optional<Bytes> estimate(Operation &op) {
    if (auto inner = dyn_cast<scf::ForOp>(op))
      return estimateNested(inner);
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      std::optional<Bytes> then = estimate(*branch.thenBlock());
      std::optional<Bytes> otherwise =
          branch.elseBlock() ? estimate(*branch.elseBlock()) : Bytes{};
      if (!then || !otherwise)
        return std::nullopt;
      return max(*then, *otherwise);
    }
    // Other regions (a while loop's) count once.
    Bytes sum{recordedBytes(&op), {}};
    for (Region &region : op.getRegions())
      for (Block &block : region) {
        std::optional<Bytes> part = estimate(block);
        if (!part)
          return std::nullopt;
        sum = add(sum, *part);
      }
    return sum;
  }

  /// `bound`, a nested loop's bound, as a value known before `loop`
  /// starts: itself, or where it is the counter of a loop nested in `loop`
  /// plus a constant, that counter's first value (for a lower bound) or
  /// bound (for an upper one) plus the constant. A triangular loop's trips
  /// are then over-estimated (the estimate of the pair at most doubled).
  /// Null where there is no such value.
  Value boundBefore(Value bound, bool upper, unsigned depth = 0) {
    if (isDefinedOutside(bound))
      return bound;
    auto [base, offset] = ad::splitConstantOffset(bound);
    auto counter = dyn_cast<BlockArgument>(base);
    auto owner =
        counter
            ? dyn_cast_or_null<scf::ForOp>(counter.getOwner()->getParentOp())
            : scf::ForOp();
    if (!owner || counter != owner.getInductionVar() || depth > 8)
      return {};
    Value end =
        boundBefore(upper ? owner.getUpperBound() : owner.getLowerBound(),
                    upper, depth + 1);
    if (!end || offset == 0)
      return end;
    Location loc = loop.getLoc();
    Value constant = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(end.getType(), offset));
    return arith::AddIOp::create(b, loc, end, constant);
  }

  /// A nested loop's iterations times its trip count, whose bounds must be
  /// known (or bounded) before `loop` starts.
  std::optional<Bytes> estimateNested(scf::ForOp inner) {
    Value lb = boundBefore(inner.getLowerBound(), /*upper=*/false),
          ub = boundBefore(inner.getUpperBound(), /*upper=*/true),
          step = inner.getStep();
    if (!lb || !ub || !isDefinedOutside(step))
      return std::nullopt;
    std::optional<Bytes> body = estimate(*inner.getBody());
    if (!body)
      return std::nullopt;
    std::optional<int64_t> l = getConstantIntValue(lb),
                           u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (l && u && s && *s > 0) {
      double trips = *u > *l ? double((*u - *l + *s - 1) / *s) : 0;
      return Bytes{body->constant * trips,
                   body->dynamic ? scale(body->dynamic, trips) : Value()};
    }
    Location loc = loop.getLoc();
    Value trips = arith::UIToFPOp::create(
        b, loc, b.getF64Type(),
        arith::IndexCastUIOp::create(
            b, loc, b.getI64Type(),
            ad::buildIndexCast(b, loc,
                               ad::buildTripCount(b, loc, lb, ub, step))));
    return Bytes{0, arith::MulFOp::create(b, loc, materialize(*body), trips)};
  }

  Value scale(Value value, double factor) {
    Location loc = loop.getLoc();
    return arith::MulFOp::create(
        b, loc, value,
        arith::ConstantOp::create(b, loc, b.getF64FloatAttr(factor)));
  }

  Bytes add(Bytes x, Bytes y) {
    Value dynamic = x.dynamic;
    if (y.dynamic)
      dynamic =
          dynamic ? arith::AddFOp::create(b, loop.getLoc(), dynamic, y.dynamic)
                        .getResult()
                  : y.dynamic;
    return {x.constant + y.constant, dynamic};
  }

  Bytes max(Bytes x, Bytes y) {
    if (!x.dynamic && !y.dynamic)
      return {std::max(x.constant, y.constant), {}};
    return {0, arith::MaximumFOp::create(b, loop.getLoc(), materialize(x),
                                         materialize(y))};
  }

  OpBuilder &b;
  scf::ForOp loop;
  llvm::SmallPtrSet<Value, 8> writtenRoots;
  bool writesAnyMemory = false;
};

} // namespace

std::optional<Value> ad::buildTapeEstimate(OpBuilder &b, scf::ForOp loop) {
  Estimator estimator(b, loop);
  std::optional<Bytes> bytes = estimator.estimate(*loop.getBody());
  if (!bytes)
    return std::nullopt;
  return estimator.materialize(*bytes);
}
