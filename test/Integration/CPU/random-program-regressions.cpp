// Programs from random-program testing that once crashed the compiler,
// were refused or got a wrong derivative, each checked against closed
// forms or central finite differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

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

// A recursive helper: the pullback hands its tape to the helper's forward
// half, which pushes onto it. At -O2 that call was taken for one that
// cannot touch the tape and the tape's set-up was deleted (a crash).
double recurse(double x, int depth) {
  if (depth <= 0)
    return x;
  return std::sin(recurse(x, depth - 1)) * 0.75 + x * 0.5;
}

[[ct::differentiable]] double recursive(double x, const double *c) {
  double v = c[1];
  double a = recurse(x / (1.5 + std::sin(v)) > 1.0 ? c[2] : c[0], 3);
  double b = recurse(std::fabs(v) > 0.5 ? v : x, 3) / (2.0 + c[2] * c[2]);
  return a * std::cos(x) + b * x;
}

// Seed 48138: a running sum whose result the return takes in one branch
// only. Its adjoint was taken as the seed's before the loop, whichever
// branch ran (x2 got 1 where the other branch makes it 0).
[[ct::differentiable]] double sumChosenAfter(const double *c, int n,
                                             double x1, double x2) {
  int count = (n % 4 + 4) % 4 + 1;
  double zeros[5] = {};
  for (int j = 0; j < count; ++j)
    x2 += std::sin(zeros[j]) * x1 + c[j] * c[j];
  return c[0] > 1.0 ? x2 : c[1] - c[2];
}

// Seed 5074: a checkpointed while loop whose condition reads memory. Its
// JVP (inside ct::hvp) is a while loop whose condition region passes on
// values it computes; reversing it read their adjoints before the reversed
// body of the iteration before had added them (the HVP in c was 0).
// With y = cos(2 + sin c0), the result is y * y (x is overwritten).
[[ct::differentiable]] double checkpointedWhile(double x, const double *c) {
  int i = 0;
#pragma ct checkpoint snapshots(1)
  while (i < 4 && c[0] >= -0.25) {
    for (int j = 0; j < 3; ++j)
      x = std::cos(2.0 + std::sin(c[0]));
    ++i;
  }
  return x * x;
}

int main() {
  {
    double x = 0.4, c[3] = {0.3, -0.6, 0.8}, dc[3] = {}, dx = 0;
    ct::gradient<recursive>(x, c, &dx, dc);
    check::near("recursive.x", dx,
                check::centralDifference(
                    [&](double t) { return recursive(t, c); }, x),
                1e-7);
    for (int i = 0; i < 3; ++i)
      check::near("recursive.c", dc[i],
                  check::differenceAt(c, i, [&] { return recursive(x, c); }),
                  1e-7);
    double v = 0.7, vc[3] = {0.2, -0.4, 0.5}, hx = 0, hc[3] = {};
    ct::hvp<recursive>(x, c, v, vc, &hx, hc);
    auto gradientAlong = [&](double t) {
      double shifted[3], d[3] = {}, d0 = 0;
      for (int i = 0; i < 3; ++i)
        shifted[i] = c[i] + t * vc[i];
      ct::gradient<recursive>(x + t * v, shifted, &d0, d);
      return d0;
    };
    check::near("recursive.hvp", hx,
                check::centralDifference(gradientAlong, 0.0), 1e-6);
  }

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
  // Both branches, reverse against central differences and forward.
  for (double first : {0.5, 1.5}) {
    double c[4] = {first, 0.7, -0.3, 0.2}, dc[4] = {}, dx1 = 0, dx2 = 0;
    ct::gradient<sumChosenAfter, ct::wrt<0, 2, 3>>(c, 3, 0.4, -0.9, dc, &dx1,
                                                   &dx2);
    check::near("sumChosenAfter.x2", dx2, first > 1.0 ? 1.0 : 0.0, 0);
    check::near("sumChosenAfter.x1", dx1, 0, 0);
    for (int i = 0; i < 4; ++i)
      check::near("sumChosenAfter.c", dc[i],
                  check::differenceAt(c, i, [&] {
                    return sumChosenAfter(c, 3, 0.4, -0.9);
                  }),
                  1e-8);
    double tc[4] = {1, 1, 1, 1};
    auto jvp = ct::jvp<sumChosenAfter, ct::wrt<0, 3>>(c, 3, 0.4, -0.9, tc, 1.0);
    check::near("sumChosenAfter.jvp", jvp.tangent,
                dc[0] + dc[1] + dc[2] + dc[3] + dx2, 1e-12);
  }
  {
    // d/dc y^2 = 2 y y' with y' = -sin(u) cos(c), u = 2 + sin c;
    // d2/dc2 = 2 y'^2 + 2 y y'' with y'' = -cos(u) cos(c)^2 + sin(u) sin(c).
    double c[1] = {0.5}, x = 0.3;
    double u = 2 + std::sin(c[0]), y = std::cos(u);
    double y1 = -std::sin(u) * std::cos(c[0]);
    double y2 = -std::cos(u) * std::cos(c[0]) * std::cos(c[0]) +
                std::sin(u) * std::sin(c[0]);
    double dx = 0, dc[1] = {};
    ct::gradient<checkpointedWhile>(x, c, &dx, dc);
    check::near("checkpointedWhile.dc", dc[0], 2 * y * y1, 1e-12);
    check::near("checkpointedWhile.dx", dx, 0, 0);
    double tc[1] = {1}, hx = 0, hc[1] = {};
    ct::hvp<checkpointedWhile>(x, c, 0.0, tc, &hx, hc);
    check::near("checkpointedWhile.hvp", hc[0], 2 * y1 * y1 + 2 * y * y2,
                1e-12);
    check::near("checkpointedWhile.hvp.x", hx, 0, 0);
  }
  return check::report();
}
