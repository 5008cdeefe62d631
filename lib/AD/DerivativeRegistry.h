//===- DerivativeRegistry.h - Derivative functions of a module --*- C++ -*-===//
//
// The registry of the derivative functions of a module, created on request
// and generated on demand, and the emitters that fill in their bodies.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_DERIVATIVEREGISTRY_H
#define COTANGENT_LIB_AD_DERIVATIVEREGISTRY_H

#include "Analysis/ForwardShadows.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

#include <functional>

namespace cotangent::ad {

enum class DerivativeKind {
  /// Reverse mode in one function: (args, seeds, shadows) -> (results,
  /// adjoints of active args).
  Pullback,
  /// Forward half of reverse mode for callees: (args, tape) -> results;
  /// pushes what the reverse half needs. Functions keeping addresses in
  /// their arguments' memory take the shadows too (ForwardShadowNeeds):
  /// (args, tape, shadows) -> results.
  Forward,
  /// Reverse half: (args, tape, seeds, shadows) -> adjoints.
  Reverse,
  /// Forward mode: (args, tangents) -> (results, result tangents).
  Jvp,
};

/// The type of a derivative of a function of type `type`.
mlir::FunctionType getDerivativeType(mlir::FunctionType type,
                                     DerivativeKind kind,
                                     llvm::ArrayRef<ct::Activity> activities,
                                     bool forwardTakesShadows = false);

/// Whether `forward`, the forward half of a split derivative of a function
/// of `numArgs` arguments, takes the shadows of its dup arguments.
inline bool takesShadowsInForward(mlir::func::FuncOp forward,
                                  unsigned numArgs) {
  return forward.getNumArguments() > numArgs + 1;
}

/// The reverse-mode strategies in use (the ct-differentiate options of the
/// same names, which explain them). All on by default.
struct ReverseStrategies {
  bool eagerLoops = true;
  bool recomputeIterations = true;
  bool eagerCalls = true;
  bool commutingIterations = true;
  bool reloadMemory = true;
  bool recomputeValues = true;
};

/// How derivative products are built (the ct-differentiate options of the
/// same names).
struct ProductOptions {
  /// A zero adjoint or tangent times any partial is zero: a select on the
  /// factor being zero around every product of a partial.
  bool strongZero = false;
};

/// Derivative functions of one module, created on request and generated
/// once each. Generation is on demand and recursive: a derivative's body may
/// request derivatives of its callees, and differentiating a generated
/// function generates it first.
class DerivativeRegistry {
public:
  /// Runs the clean-up pipeline on a function (the ct-differentiate pass
  /// runs ct-forward-derivative-cleanup as a dynamic pipeline).
  using Cleanup = std::function<mlir::LogicalResult(mlir::func::FuncOp)>;

  explicit DerivativeRegistry(mlir::ModuleOp module,
                              ReverseStrategies strategies = {},
                              Cleanup cleanup = nullptr);

  const ReverseStrategies &getStrategies() const { return strategies; }
  const ProductOptions &getProductOptions() const { return products; }
  void setProductOptions(ProductOptions options) { products = options; }

  /// The derivative of `primal`, declared now and generated later.
  mlir::func::FuncOp get(mlir::func::FuncOp primal, DerivativeKind kind,
                         llvm::ArrayRef<ct::Activity> activities);

  /// Generates every requested derivative, including those their bodies
  /// request in turn.
  mlir::LogicalResult generateAll();
  /// Generates `function` now if it is a requested derivative not yet
  /// generated (code that reads its body needs it); nothing otherwise.
  mlir::LogicalResult generateNow(mlir::func::FuncOp function);

  mlir::func::FuncOp lookupFunction(mlir::FlatSymbolRefAttr name);
  /// The module's symbol table, which functions made outside the registry
  /// (widened derivatives) join so that lookupFunction finds them.
  mlir::SymbolTable &getSymbolTable() { return symbols; }
  /// The reverse-mode rule bound to `function`: a ct.custom_gradient or a
  /// ct.custom_vjp op, or null.
  mlir::Operation *getReverseRule(mlir::func::FuncOp function);
  ct::CustomJvpOp getCustomJvp(mlir::func::FuncOp function);
  /// Whether a rule of either mode is bound to `function`.
  bool hasRule(mlir::func::FuncOp function) {
    return getReverseRule(function) || getCustomJvp(function);
  }

  mlir::ModuleOp getModule() { return module; }

  /// Makes `primal` what its reverse-mode derivatives differentiate: its
  /// body generated if it is a derivative itself, the forward-mode
  /// derivatives it calls inlined (see inlineForwardDerivatives).
  mlir::LogicalResult prepareForReverse(mlir::func::FuncOp primal);

private:
  struct Job {
    mlir::func::FuncOp primal;
    DerivativeKind kind;
    llvm::SmallVector<ct::Activity> activities;
    /// The other half of a fwd/rev pair; both are generated together.
    mlir::func::FuncOp partner;
    enum { Pending, Running, Done } state = Pending;
  };
  mlir::LogicalResult generate(mlir::func::FuncOp derivative);
  /// Inlines into `function` its calls of generated forward-mode
  /// derivatives (generating them first), so that reverse mode over them
  /// (a Hessian-vector product) differentiates one function, then cleans
  /// it up.
  mlir::LogicalResult inlineForwardDerivatives(mlir::func::FuncOp function);
  /// `function` with its unstructured control flow (cf branches, early
  /// returns) lifted to scf, or null after an error.
  mlir::func::FuncOp getStructured(mlir::func::FuncOp function);
  /// A function that only calls `function`, for differentiating a call.
  mlir::func::FuncOp getCallWrapper(mlir::func::FuncOp function);
  mlir::func::FuncOp declare(mlir::func::FuncOp primal, DerivativeKind kind,
                             llvm::ArrayRef<ct::Activity> activities);

  mlir::ModuleOp module;
  ReverseStrategies strategies;
  ProductOptions products;
  Cleanup cleanup;
  mlir::SymbolTable symbols;
  ForwardShadowNeeds forwardShadowNeeds;
  llvm::MapVector<mlir::Operation *, Job> jobs;
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> reverseRules;
  llvm::DenseMap<mlir::Operation *, ct::CustomJvpOp> customJvps;
};

/// Emit the body of a derivative function; on failure an error has been
/// reported at the primal construct that could not be differentiated.
mlir::LogicalResult emitJvp(DerivativeRegistry &registry,
                            mlir::func::FuncOp primal,
                            mlir::func::FuncOp derivative,
                            llvm::ArrayRef<ct::Activity> activities);
/// Reverse mode: a combined pullback when `forward == reverse`, else the
/// fwd/rev pair of a callee.
mlir::LogicalResult emitReverse(DerivativeRegistry &registry,
                                mlir::func::FuncOp primal,
                                mlir::func::FuncOp forward,
                                mlir::func::FuncOp reverse,
                                llvm::ArrayRef<ct::Activity> activities);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_DERIVATIVEREGISTRY_H
