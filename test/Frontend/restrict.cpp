// `restrict` pointer parameters are marked ct.noalias: reverse mode may then
// read them again instead of taping (no other memory overlaps theirs).
// Unqualified pointers and references are not marked. A size_t loop
// against a parameter bound is a counted scf.for.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s

#include <cstddef>

// CHECK-LABEL: func.func @_Z4stepmPKdPd(
// CHECK-SAME: %arg0: i64, %arg1: memref<?xf64, strided<[1], offset: ?>> {ct.noalias}, %arg2: memref<?xf64, strided<[1], offset: ?>> {ct.noalias})
// CHECK: scf.for %{{.*}} = %c1_i64 to %arg0 step %c1_i64 : i64
[[ct::differentiable]] void step(std::size_t n, const double *__restrict__ x,
                                 double *__restrict__ y) {
  for (std::size_t i = 1; i < n; i++)
    y[i] = x[i] * y[i - 1];
}

// CHECK-LABEL: func.func @_Z5plainPKdPd(
// CHECK-NOT: ct.noalias
// CHECK: return
[[ct::differentiable]] void plain(const double *x, double *y) {
  y[0] = x[0];
}
