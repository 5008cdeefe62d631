// C's allocation functions take their type from the cast that follows
// them: `(T *)malloc(bytes)` is a memref.alloc of bytes / sizeof(scalar)
// scalars of T; calloc fills it with zeros; realloc allocates the new
// size, copies as many old elements as fit (the old memory's size is the
// allocation's own) and frees the old memory; free is its dealloc. A
// pointer variable given only allocations (`p = (T *)realloc(p, ...)` in a
// loop) keeps their size beside its address, which realloc copies by; an
// address read back from memory has the size its allocator gives it.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

#include <cstdlib>

[[ct::differentiable]] double allocations(const double *x, int n) {
  double *a = static_cast<double *>(std::malloc(n * sizeof(double)));
  float *z = (float *)std::calloc(n, sizeof(float));
  a[0] = x[0] + z[0];
  double *b = static_cast<double *>(std::realloc(a, 2 * n * sizeof(double)));
  double r = b[0];
  std::free(b);
  std::free(z);
  return r;
}

// CHECK-LABEL: func.func @_Z11allocationsPKdi(
// CHECK: %[[BYTES:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK: %[[DOUBLES:.*]] = arith.divui %[[BYTES]], %c8
// CHECK: %[[A:.*]] = memref.alloc(%[[DOUBLES]]) {ct.heap_function = "malloc"} : memref<?xf64>
// CHECK: %[[FLOATS:.*]] = arith.divui %{{.*}}, %c4
// CHECK: %[[Z:.*]] = memref.alloc(%[[FLOATS]]) {ct.heap_function = "malloc"} : memref<?xf32>
// CHECK: scf.for %{{.*}} = %c0 to %[[FLOATS]]
// CHECK-NEXT: memref.store %cst, %[[Z]]
// CHECK: memref.store %{{.*}}, %[[A]][%c0]
// CHECK: %[[GROWN:.*]] = arith.divui %{{.*}}, %c8
// CHECK: %[[B:.*]] = memref.alloc(%[[GROWN]]) {ct.heap_function = "malloc"} : memref<?xf64>
// CHECK: %[[KEPT:.*]] = arith.minui %[[GROWN]], %[[DOUBLES]]
// CHECK: scf.for %[[I:.*]] = %c0 to %[[KEPT]]
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[A]][%[[I]]]
// CHECK-NEXT: memref.store %[[OLD]], %[[B]][%[[I]]]
// CHECK: memref.dealloc %[[A]] {ct.heap_function = "free"}
// CHECK: memref.load %[[B]][%c0]
// CHECK: memref.dealloc %[[B]] {ct.heap_function = "free"}
// CHECK: memref.dealloc %[[Z]] {ct.heap_function = "free"}

[[ct::differentiable]] double doubled(const double *x, int n) {
  int capacity = 1;
  double *buffer = (double *)std::malloc(sizeof(double));
  for (int i = 0; i < n; ++i) {
    if (i == capacity) {
      capacity *= 2;
      buffer = (double *)std::realloc(buffer, capacity * sizeof(double));
    }
    buffer[i] = x[i];
  }
  double s = buffer[n - 1];
  std::free(buffer);
  return s;
}

// The size, 1 at first, is carried by the loop beside the address.
// CHECK-LABEL: func.func @_Z7doubledPKdi
// CHECK: %[[HOLDER:.*]] = memref.alloca() : memref<1xf64>
// CHECK: ct.store_address %{{.*}}, %[[HOLDER]]
// CHECK: scf.for %{{.*}} iter_args(%[[SIZE:.*]] = %c1, %{{.*}}) -> (index, i32)
// CHECK: %[[OLD:.*]] = ct.load_address %[[HOLDER]]
// CHECK: %[[COUNT:.*]] = arith.divui
// CHECK-NEXT: %[[NEW:.*]] = memref.alloc(%[[COUNT]]) {ct.heap_function = "malloc"} : memref<?xf64>
// CHECK-NEXT: %[[KEPT:.*]] = arith.minui %[[COUNT]], %[[SIZE]]
// CHECK-NEXT: scf.for %[[I:.*]] = %c0 to %[[KEPT]]
// CHECK-NEXT: %[[V:.*]] = memref.load %[[OLD]][%[[I]]]
// CHECK-NEXT: memref.store %[[V]], %[[NEW]][%[[I]]]
// CHECK: memref.dealloc %[[OLD]] {ct.heap_function = "free"}
// CHECK: ct.store_address %{{.*}}, %[[HOLDER]]
// CHECK-NEXT: scf.yield %[[COUNT]]

struct Growable {
  double *data;
  int size;
};

[[ct::differentiable]] double grownField(const double *x, int n) {
  Growable g{static_cast<double *>(std::malloc(sizeof(double))), 1};
  g.data[0] = x[0];
  g.data = static_cast<double *>(std::realloc(g.data, n * sizeof(double)));
  double r = g.data[0];
  std::free(g.data);
  return r;
}

// realloc of an address read back from a field: the old block's size is
// the allocator's (ct.allocation_size), the copy bounded by it; the field
// is given the new block's address.
// CHECK-LABEL: func.func @_Z10grownFieldPKdi
// CHECK: memref.store %{{.*}}, %{{.*}}[%c0]
// CHECK: %[[OLD:.*]] = ct.load_address %[[OBJECT:.*]][%c0]
// CHECK-NEXT: %[[HELD:.*]] = ct.allocation_size %[[OLD]]
// CHECK: %[[NEW:.*]] = memref.alloc(%[[COUNT:.*]]) {ct.heap_function = "malloc"} : memref<?xf64>
// CHECK-NEXT: %[[KEPT:.*]] = arith.minui %[[COUNT]], %[[HELD]]
// CHECK: scf.for %[[I:.*]] = %c0 to %[[KEPT]]
// CHECK-NEXT: %[[V:.*]] = memref.load %[[OLD]][%[[I]]]
// CHECK-NEXT: memref.store %[[V]], %[[NEW]][%[[I]]]
// CHECK: memref.dealloc %[[OLD]] {ct.heap_function = "free"}
// CHECK: ct.store_address %{{.*}}, %[[OBJECT]][%c0]
