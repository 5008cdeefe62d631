// References chosen at run time: std::min/std::max/std::clamp (which return
// references), conditionals that select between two places (read and
// written through), in reverse and forward mode, at -O0 and -O2; numbers
// are closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <algorithm>
#include <cmath>

[[ct::differentiable]] double minMax(double x, double y) {
  return std::max(x, y) * std::min(x, y) + std::clamp(x, 0.0, 1.0);
}

// The largest element, three ways.
[[ct::differentiable]] double largestStd(const double *p, int n) {
  double m = p[0];
  for (int i = 1; i < n; ++i)
    m = std::max(m, p[i]);
  return m;
}
[[ct::differentiable]] double largestByHand(const double *p, int n) {
  double m = p[0];
  for (int i = 1; i < n; ++i)
    m = p[i] > m ? p[i] : m;
  return m;
}
[[ct::differentiable]] double largestElementRef(const double *p, int n) {
  double m = p[0];
  for (int i = 1; i < n; ++i) {
    const double &best = std::max(m, p[i]);
    m = best;
  }
  return m * m;
}

// Writing through a chosen reference.
double &larger(double &a, double &b) { return a > b ? a : b; }
[[ct::differentiable]] double writeThrough(double x, double y) {
  double a = x * x, b = 3 * y;
  (a < b ? a : b) *= 2; // doubles the smaller
  larger(a, b) += x;    // adds x to the larger
  return a + b * y;
}

// Clamped loss in a loop: clamp's derivative is 1 inside, 0 outside.
[[ct::differentiable]] double clampedSum(const double *p, int n, double lo,
                                         double hi) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::clamp(p[i] * p[i], lo, hi);
  return s;
}

// std::max/std::min read as values between memory of different activity
// (c is constant under ct::wrt<0>, x active): a choice of values, not of
// places.
[[ct::differentiable]] double mixedActivity(double x, const double *c) {
  double a = std::min(x, 1.0);
  double b = std::max(c[0], x);
  return a * b + std::clamp(x, c[0], c[1]);
}

// The user's own functions returning one of two references, read: the
// places differ in activity (a constant table, an active local).
struct Point2 {
  double x, y;
};
static const double &larger(const double &a, const double &b) {
  return a < b ? b : a;
}
static const Point2 &farther(const Point2 &a, const Point2 &b) {
  return a.x * a.x + a.y * a.y < b.x * b.x + b.y * b.y ? b : a;
}
[[ct::differentiable]] double pickedPlaces(double x, const double *c,
                                           const Point2 *table, double w) {
  Point2 q{w, 2 * w};
  const Point2 &r = farther(table[0], q);
  return larger(c[0], x) * x + r.x * r.y;
}

