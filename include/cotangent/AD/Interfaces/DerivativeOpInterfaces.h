//===- DerivativeOpInterfaces.h - How ops are differentiated ----*- C++ -*-===//
//
// The interfaces through which the AD engine differentiates an op: its
// derivative flow (activity analysis), its forward-mode emission and its
// reverse-mode emission. Dialects get them as external models
// (lib/AD/Rules, one file per dialect); the emitters they receive are
// internal to lib/AD.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_AD_INTERFACES_DERIVATIVEOPINTERFACES_H
#define COTANGENT_AD_INTERFACES_DERIVATIVEOPINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace cotangent::ad {

class ForwardEmitter;
namespace reverse {
class ReverseEmitter;
} // namespace reverse

/// The defaults of ReverseModeOpInterface (lib/AD/Rules/ScalarModes.cpp):
/// an active result or an op in a region that needs reverse; a clone of the
/// op in the forward sweep.
bool needsReverseByDefault(mlir::Operation *op,
                           reverse::ReverseEmitter &emitter);
mlir::LogicalResult emitClonedForward(mlir::Operation *op,
                                      mlir::OpBuilder &builder,
                                      reverse::ReverseEmitter &emitter);

/// `to` depends differentiably on `from`.
struct DerivativeFlow {
  mlir::Value from, to;
};

/// Attaches the derivative models of every dialect Cotangent
/// differentiates.
void registerDerivativeRules(mlir::DialectRegistry &registry);
void registerArithDerivativeRules(mlir::DialectRegistry &registry);
void registerMathDerivativeRules(mlir::DialectRegistry &registry);
void registerLibraryMathDerivativeRules(mlir::DialectRegistry &registry);
void registerSCFDerivativeRules(mlir::DialectRegistry &registry);
void registerMemRefDerivativeRules(mlir::DialectRegistry &registry);
void registerFuncDerivativeRules(mlir::DialectRegistry &registry);
void registerCTDerivativeRules(mlir::DialectRegistry &registry);
void registerVectorDerivativeRules(mlir::DialectRegistry &registry);
void registerUBDerivativeRules(mlir::DialectRegistry &registry);
void registerAddressDerivativeRules(mlir::DialectRegistry &registry);

} // namespace cotangent::ad

#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h.inc"
#endif // COTANGENT_AD_INTERFACES_DERIVATIVEOPINTERFACES_H
