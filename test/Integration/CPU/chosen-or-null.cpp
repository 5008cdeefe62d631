// A pointer to a struct whose pointer fields designate data, chosen
// against `nullptr` by a conditional and tested for null before it is read
// (`const View *c = k ? &a : nullptr; if (c)`, also `c != nullptr`, nested
// choices, a struct chosen between two objects or null): the test is the
// chosen one's, and the fields are read from the object chosen when the
// pointer is not null. Reverse and forward mode against closed forms, at
// -O0 and -O2, with the object chosen and with null chosen.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

struct View {
  const double *p;
  int n;
};

static double squares(const View &v) {
  double s = 0;
  for (int i = 0; i < v.n; ++i)
    s += v.p[i] * v.p[i];
  return s;
}

// sum y^2 + [k != 0] sum x^2.
[[ct::differentiable]] double optionalView(const double *x, const double *y,
                                           int k) {
  View a{x, 3}, b{y, 3};
  const View *c = k ? &a : nullptr;
  double s = squares(b);
  if (c)
    s += squares(*c);
  return s;
}

// [k == 1] sum x^2 + [k == 2] 2 sum y^2 (two objects or null).
[[ct::differentiable]] double oneOfTwoOrNone(const double *x, const double *y,
                                             int k) {
  View a{x, 3}, b{y, 3};
  const View *c = k == 1 ? &a : k == 2 ? &b : nullptr;
  if (c != nullptr)
    return (k == 2 ? 2 : 1) * squares(*c);
  return 0;
}

// Pointers to numbers chosen against `nullptr`: by a conditional, and by
// assignments in a loop from a null start.
[[ct::differentiable]] double chosenArray(const double *a, int i) {
  double local[2] = {a[0], a[1]};
  const double *p = i > 0 ? local : nullptr;
  if (p)
    return p[0] * p[1];
  return a[0];
}

[[ct::differentiable]] double lastAbove(const double *a, int n) {
  double b[2] = {2 * a[0], a[1]};
  const double *p = nullptr;
  for (int i = 0; i < n; ++i)
    if (a[i] > 0.5)
      p = i % 2 ? a : b;
  return p ? p[0] * p[1] : 0;
}

int main() {
  {
    double a[3] = {2, 3, 0.1}, d[3] = {};
    check::near("chosen array", ct::gradient<chosenArray>(a, 1, d), 6, 1e-12);
    check::near("chosen array d0", d[0], 3, 1e-12);
    check::near("chosen array d1", d[1], 2, 1e-12);
    d[0] = d[1] = 0;
    check::near("null chosen", ct::gradient<chosenArray>(a, 0, d), 2, 1e-12);
    check::near("null chosen d0", d[0], 1, 1e-12);
    check::near("null chosen d1", d[1], 0, 1e-12);
    // b = (2 a0, a1) last (n = 1), a last (n = 2), none above (low; the
    // function reads two elements of each array it is given).
    const double expected[3][3] = {{12, 6, 4}, {6, 3, 2}, {0, 0, 0}};
    const double low[2] = {0.1, 0.2};
    const double *from[3] = {a, a, low};
    for (int c = 0; c < 3; ++c) {
      double dd[3] = {};
      int n = c == 1 ? 2 : 1;
      check::near("last above", ct::gradient<lastAbove>(from[c], n, dd),
                  expected[c][0], 1e-12);
      check::near("last above d0", dd[0], expected[c][1], 1e-12);
      check::near("last above d1", dd[1], expected[c][2], 1e-12);
    }
  }
  const double x[3] = {1, 2, 3}, y[3] = {4, 5, 6};
  for (int k = 0; k < 2; ++k) {
    double dx[3] = {}, dy[3] = {};
    double value = ct::gradient<optionalView>(x, y, k, dx, dy);
    check::near("optional view value", value, 77 + k * 14, 1e-12);
    for (int i = 0; i < 3; ++i) {
      check::near("optional view dx", dx[i], k * 2 * x[i], 1e-12);
      check::near("optional view dy", dy[i], 2 * y[i], 1e-12);
    }
    double tx[3] = {1, 0, 0}, ty[3] = {0, 1, 0};
    check::near("optional view jvp",
                ct::jvp<optionalView>(x, y, k, tx, ty).tangent,
                k * 2 * x[0] + 2 * y[1], 1e-12);
  }
  for (int k = 0; k < 3; ++k) {
    double dx[3] = {}, dy[3] = {};
    double value = ct::gradient<oneOfTwoOrNone>(x, y, k, dx, dy);
    check::near("one of two value", value,
                k == 1 ? 14 : k == 2 ? 2 * 77 : 0, 1e-12);
    for (int i = 0; i < 3; ++i) {
      check::near("one of two dx", dx[i], k == 1 ? 2 * x[i] : 0, 1e-12);
      check::near("one of two dy", dy[i], k == 2 ? 4 * y[i] : 0, 1e-12);
    }
  }
  return check::report();
}
