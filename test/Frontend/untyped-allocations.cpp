// Memory from C's allocation functions kept as `void *` (Eigen's allocator,
// C libraries) is bytes until a cast gives it its type: the allocation
// becomes one of bytes / sizeof(scalar) scalars where it was made, so that
// the address tests made before the cast (alignment, null) read the same
// memory; calloc's zeros are stored once the type is known. A pointer
// declared first and assigned after is declared by that assignment, and a
// function taking `void *` is lowered in place (its argument keeps its
// type). A branch the compiler decides is lowered alone: the other may hold
// what differentiable code cannot express (a try block). A cast of a choice
// between `void *` values types each arm's allocation in its branch; an
// alloca's address rounded up to the alignment both allocations have is
// the alloca itself; freeing a choice between memory and null frees the
// memory in its branch.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

#include <cstdint>
#include <cstdlib>

inline void *allocateBytes(std::size_t bytes) {
  void *result;
  result = std::malloc(bytes);
  if (!result && bytes)
    std::abort();
  return result;
}
inline void freeBytes(void *p) { std::free(p); }

[[ct::differentiable]] double untyped(const double *x, int n) {
  void *bytes = allocateBytes(n * sizeof(double));
  bool aligned = reinterpret_cast<std::uintptr_t>(bytes) % 16 == 0;
  auto *a = static_cast<double *>(bytes);
  void *zeros = std::calloc(n, sizeof(float));
  auto *z = static_cast<float *>(zeros);
  a[0] = x[0] + z[0];
  double r = aligned ? a[0] : 0.0;
  freeBytes(a);
  freeBytes(z);
  return r;
}

[[ct::differentiable]] double stackOrHeap(const double *x, int n, bool big) {
  double *t = reinterpret_cast<double *>(
      !big ? reinterpret_cast<void *>(
                 (reinterpret_cast<std::uintptr_t>(__builtin_alloca(n * 8 + 15)) +
                  15) &
                 ~std::uintptr_t(15))
           : std::malloc(n * 8));
  t[0] = x[0];
  double r = t[0];
  double *owned = big ? t : nullptr;
  if (big)
    std::free(owned);
  return r;
}

[[ct::differentiable]] double stackNow(const double *x, int n) {
  auto *t = static_cast<double *>(__builtin_alloca(n * sizeof(double)));
  t[0] = x[0];
  return t[0];
}

[[ct::differentiable]] double constantBranch(const double *x) {
  if (sizeof(double) == 4) {
    try {
      return x[0];
    } catch (...) {
      return 0;
    }
  }
  return x[1];
}

// CHECK-LABEL: func.func @_Z7untypedPKdi(
// CHECK: %[[BYTES:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK-NEXT: %[[DOUBLES:.*]] = arith.divui %[[BYTES]], %c8
// CHECK-NEXT: %[[A:.*]] = memref.alloc(%[[DOUBLES]]) {alignment = 16 : i64, ct.heap_function = "malloc"} : memref<?xf64>
// CHECK-NEXT: %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[A]] : memref<?xf64>
// CHECK: arith.remui %{{.*}}, %c16_i64
// CHECK: %[[FLOATS:.*]] = arith.divui %{{.*}}, %c4
// CHECK-NEXT: %[[Z:.*]] = memref.alloc(%[[FLOATS]]) {alignment = 16 : i64, ct.heap_function = "malloc"} : memref<?xf32>
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %[[FLOATS]]
// CHECK-NEXT: memref.store %{{.*}}, %[[Z]]
// CHECK: memref.store %{{.*}}, %[[A]][%c0]
// CHECK: memref.dealloc %[[A]] {ct.heap_function = "free"} : memref<?xf64>
// CHECK-NEXT: memref.dealloc %[[Z]] {ct.heap_function = "free"} : memref<?xf32>

// CHECK-LABEL: func.func @_Z11stackOrHeapPKdib(
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<1xf64>
// CHECK: scf.if %arg2 {
// CHECK: %[[HEAP:.*]] = memref.alloc(%{{.*}}) {alignment = 16 : i64, ct.heap_function = "malloc"} : memref<?xf64>
// CHECK: %[[HEAP_VIEW:.*]] = memref.cast %[[HEAP]]
// CHECK-NEXT: ct.store_address %[[HEAP_VIEW]], %[[SLOT]]
// CHECK: } else {
// CHECK: %[[STACK:.*]] = memref.alloca(%{{.*}}) {alignment = 16 : i64} : memref<?xf64>
// CHECK: %[[STACK_VIEW:.*]] = memref.cast %[[STACK]]
// CHECK-NEXT: ct.store_address %[[STACK_VIEW]], %[[SLOT]]
// CHECK: %[[T:.*]] = ct.load_address %[[SLOT]]
// CHECK: scf.if %arg2 {
// CHECK-NEXT: memref.dealloc %[[T]] {ct.heap_function = "free"}
// CHECK-NEXT: }

// alloca cast at once: stack memory of the type, nothing to free.
// CHECK-LABEL: func.func @_Z8stackNowPKdi(
// CHECK: memref.alloca(%{{.*}}) : memref<?xf64>
// CHECK-NOT: memref.dealloc
// CHECK: return

// CHECK-LABEL: func.func @_Z14constantBranchPKd(
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[V:.*]] = memref.load %arg0[%[[ONE]]]
// CHECK-NEXT: return %[[V]]
