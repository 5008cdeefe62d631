//===- BitReinterpretations.cpp - Derivatives lost in bits ----------------===//
//
// The bits of a varied floating-point value are followed backwards from
// each floating-point value made of bits: through integer operations, the
// values branches and loops pass on, integer memory (every store into the
// memory a load reads) and calls whose callee reads a floating-point
// value's bits. Integers computed from floating-point values by other
// means (conversions, comparisons) are not bits: their derivative is
// zero, as C++ defines it. An integer parameter of the function is not
// followed into its callers (the inliner has joined most callers and
// callees by then).
//
//===----------------------------------------------------------------------===//

#include "Analysis/BitReinterpretations.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace cotangent::ad {

namespace {
bool isIntegerLike(Type type) {
  return isa<IntegerType, IndexType>(getElementTypeOrSelf(type));
}

/// Whether `cast` reads a floating-point value's bits as an integer.
bool readsFloatBits(ct::BitCastOp cast) {
  return isa<FloatType>(cast.getInput().getType()) &&
         isIntegerLike(cast.getType());
}

class VariedBits {
public:
  VariedBits(func::FuncOp function, const ActivityAnalysis &activity)
      : function(function), activity(activity) {}

  /// Whether the integer `bits` may hold bits of a varied floating-point
  /// value.
  bool mayHold(Value bits) {
    SmallVector<Value> work{bits};
    DenseSet<Value> seen{bits};
    while (!work.empty()) {
      Value value = work.pop_back_val();
      SmallVector<Value> sources;
      if (isVariedBits(value, sources))
        return true;
      for (Value source : sources)
        if (isIntegerLike(source.getType()) && seen.insert(source).second)
          work.push_back(source);
    }
    return false;
  }

private:
  /// Whether `value` is read from a varied floating-point value's bits;
  /// else the values it is computed from, in `sources`.
  bool isVariedBits(Value value, SmallVectorImpl<Value> &sources) {
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      Operation *owner = argument.getOwner()->getParentOp();
      if (owner != function.getOperation())
        passedOn(owner, sources);
      return false;
    }
    Operation *op = value.getDefiningOp();
    if (auto cast = dyn_cast<ct::BitCastOp>(op))
      return readsFloatBits(cast) && activity.isVaried(cast.getInput());
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      storedInto(getMemoryRoot(load.getMemRef()), sources);
      return false;
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      if (callReadsVariedBits(call))
        return true;
    }
    if (op->getNumRegions() != 0)
      passedOn(op, sources);
    sources.append(op->operand_begin(), op->operand_end());
    return false;
  }

  /// What a region op (a loop, a branch) passes on: its operands and what
  /// its regions yield.
  static void passedOn(Operation *op, SmallVectorImpl<Value> &sources) {
    sources.append(op->operand_begin(), op->operand_end());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
          sources.append(block.back().operand_begin(),
                         block.back().operand_end());
  }

  /// The values stored into memory `root`.
  void storedInto(Value root, SmallVectorImpl<Value> &sources) {
    function.walk([&](memref::StoreOp store) {
      if (getMemoryRoot(store.getMemRef()) == root)
        sources.push_back(store.getValueToStore());
    });
  }

  /// Whether `call` gives a varied floating-point value to a callee that
  /// reads a floating-point value's bits as an integer.
  bool callReadsVariedBits(func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isExternal() ||
        llvm::none_of(call.getOperands(),
                      [&](Value v) { return activity.isVaried(v); }))
      return false;
    return callee
        .walk([](ct::BitCastOp cast) {
          return readsFloatBits(cast) ? WalkResult::interrupt()
                                      : WalkResult::advance();
        })
        .wasInterrupted();
  }

  func::FuncOp function;
  const ActivityAnalysis &activity;
};
} // namespace

LogicalResult refuseDerivativesThroughBits(func::FuncOp function,
                                           const ActivityAnalysis &activity) {
  VariedBits bits(function, activity);
  bool lost = false;
  function.walk([&](ct::BitCastOp cast) {
    if (!isa<FloatType>(cast.getType()) ||
        !isIntegerLike(cast.getInput().getType()) ||
        !activity.isUseful(cast.getResult()) || !bits.mayHold(cast.getInput()))
      return;
    cast.emitError(
        "cannot differentiate a floating-point value made from the bits of "
        "one that carries a derivative (read as an integer): no derivative "
        "goes through bits; compute it with floating-point operations "
        "(negating, std::abs and std::copysign written with the sign bit "
        "are recognized), or stop the gradient with ct::stop_gradient");
    lost = true;
  });
  return failure(lost);
}

} // namespace cotangent::ad
