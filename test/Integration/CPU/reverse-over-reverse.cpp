// Reverse mode over reverse mode through code whose first derivative keeps
// a tape: ct::gradient of functions that call ct::gradient (or
// ct::pullback, ct::hvp) on loops, in-place memory updates, while loops,
// checkpointed loops (a `while` with a local array, a loop in a branch or
// a case), custom rules, helper calls and recursion, to third order.
// Checked against closed forms and central differences of the first
// derivatives, at -O0 and -O2 (and under the plain strategy by the suite's
// rerun).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

// A recurrence s <- sin(s x): each iteration's reverse reads back s x.
double recurrence(double x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s = std::sin(s * x);
  return s;
}
double slope(double x, int n) {
  double d = 0;
  ct::gradient<recurrence>(x, n, &d);
  return d;
}

// p(x) = x^4 + 2 x^3 - x + 3 by Horner's rule over a coefficient array;
// p''' = 24 x + 12, by reverse over reverse over reverse.
double horner(double x, const double *c, int degree) {
  double p = c[degree];
  for (int i = degree - 1; i >= 0; --i)
    p = p * x + c[i];
  return p;
}
const double kCoefficients[5] = {3, -1, 0, 2, 1};
double hornerSlope(double x) {
  double d = 0;
  ct::gradient<horner, ct::wrt<0>>(x, kCoefficients, 4, &d);
  return d;
}
double hornerCurvature(double x) {
  double d = 0;
  ct::gradient<hornerSlope>(x, &d);
  return d;
}

