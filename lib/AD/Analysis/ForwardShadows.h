//===- ForwardShadows.h - Shadows the forward half of a split needs --*- C++
//-*-===//
//
// Internal to lib/AD. Reverse mode does all work on addresses kept in
// memory in the forward sweep: storing an address stores its shadow's in
// the holder's shadow, loading one loads the shadow's too. In the forward
// half of a split derivative (a callee of a loop's or a branch's code),
// that needs the shadows of the arguments the addresses live in, which
// the caller then passes. This analysis says which functions do: those
// that load or store addresses in memory their arguments give access to,
// or pass it to a function that does (recursion over a linked structure).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_FORWARDSHADOWS_H
#define COTANGENT_LIB_AD_ANALYSIS_FORWARDSHADOWS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace cotangent::ad {

class ForwardShadowNeeds {
public:
  explicit ForwardShadowNeeds(mlir::ModuleOp module) : module(module) {}

  /// Whether the forward half of `function`'s split derivative takes the
  /// shadows of its dup arguments.
  bool needsArgumentShadows(mlir::func::FuncOp function);

private:
  /// Answers for every function of the module, to a fixed point over calls.
  void analyzeModule();

  mlir::ModuleOp module;
  llvm::DenseMap<mlir::Operation *, bool> needs;
};

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_FORWARDSHADOWS_H
