// Eigen's own aligned heap functions (its allocation with AVX) are called
// by name: `handmade_aligned_malloc` makes memory named for it, with the
// alignment asked; `handmade_aligned_realloc` makes new memory of that
// malloc (64-byte aligned), copies the old contents that fit (Eigen passes
// the old size in bytes) and frees the old memory by its free. (The
// functions are declared here as Eigen defines them, bodies elided.)
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

#include <cstddef>

namespace Eigen::internal {
void *handmade_aligned_malloc(std::size_t size, std::size_t alignment = 32);
void handmade_aligned_free(void *ptr);
void *handmade_aligned_realloc(void *ptr, std::size_t size, std::size_t = 0);
} // namespace Eigen::internal

[[ct::differentiable]] double grown(double x, int n) {
  using namespace Eigen::internal;
  double *p = static_cast<double *>(handmade_aligned_malloc(2 * sizeof(double)));
  p[0] = x;
  p[1] = 2 * x;
  p = static_cast<double *>(
      handmade_aligned_realloc(p, n * sizeof(double), 2 * sizeof(double)));
  double s = p[0] + p[1];
  handmade_aligned_free(p);
  return s;
}

// CHECK-LABEL: func.func @_Z5growndi
// CHECK: memref.alloc() {alignment = 32 : i64, ct.heap_function = "Eigen::internal::handmade_aligned_malloc"} : memref<2xf64>
// CHECK: arith.index_castui
// CHECK-NEXT: %[[OLD:.*]] = ct.load_address
// CHECK-NEXT: %[[COUNT:.*]] = arith.divui %{{.*}}, %c8 : index
// CHECK: %[[NEW:.*]] = memref.alloc(%[[COUNT]]) {alignment = 64 : i64, ct.heap_function = "Eigen::internal::handmade_aligned_malloc"} : memref<?xf64>
// CHECK: %[[KEPT:.*]] = arith.minui %[[COUNT]], %c2 : index
// CHECK: scf.for %[[I:.*]] = %c0 to %[[KEPT]] step %c1 {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[OLD]][%[[I]]]
// CHECK-NEXT: memref.store %[[V]], %[[NEW]][%[[I]]]
// CHECK: memref.dealloc %[[OLD]] {ct.heap_function = "Eigen::internal::handmade_aligned_free"}
// CHECK: memref.dealloc %{{.*}} {ct.heap_function = "Eigen::internal::handmade_aligned_free"}
