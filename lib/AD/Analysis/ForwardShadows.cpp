//===- ForwardShadows.cpp - Shadows the forward half of a split needs -----===//

#include "Analysis/ForwardShadows.h"

#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

/// Whether `value` may be memory an argument of `function` gives access to.
static bool reachesArgument(Value value, func::FuncOp function) {
  if (!isa<MemRefType>(value.getType()))
    return false;
  Block *entry = &function.getBody().front();
  return llvm::any_of(getMemoryRoots(value), [&](Value root) {
    auto argument = dyn_cast<BlockArgument>(root);
    return argument && argument.getOwner() == entry;
  });
}

/// Whether `function` itself loads or stores an address in its arguments'
/// memory, or stores the address of an argument's memory.
static bool keepsAddressesInArguments(func::FuncOp function) {
  return function
      .walk([&](Operation *op) {
        if (auto load = dyn_cast<ct::LoadAddressOp>(op))
          if (reachesArgument(load.getHolder(), function))
            return WalkResult::interrupt();
        if (auto store = dyn_cast<ct::StoreAddressOp>(op))
          if (reachesArgument(store.getHolder(), function) ||
              reachesArgument(store.getView(), function))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

void ForwardShadowNeeds::analyzeModule() {
  needs.clear();
  SmallVector<func::FuncOp> functions;
  for (auto function : module.getOps<func::FuncOp>()) {
    bool direct = !function.isExternal() && keepsAddressesInArguments(function);
    needs[function] = direct;
    if (!function.isExternal() && !direct)
      functions.push_back(function);
  }
  // A function passing its arguments' memory to one that needs it needs it
  // too; to a fixed point, for recursion.
  SymbolTable symbols(module);
  for (bool changed = true; changed;) {
    changed = false;
    for (func::FuncOp function : functions) {
      if (needs[function])
        continue;
      bool passes = function
                        .walk([&](func::CallOp call) {
                          auto callee =
                              symbols.lookup<func::FuncOp>(call.getCallee());
                          if (callee && needs.lookup(callee) &&
                              llvm::any_of(call.getOperands(), [&](Value v) {
                                return reachesArgument(v, function);
                              }))
                            return WalkResult::interrupt();
                          return WalkResult::advance();
                        })
                        .wasInterrupted();
      if (passes)
        needs[function] = changed = true;
    }
  }
}

bool ForwardShadowNeeds::needsArgumentShadows(func::FuncOp function) {
  // Functions made since (derivatives differentiated again) are new to it.
  if (!needs.contains(function))
    analyzeModule();
  return needs.lookup(function);
}
