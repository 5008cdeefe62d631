//===- Registration.cpp - All derivative rules ----------------------------===//

#include "Transforms/Transforms.h"
#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "cotangent/AD/Interfaces/ScalarDerivativeOpInterface.h"

// The interfaces' definitions, generated from their ODS.
#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.cpp.inc"
#include "cotangent/AD/Interfaces/ScalarDerivativeOpInterface.cpp.inc"

void cotangent::ad::registerDerivativeRules(mlir::DialectRegistry &registry) {
  registerArithDerivativeRules(registry);
  registerMathDerivativeRules(registry);
  registerLibraryMathDerivativeRules(registry);
  registerSCFDerivativeRules(registry);
  registerMemRefDerivativeRules(registry);
  registerFuncDerivativeRules(registry);
  registerCTDerivativeRules(registry);
  registerVectorDerivativeRules(registry);
  registerUBDerivativeRules(registry);
  registerAddressDerivativeRules(registry);
  // The pipeline's inliner, before differentiation, meets LLVM ops too.
  registerLLVMOpsInlining(registry);
}