// In-place updates of a local array, several sweeps over it, then the
// input-gradient regulariser sum_i (d energy / d x_i)^2.
constexpr int kMaxInputs = 8;
double energy(double w, const double *x, int n) {
  double buffer[kMaxInputs];
  for (int i = 0; i < n; ++i)
    buffer[i] = x[i];
  for (int sweep = 0; sweep < 3; ++sweep)
    for (int i = 0; i < n; ++i)
      buffer[i] = std::sin(w * buffer[i]) + 0.1 * buffer[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += buffer[i] * buffer[i];
  return s;
}
double regulariser(double w, const double *x, int n) {
  double g[kMaxInputs] = {};
  ct::gradient<energy, ct::wrt<1>>(w, x, n, g);
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += g[i] * g[i];
  return r;
}

// A helper called in a loop (split into halves that share the tape).
double helper(double a, double b) {
  double s = a;
  for (int i = 0; i < 3; ++i)
    s = s * std::cos(b + s);
  return s;
}
double helperSum(double w, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += helper(w, x[i]);
  return s;
}
double gradientFeatures(double w, const double *x, int n) {
  double g[kMaxInputs] = {}, gw = 0;
  ct::gradient<helperSum>(w, x, n, &gw, g);
  double r = gw * gw;
  for (int i = 0; i < n; ++i)
    r += std::sin(g[i]);
  return r;
}

// Newton's iteration for sqrt(a) (a while loop), times sin(a): at
// convergence f = sqrt(a) sin(a).
double newton(double a) {
  double y = a;
  int iterations = 0;
  while (std::fabs(y * y - a) > 1e-15 * a && iterations < 100) {
    y = 0.5 * (y + a / y);
    ++iterations;
  }
  return y * std::sin(a);
}
double newtonSlope(double a) {
  double d = 0;
  ct::gradient<newton>(a, &d);
  return d;
}
double newtonCurvature(double a) {
  double d = 0;
  ct::gradient<newtonSlope>(a, &d);
  return d;
}

// A checkpointed loop (recomputed stretches between snapshots).
double checkpointed(double x, int n) {
  double s = x;
#pragma ct checkpoint snapshots(2)
  for (int i = 0; i < n; ++i)
    s = std::sin(s) + 0.5 * x;
  return s * s;
}
double checkpointedSlope(double x, int n) {
  double d = 0;
  ct::gradient<checkpointed>(x, n, &d);
  return d;
}
// A checkpointed while loop with a local array in its body: its first
// derivative keeps the array's working copy on the heap, which its own
// reverse sweep replaces with a buffer of its own.
double checkpointedWhile(double x, int n) {
  int i = 0;
#pragma ct checkpoint snapshots(1)
  while (i < n && x > -100) {
    double w[6] = {};
    for (int k = 0; k < 6; ++k)
      w[k] = std::sin(x * k);
    x += w[5] * 0.1;
    ++i;
  }
  return x * x;
}
double checkpointedWhileSlope(double x, int n) {
  double d = 0;
  ct::gradient<checkpointedWhile>(x, n, &d);
  return d;
}
// A checkpointed loop in a branch: its first derivative passes the
// snapshots out of the branch (poison where it did not run).
double checkpointedInBranch(double x, int n) {
  double s = x;
  if (x > 0) {
#pragma ct checkpoint snapshots(2)
    for (int i = 0; i < n; ++i)
      s = std::sin(s) + 0.5 * x;
  }
  return s * s;
}
// The same in a case of a switch.
double checkpointedInCase(double x, int n) {
  double s = x;
  switch (n % 3) {
  case 0:
    s = x * x;
    break;
  case 1: {
#pragma ct checkpoint snapshots(2)
    for (int i = 0; i < n; ++i)
      s = std::sin(s) + 0.5 * x;
    break;
  }
  }
  return s * s;
}
double checkpointedInCaseSlope(double x, int n) {
  double d = 0;
  ct::gradient<checkpointedInCase>(x, n, &d);
  return d;
}
double checkpointedInBranchSlope(double x, int n) {
  double d = 0;
  ct::gradient<checkpointedInBranch>(x, n, &d);
  return d;
}
// A checkpointed loop over a local array after an early return: the loop
// sits in a branch, whose first derivative passes the array's working copy
// out twice (to rerun iterations and to reverse them); its own reverse
// sweep gives the copy a buffer of its own and one shadow.
double checkpointedAfterReturn(double x, double y) {
  double a[5] = {};
  if (y - x <= -0.25)
    return std::fmax(x, y);
#pragma ct checkpoint
  for (int i = 0; i < 4; ++i) {
    double &r = a[(i + 4) % 5];
    r -= std::sin(y) * x;
    y += std::cos(r) * x;
  }
  return y;
}
double checkpointedAfterReturnSlopes(double x, double y) {
  double dx = 0, dy = 0;
  ct::gradient<checkpointedAfterReturn>(x, y, &dx, &dy);
  return dx * dx + x * dy;
}

// A checkpointed do-while loop in a branch whose iterations write a
// variable chosen at run time: the first derivative's working copies of
// the variables are buffers its branch makes.
double checkpointedChoiceInBranch(double x, int n) {
  double a = x, b = 0.5 * x;
  if (std::sin(x) > -0.9) {
    int i = 0;
#pragma ct checkpoint
    do {
      (std::cos(a * i) > 0 ? a : (b *= 0.9)) *= std::cos(b);
      ++i;
    } while (i < n);
  }
  return a * b + a;
}
double checkpointedChoiceInBranchSlope(double x, int n) {
  double d = 0;
  ct::gradient<checkpointedChoiceInBranch>(x, n, &d);
  return d;
}

// The same through ct::pullback with a seed of 2, scaled by x.
double checkpointedPullback(double x, int n) {
  double d = 0;
  ct::pullback<checkpointed>(x, n, 2.0, &d);
  return d * x;
}

// A custom gradient rule inside a loop: its pullback is differentiated.
double cube(double x) { return x * x * x; }
void cubePullback(double x, double dret, double *dx) { *dx += dret * 3 * x * x; }
CT_CUSTOM_GRADIENT(cube, cubePullback);
double withRule(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += cube(x + i * 0.1) * std::cos(s);
  return s;
}
double withRuleSlope(double x, int n) {
  double d = 0;
  ct::gradient<withRule>(x, n, &d);
  return d;
}

// Recursion: r_0 = x, r_d = sin(r_{d-1}) x.
double recursive(double x, int depth) {
  if (depth == 0)
    return x;
  return std::sin(recursive(x, depth - 1)) * x;
}
double recursiveSlope(double x, int depth) {
  double d = 0;
  ct::gradient<recursive>(x, depth, &d);
  return d;
}

// Third derivative of x e^{sin x} as the gradient of an HVP.
double bump(double x) { return x * std::exp(std::sin(x)); }
double bumpCurvature(double x) {
  double h = 0;
  ct::hvp<bump>(x, 1.0, &h);
  return h;
}

int main() {
  {
    int n = 5;
    for (double x : {0.8, -0.3}) {
      double d = 0;
      ct::gradient<slope>(x, n, &d);
      check::near("recurrence''", d,
                  check::centralDifference(
                      [&](double t) { return slope(t, n); }, x),
                  1e-8);
    }
  }
  for (double x : {0.7, -1.3}) {
    double d = 0;
    ct::gradient<hornerCurvature>(x, &d);
    check::near("horner'''", d, 24 * x + 12, 1e-12);
    double c = 0;
    ct::gradient<hornerSlope>(x, &c);
    check::near("horner''", c, 12 * x * x + 12 * x, 1e-12);
  }
  {
    double w = 0.7, x[5] = {0.3, -0.2, 0.5, 0.9, -0.4};
    int n = 5;
    double dw = 0, dx[5] = {};
    ct::gradient<regulariser>(w, x, n, &dw, dx);
    check::near("regulariser.w", dw,
                check::centralDifference(
                    [&](double t) { return regulariser(t, x, n); }, w),
                1e-8);
    for (int i = 0; i < n; ++i)
      check::near("regulariser.x", dx[i],
                  check::differenceAt(x, i, [&] { return regulariser(w, x, n); }),
                  1e-8);
    double ew = 0, ex[5] = {};
    ct::gradient<gradientFeatures>(w, x, n, &ew, ex);
    check::near("gradientFeatures.w", ew,
                check::centralDifference(
                    [&](double t) { return gradientFeatures(t, x, n); }, w),
                1e-8);
    for (int i = 0; i < n; ++i)
      check::near("gradientFeatures.x", ex[i],
                  check::differenceAt(
                      x, i, [&] { return gradientFeatures(w, x, n); }),
                  1e-8);
  }
  {
    // f = sqrt(a) sin(a).
    double a = 2.5, r = std::sqrt(a), s = std::sin(a), c = std::cos(a);
    double second = -s / (4 * a * r) + c / r - r * s;
    double third = 3 * s / (8 * a * a * r) - 3 * c / (4 * a * r) -
                   3 * s / (2 * r) - r * c;
    double d2 = 0, d3 = 0;
    ct::gradient<newtonSlope>(a, &d2);
    ct::gradient<newtonCurvature>(a, &d3);
    check::near("newton''", d2, second, 1e-10);
    check::near("newton'''", d3, third, 1e-10);
  }
  {
    double x = 0.6;
    int n = 6;
    double d = 0;
    ct::gradient<checkpointedSlope>(x, n, &d);
    check::near("checkpointed''", d,
                check::centralDifference(
                    [&](double t) { return checkpointedSlope(t, n); }, x),
                1e-8);
    d = 0;
    ct::gradient<checkpointedWhileSlope>(x, n, &d);
    check::near("checkpointedWhile''", d,
                check::centralDifference(
                    [&](double t) { return checkpointedWhileSlope(t, n); }, x),
                1e-8);
    for (double y : {x, -x}) {
      d = 0;
      ct::gradient<checkpointedInBranchSlope>(y, n, &d);
      check::near("checkpointedInBranch''", d,
                  check::centralDifference(
                      [&](double t) { return checkpointedInBranchSlope(t, n); },
                      y),
                  1e-8);
    }
    for (double y : {x + 0.4, x - 1.0}) { // the loop, and the return
      double dx = 0, dy = 0;
      ct::gradient<checkpointedAfterReturnSlopes>(x, y, &dx, &dy);
      check::near("checkpointedAfterReturn''.x", dx,
                  check::centralDifference(
                      [&](double t) {
                        return checkpointedAfterReturnSlopes(t, y);
                      },
                      x),
                  1e-7);
      check::near("checkpointedAfterReturn''.y", dy,
                  check::centralDifference(
                      [&](double t) {
                        return checkpointedAfterReturnSlopes(x, t);
                      },
                      y),
                  1e-7);
    }
    for (double y : {x, -1.2, 2.0}) { // (-1.2: the branch not taken)
      d = 0;
      ct::gradient<checkpointedChoiceInBranchSlope>(y, n, &d);
      check::near("checkpointedChoiceInBranch''", d,
                  check::centralDifference(
                      [&](double t) {
                        return checkpointedChoiceInBranchSlope(t, n);
                      },
                      y),
                  1e-7);
    }
    for (int m : {3, 4, 5}) { // each case, and none
      d = 0;
      ct::gradient<checkpointedInCaseSlope>(x, m, &d);
      check::near("checkpointedInCase''", d,
                  check::centralDifference(
                      [&](double t) { return checkpointedInCaseSlope(t, m); },
                      x),
                  1e-8);
    }
    d = 0;
    ct::gradient<checkpointedPullback>(x, n, &d);
    check::near("checkpointedPullback'", d,
                check::centralDifference(
                    [&](double t) { return checkpointedPullback(t, n); }, x),
                1e-8);
    d = 0;
    ct::gradient<withRuleSlope>(x, n, &d);
    check::near("withRule''", d,
                check::centralDifference(
                    [&](double t) { return withRuleSlope(t, n); }, x, 1e-6),
                1e-7);
    d = 0;
    ct::gradient<recursiveSlope>(x, 4, &d);
    check::near("recursive''", d,
                check::centralDifference(
                    [&](double t) { return recursiveSlope(t, 4); }, x),
                1e-8);
  }
  for (double x : {0.6, -1.1}) {
    // g = e^{sin x}: (x g)''' = 3 g'' + x g''' with g'' = (cos^2 - sin) g,
    // g''' = (cos^3 - 3 sin cos - cos) g.
    double s = std::sin(x), c = std::cos(x), g = std::exp(s);
    double expected =
        3 * (c * c - s) * g + x * (c * c * c - 3 * s * c - c) * g;
    double d = 0;
    ct::gradient<bumpCurvature>(x, &d);
    check::near("bump'''", d, expected, 1e-12);
  }
  return check::report();
}
