// A loop that may not run, dividing by a number it reads from memory: the
// read moves out of the loop (guarded, zero where the loop does not run),
// and so does its reciprocal, which is then infinite; its partial meets a
// zero adjoint in the Hessian-vector product, whose choice between the
// read and zero must choose, not multiply (0 * inf is NaN). Every mode
// against finite differences, the loop running and not, at -O0 and -O2.
// (Eigen's vectorized division of a segment by a scalar, in every
// Cholesky factorization, is such a loop.)
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "modes.h"

template <int Skip>
[[ct::differentiable]] double scaledTail(const double *x, int n) {
  double v[4] = {x[0] * x[1], x[1], x[2] * x[2], x[3]};
  for (int i = 2; i < n - Skip; ++i)
    v[i] = v[i] / x[0];
  return v[0] * x[3] + v[2] + v[1] * v[3];
}

int main() {
  const double point[4] = {0.5, -0.25, 1.5, 2.0};
  check::checkModes<scaledTail<0>>("runs", point, 4);
  check::checkModes<scaledTail<2>>("does not run", point, 4);
  return check::report();
}
