//===- CTDialect.cpp - The ct dialect -------------------------------------===//

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace cotangent::ct;

#include "cotangent/Dialect/CT/IR/CTOpsDialect.cpp.inc"
#include "cotangent/Dialect/CT/IR/CTOpsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "cotangent/Dialect/CT/IR/CTOpsAttributes.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "cotangent/Dialect/CT/IR/CTOpsTypes.cpp.inc"

void CTDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "cotangent/Dialect/CT/IR/CTOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "cotangent/Dialect/CT/IR/CTOpsAttributes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "cotangent/Dialect/CT/IR/CTOps.cpp.inc"
      >();
}
