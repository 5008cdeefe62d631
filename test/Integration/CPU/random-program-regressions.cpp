// Programs from random-program testing that once crashed the compiler or
// were refused, each checked against closed forms or central finite
// differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[0-9]+}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

// A value computed in a branch whose forward op is rebuilt (to pass another
// value out of it) while the pullback call's operands, gathered before,
// still named the old op: the compiler crashed.
[[ct::differentiable]] double callee(double x1, double x3, const double *c5,
                                     double x2, const double *c4) {
  double v = ct::stop_gradient(x2);
  return c4[2] + v;
}

[[ct::differentiable]] double rebuiltBranch(double x1, double x2,
                                            const double *c3,
                                            const double *c4, int n) {
  double m[3][3] = {};
  m[n % 3][0] = c4[n % 2] / (1.5 + std::sin(c4[(n + 1) % 2]));
  if (n < 3)
    return (x2 + c3[(n + 2) % 3]) /
           (1.25 + std::cos(3.0 * m[n % 3][(n + 2) % 3]));
  double a[4] = {};
  return callee(c3[n % 3], x1, a, x2, c3) * m[n % 3][(n + 2) % 3] + x2;
}

int main() {
  // rebuiltBranch at n = 4 is (c3[2] + stop(x2)) * g(c4) + x2 with
  // g = c4[0] / (1.5 + sin c4[1]).
  double c3[3] = {0.5, 1.5, 2}, c4[2] = {0.3, 0.2};
  double d3[3] = {}, d4[2] = {}, dx1 = 0, dx2 = 0;
  ct::hvp<rebuiltBranch>(1.5, 0.5, c3, c4, 4, 1.0, 1.0, c3, c4, &dx1, &dx2,
                         d3, d4);
  double q = 1.5 + std::sin(c4[1]);
  double g0 = 1 / q, g1 = -c4[0] * std::cos(c4[1]) / (q * q);
  check::near("rebuiltBranch.hvp.c3", d3[2], g0 * c4[0] + g1 * c4[1], 1e-12);
  check::near("rebuiltBranch.hvp.x2", dx2, 0, 1e-12);
  double g[3] = {}, h[2] = {}, gx1 = 0, gx2 = 0;
  ct::gradient<rebuiltBranch>(1.5, 0.5, c3, c4, 4, &gx1, &gx2, g, h);
  check::near("rebuiltBranch.x2", gx2, 1, 1e-12);
  check::near("rebuiltBranch.c3", g[2], c4[0] / q, 1e-12);
  check::near("rebuiltBranch.c4", h[1],
              check::differenceAt(c4, 1, [&] {
                return rebuiltBranch(1.5, 0.5, c3, c4, 4);
              }),
              1e-8);
  return check::report();
}
