//===- LaneAccesses.cpp - Whole-lane accesses as element accesses ---------===//

#include "cotangent/Dialect/CT/IR/LaneAccesses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace cotangent;

/// The indices of lane `k` of an access at `indices`: the last one plus k.
static SmallVector<Value> laneIndices(OpBuilder &b, Location loc,
                                      ValueRange indices, int64_t k) {
  SmallVector<Value> shifted(indices);
  if (k != 0)
    shifted.back() = arith::AddIOp::create(
        b, loc, shifted.back(), arith::ConstantIndexOp::create(b, loc, k));
  return shifted;
}

void ct::scalarizeLaneAccesses(Operation *root,
                               function_ref<bool(VectorType)> which) {
  SmallVector<Operation *> accesses;
  root->walk([&](Operation *op) {
    if (auto load = dyn_cast<vector::LoadOp>(op);
        load && load.getVectorType().getRank() == 1 &&
        !load.getIndices().empty() && which(load.getVectorType()))
      accesses.push_back(op);
    if (auto store = dyn_cast<vector::StoreOp>(op);
        store && store.getVectorType().getRank() == 1 &&
        !store.getIndices().empty() && which(store.getVectorType()))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto load = dyn_cast<vector::LoadOp>(op)) {
      VectorType type = load.getVectorType();
      SmallVector<Value> elements;
      for (int64_t k = 0; k < type.getNumElements(); ++k)
        elements.push_back(memref::LoadOp::create(
            b, loc, load.getBase(), laneIndices(b, loc, load.getIndices(), k)));
      load.replaceAllUsesWith(
          vector::FromElementsOp::create(b, loc, type, elements).getResult());
    } else {
      auto store = cast<vector::StoreOp>(op);
      VectorType type = store.getVectorType();
      for (int64_t k = 0; k < type.getNumElements(); ++k)
        memref::StoreOp::create(
            b, loc,
            vector::ExtractOp::create(b, loc, store.getValueToStore(), k),
            store.getBase(), laneIndices(b, loc, store.getIndices(), k));
    }
    op->erase();
  }
}
