// A loop over std::vector's reverse iterators: the library's
// reverse_iterator is a class holding the vector's iterator, itself the
// pointer it wraps, so the object's field is a pointer field and its
// operators (lowered from the library's code) move an offset down the
// vector's memory: `*it` reads the element before it, `++it` steps back.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

// CHECK-LABEL: func.func @_Z6hornerPKdi(
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[COEFFS:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: scf.while (%[[AT:.*]] = %[[N]], %{{.*}} = %{{.*}})
// CHECK: arith.cmpi ne, %[[AT]], %[[C0]] : index
// CHECK: } do {
// CHECK: ^bb0(%[[POS:.*]]: index, %[[ACC:.*]]: f64):
// CHECK: %[[BEFORE:.*]] = arith.subi %[[POS]], %[[C1]] : index
// CHECK: memref.load %[[COEFFS]][%[[BEFORE]]] : memref<?xf64>
// CHECK: scf.yield %[[BEFORE]]
// CHECK: memref.dealloc %[[COEFFS]]
[[ct::differentiable]] double horner(const double *x, int n) {
  std::vector<double> c(x, x + n);
  double acc = 0;
  for (auto it = c.rbegin(); it != c.rend(); ++it)
    acc = acc * 0.7 + *it;
  return acc;
}
