//===- MemoryWrites.h - Which memory an op may write ------------*- C++ -*-===//
//
// Memory is told apart by its root (the allocation or argument a view is
// taken of): a local allocation, or an argument marked ct.noalias (C's
// `restrict`), aliases nothing else; the function's other memory arguments
// may alias each other.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_MEMORYWRITES_H
#define COTANGENT_LIB_AD_ANALYSIS_MEMORYWRITES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace cotangent::ad {

/// Whether memory roots `a` and `b` may be the same memory.
bool mayAlias(mlir::Value a, mlir::Value b);

/// Whether `function` may write the memory of its memref argument
/// `argument` (conservatively: any use but loads and sizes, views of it
/// followed, calls followed into their callees).
bool mayWriteArgument(mlir::func::FuncOp function, unsigned argument);
/// The same, counting only what may store into the memory (numbers or
/// addresses), not its freeing or the addresses read from it: whether the
/// function may read back what it stored there.
bool mayStoreIntoArgument(mlir::func::FuncOp function, unsigned argument);

/// A memref's roots and whether each root is distinct memory, remembered:
/// both walk the uses of memory (every view of it), so a pass that asks them
/// for every load and store of a large function asks each once, as long as
/// it adds no view, choice or stored address of memory.
class MemoryFacts {
public:
  llvm::SmallVector<mlir::Value, 2> rootsOf(mlir::Value memref);
  bool isDistinct(mlir::Value root);

private:
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value, 2>> roots;
  llvm::DenseMap<mlir::Value, bool> distinct;
};

/// The memory roots an op, with everything nested in it, may write.
class MemoryWrites {
public:
  /// (With `facts`, which must outlive this, roots are looked up there.)
  explicit MemoryWrites(mlir::Operation *op, MemoryFacts *facts = nullptr);
  /// Whether the op may change what `memref` holds.
  bool mayChange(mlir::Value memref) const;
  /// The roots the op may write.
  const llvm::DenseSet<mlir::Value> &getRoots() const { return roots; }
  /// Whether the op may write memory the function was given (any root that
  /// is not distinct memory).
  bool mayWriteOutside() const { return outsideMemory; }

private:
  llvm::SmallVector<mlir::Value, 2> rootsOf(mlir::Value memref) const;
  bool isDistinct(mlir::Value root) const;

  llvm::DenseSet<mlir::Value> roots;
  /// Whether a written root may alias memory the function was given.
  bool outsideMemory = false;
  MemoryFacts *facts;
};

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_MEMORYWRITES_H
