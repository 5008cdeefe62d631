// Places chosen by a conditional whose arms assign (`(c ? (t = x) : (u =
// y)) *= y`), nested, bound to a reference, indexed, inside a loop, and
// references bound to std::min/std::max read after either place is
// written: the value, reverse mode and forward mode against closed forms
// and central differences, both ways of each condition, at -O0 and -O2;
// and a helper returning one of two references from two returns.
// (Regression: the write through the chosen place was lost in both modes.)
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>

#include "check.h"

// t = max-arm, then t *= y: x*y if x > y, else y*y.
[[ct::differentiable]] double samePlace(double x, double y) {
  double t;
  (x > y ? (t = x) : (t = y)) *= y;
  return t;
}

// Two places: a = x or b = y, then the chosen one += x*y.
[[ct::differentiable]] double twoPlaces(double x, double y) {
  double a = 0.5, b = 0.25;
  (x > y ? (a = x) : (b = y)) += x * y;
  return a + 2 * b;
}

// Nested conditionals, compound assignments in the arms.
[[ct::differentiable]] double nested(double x, double y) {
  double a = x, b = y;
  (x > 0 ? (y > 0 ? (a *= y) : b) : (b *= x)) -= y;
  return a * b;
}

// A reference bound to the chosen place, written later.
[[ct::differentiable]] double bound(double x, double y) {
  double a = 1, b = 2;
  double &r = x > y ? (a = x * x) : (b = y);
  r *= y;
  return a + b;
}

// Elements chosen at run time, in a loop.
[[ct::differentiable]] double indexed(double x, double y) {
  double v[3] = {x, y, x * y};
  for (int i = 0; i < 3; ++i)
    (v[i] > 1 ? (v[(i + 1) % 3] += x) : (v[i] = y * v[i])) *= 0.5;
  return v[0] + 2 * v[1] + 3 * v[2];
}

// std::max's reference stays bound to the larger place while both change.
[[ct::differentiable]] double minMax(double x, double y) {
  double a = x, b = y;
  const double &m = std::max(a, b);
  const double &n = std::min(a, b);
  a = a * 3;
  b += x;
  return m * n;
}

// A function returning one of two references from two returns, each
// branch writing first (inlined: the branch yields the place), written
// through.
double &pick(double &a, double &b, bool first) {
  if (first) {
    a *= 2;
    return a;
  }
  b += 1;
  return b;
}
[[ct::differentiable]] double throughHelper(double x, double y) {
  double a = x, b = y;
  pick(a, b, x > y) *= x * y;
  return a + 3 * b;
}

template <double (*F)(double, double)>
void checkAt(const char *name, double x, double y, double expected) {
  double dx = 0, dy = 0;
  double value = ct::gradient<F>(x, y, &dx, &dy);
  check::near(name, value, expected, 1e-12);
  check::near(name, value, F(x, y), 1e-12);
  double fx = check::centralDifference([&](double t) { return F(t, y); }, x);
  double fy = check::centralDifference([&](double t) { return F(x, t); }, y);
  check::near(name, dx, fx, 1e-6);
  check::near(name, dy, fy, 1e-6);
  ct::dual<double> forward = ct::jvp<F>(x, y, 1.0, 2.0);
  check::near(name, forward.value, value, 1e-12);
  check::near(name, forward.tangent, dx + 2 * dy, 1e-9);
}

int main() {
  // samePlace: closed forms (the example: 16, d/dy 8 at (3, 4)).
  double dx = 0, dy = 0;
  check::near("samePlace value", ct::gradient<samePlace>(3.0, 4.0, &dx, &dy),
              16, 1e-12);
  check::near("samePlace d/dx", dx, 0, 1e-12);
  check::near("samePlace d/dy", dy, 8, 1e-12);
  check::near("samePlace jvp d/dy",
              ct::jvp<samePlace>(3.0, 4.0, 0.0, 1.0).tangent, 8, 1e-12);
  checkAt<samePlace>("samePlace", 3, 4, 16);
  checkAt<samePlace>("samePlace", 5, 4, 20);
  checkAt<twoPlaces>("twoPlaces", 3, 2, 3 + 6 + 0.5);
  checkAt<twoPlaces>("twoPlaces", 1, 2, 0.5 + 2 * (2 + 2));
  checkAt<nested>("nested", 2, 3, (2 * 3 - 3) * 3);
  checkAt<nested>("nested", 2, -3, 2 * (-3 + 3));
  checkAt<nested>("nested", -2, 3, -2 * (3 * -2 - 3));
  checkAt<bound>("bound", 3, 2, 9 * 2 + 2);
  checkAt<bound>("bound", 1, 2, 1 + 4);
  checkAt<indexed>("indexed", 1.5, 0.7, 1.5 + 2 * 1.1 + 3 * 1.275);
  checkAt<indexed>("indexed", 0.5, 1.5, 0.375 + 2 * 1.5 + 3 * 0.46875);
  checkAt<minMax>("minMax", 2, 1, (3 * 2) * (1 + 2));
  checkAt<minMax>("minMax", 1, 2, (2 + 1) * 3);
  checkAt<throughHelper>("throughHelper", 3, 2, 6 * 6 + 3 * 2);
  checkAt<throughHelper>("throughHelper", 2, 3, 2 + 3 * 4 * 6);
  return check::report();
}
