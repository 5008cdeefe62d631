// `switch` in differentiable code: fall-through ([[fallthrough]] and plain),
// `default`, negative and sparse case values, enums, `break` and
// `continue` inside a loop, a switch with an initializer; reverse and
// forward mode at -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

enum class Shape { Line, Square, Cube, Other };

[[ct::differentiable]] double shaped(double x, Shape s) {
  double r = 0;
  switch (s) {
  case Shape::Line:
    r = x;
    break;
  case Shape::Square:
    r = x * x;
    [[fallthrough]];
  case Shape::Cube:
    r += x * x * x;
    break;
  default:
    r = -x;
  }
  return r;
}

[[ct::differentiable]] double sparse(double x, int k) {
  switch (int twice = 2 * k; twice) {
  case -2:
    return 2 * x;
  case 1000:
    return 3 * x * x;
  case 0:
  case 4:
    return x * x * x;
  }
  return -x;
}

[[ct::differentiable]] double looped(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    switch (i % 3) {
    case 0:
      s += p[i];
      continue;
    case 1:
      s += p[i] * p[i];
      break;
    default:
      s *= p[i];
    }
    s += 1;
  }
  return s;
}

template <auto F, class K> void scalar(const char *name, K k, double dx) {
  double g = 0;
  ct::gradient<F>(2.0, k, &g);
  check::near(name, g, dx, 1e-15);
  check::near(name, ct::jvp<F>(2.0, k, 1.0).tangent, dx, 1e-15);
}

int main() {
  scalar<shaped>("line", Shape::Line, 1.0);
  scalar<shaped>("square falls into cube", Shape::Square, 4.0 + 12.0);
  scalar<shaped>("cube", Shape::Cube, 12.0);
  scalar<shaped>("default", Shape::Other, -1.0);
  scalar<sparse>("case -2", -1, 2.0);
  scalar<sparse>("case 1000", 500, 12.0);
  scalar<sparse>("case 0", 0, 12.0);
  scalar<sparse>("case 4", 2, 12.0);
  scalar<sparse>("no case", 3, -1.0);
  // s = ((p0 + p1^2) + 1) p2 + 1 + p3 for n = 4.
  const double p[4] = {1, 2, 3, 4};
  double dp[4] = {};
  double v = ct::gradient<looped>(p, 4, dp);
  check::near("looped value", v, 23.0, 1e-15);
  const double expected[4] = {3.0, 12.0, 6.0, 1.0};
  for (int i = 0; i < 4; ++i)
    check::near("looped gradient", dp[i], expected[i], 1e-15);
  const double t[4] = {1, 1, 1, 1};
  check::near("looped jvp", ct::jvp<looped>(p, 4, t).tangent, 22.0, 1e-15);
  return check::report();
}
