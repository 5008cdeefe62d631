//===- KnownElements.h - Elements whose contents are values ----*- C++ -*-===//
//
// What a walk through a function knows of memory at a point: elements
// (`memref[indices]`) whose contents are an SSA value, forgotten where a
// write may change them. Each step costs O(1) amortized whatever the size
// of the function (a walk asking a list of every known element at each
// write was quadratic: minutes for Eigen's vectorized decompositions):
// - an element is found by a hash of its place;
// - a write forgets every element of a memory root at once: an element
//   keeps the generation each of its roots had when it was learned, and a
//   write bumps the generations of the roots it may write (and of all
//   memory the function was given, when it may write such memory);
// - a walk into a region marks what is known and rolls back to the mark
//   after it, instead of copying what is known into each region.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_TRANSFORMS_KNOWNELEMENTS_H
#define COTANGENT_LIB_AD_TRANSFORMS_KNOWNELEMENTS_H

#include "Analysis/MemoryWrites.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace cotangent::ad {

class KnownElements {
public:
  explicit KnownElements(MemoryFacts &facts) : facts(facts) {}

  /// The contents known of `memref[indices]`, or null.
  mlir::Value lookup(mlir::Value memref, mlir::ValueRange indices);
  /// Learns that `memref[indices]` holds `contents`.
  void learn(mlir::Value memref, mlir::ValueRange indices,
             mlir::Value contents);
  /// Forgets what `writes` may change. When the op is a store (`store`), what
  /// is known of its memref's elements at other constant indices (a struct's
  /// other fields) stays known.
  void forget(const MemoryWrites &writes, mlir::memref::StoreOp store);

  /// What is known now, to roll back to. Marks nest: roll back to the last
  /// one first.
  struct Mark {
    size_t elements;
    size_t undoLog;
  };
  Mark mark();
  /// Forgets what was learned, and knows again what was forgotten, since
  /// `mark`.
  void rollback(Mark mark);

private:
  struct Element {
    mlir::Value memref;
    llvm::SmallVector<mlir::Value, 2> indices;
    mlir::Value contents;
    /// Each root of the memref, with its generation when this was learned.
    llvm::SmallVector<std::pair<mlir::Value, unsigned>, 2> roots;
    /// The generation of the memory the function was given when this was
    /// learned, if a root may be such memory.
    std::optional<unsigned> outside;
    /// Learned in a region whose walk was rolled back.
    bool retired = false;
  };
  /// A change to undo at a rollback: a root's generation (the outside
  /// memory's for a null root), or a memref's list of elements.
  struct Undo {
    bool isList;
    mlir::Value value;
    unsigned generation;
    std::vector<unsigned> list;
  };

  bool isKnown(const Element &element) const;
  unsigned generationOf(mlir::Value root) const;
  void bump(mlir::Value root);
  /// The elements found under `place`'s hash, past those retired.
  std::vector<unsigned> &placeList(size_t place);

  MemoryFacts &facts;
  std::vector<Element> elements;
  /// Elements by a hash of their place (memref and indices), oldest first.
  std::unordered_map<size_t, std::vector<unsigned>> byPlace;
  /// Elements by memref, for a store's other constant indices.
  llvm::DenseMap<mlir::Value, std::vector<unsigned>> byMemRef;
  llvm::DenseMap<mlir::Value, unsigned> generations;
  unsigned outsideGeneration = 0;
  std::vector<Undo> undoLog;
  unsigned openMarks = 0;
};

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_TRANSFORMS_KNOWNELEMENTS_H
