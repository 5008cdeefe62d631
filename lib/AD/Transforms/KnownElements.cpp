//===- KnownElements.cpp - Memory elements whose contents are values ------===//

#include "Transforms/KnownElements.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/Hashing.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

static size_t hashOfPlace(Value memref, ValueRange indices) {
  return llvm::hash_combine(
      memref, llvm::hash_combine_range(indices.begin(), indices.end()));
}

/// Whether `store` writes another element of `memref` than `indices`: at a
/// constant index that differs from theirs.
static bool isOtherElement(Value memref, ArrayRef<Value> indices,
                           memref::StoreOp store) {
  if (store.getMemRef() != memref)
    return false;
  for (auto [mine, theirs] : llvm::zip(indices, store.getIndices())) {
    std::optional<int64_t> a = getConstantIntValue(mine);
    std::optional<int64_t> b = getConstantIntValue(theirs);
    if (a && b && *a != *b)
      return true;
  }
  return false;
}

unsigned KnownElements::generationOf(Value root) const {
  auto it = generations.find(root);
  return it == generations.end() ? 0 : it->second;
}

bool KnownElements::isKnown(const Element &element) const {
  return !element.retired && llvm::all_of(element.roots, [&](auto root) {
    return generationOf(root.first) == root.second;
  }) && (!element.outside || *element.outside == outsideGeneration);
}

std::vector<unsigned> &KnownElements::placeList(size_t place) {
  std::vector<unsigned> &list = byPlace[place];
  // Elements learned after the retired ones were retired with them, so the
  // retired ones are the list's end.
  while (!list.empty() && elements[list.back()].retired)
    list.pop_back();
  return list;
}

Value KnownElements::lookup(Value memref, ValueRange indices) {
  auto it = byPlace.find(hashOfPlace(memref, indices));
  if (it == byPlace.end())
    return nullptr;
  // The newest element of the place decides: an older one is forgotten
  // whenever a newer one is (same memref, generations no newer).
  for (unsigned id : llvm::reverse(placeList(it->first))) {
    const Element &element = elements[id];
    if (element.memref == memref && llvm::equal(element.indices, indices))
      return isKnown(element) ? element.contents : nullptr;
  }
  return nullptr;
}

void KnownElements::learn(Value memref, ValueRange indices, Value contents) {
  Element element{memref, llvm::to_vector(indices), contents, {}, {}, false};
  for (Value root : facts.rootsOf(memref)) {
    element.roots.push_back({root, generationOf(root)});
    if (!facts.isDistinct(root))
      element.outside = outsideGeneration;
  }
  auto id = static_cast<unsigned>(elements.size());
  elements.push_back(std::move(element));
  placeList(hashOfPlace(memref, indices)).push_back(id);
  byMemRef[memref].push_back(id);
}

void KnownElements::bump(Value root) {
  unsigned &generation = root ? generations[root] : outsideGeneration;
  if (openMarks)
    undoLog.push_back({false, root, generation, {}});
  ++generation;
}

void KnownElements::forget(const MemoryWrites &writes, memref::StoreOp store) {
  // A store keeps its memref's other constant elements: learned again, at
  // the new generations. The memref's list keeps only those (the store
  // forgets the rest), so stores to one memref scan few elements.
  SmallVector<Element> kept;
  if (store) {
    std::vector<unsigned> &list = byMemRef[store.getMemRef()];
    for (unsigned id : list) {
      const Element &element = elements[id];
      if (isKnown(element) &&
          isOtherElement(element.memref, element.indices, store))
        kept.push_back(element);
    }
    if (openMarks)
      undoLog.push_back({true, store.getMemRef(), 0, std::move(list)});
    list.clear();
  }
  for (Value root : writes.getRoots())
    bump(root);
  if (writes.mayWriteOutside())
    bump(nullptr);
  for (const Element &element : kept)
    learn(element.memref, element.indices, element.contents);
}

KnownElements::Mark KnownElements::mark() {
  ++openMarks;
  return {elements.size(), undoLog.size()};
}

void KnownElements::rollback(Mark mark) {
  for (size_t i = undoLog.size(); i-- > mark.undoLog;) {
    Undo &undo = undoLog[i];
    if (undo.isList)
      byMemRef[undo.value] = std::move(undo.list);
    else if (undo.value)
      generations[undo.value] = undo.generation;
    else
      outsideGeneration = undo.generation;
  }
  undoLog.resize(mark.undoLog);
  for (size_t id = mark.elements; id < elements.size(); ++id)
    elements[id].retired = true;
  --openMarks;
}
