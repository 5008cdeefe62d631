//===- MemoryWrites.cpp - Which memory an op may write --------------------===//

#include "Analysis/MemoryWrites.h"
#include "Analysis/CallActivity.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace cotangent;

bool ad::mayAlias(Value a, Value b) {
  for (Value rootA : getMemoryRoots(a))
    for (Value rootB : getMemoryRoots(b))
      if (rootA == rootB ||
          (!isDistinctMemory(rootA) && !isDistinctMemory(rootB)))
        return true;
  return false;
}

ad::MemoryWrites::MemoryWrites(Operation *op) {
  op->walk([&](Operation *nested) {
    if (neverWritesMemory(nested))
      return;
    // Code compiled elsewhere may change any memory the function did not
    // make: variables outside it, and what its arguments point to.
    if (callsExternalCode(nested))
      outsideMemory = true;
    for (Value operand : nested->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      if (auto store = dyn_cast<memref::StoreOp>(nested);
          store && operand != store.getMemRef())
        continue;
      for (Value root : getMemoryRoots(operand)) {
        roots.insert(root);
        outsideMemory |= !isDistinctMemory(root);
      }
    }
  });
}

bool ad::MemoryWrites::mayChange(Value memref) const {
  return llvm::any_of(getMemoryRoots(memref), [&](Value root) {
    return roots.contains(root) || (!isDistinctMemory(root) && outsideMemory);
  });
}
