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
#include "llvm/ADT/DenseSet.h"
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
    // What non-linear operations need: values computed in the iteration
    // count once where they are defined (however often they are used), and
    // loads of memory the loop writes once per store into that memory (the
    // reverse sweep keeps overwritten values, not every read of them).
    loop->walk([&](Operation *op) {
      if (!isNonLinear(op))
        return;
      for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
        // A product by a constant needs only the constant.
        if (isa<arith::MulFOp>(op) &&
            matchPattern(op->getOperand(1 - i), m_Constant()))
          continue;
        if (!isRecorded(operand))
          continue;
        auto load = operand.getDefiningOp<memref::LoadOp>();
        if (!load || writesAnyMemory) {
          needed.insert(operand);
          continue;
        }
        for (Value root : ad::getMemoryRoots(load.getMemRef()))
          readByNonLinear.insert(root);
      }
    });
  }

  std::optional<Bytes> estimate(Block &block) {
    Bytes sum;
    for (BlockArgument argument : block.getArguments())
      if (needed.contains(argument))
        sum.constant += floatBytes(argument.getType());
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

  /// Whether `store` only adds to the element it writes (`m[i] = m[i] + v`,
  /// the element read for nothing else): the value it overwrites is not
  /// needed to reverse it.
  bool isAccumulation(memref::StoreOp store) {
    auto sum = store.getValue().getDefiningOp();
    if (!sum || !isa<arith::AddFOp, arith::SubFOp>(sum))
      return false;
    auto readsElement = [&](memref::LoadOp load) {
      return load.getMemRef() == store.getMemRef() &&
             load.getIndices() == store.getIndices();
    };
    bool added = llvm::any_of(sum->getOperands(), [&](Value operand) {
      auto load = operand.getDefiningOp<memref::LoadOp>();
      return load && readsElement(load) && load->hasOneUse();
    });
    if (!added)
      return false;
    // No other read of the element in the store's block (a non-linear use
    // of it would need the overwritten value).
    return llvm::count_if(loadsIn(store->getBlock(), store.getMemRef()),
                          readsElement) == 1;
  }

  /// The loads of `memory` that are ops of `block` (each block scanned
  /// once).
  ArrayRef<memref::LoadOp> loadsIn(Block *block, Value memory) {
    if (scannedBlocks.insert(block).second)
      for (auto load : block->getOps<memref::LoadOp>())
        loadsByBlock[{block, load.getMemRef()}].push_back(load);
    auto found = loadsByBlock.find({block, memory});
    if (found == loadsByBlock.end())
      return {};
    return found->second;
  }

  /// The bytes `op` adds: its results that non-linear operations need, or,
  /// for a store into memory they read, the value it overwrites (except
  /// where it only adds to the element).
  double recordedBytes(Operation *op) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      bool read =
          llvm::any_of(ad::getMemoryRoots(store.getMemRef()), [&](Value root) {
            return readByNonLinear.contains(root);
          });
      return read && !isAccumulation(store)
                 ? floatBytes(store.getValue().getType())
                 : 0;
    }
    double bytes = 0;
    for (Value result : op->getResults())
      if (needed.contains(result))
        bytes += floatBytes(result.getType());
    return bytes;
  }

  std::optional<Bytes> estimate(Operation &op) {
    std::optional<Bytes> regions = estimateRegions(op);
    if (!regions)
      return std::nullopt;
    return add(Bytes{recordedBytes(&op), {}}, *regions);
  }

  /// What the iterations of `op`'s regions add.
  std::optional<Bytes> estimateRegions(Operation &op) {
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
    Bytes sum;
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
    if (!body->dynamic && body->constant == 0)
      return Bytes{};
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
  llvm::SmallPtrSet<Value, 8> writtenRoots, readByNonLinear;
  llvm::DenseSet<Value> needed;
  llvm::DenseSet<Block *> scannedBlocks;
  llvm::DenseMap<std::pair<Block *, Value>, SmallVector<memref::LoadOp, 2>>
      loadsByBlock;
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
