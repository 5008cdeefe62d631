// std::vector is the memref of its elements, whose extent is its size: a
// parameter arrives as such a memref, a local is memref.alloc'd and freed
// at the end of its scope, `size()` is memref.dim. The entry point views
// the caller's vector (ct.vector_view). A size_t loop against `size()`
// becomes an scf.for; std::accumulate is a loop over the elements. Loops
// over pointers compare positions in memory when the pointers are
// different parameters.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <numeric>
#include <vector>

// CHECK-LABEL: func.func @_Z5norm2RKSt6vectorIdSaIdEE(%arg0: memref<?xf64, strided<[1], offset: ?>>) -> f64
// CHECK: %[[N:.*]] = memref.dim %arg0, %c0
// CHECK: %[[SQ:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: %[[N64:.*]] = arith.index_castui %[[N]] : index to i64
// CHECK: scf.for %[[I:.*]] = %c0_i64 to %[[N64]] step %c1_i64 : i64 {
// CHECK:   %[[K:.*]] = arith.index_castui %[[I]] : i64 to index
// CHECK:   memref.load %arg0[%[[K]]]
// CHECK:   memref.store %{{.*}}, %[[SQ]][%[[K]]]
// CHECK: %[[SUM:.*]] = scf.for %[[J:.*]] = %c0 to %[[N]] step %c1 iter_args(%[[ACC:.*]] = %cst) -> (f64) {
// CHECK:   memref.load %[[SQ]][%[[J]]]
// CHECK: memref.dealloc %[[SQ]]
// CHECK: return %[[SUM]]
[[ct::differentiable]] double norm2(const std::vector<double> &x) {
  std::vector<double> sq(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    sq[i] = x[i] * x[i];
  return std::accumulate(sq.begin(), sq.end(), 0.0);
}

// CHECK-LABEL: func.func @_Z4walkPKdS0_
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: memref.extract_aligned_pointer_as_index %arg1
// CHECK: scf.while
// CHECK: arith.cmpi ne
[[ct::differentiable]] double walk(const double *a, const double *end) {
  double s = 0;
  for (const double *p = a; p != end; ++p)
    s += *p;
  return s;
}

// CHECK-LABEL: func.func @_ZN2ct6detail5entryINS0_11gradient_ofE
// CHECK: %[[X:.*]] = ct.vector_view %arg0 {begin = 0 : i64, end = 8 : i64} : memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[DX:.*]] = ct.vector_view %arg1 {begin = 0 : i64, end = 8 : i64}
// CHECK: ct.gradient @_Z5norm2RKSt6vectorIdSaIdEE(%[[X]]) shadows(%[[DX]]) activity [dup]
double use(const std::vector<double> &x, std::vector<double> &dx) {
  return ct::gradient<norm2>(x, &dx);
}
