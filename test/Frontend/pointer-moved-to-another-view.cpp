// An iterator variable assigned another iterator into the same vector made
// elsewhere (passed by value into a helper that assigns it through a
// reference, as the library's ranges::next does): the value assigned is a
// view of the vector from its element on, and the variable's offset is
// rebased onto the memory it designates, so `*it` and `it[1]` read
// elements 2 and 3 of the vector (the rebase folds away).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

template <class It> static void jumpTo(It &it, It bound) { it = bound; }

// CHECK-LABEL: func.func @_Z6jumpedPKdi(
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[V:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[A:.*]] = memref.load %[[V]][%[[C2]]] : memref<?xf64>
// CHECK: %[[B:.*]] = memref.load %[[V]][%[[C3]]] : memref<?xf64>
// CHECK: arith.mulf %[[A]], %[[B]] : f64
[[ct::differentiable]] double jumped(const double *x, int n) {
  std::vector<double> v(x, x + n);
  auto it = v.begin();
  jumpTo(it, v.begin() + 2);
  return *it * it[1];
}
