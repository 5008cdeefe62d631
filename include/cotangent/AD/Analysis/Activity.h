//===- Activity.h - Which values and memory carry derivatives ---*- C++ -*-===//
//
// A floating-point value is active when it depends on an active input
// (varied) and influences an output (useful); only active values get
// derivative code. Memory is tracked by its root (the allocation or argument
// a view is taken of): a root is active when it is a shadowed argument, or
// when varied values are stored into it and loads from it are useful. The
// elements of a local allocation that is only loaded and stored at
// constant indices (a struct's fields, a small array's elements) are
// tracked apart: a field that never reaches an output is not
// differentiated, so that an overflow in it cannot turn the derivatives
// of the other fields into NaN. Memory whose address is kept in memory
// (ct.store_address) and memory reached through a loaded address
// (ct.load_address) may be one another, so they are marked together.
// Integer and index values are never active. Both analyses are
// flow-insensitive fixpoints over the function, with the loop-carried and
// branch-merged values of scf ops joined explicitly.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_AD_ANALYSIS_ACTIVITY_H
#define COTANGENT_AD_ANALYSIS_ACTIVITY_H

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace cotangent::ad {

/// The allocation, argument or tape that `value` (a memref view or a tape)
/// refers to.
mlir::Value getMemoryRoot(mlir::Value value);

/// Every allocation, argument or tape `value` may refer to: its root, or
/// for a choice between places (`arith.select` of memrefs, the lowering of
/// `c ? x : y` as an lvalue and of std::min) and memory a branch chooses or
/// a loop carries (asked of RegionBranchOpInterface), the roots of each
/// place.
llvm::SmallVector<mlir::Value, 2> getMemoryRoots(mlir::Value value);

/// The one memory `value` is on every path, through the region ops that
/// pass it on and casts: a place a loop carries out (a reference chosen in
/// a loop with an early exit), poison on the paths that chose none. Null if
/// paths may give different memory, a view of part of it, or memory made
/// inside the ops that pass it on.
mlir::Value getWholeMemoryPassedOn(mlir::Value value);

/// Types whose contents carry derivatives in a shadow of the same type.
bool isShadowedType(mlir::Type type);
/// Whether `type` is memory of bytes: a library object kept as compiled
/// (or characters). It has no shadow, but the analysis follows what flows
/// into it, so that a derivative lost inside it is reported where it would
/// come back out.
bool isBytesMemory(mlir::Type type);
/// Whether `value` lies in such bytes: it, or a view it is made from, is
/// memory of bytes (a number inside a std::pair holding a std::string).
bool liesInBytes(mlir::Value value);

/// Whether `op` never writes memory: its MemoryEffectOpInterface declares
/// neither writes nor frees (loads, views, sizes, pure ops). Ops that do
/// not declare their effects (calls, ops with regions) may write.
bool neverWritesMemory(mlir::Operation *op);

/// Whether the address of memory root `root` (or of a view of it) is
/// stored in memory (`ct.store_address`): an address loaded back may then
/// designate it.
bool isAddressStored(mlir::Value root);

/// Whether memory root `root` (or a view or choice of it) is passed on by
/// a loop's terminator, directly or through branches' results: memory made
/// in an iteration that a later iteration or the code after the loop
/// reads (the object an early `return` reads, a buffer a loop carries).
bool isCarriedOutOfLoop(mlir::Value root);

/// Whether `root` is a buffer (an allocation) a loop carries to a later
/// iteration or out: the forward sweep makes its shadow beside it and
/// passes the shadow on with it.
bool isLoopCarriedBuffer(mlir::Value root);

/// Whether a branch chooses memory root `root` (or a view or choice of it)
/// beside a buffer a loop passes out (isCarriedOutOfLoop): a function
/// returning a std::vector from inside a loop and another after it.
bool isChosenBesideLoopCarried(mlir::Value root);

/// Whether memory root `root` (or a view of it) holds addresses: it is
/// the holder of a `ct.store_address` or a `ct.load_address`.
bool holdsAddresses(mlir::Value root);

/// Whether memory root `root` is allocated by the function itself and its
/// address is not stored, so that it aliases no other root.
bool isLocalAllocation(mlir::Value root);

/// Whether `root` is an argument of its function marked ct.noalias.
bool isNoAliasArgument(mlir::Value root);

/// Whether memory root `root` aliases no other root: a local allocation or
/// a ct.noalias argument whose address is not stored.
bool isDistinctMemory(mlir::Value root);

class ActivityAnalysis {
public:
  ActivityAnalysis(mlir::func::FuncOp function,
                   llvm::ArrayRef<ct::Activity> activities);

  /// A floating-point scalar that carries a derivative.
  bool isActive(mlir::Value value) const;
  /// A scalar or memory that depends on a differentiated input, whether or
  /// not it reaches an output.
  bool isVaried(mlir::Value value) const;
  /// A floating-point scalar that influences an output, whether or not it
  /// depends on a differentiated input.
  bool isUseful(mlir::Value value) const;
  /// Memory (a memref or a tape) that needs a shadow.
  bool hasShadow(mlir::Value value) const;
  /// Memory whose contents, once loaded, can influence an output.
  bool isUsefulMemory(mlir::Value value) const;
  /// Whether the element `store` writes needs its derivative kept: it has
  /// a shadow, and is not an element tracked apart that no load whose
  /// value is useful reads (whose shadow then stays zero anyway).
  bool storesDerivative(mlir::Operation *store) const;
  /// Whether argument `index` can influence any output.
  bool isArgumentConnected(unsigned index) const;
  /// Whether the function owning memory argument `argument` may write
  /// through it (itself or through its callees).
  bool mayWriteArgument(mlir::BlockArgument argument);
  /// Whether `op` may write the memory `input` (one of its inputs) refers
  /// to. Calls of functions with a body write only the arguments their
  /// callee (transitively) stores to; unknown ops may write anything.
  bool mayWrite(mlir::Operation *op, mlir::Value input);
  /// Whether the function stores the address of memory without a shadow
  /// (constant memory: a parameter left out of differentiation, a tangent
  /// direction differentiated again) into memory with one, beside the
  /// addresses of memory with derivatives. The shadow slot then holds the
  /// primal address itself, and an access through a shadow view that may
  /// have come from such a slot checks at run time whether it reaches
  /// primal memory: then no derivative flows (docs/Memory.md).
  bool keepsConstantMemoryInShadows() const { return constantInShadows; }
  /// Whether the shadow of `memory` may be primal memory so kept: memory
  /// reached through a loaded address, not an argument or an allocation.
  bool mayBeOwnShadow(mlir::Value memory) const;
  /// Whether `view` (through the views made of it) is a choice between
  /// places one of which has no shadow: stored as an address, that place
  /// is its own shadow too.
  bool choosesPlaceWithoutShadow(mlir::Value view) const;
  /// A call given memory whose shadow may be so kept (its accesses would
  /// not test for it), or null.
  mlir::Operation *getCallGivenOwnShadow() const { return callGivenOwnShadow; }
  /// The call giving constant memory to a function that keeps addresses in
  /// memory (whose shadows may then hold that memory itself), or null.
  mlir::Operation *getConstantGivenToAddressKeeper() const {
    return constantGivenToAddressKeeper;
  }
  /// Reports at `at` the call given memory whose shadow may be primal
  /// memory kept as its own (getCallGivenOwnShadow); success if none.
  mlir::LogicalResult refuseCallGivenOwnShadow(mlir::Operation *at) const;

private:
  void propagateVaried();
  void propagateUseful();
  /// An element of a root whose elements are tracked apart: the root and
  /// its linear index.
  using Element = std::pair<mlir::Value, int64_t>;
  /// The element `op` loads or stores, if it is a load or store of such a
  /// root.
  std::optional<Element> getElementAccess(mlir::Operation *op) const;
  /// Varied / useful flow through a load or store of such an element.
  bool propagateVariedElement(mlir::Operation *op, Element element);
  bool propagateUsefulElement(mlir::Operation *op, Element element);
  bool markVaried(mlir::Value value);
  bool markUseful(mlir::Value value);
  /// The position of `value` among the function's arguments, if it is one.
  std::optional<unsigned> getArgumentIndex(mlir::Value value) const;
  /// Whether `root` is an argument the caller declares constant, memory
  /// reached through an address loaded from one, or a constant global.
  bool isConstantArgument(mlir::Value root) const;

  // Op handles are mutable by design; queries do not change the function.
  mutable mlir::func::FuncOp function;
  llvm::SmallVector<ct::Activity> activities;
  llvm::DenseSet<mlir::Value> varied, useful;
  llvm::DenseSet<mlir::Value> variedMemory, usefulMemory;
  /// Roots whose address is stored in memory, and views of addresses
  /// loaded from memory: any of them may be any other, so they are varied
  /// and useful together.
  llvm::SetVector<mlir::Value> addressedMemory;
  /// Library objects kept as compiled that may point into one another (an
  /// iterator and the map it came from): the ones a library call is given
  /// together. What flows into one flows into all of its class.
  llvm::EquivalenceClasses<mlir::Value> libraryObjects;
  /// The roots of varied library objects (a subset of variedMemory): a
  /// library object among the numbers of a struct is varied only by what
  /// goes into its bytes, not by the numbers beside it.
  llvm::DenseSet<mlir::Value> variedBytes;
  /// Roots whose elements are tracked apart, and their elements' marks.
  llvm::DenseSet<mlir::Value> elementwiseRoots;
  llvm::DenseSet<Element> variedElements, usefulElements;
  /// Roots with a load whose result is useful: their contents are read.
  llvm::DenseSet<mlir::Value> readMemory;
  /// mayWriteArgument's final answers.
  llvm::DenseMap<mlir::Value, bool> writtenArguments;
  /// Arguments whose answer is being computed, and those of them that an
  /// answer in progress assumed unwritten (recursion).
  llvm::SmallPtrSet<mlir::Value, 4> argumentsInProgress, assumedUnwritten;
  bool constantInShadows = false;
  mlir::Operation *callGivenOwnShadow = nullptr;
  mlir::Operation *constantGivenToAddressKeeper = nullptr;
  /// The views of constant globals (namespace-scope constant tables).
  llvm::DenseSet<mlir::Value> constantGlobals;
};

} // namespace cotangent::ad

#endif // COTANGENT_AD_ANALYSIS_ACTIVITY_H
