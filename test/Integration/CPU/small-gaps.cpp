// Small C++ forms a peer AD tool's regression tests use: braces around a
// scalar (`double s{x + y};`, `int n{}`), and `nullptr` for a pointer the
// callee does not follow, or for a pointer variable assigned an array
// later. Reverse and forward mode against closed forms, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

// s = x + y, t = x y: f = s t.
[[ct::differentiable]] double braces(double x, double y) {
  double s{x + y};
  double t{x * y};
  int n{};
  double zero{};
  return s * t + n + zero;
}

// A pointer parameter the callee does not follow.
double weighted(const double *w, double x) { return x * x; }

[[ct::differentiable]] double nulls(double x) {
  double a = weighted(nullptr, x);
  const double *p = nullptr;
  double b[2] = {x, 2 * x};
  p = b;
  return a + p[1];
}

int main() {
  double dx = 0, dy = 0;
  double value = ct::gradient<braces>(2.0, 3.0, &dx, &dy);
  check::near("braces", value, 5 * 6, 1e-12);
  // d/dx (x + y) x y = x y + (x + y) y; d/dy = x y + (x + y) x.
  check::near("braces d/dx", dx, 6 + 5 * 3, 1e-12);
  check::near("braces d/dy", dy, 6 + 5 * 2, 1e-12);
  check::near("braces jvp", ct::jvp<braces>(2.0, 3.0, 1.0, 0.0).tangent,
              6 + 5 * 3, 1e-12);
  dx = 0;
  value = ct::gradient<nulls>(1.5, &dx);
  check::near("nulls", value, 1.5 * 1.5 + 3, 1e-12);
  check::near("nulls d/dx", dx, 2 * 1.5 + 2, 1e-12);
  check::near("nulls jvp", ct::jvp<nulls>(1.5, 1.0).tangent, 5, 1e-12);
  return check::report();
}
