//===- Registration.cpp - All derivative rules ----------------------------===//

#include "cotangent/AD/DerivativeOpInterfaces.h"
#include "cotangent/AD/ScalarDerivativeOpInterface.h"

#include "cotangent/AD/DerivativeOpInterfaces.cpp.inc"
#include "cotangent/AD/ScalarDerivativeOpInterface.cpp.inc"

void cotangent::ad::registerDerivativeRules(mlir::DialectRegistry &registry) {
  registerArithDerivativeRules(registry);
  registerMathDerivativeRules(registry);
  registerLibraryMathDerivativeRules(registry);
  registerSCFDerivativeRules(registry);
  registerMemRefDerivativeRules(registry);
  registerFuncDerivativeRules(registry);
  registerCTDerivativeRules(registry);
  registerVectorDerivativeRules(registry);
}
