// An array of std::vectors (built-in or std::array) is laid out as three
// address slots per vector, as the rows of a vector of vectors are: each
// element is made empty (null addresses), grows through its own slots, is
// copied element by element (a copy of the array copies each vector's
// elements into fresh memory), and is freed, last first, where the array's
// scope ends.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <array>
#include <vector>

// CHECK-LABEL: func.func @_Z5grownPKdi(
// CHECK: %[[ROWS:.*]] = memref.alloca() : memref<6xf64>
// Each vector made empty, in a loop over the array: its three addresses
// null.
// CHECK: scf.for %[[E:.*]] = %{{.*}} to %[[C2:[a-z0-9_]+]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[E]], %[[C3:[a-z0-9_]+]]
// CHECK: %[[NULL:.*]] = ct.pointer_view
// CHECK: ct.store_address %[[NULL]], %[[ROWS]][%[[FIRST]]]
// CHECK: ct.store_address %[[NULL]], %[[ROWS]][%{{.*}}]
// CHECK: ct.store_address %[[NULL]], %[[ROWS]][%{{.*}}]
// CHECK: }
// The second vector's slots, 3 to 5: its first address, where it ends,
// where its capacity ends.
// CHECK: ct.load_address %[[ROWS]][%[[C4:[a-z0-9_]+]]]
// CHECK: ct.load_address %[[ROWS]][%[[C3]]]
// CHECK: scf.if
// CHECK: %[[FRESH:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[OLD:.*]] = ct.load_address %[[ROWS]][%[[C3]]]
// CHECK: memref.dealloc %[[OLD]]
// CHECK: ct.store_address %{{.*}}, %[[ROWS]][%[[C3]]]
// CHECK: ct.store_address %{{.*}}, %[[ROWS]][%[[C4]]]
// CHECK: ct.store_address %{{.*}}, %[[ROWS]][%[[C5:[a-z0-9_]+]]]
// CHECK: }
// The scope's end: each vector's memory freed, the last first.
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C2]]
// CHECK: %[[LAST:.*]] = arith.subi %{{.*}}, %[[I]]
// CHECK: %[[AT:.*]] = arith.muli %[[LAST]], %[[C3]]
// CHECK: %[[MEMORY:.*]] = ct.load_address %[[ROWS]][%[[AT]]]
// CHECK: memref.dealloc %[[MEMORY]]
[[ct::differentiable]] double grown(const double *x, int n) {
  std::vector<double> rows[2];
  rows[1].push_back(x[0]);
  return rows[1][0];
}

// A copy of a std::array of vectors, in a loop over its vectors: each made
// empty, then given fresh memory and the source's elements copied into it.
// CHECK-LABEL: func.func @_Z6copiedPKdi(
// CHECK: %[[B:.*]] = memref.alloca() : memref<6xf64>
// CHECK: %[[A:.*]] = memref.alloca() : memref<6xf64>
// CHECK: scf.for
// CHECK: ct.store_address %{{.*}}, %[[A]]
// CHECK: scf.for %[[E:.*]] = %{{.*}} to %{{.*}}
// CHECK: %[[FIRST:.*]] = arith.muli %[[E]], %{{.*}}
// CHECK: ct.store_address %{{.*}}, %[[B]][%[[FIRST]]]
// CHECK: scf.if
// CHECK: memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: ct.store_address %{{.*}}, %[[B]][%[[FIRST]]]
// CHECK: }
// CHECK: %[[TO:.*]] = ct.load_address %[[B]][%[[FIRST]]]
// CHECK: %[[FROM:.*]] = ct.load_address %[[A]][%[[FIRST]]]
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %[[FROM]]
// CHECK: memref.store %[[V]], %[[TO]]
[[ct::differentiable]] double copied(const double *x, int n) {
  std::array<std::vector<double>, 2> a;
  a[0].assign(n, x[0]);
  std::array<std::vector<double>, 2> b = a;
  return b[0][0];
}
