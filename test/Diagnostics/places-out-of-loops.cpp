// A checkpointed loop whose code after an early exit uses memory one of its
// iterations made, or a place it chose among different arrays: snapshots
// keep neither, so the pragma is ignored with a warning at the loop and the
// iterations are recorded as usual (their derivatives are checked in
// Integration/CPU/objects-out-of-loops.cpp). A loop passing out one array
// it chose a place in stays checkpointed: no warning.
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

[[ct::differentiable]] double madeInIteration(const double *x, int n) {
  double acc = 0;
#pragma ct checkpoint
  // CHECK-DAG: places-out-of-loops.cpp:[[@LINE+1]]:3: warning: '#pragma ct checkpoint' ignored: the code after this loop uses memory one of its iterations made or chose (an early return reading it), which snapshots do not keep; its iterations are recorded as usual
  for (int i = 0; i < n; ++i) {
    std::vector<double> pair{x[i], x[(i + 1) % n]};
    if (pair[0] > 2.5)
      return std::sin(pair[0]) * pair[1] + acc;
    acc += pair[0] * pair[1];
  }
  return acc;
}

[[ct::differentiable]] double oneOfTwo(double x, double y) {
  double a[3] = {x, y, x * y};
  double b[2] = {y * y, x};
#pragma ct checkpoint
  // CHECK-DAG: places-out-of-loops.cpp:[[@LINE+1]]:3: warning: '#pragma ct checkpoint' ignored: the code after this loop uses memory one of its iterations made or chose
  for (int i = 0; i < 4; ++i) {
    double &r = i % 2 ? a[i % 3] : b[i % 2];
    r *= x;
    if (i == 2) {
      r += y;
      return a[0] + 2 * a[1] + 3 * a[2] + 4 * b[0] + 5 * b[1];
    }
  }
  return y;
}

[[ct::differentiable]] double oneArray(double x, double y) {
  double a[3] = {x, y, x * y};
#pragma ct checkpoint
  for (int i = 0; i < 4; ++i) {
    double &r = a[i % 3];
    r *= x;
    if (i == 2) {
      r += y;
      return r * r + a[0] + 2 * a[1] + 3 * a[2];
    }
  }
  return y;
}

double gradients(const double *x, int n, double *dx, double *dy) {
  return ct::gradient<madeInIteration>(x, n, dx) +
         ct::gradient<oneOfTwo>(x[0], x[1], dx, dy) +
         ct::gradient<oneArray>(x[0], x[1], dx, dy);
}
