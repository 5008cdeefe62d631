//===- Registration.cpp - All derivative rules ----------------------------===//

#include "cotangent/AD/ScalarDerivativeOpInterface.h"

#include "cotangent/AD/ScalarDerivativeOpInterface.cpp.inc"

void cotangent::ad::registerDerivativeRules(mlir::DialectRegistry &registry) {
  registerArithDerivativeRules(registry);
  registerMathDerivativeRules(registry);
  registerLibraryMathDerivativeRules(registry);
}
