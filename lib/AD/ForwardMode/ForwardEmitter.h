//===- ForwardEmitter.h - Forward mode, one function at a time --*- C++ -*-===//
//
// Internal to lib/AD: the state of forward-mode differentiation of one
// function, and the services the ops' ForwardModeOpInterface models use to
// emit their tangent code (lib/AD/Rules).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_FORWARDMODE_FORWARDEMITTER_H
#define COTANGENT_LIB_AD_FORWARDMODE_FORWARDEMITTER_H

#include "DerivativeRegistry.h"
#include "mlir/IR/IRMapping.h"

namespace cotangent::ad {

/// One sweep: every primal op is cloned, and right after it the tangents of
/// its active results are built from its operands' tangents. Loops and
/// branches carry tangents as extra iter_args and results; memory carries
/// them in shadow memrefs; tapes (in generated reverse-mode code) in shadow
/// tapes.
class ForwardEmitter {
public:
  ForwardEmitter(DerivativeRegistry &registry, mlir::func::FuncOp primal,
                 llvm::ArrayRef<ct::Activity> activities)
      : registry(registry), primal(primal), activity(primal, activities) {}

  mlir::LogicalResult emit(mlir::func::FuncOp derivative,
                           llvm::ArrayRef<ct::Activity> activities);

  //===--------------------------------------------------------------------===//
  // Services for the ops' models
  //===--------------------------------------------------------------------===//

  DerivativeRegistry &getRegistry() { return registry; }
  const ActivityAnalysis &getActivity() const { return activity; }
  bool isActive(mlir::Value value) const { return activity.isActive(value); }
  bool hasShadow(mlir::Value value) const { return activity.hasShadow(value); }
  /// Whether a value carried out of a region carries a tangent beside it:
  /// an active scalar, or memory with a shadow (a buffer a branch chooses).
  bool carriesTangent(mlir::Value value) const;

  /// The primal values of the derivative: clones of the primal's.
  mlir::IRMapping &getMapping() { return mapping; }
  mlir::Value lookup(mlir::Value primalValue) {
    return mapping.lookup(primalValue);
  }
  /// Clones `op` with its operands mapped and maps its results.
  mlir::Operation *clonePrimal(mlir::OpBuilder &b, mlir::Operation &op) {
    return b.clone(op, mapping);
  }

  /// The tangent of `value`: built earlier if it is active, else 0.
  mlir::Value tangent(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value value);
  /// The shadow of memory `memory`, or null.
  mlir::Value shadow(mlir::Value memory) { return tangents.lookup(memory); }
  void setTangent(mlir::Value primalValue, mlir::Value t) {
    tangents[primalValue] = t;
  }

  /// Emits the ops of `block` but its terminator.
  mlir::LogicalResult emitBlock(mlir::OpBuilder &b, mlir::Block &block);
  /// `values` mapped, followed by the tangents of those whose counterpart
  /// in `activeLike` (the region argument or result they become) carries
  /// one: the operands of a terminator.
  llvm::SmallVector<mlir::Value> withTangents(mlir::OpBuilder &b,
                                              mlir::Location loc,
                                              mlir::ValueRange values,
                                              mlir::ValueRange activeLike);
  /// Whether an error has been reported (by withTangents).
  bool hadError() const { return missingShadow; }

  /// The tangent of memory `value` yielded or chosen where its counterpart
  /// has one (zeros for fresh memory nothing active was written to and for
  /// a parameter left out of ct::wrt; an error otherwise).
  mlir::Value counterpartShadow(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value value, mlir::MemRefType type);

private:
  mlir::LogicalResult emitOp(mlir::OpBuilder &b, mlir::Operation &op);

  /// Set when a region yields memory without a shadow where the op's
  /// result has one (reported once).
  bool missingShadow = false;

  DerivativeRegistry &registry;
  mlir::func::FuncOp primal;
  ActivityAnalysis activity;
  mlir::IRMapping mapping;
  llvm::DenseMap<mlir::Value, mlir::Value> tangents;
  /// The zero tangents of parameters without a shadow (counterpartShadow),
  /// and the scratch memory freed at the return.
  llvm::DenseMap<mlir::Value, mlir::Value> zeroTangents;
  llvm::SmallVector<mlir::Value> freedAtReturn;
};

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_FORWARDMODE_FORWARDEMITTER_H
