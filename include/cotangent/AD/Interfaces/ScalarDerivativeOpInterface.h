//===- ScalarDerivativeOpInterface.h - Per-op derivative rules --*- C++ -*-===//

#ifndef COTANGENT_AD_INTERFACES_SCALARDERIVATIVEOPINTERFACE_H
#define COTANGENT_AD_INTERFACES_SCALARDERIVATIVEOPINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace cotangent::ad {

/// The primal operands and results of an op as seen where its derivative is
/// built. Values are produced on demand, so a rule that needs only its result
/// does not make the reverse sweep keep the operands.
class PrimalValues {
public:
  using Getter = llvm::function_ref<mlir::Value(mlir::Value)>;
  PrimalValues(mlir::Operation *op, Getter get) : op(op), get(get) {}

  mlir::Operation *getOperation() const { return op; }
  mlir::Location getLoc() const { return op->getLoc(); }
  mlir::Value operand(unsigned i) const { return get(op->getOperand(i)); }
  mlir::Value result() const { return get(op->getResult(0)); }
  mlir::Type getType() const { return op->getResult(0).getType(); }

private:
  mlir::Operation *op;
  Getter get;
};

/// How an op's result changes with one of its operands when it is linear
/// in it: times `factor` (another operand; 1 when null), divided by it
/// instead if `divide`, negated if `negate`.
struct LinearTerm {
  mlir::Value factor;
  bool divide = false;
  bool negate = false;
};

} // namespace cotangent::ad

#include "cotangent/AD/Interfaces/ScalarDerivativeOpInterface.h.inc"
#endif // COTANGENT_AD_INTERFACES_SCALARDERIVATIVEOPINTERFACE_H
