//===- ControlFlow.cpp - What the engine asks of ops with regions ---------===//

#include "Utils/ControlFlow.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;

bool cotangent::ad::isBranch(Operation *op) {
  auto branch = dyn_cast<RegionBranchOpInterface>(op);
  if (!branch)
    return false;
  for (Region &region : op->getRegions()) {
    if (region.empty())
      continue;
    if (!region.hasOneBlock())
      return false;
    auto terminator = dyn_cast<RegionBranchTerminatorOpInterface>(
        region.front().getTerminator());
    if (!terminator)
      return false;
    SmallVector<RegionSuccessor> successors;
    branch.getSuccessorRegions(RegionBranchPoint(terminator), successors);
    if (!llvm::all_of(successors, [](const RegionSuccessor &successor) {
          return successor.isParent();
        }))
      return false;
  }
  return true;
}
