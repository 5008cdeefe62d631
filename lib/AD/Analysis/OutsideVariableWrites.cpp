//===- OutsideVariableWrites.cpp - Derivatives kept out of globals --------===//
//
// Differentiable code may write variables outside the function (a counter,
// a running total, the last value seen), as long as what it writes carries
// no derivative: the analyses see each function alone, so a derivative
// stored into such a variable would be lost to whatever reads it later.
//
//===----------------------------------------------------------------------===//

#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/Dialect/CT/IR/OutsideVariables.h"

using namespace mlir;
using namespace cotangent;

LogicalResult
ad::refuseDerivativesInOutsideVariables(func::FuncOp function,
                                        const ActivityAnalysis &activity) {
  bool refused = false;
  // Memory is varied only where something varied may have been written
  // into it (a store, or a call that writes through an argument).
  function.walk([&](memref::GetGlobalOp use) {
    memref::GlobalOp global = ct::getOutsideVariable(use.getResult());
    if (!global || !isShadowedType(use.getType()) ||
        !activity.isVaried(use.getResult()))
      return;
    use.emitError() << "'" << ct::getVariableName(global)
                    << "' is a variable outside the function, and a value "
                       "that carries a derivative is written to it here, "
                       "which would be lost to the code that reads it; "
                       "differentiable code may write to such a variable "
                       "only values that carry no derivative: pass it as a "
                       "parameter instead";
    refused = true;
  });
  return failure(refused);
}