int main() {
  using check::near;
  double dx = 0, dy = 0;
  double v = ct::gradient<minMax>(0.3, 2.0, &dx, &dy);
  near("minMax value", v, 2.0 * 0.3 + 0.3, 1e-15);
  near("minMax d/dx", dx, 2.0 + 1.0, 1e-15);
  near("minMax d/dy", dy, 0.3, 1e-15);
  near("minMax jvp x", ct::jvp<minMax>(0.3, 2.0, 1.0, 0.0).tangent, 3.0, 1e-15);
  near("minMax jvp y", ct::jvp<minMax>(0.3, 2.0, 0.0, 1.0).tangent, 0.3, 1e-15);
  dx = dy = 0;
  ct::gradient<minMax>(1.5, -2.0, &dx, &dy); // clamp saturates at 1
  near("minMax saturated d/dx", dx, -2.0, 1e-15);
  near("minMax saturated d/dy", dy, 1.5, 1e-15);

  const double p[5] = {0.5, -1.0, 2.5, 1.0, 2.0};
  auto largest = [&](const char *name, auto gradient, auto tangent) {
    double dp[5] = {};
    gradient(p, 5, dp);
    for (int i = 0; i < 5; ++i)
      near(name, dp[i], i == 2 ? 1.0 : 0.0, 1e-15);
    double tp[5] = {0.1, 0.2, 0.3, 0.4, 0.5};
    near(name, tangent(p, tp), 0.3, 1e-15);
  };
  largest(
      "largest std::max",
      [](const double *q, int n, double *dq) { ct::gradient<largestStd>(q, n, dq); },
      [](const double *q, const double *tq) {
        return ct::jvp<largestStd>(q, 5, tq).tangent;
      });
  largest(
      "largest by hand",
      [](const double *q, int n, double *dq) {
        ct::gradient<largestByHand>(q, n, dq);
      },
      [](const double *q, const double *tq) {
        return ct::jvp<largestByHand>(q, 5, tq).tangent;
      });
  double dq[5] = {};
  ct::gradient<largestElementRef>(p, 5, dq);
  near("largest by reference d/dp2", dq[2], 2 * 2.5, 1e-15);
  near("largest by reference d/dp4", dq[4], 0.0, 1e-15);

  // a = x^2 = 1, b = 3y = 6: a doubles to 2, b += x: 6 + x.
  // f = 2x^2 + (3y + x) y: d/dx = 4x + y = 6, d/dy = 6y + x = 13.
  dx = dy = 0;
  v = ct::gradient<writeThrough>(1.0, 2.0, &dx, &dy);
  near("writeThrough value", v, 2.0 + 7.0 * 2.0, 1e-15);
  near("writeThrough d/dx", dx, 6.0, 1e-15);
  near("writeThrough d/dy", dy, 13.0, 1e-15);
  near("writeThrough jvp", ct::jvp<writeThrough>(1.0, 2.0, 1.0, 1.0).tangent,
       19.0, 1e-15);

  // Squares 0.25, 1, 6.25, 1, 4 clamped to [0.5, 4]: inside for 1, 1, 4
  // (at the upper bound 4 itself clamp returns the value: derivative 2p).
  double dc[5] = {};
  double dlo = 0, dhi = 0;
  ct::gradient<clampedSum>(p, 5, 0.5, 4.0, dc, &dlo, &dhi);
  const double expected[5] = {0, -2.0, 0, 2.0, 4.0};
  for (int i = 0; i < 5; ++i)
    near("clampedSum d/dp", dc[i], expected[i], 1e-15);
  near("clampedSum d/dlo", dlo, 1.0, 1e-15);
  near("clampedSum d/dhi", dhi, 1.0, 1e-15);
  // x = 0.75, c = (0.5, 0.6): a = x, b = x, clamp = 0.6 (saturated):
  // f = x^2 + 0.6, d/dx = 2x.
  const double c[2] = {0.5, 0.6};
  dx = 0;
  v = ct::gradient<mixedActivity, ct::wrt<0>>(0.75, c, &dx);
  near("mixedActivity value", v, 0.5625 + 0.6, 1e-15);
  near("mixedActivity d/dx", dx, 1.5, 1e-15);
  // x = 0.75 > c0: larger = x, f = x^2 + (table point 1*1): d/dx = 2x,
  // d/dw = 0; w = 0.9, x = 0.25: the local point (w, 2w) is farther, f =
  // 0.5 x + 2 w^2: d/dx = 0.5, d/dw = 4w.
  const Point2 table[1] = {{1.0, 1.0}};
  double dw = 0;
  dx = 0;
  v = ct::gradient<pickedPlaces, ct::wrt<0, 3>>(0.75, c, table, 0.3, &dx, &dw);
  near("pickedPlaces value", v, 0.5625 + 1.0, 1e-15);
  near("pickedPlaces d/dx", dx, 1.5, 1e-15);
  near("pickedPlaces d/dw", dw, 0.0, 1e-15);
  dx = dw = 0;
  v = ct::gradient<pickedPlaces, ct::wrt<0, 3>>(0.25, c, table, 0.9, &dx, &dw);
  near("pickedPlaces value (other side)", v, 0.125 + 2 * 0.81, 1e-15);
  near("pickedPlaces d/dx (other side)", dx, 0.5, 1e-15);
  near("pickedPlaces d/dw (other side)", dw, 3.6, 1e-15);
  near("mixedActivity jvp",
       ct::jvp<mixedActivity, ct::wrt<0>>(0.75, c, 1.0).tangent, 1.5, 1e-15);
  return check::report();
}
