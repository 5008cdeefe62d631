// Local arrays that live inside a branch or a loop iteration (a helper's
// buffer, inlined where it is called): their adjoints start from zero in
// the reverse of that branch or iteration. Gradients, JVPs and HVPs against
// central finite differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

double product(const double *p) {
  double q[2] = {1.0, 1.0};
  for (int i = 0; i < 2; ++i)
    q[i] *= std::cos(p[i]);
  return q[0] * q[1];
}

// The helper's buffer lives in one branch.
[[ct::differentiable]] double inBranch(double x, const double *c) {
  if (x > 0)
    return product(c) * x;
  return x;
}

double smooth(double x) {
  double t[3] = {x, x * x, std::sin(x)};
  return t[0] * t[2] + t[1];
}

// A buffer per iteration.
[[ct::differentiable]] double inLoop(double x, const double *c, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += smooth(x * c[i % 2]) * std::cos(s);
  return s;
}

int main() {
  double c[2] = {0.7, -0.4}, dc[2] = {}, dx = 0;
  for (double x : {0.8, -0.5}) {
    dx = 0;
    dc[0] = dc[1] = 0;
    ct::gradient<inBranch>(x, c, &dx, dc);
    check::near("inBranch.x", dx,
                check::centralDifference([&](double t) { return inBranch(t, c); }, x),
                1e-7);
    for (int i = 0; i < 2; ++i)
      check::near("inBranch.c", dc[i],
                  check::differenceAt(c, i, [&] { return inBranch(x, c); }),
                  1e-7);
  }
  double x = 0.6;
  dx = 0;
  dc[0] = dc[1] = 0;
  ct::gradient<inLoop>(x, c, 5, &dx, dc);
  check::near("inLoop.x", dx,
              check::centralDifference([&](double t) { return inLoop(t, c, 5); }, x),
              1e-7);
  for (int i = 0; i < 2; ++i)
    check::near("inLoop.c", dc[i],
                check::differenceAt(c, i, [&] { return inLoop(x, c, 5); }), 1e-7);
  double tc[2] = {0.3, -0.2};
  check::near("inLoop.jvp", ct::jvp<inLoop>(x, c, 5, 1.0, tc).tangent,
              dx + dc[0] * tc[0] + dc[1] * tc[1], 1e-10);
  // H v along (1, tc) against differences of the gradient.
  double hx = 0, hc[2] = {};
  ct::hvp<inLoop>(x, c, 5, 1.0, tc, &hx, hc);
  auto gradientAlong = [&](double t) {
    double shifted[2] = {c[0] + t * tc[0], c[1] + t * tc[1]}, g[2] = {}, gx = 0;
    ct::gradient<inLoop>(x + t, shifted, 5, &gx, g);
    return gx;
  };
  check::near("inLoop.hvp", hx, check::centralDifference(gradientAlong, 0.0), 1e-6);
  return check::report();
}
