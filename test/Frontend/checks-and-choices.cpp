// Lowering of checks (assert, calls that do not return, builtins for the
// optimizer) and of conditionals that choose a place.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s

#include <cassert>
#include <cstdlib>

// A failed assert becomes ct.abort with glibc's message; the test stays a
// branch of the primal.
// CHECK-LABEL: func.func @_Z7checkedPKdi
// CHECK: scf.if
// CHECK: ct.abort "{{.*}}checks-and-choices.cpp:[[@LINE+3]]: double checked(const double *, int): Assertion `n > 0' failed."
// CHECK: ct.abort "{{.*}}checks-and-choices.cpp:[[@LINE+4]]: 'abort' was called in a derivative; aborting"
[[ct::differentiable]] double checked(const double *p, int n) {
  assert(n > 0);
  if (__builtin_expect(p[0] > 1e300, 0))
    std::abort();
  return p[0] * p[0];
}

// `c ? a : b` as a place: both places, one chosen with selects (memory
// and offset). Reading the chosen place at a known offset chooses between
// the two values instead, and a write to a place chosen among local slots
// writes each slot the value chosen for it (ChosenPlaces.cpp), so that the
// slots become SSA values.
// CHECK-LABEL: func.func @_Z6chosendd
// CHECK-NOT: memref.
// CHECK: %[[A:.*]] = arith.mulf %arg0, %arg0
// CHECK: %[[LESS:.*]] = arith.cmpf olt, %[[A]], %arg1
// CHECK: %[[V:.*]] = arith.select %[[LESS]], %[[A]], %arg1 : f64
// CHECK: %[[W:.*]] = arith.mulf %[[V]]
// CHECK: %[[NEWA:.*]] = arith.select %[[LESS]], %[[W]], %[[A]] : f64
// CHECK: %[[NEWB:.*]] = arith.select %[[LESS]], %arg1, %[[W]] : f64
// CHECK: arith.addf %[[NEWA]], %[[NEWB]]
[[ct::differentiable]] double chosen(double x, double y) {
  double a = x * x, b = y;
  (a < b ? a : b) *= 2;
  return a + b;
}

// Constant evaluation is over when derivatives run.
// CHECK-LABEL: func.func @_Z7runtimed
// CHECK-NOT: scf.if
// CHECK: return
[[ct::differentiable]] double runtime(double x) {
  if (__builtin_is_constant_evaluated())
    return 0.0;
  return x;
}
