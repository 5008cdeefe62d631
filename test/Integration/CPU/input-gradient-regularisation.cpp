// Input-gradient regularisation from C++: the gradient of sum_i g_i^2
// where g is the gradient of a model in its inputs, a loop over memory:
// reverse mode over reverse mode. The model's loop is undone eagerly (its
// reverse keeps no tape); under the plain strategy it keeps a tape, which
// the second reverse sweep reverses as a tape of adjoints.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

constexpr int N = 4;

/// A model of one weight w over inputs x: sum_i exp(w x_i) x_i.
double model(double w, const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += std::exp(w * x[i]) * x[i];
  return r;
}

/// Input-gradient regularisation: |d model / d x|^2.
double regulariser(double w, const double *x, int n) {
  double g[N] = {};
  ct::gradient<model, ct::wrt<1>>(w, x, n, g);
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += g[i] * g[i];
  return r;
}

int main() {
  // Reverse over reverse through a loop and memory.
  double x[N] = {0.1, 0.2, -0.3, 0.4}, w = 0.5, dw = 0, dx[N] = {};
  ct::gradient<regulariser>(w, x, N, &dw, dx);
  auto closed = [&](double wt) {
    double r = 0;
    for (double xi : x) {
      double g = std::exp(wt * xi) * (1 + wt * xi);
      r += g * g;
    }
    return r;
  };
  check::near("regulariser value", regulariser(w, x, N), closed(w), 1e-12);
  check::near("regulariser dw", dw, check::centralDifference(closed, w), 1e-7);
  for (int i = 0; i < N; ++i)
    check::near("regulariser dx", dx[i],
                check::differenceAt(x, i, [&] { return closed(w); }), 1e-7);

  return check::report();
}
