//===- MemoryWrites.cpp - Which memory an op may write --------------------===//

#include "MemoryWrites.h"

#include "cotangent/AD/Activity.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace cotangent;

bool ad::mayAlias(Value a, Value b) {
  return a == b || (!isLocalAllocation(a) && !isLocalAllocation(b));
}

ad::MemoryWrites::MemoryWrites(Operation *op) {
  op->walk([&](Operation *nested) {
    if (neverWritesMemory(nested))
      return;
    for (Value operand : nested->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      if (auto store = dyn_cast<memref::StoreOp>(nested);
          store && operand != store.getMemRef())
        continue;
      Value root = getMemoryRoot(operand);
      roots.insert(root);
      outsideMemory |= !isLocalAllocation(root);
    }
  });
}

bool ad::MemoryWrites::mayChange(Value memref) const {
  Value root = getMemoryRoot(memref);
  return roots.contains(root) || (!isLocalAllocation(root) && outsideMemory);
}
