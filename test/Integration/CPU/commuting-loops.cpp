// Loops whose iterations touch no element another iteration writes: their
// reversed loops run in the primal's order (docs/AD.md, "Iterations that
// commute run forwards"), directly when they keep no tape, and turned
// around by ct-tape-blocks when they read the tape. A Runge-Kutta-like
// integrator exercises both (the stage loops tape what they read, the
// updates do not), with int loops whose counters carry nsw; gradients
// against central finite differences.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

constexpr int kMax = 16;

/// dy_i = x_i sin(y_(i-1)) (dy_0 = x_0): reads the state at i - 1, writes i.
void rate(int n, const double *x, const double *y, double *dy) {
  dy[0] = x[0];
  for (int i = 1; i < n; ++i)
    dy[i] = x[i] * std::sin(y[i - 1]);
}

[[ct::differentiable]] double integrate(int n, int steps, const double *x) {
  double y[kMax] = {}, k1[kMax], k2[kMax], stage[kMax];
  const double h = 1.0 / steps;
  for (int s = 0; s < steps; ++s) {
    rate(n, x, y, k1);
    for (int i = 0; i < n; ++i)
      stage[i] = y[i] + h * k1[i];
    rate(n, x, stage, k2);
    for (int i = 0; i < n; ++i)
      y[i] += h / 2 * (k1[i] + k2[i]);
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += y[i] * y[i];
  return sum;
}

int main() {
  using check::near;
  constexpr int n = 7, steps = 20;
  double x[n];
  for (int i = 0; i < n; ++i)
    x[i] = 0.5 + 0.2 * std::cos(1.7 * i);
  double dx[n] = {};
  ct::gradient<integrate, ct::wrt<2>>(n, steps, x, dx);
  for (int k = 0; k < n; ++k)
    near("integrate dx", dx[k],
         check::differenceAt(x, k, [&] { return integrate(n, steps, x); }),
         1e-7);
  return check::report();
}
