//===- MemoryWrites.cpp - Which memory an op may write --------------------===//

#include "Analysis/MemoryWrites.h"
#include "Analysis/CallActivity.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// The memref operands `op` may write or free: those its declared memory
/// effects name, or all of them where it declares none for a value.
static SmallVector<Value> getWrittenMemRefs(Operation *op) {
  SmallVector<MemoryEffects::EffectInstance> effects;
  auto declared = dyn_cast<MemoryEffectOpInterface>(op);
  if (declared)
    declared.getEffects(effects);
  auto changes = [](const MemoryEffects::EffectInstance &effect) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect());
  };
  bool onValues = declared && llvm::all_of(effects, [&](const auto &effect) {
                    return !changes(effect) || effect.getValue();
                  });
  SmallVector<Value> written;
  for (Value operand : op->getOperands())
    if (isa<MemRefType>(operand.getType()) &&
        (!onValues || llvm::any_of(effects, [&](const auto &effect) {
          return changes(effect) && effect.getValue() == operand;
        })))
      written.push_back(operand);
  return written;
}

SmallVector<Value, 2> ad::MemoryFacts::rootsOf(Value memref) {
  auto [it, inserted] = roots.try_emplace(memref);
  if (inserted)
    it->second = getMemoryRoots(memref);
  return it->second;
}

bool ad::MemoryFacts::isDistinct(Value root) {
  auto [it, inserted] = distinct.try_emplace(root, false);
  if (inserted)
    it->second = isDistinctMemory(root);
  return it->second;
}

SmallVector<Value, 2> ad::MemoryWrites::rootsOf(Value memref) const {
  return facts ? facts->rootsOf(memref) : getMemoryRoots(memref);
}

bool ad::MemoryWrites::isDistinct(Value root) const {
  return facts ? facts->isDistinct(root) : isDistinctMemory(root);
}

ad::MemoryWrites::MemoryWrites(Operation *op, MemoryFacts *facts)
    : facts(facts) {
  op->walk([&](Operation *nested) {
    if (neverWritesMemory(nested))
      return;
    // Code compiled elsewhere may change any memory the function did not
    // make: variables outside it, and what its arguments point to.
    if (callsExternalCode(nested))
      outsideMemory = true;
    for (Value operand : getWrittenMemRefs(nested)) {
      for (Value root : rootsOf(operand)) {
        roots.insert(root);
        outsideMemory |= !isDistinct(root);
      }
    }
  });
}

bool ad::MemoryWrites::mayChange(Value memref) const {
  return llvm::any_of(rootsOf(memref), [&](Value root) {
    return roots.contains(root) || (!isDistinct(root) && outsideMemory);
  });
}

/// Whether a use of `memory`, or of a view of it, may write it (or only
/// store into it, not free it or read addresses from it: `storesOnly`);
/// calls are followed into their callees `depth` deep so far.
static bool mayWrite(Value memory, unsigned depth, bool storesOnly) {
  SmallVector<Value> worklist{memory};
  while (!worklist.empty()) {
    Value view = worklist.pop_back_val();
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::LoadOp, memref::DimOp>(user))
        continue;
      if (storesOnly &&
          (isa<memref::DeallocOp, memref::ExtractAlignedPointerAsIndexOp>(
               user) ||
           (isa<ct::LoadAddressOp>(user) &&
            cast<ct::LoadAddressOp>(user).getHolder() == view)))
        continue;
      if (auto store = dyn_cast<memref::StoreOp>(user)) {
        if (store.getMemRef() == view)
          return true;
        continue;
      }
      if (isa<memref::SubViewOp, memref::CastOp, memref::ReinterpretCastOp,
              memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (auto call = dyn_cast<func::CallOp>(user)) {
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        // Calls are followed a few deep; recursion is assumed to write.
        if (!callee || callee.isExternal() || depth >= 8 ||
            mayWrite(callee.getArgument(use.getOperandNumber()), depth + 1,
                     storesOnly))
          return true;
        continue;
      }
      return true;
    }
  }
  return false;
}

bool ad::mayWriteArgument(func::FuncOp function, unsigned argument) {
  return mayWrite(function.getArgument(argument), 0, /*storesOnly=*/false);
}

bool ad::mayStoreIntoArgument(func::FuncOp function, unsigned argument) {
  return mayWrite(function.getArgument(argument), 0, /*storesOnly=*/true);
}
