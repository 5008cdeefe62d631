//===- Lanes.h - Vector mode: K derivatives through one sweep ---*- C++ -*-===//
//
// Internal to lib/AD. Generated derivative code keeps its seeds, tangents,
// adjoints and shadows apart from the primal values, and is linear in them.
// Vector mode widens such code after it is generated: the derivative values
// carry K lanes (ct::getLaneType), the primal code is left as it is, so it
// runs once for all lanes, and primal values that meet derivative ones are
// broadcast. Derivative rules stay scalar and are written once.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_VECTORMODE_LANES_H
#define COTANGENT_LIB_AD_VECTORMODE_LANES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <map>
#include <memory>

namespace cotangent::ad {

/// Makes the K-lane forms of the functions of one module, once per function
/// and choice of widened arguments.
class LaneWidener {
public:
  /// Widened functions join `symbols`, the module's symbol table.
  LaneWidener(mlir::SymbolTable &symbols, int64_t lanes);
  ~LaneWidener();

  /// `function` with the arguments `wideArgs` selects carrying the lanes,
  /// and at least the results `wideResults` selects (a derivative result
  /// that no lane reaches is zero in every lane); null after an error,
  /// reported at the construct that cannot carry lanes.
  mlir::func::FuncOp widen(mlir::func::FuncOp function,
                           llvm::ArrayRef<bool> wideArgs,
                           llvm::ArrayRef<bool> wideResults);

  struct Widening;

private:
  /// Which values of `function` carry lanes when `args` and `results` do;
  /// memory that lanes are stored into widens the arguments it comes from,
  /// so the result's argument choice may be larger. Null after an error.
  Widening *analyze(mlir::func::FuncOp function, llvm::ArrayRef<bool> args,
                    llvm::ArrayRef<bool> results);
  /// The widened copy of an analysed function, made on first use.
  mlir::func::FuncOp materialize(Widening &widening);

  mlir::SymbolTable &symbols;
  int64_t lanes;
  std::map<std::pair<mlir::Operation *, std::string>, std::unique_ptr<Widening>>
      widenings;
  friend class LaneAnalysis;
  friend class LaneRewriter;
};

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_VECTORMODE_LANES_H
