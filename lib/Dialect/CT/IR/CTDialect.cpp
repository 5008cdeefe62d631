//===- CTDialect.cpp - The ct dialect -------------------------------------===//

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace cotangent::ct;

#include "cotangent/Dialect/CT/IR/CTOpsDialect.cpp.inc"
#include "cotangent/Dialect/CT/IR/CTOpsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "cotangent/Dialect/CT/IR/CTOpsAttributes.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "cotangent/Dialect/CT/IR/CTOpsTypes.cpp.inc"

namespace {
/// Every ct operation that can appear in a function body (markers, library
/// math, ct.abort, requests, tapes) means the same wherever it is, so
/// functions containing them inline like any other (accessors returning
/// references are inlined by the frontend).
struct CTInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void CTDialect::initialize() {
  addInterfaces<CTInlinerInterface>();
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
