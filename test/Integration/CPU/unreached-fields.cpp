// A field that never reaches the result is not differentiated, even when
// the other fields of its struct do: s.c overflows to -inf in h3's loop,
// but only s.v[1] is returned, so df/dx1 = 0 (x1 is reported as not
// influencing the result) and df/dx2 = 1 + 0.5 + 2 x2 = 7.5 at x2 = 3,
// not NaN (0 * inf), in both modes. Where the overflowing value does reach
// the result, the derivative stays the IEEE answer (NaN).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %t2 | FileCheck %s
// WARN: warning: parameter 'x1' of 'f' does not influence its result; its derivative is zero
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

struct S {
  double a = 0, b = 0, c = 0;
  double v[2] = {0, 0};
  double norm2() const {
    return a * a + b * b + c * c + v[0] * v[0] + v[1] * v[1];
  }
};
double h3(S s) {
  for (int i = 0; i < 25; ++i)
    s.c -= s.norm2();
  return s.v[1];
}
[[ct::differentiable]] double f(double x1, double x2) {
  S s{};
  s.c = x1;
  s.v[1] = 0.5 * x2;
  return x2 + h3(s) + x2 * x2;
}

// An array's constant-index elements likewise.
[[ct::differentiable]] double g(double x, double y) {
  double e[3] = {x, y, 0};
  for (int i = 0; i < 30; ++i)
    e[0] = e[0] * e[0] + e[1]; // overflows; never read by the result
  e[2] = 2 * e[1];
  return e[2] + y;
}

// Here the overflow reaches the result: the derivative is NaN or infinite.
[[ct::differentiable]] double reached(double x) {
  S s{};
  s.c = x;
  for (int i = 0; i < 25; ++i)
    s.c -= s.norm2();
  return 0 * s.c + x;
}

int main() {
  using check::near;
  double d1 = 0, d2 = 0; // (gradients accumulate)
  double value = ct::gradient<f>(2.0, 3.0, &d1, &d2);
  near("value", value, 3.0 + 1.5 + 9.0, 0);
  near("unreached field, reverse: d/dx1", d1, 0, 0);
  near("unreached field, reverse: d/dx2", d2, 7.5, 1e-15);
  near("unreached field, forward: d/dx1", ct::jvp<f>(2.0, 3.0, 1.0, 0.0).tangent,
       0, 0);
  near("unreached field, forward: d/dx2", ct::jvp<f>(2.0, 3.0, 0.0, 1.0).tangent,
       7.5, 1e-15);
  double dx = 0, dy = 0;
  ct::gradient<g>(3.0, 2.0, &dx, &dy);
  near("unreached element, reverse: d/dx", dx, 0, 0);
  near("unreached element, reverse: d/dy", dy, 3, 0);
  near("unreached element, forward: d/dy",
       ct::jvp<g>(3.0, 2.0, 0.0, 1.0).tangent, 3, 0);
  double dr = 0;
  ct::gradient<reached>(2.0, &dr);
  near("reached overflow stays non-finite", std::isfinite(dr), 0, 0);
  return check::report();
}
