// A vector of vectors is its rows' elements end to end plus where each row
// starts: the function receives the elements, then (after its declared
// parameters) the n + 1 row starts; `m[i]` is the view between starts i and
// i + 1, and `m.size()` is the number of starts less one. The entry point
// packs the caller's rows into one buffer (the starts first, from each
// row's std::vector, then the elements) and frees it after the request.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

// CHECK-LABEL: func.func @_Z2atRKSt6vectorIS_IdSaIdEESaIS1_EEii(
// CHECK-SAME: %[[FLAT:arg0]]: memref<?xf64, strided<[1], offset: ?>>, %arg1: i32, %arg2: i32, %[[ROWS:arg3]]: memref<?xindex>) -> f64
// CHECK: %[[START:.*]] = memref.load %[[ROWS]][%[[I:.*]]] : memref<?xindex>
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %c1
// CHECK: %[[END:.*]] = memref.load %[[ROWS]][%[[NEXT]]] : memref<?xindex>
// CHECK: %[[LEN:.*]] = arith.subi %[[END]], %[[START]]
// CHECK: %[[ROW:.*]] = memref.subview %[[FLAT]][%[[START]]] [%[[LEN]]] [1]
// CHECK: memref.load %[[ROW]][
// CHECK: %[[DIM:.*]] = memref.dim %[[ROWS]], %c0
// CHECK: arith.subi %[[DIM]], %c1
[[ct::differentiable]] double at(const std::vector<std::vector<double>> &m,
                                 int i, int j) {
  return m[i][j] * m.size();
}

// CHECK-LABEL: func.func @_ZN2ct6detail5entryINS0_11gradient_of
// CHECK: %[[STARTS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK: scf.for
// CHECK:   llvm.getelementptr
// CHECK:   ct.vector_view
// CHECK:   memref.store %{{.*}}, %[[STARTS]]
// CHECK: %[[BUFFER:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     memref.store %{{.*}}, %[[BUFFER]]
// CHECK: ct.gradient @_Z2atRKSt6vectorIS_IdSaIdEESaIS1_EEii
// CHECK-SAME: activity [dup, const, const, const]
// CHECK: memref.dealloc %[[BUFFER]]
// CHECK: memref.dealloc %[[STARTS]]
double use(const std::vector<std::vector<double>> &m,
           std::vector<std::vector<double>> *dm) {
  return ct::gradient<at, ct::wrt<0>>(m, 1, 2, dm);
}
