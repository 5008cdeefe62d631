//===- HeapFunctions.h - The C and C++ functions behind heap memory -*- C++
//-*-===//
//
// Heap memory the C++ program makes and frees itself (`new`, `new[]`,
// `malloc` and its kin, `delete`, `delete[]`, `free`) may cross the
// function's boundary: memory made inside and freed by the caller, or the
// caller's memory freed inside (a class that owns memory allocating again).
// So its memref.alloc and memref.dealloc name the function C++ would call
// (`ct.heap_function`), and codegen calls that function: a program that
// replaces the allocation functions, or a sanitizer checking that memory
// is freed the way it was made, sees what the source says. Memory the
// engine makes for itself (shadows in reverse mode, tapes, scratch) names
// none and goes through `operator new` and `operator delete`.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_DIALECT_CT_IR_HEAPFUNCTIONS_H
#define COTANGENT_DIALECT_CT_IR_HEAPFUNCTIONS_H

#include "llvm/ADT/StringRef.h"

#include <utility>

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace cotangent::ct {

/// On memref.alloc: "malloc" (also calloc, realloc, aligned_alloc: with
/// the op's alignment), "operator new" or "operator new[]" (with the op's
/// alignment, the aligned forms), or Eigen's
/// "Eigen::internal::handmade_aligned_malloc" (with the op's alignment).
/// On memref.dealloc: "free", "operator delete" or "operator delete[]"
/// (the alignment, if any, is the op's `ct.heap_alignment`, an integer), or
/// "Eigen::internal::handmade_aligned_free".
inline constexpr llvm::StringLiteral kHeapFunctionAttr = "ct.heap_function";
inline constexpr llvm::StringLiteral kHeapAlignmentAttr = "ct.heap_alignment";

/// Each allocation function with the function that frees its memory.
inline constexpr std::pair<llvm::StringLiteral, llvm::StringLiteral>
    kHeapFunctionPairs[] = {{"malloc", "free"},
                            {"operator new", "operator delete"},
                            {"operator new[]", "operator delete[]"},
                            {"Eigen::internal::handmade_aligned_malloc",
                             "Eigen::internal::handmade_aligned_free"}};

/// The function that frees memory `allocation` made ("" if none is known).
inline llvm::StringRef getDeallocationFunction(llvm::StringRef allocation) {
  for (auto [made, freed] : kHeapFunctionPairs)
    if (made == allocation)
      return freed;
  return "";
}

/// The function that makes memory `deallocation` frees ("" if none is
/// known).
inline llvm::StringRef getAllocationFunction(llvm::StringRef deallocation) {
  for (auto [made, freed] : kHeapFunctionPairs)
    if (freed == deallocation)
      return made;
  return "";
}

/// Canonicalization that keeps the function's name where the upstream
/// patterns would rebuild the op without it (HeapFunctionSizes.cpp).
void populateHeapFunctionCanonicalizations(mlir::RewritePatternSet &patterns);

} // namespace cotangent::ct

#endif // COTANGENT_DIALECT_CT_IR_HEAPFUNCTIONS_H
