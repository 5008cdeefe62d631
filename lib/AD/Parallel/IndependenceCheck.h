//===- IndependenceCheck.h - Are a loop's iterations independent? -*- C++
//-*-===//
//
// Internal to lib/AD: the analysis ct-parallelize-loops runs on each marked
// loop. Iterations are independent when what they carry is a reduction and
// the memory they write is either theirs alone or only accumulated into.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_PARALLEL_INDEPENDENCECHECK_H
#define COTANGENT_LIB_AD_PARALLEL_INDEPENDENCECHECK_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"

namespace cotangent::ad {

/// How an iteration argument is reduced: the op that combines the previous
/// value with the iteration's, or the compare-and-select pair of a max or
/// min that keeps the previous value at a tie.
struct Reduction {
  unsigned position;
  mlir::Operation *combiner;
  mlir::arith::CmpFOp compare; // null unless a select pair
  bool maximum = false;        // of a select pair: max (else min)
  mlir::Value contribution;
  /// A sum carried through a loop nested in the body (a collapsed nest):
  /// that loop's initial value, which becomes the identity, so that the
  /// nested loop computes the iteration's contribution.
  mlir::OpOperand *nestedInit = nullptr;
};

/// The load-add-store `m[i] = m[i] + v` (or `- v`) that `store` ends, if
/// the loaded value is used by nothing else: the add becomes atomic.
struct Accumulation {
  mlir::memref::LoadOp load;
  mlir::Operation *add;
  mlir::memref::StoreOp store;
  mlir::Value addend;
  bool negate;
};

/// The value a reduction by `combiner` (and `compare`, a max if `maximum`)
/// starts from.
std::optional<mlir::TypedAttr> getIdentity(mlir::Operation *combiner,
                                           mlir::arith::CmpFOp compare,
                                           bool maximum);

/// The check of one loop, which collects what the rewrite needs: the
/// reductions of what it carries and the accumulations that become atomic.
class IndependenceCheck {
public:
  explicit IndependenceCheck(mlir::scf::ForOp loop,
                             mlir::Operation *ignored = nullptr)
      : loop(loop), ignored(ignored) {}

  /// Whether the iterations are independent; collects what to rewrite.
  bool check();

  llvm::SmallVector<Reduction> reductions;
  llvm::SmallVector<Accumulation> atomics;

private:
  /// What an op of the body does to one memory root.
  struct Access {
    mlir::Operation *op;
    /// Part of an accumulation `m[i] = m[i] + v` (its load or its store), or
    /// an atomic add already.
    bool accumulation;
    bool atomic = false;
    /// The index values that are injective in the induction variable, if
    /// the access indexes the root itself.
    llvm::SmallVector<mlir::Value> injectiveIndices;
  };

  bool reject(const llvm::Twine &why);

  /// Whether `op` uses only a tape made in the loop, directly or through
  /// a block claimed from or released by it.
  bool usesPrivateTape(mlir::Operation *op);

  bool isPrivate(mlir::Value root);

  void record(mlir::Operation *op, mlir::Value memref, mlir::ValueRange indices,
              bool accumulation);

  bool visit(mlir::Operation *op);

  bool checkRoot(mlir::Value root, llvm::ArrayRef<Access> accesses);

  mlir::scf::ForOp loop;
  mlir::Operation *ignored;
  llvm::MapVector<mlir::Value, llvm::SmallVector<Access>> byRoot;
  llvm::DenseSet<mlir::Operation *> accumulated;
  llvm::DenseMap<mlir::Operation *, Accumulation> candidates;
};

/// Whether `alloca` lives for one iteration of `loop` (ct.iteration_local)
/// and nothing outside the loop uses it but what fills it before: each
/// iteration can have its own.
/// (Uses in `ignored`, a loop `loop` is a trial copy of, do not count.)
bool canGiveEachIteration(mlir::memref::AllocaOp alloca, mlir::scf::ForOp loop,
                          mlir::Operation *ignored = nullptr);

/// The tape defined outside `loop` that its body uses, if any.
mlir::Value getSharedTape(mlir::scf::ForOp loop);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_PARALLEL_INDEPENDENCECHECK_H
