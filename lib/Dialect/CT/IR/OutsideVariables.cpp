//===- OutsideVariables.cpp - Variables outside a function ----------------===//

#include "cotangent/Dialect/CT/IR/OutsideVariables.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace cotangent::ct {

memref::GlobalOp getOutsideVariable(Value memory) {
  while (auto view = memory.getDefiningOp<ViewLikeOpInterface>())
    memory = view.getViewSource();
  auto get = memory.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return nullptr;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  return global && !global.getConstant() ? global : nullptr;
}

memref::GlobalOp getWrittenOutsideVariable(Operation *op) {
  auto store = dyn_cast<memref::StoreOp>(op);
  return store ? getOutsideVariable(store.getMemRef()) : nullptr;
}

Operation *findWriteOfOutsideVariable(Operation *root) {
  Operation *found = nullptr;
  root->walk([&](memref::StoreOp store) {
    if (!getWrittenOutsideVariable(store))
      return WalkResult::advance();
    found = store;
    return WalkResult::interrupt();
  });
  return found;
}

std::string getVariableName(memref::GlobalOp global) {
  auto name = global->getAttrOfType<StringAttr>("ct.source_name");
  return (name ? name.getValue() : global.getSymName()).str();
}

} // namespace cotangent::ct
