//===- ConstantMemoryWrites.cpp - Derivatives stored where none is kept ---===//

#include "ConstantMemoryWrites.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace cotangent::ad {

static constexpr llvm::StringLiteral kLostDerivative =
    "cannot differentiate: a value that carries a derivative is stored into "
    "memory that is constant here (a parameter not selected for "
    "differentiation); select it, or copy it into a local buffer first";

LogicalResult
refuseDerivativesInConstantMemory(func::FuncOp function,
                                  const ActivityAnalysis &activity) {
  bool lost = false;
  // A derivative is lost only where what is stored is read back into an
  // output; memory nothing reads usefully carries none away.
  auto losesDerivative = [&](Value memory) {
    return !activity.hasShadow(memory) && activity.isUsefulMemory(memory);
  };
  function.walk([&](Operation *op) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (!losesDerivative(store.getMemRef()) ||
          !activity.isActive(store.getValueToStore()))
        return;
    } else if (auto store = dyn_cast<ct::StoreAddressOp>(op)) {
      // (The address of memory of integers, or the null pointer, carries
      // no derivative: a holder without a shadow may keep it.)
      Value view = store.getView();
      if (!losesDerivative(store.getHolder()) ||
          !ct::isDifferentiableMemRef(view.getType()) ||
          !activity.hasShadow(view))
        return;
    } else {
      return;
    }
    op->emitError(kLostDerivative);
    lost = true;
  });
  return failure(lost);
}

} // namespace cotangent::ad
