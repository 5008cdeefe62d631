// A std::vector of a class that owns memory is kept in memory as C++ lays
// it out (docs/Memory.md): three address slots (first element, end, end of
// capacity) set to null by its default constructor; its size is the
// distance between two of them, read as integers; resize destroys the
// elements past the new size (their destructors, inlined), grows the
// memory when the capacity is exceeded (twice the capacity, at least the
// size asked: new memory, each element's bytes and address moved, the old
// memory freed, the three addresses stored), constructs the new elements
// (their default constructor) and stores the new end; the scope's end
// destroys every element and frees the memory.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

struct Buffer {
  Buffer() : n(0), data(nullptr) {}
  Buffer(const Buffer &other) : n(other.n), data(new double[other.n]) {
    for (int i = 0; i < n; ++i)
      data[i] = other.data[i];
  }
  ~Buffer() { delete[] data; }
  int n;
  double *data;
};

// CHECK-LABEL: func.func @_Z5counti(
// CHECK: %[[HOLDER:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[NULL:.*]] = ct.pointer_view
// CHECK: ct.store_address %[[NULL]], %[[HOLDER]][%[[C0:[a-z0-9_]+]]]
// CHECK: ct.store_address %[[NULL]], %[[HOLDER]][%[[C1:[a-z0-9_]+]]]
// CHECK: ct.store_address %[[NULL]], %[[HOLDER]][%[[C2:[a-z0-9_]+]]]
// The size before: (end - first) / sizeof(Buffer).
// CHECK: %[[END:.*]] = ct.load_address %[[HOLDER]][%[[C1]]] : memref<3xf64> -> memref<?xi8
// CHECK: %[[ENDBITS:.*]] = memref.extract_aligned_pointer_as_index %[[END]]
// CHECK: %[[FIRST:.*]] = ct.load_address %[[HOLDER]][%[[C0]]] : memref<3xf64> -> memref<?xi8
// CHECK: %[[FIRSTBITS:.*]] = memref.extract_aligned_pointer_as_index %[[FIRST]]
// CHECK: %[[BYTES:.*]] = arith.subi %[[ENDBITS]], %[[FIRSTBITS]]
// CHECK: arith.divui %[[BYTES]], %c16
// Elements past the new size: their destructors.
// CHECK: scf.for
// CHECK: memref.dealloc
// Growth past the capacity.
// CHECK: scf.if
// CHECK: %[[FRESH:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK: memref.store
// CHECK: ct.load_address
// CHECK: ct.store_address
// CHECK: }
// CHECK: memref.dealloc
// CHECK-COUNT-3: ct.store_address %{{.*}}, %[[HOLDER]]
// CHECK: }
// The new elements: the default constructor (n = 0 packed, data = null).
// CHECK: scf.for
// CHECK: arith.andi
// CHECK: ct.store_address %[[NULL]]
// The new end.
// CHECK: ct.store_address %{{.*}}, %[[HOLDER]][%[[C1]]]
// The scope's end: every element's destructor, then the memory.
// CHECK: scf.for
// CHECK: memref.dealloc
// CHECK: }
// CHECK: memref.dealloc
// CHECK: return
[[ct::differentiable]] int count(int m) {
  std::vector<Buffer> v;
  v.resize(m);
  return int(v.size());
}
