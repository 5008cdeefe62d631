// `v.assign(first, last)`: a vector of numbers gets new memory of the
// range's length, filled from the range, and its old memory is freed
// (here folded away: nothing read it); a vector that also grows is
// emptied (its size slot 0), then the range inserted at 0 (its memory
// grown to the range's length, the old memory freed).
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

// CHECK-LABEL: func.func @_Z6rangedPKdi(
// CHECK: %[[N:.*]] = arith.index_cast %arg1
// CHECK: %[[COUNT:.*]] = arith.subi %[[N]], %c1
// CHECK: %[[FRESH:.*]] = memref.alloc(%[[COUNT]]) : memref<?xf64>
// CHECK: scf.for %[[I:.*]] = %c0 to %[[COUNT]]
// CHECK: %[[FROM:.*]] = arith.addi %[[I]], %c1
// CHECK: %[[X:.*]] = memref.load %arg0[%[[FROM]]]
// CHECK: memref.store %[[X]], %[[FRESH]][%[[I]]]
// CHECK: memref.load %[[FRESH]][%c0]
// CHECK: memref.dealloc %[[FRESH]]
[[ct::differentiable]] double ranged(const double *x, int n) {
  std::vector<double> v(n);
  v.assign(x + 1, x + n);
  return v[0];
}

// CHECK-LABEL: func.func @_Z5grownPKdi(
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[SIZE:.*]] = memref.alloca() : memref<1xindex>
// CHECK: memref.store %c0, %[[SIZE]][%c0]
// CHECK: memref.store %c0, %[[SIZE]][%c0]
// CHECK: %[[MORE:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: ct.load_address %[[SLOT]][%c0]
// CHECK: %[[OLD:.*]] = ct.load_address %[[SLOT]][%c0]
// CHECK: memref.dealloc %[[OLD]]
// CHECK: ct.store_address %{{.*}}, %[[SLOT]][%c0]
// CHECK: scf.for
// CHECK: memref.load %arg0
[[ct::differentiable]] double grown(const double *x, int n) {
  std::vector<double> v;
  v.assign(x, x + n);
  v.push_back(x[0]);
  return v[1];
}
