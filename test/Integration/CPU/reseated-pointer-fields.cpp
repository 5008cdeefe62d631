// Pointer fields the program re-seats after their object is made
// (`view.data = other`): such a field keeps its address in the object, so
// it may designate another array than the one it was made with, in local
// structs, in copies, in a struct chosen at run time through a reference,
// and in the caller's struct (whose derivative object designates the
// derivative arrays, as for any pointer field). Moves within the array
// (`view.data = view.data + 1`) need nothing more. Reverse and forward
// mode at -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

struct View {
  const double *data;
  int n;
};

static double sumSquares(const View &v) {
  double s = 0;
  for (int i = 0; i < v.n; ++i)
    s += v.data[i] * v.data[i];
  return s;
}

// Σ w² over the chosen array, + 2 y1 + y1 x0.
[[ct::differentiable]] double views(const double *x, const double *y, int n,
                                    int which) {
  View a{x, n}, b{y, n};
  View &v = which ? a : b;
  double s = sumSquares(v);
  View c = a;
  c.data = y;          // re-seated to another array
  s += 2 * c.data[1];
  c.data = c.data + 1; // moved within it
  return s + c.data[0] * x[0];
}

// v's first element times y1: the caller's field re-seated.
[[ct::differentiable]] double fromCaller(View v, const double *y) {
  double first = v.data[0];
  v.data = y;
  return first * v.data[1];
}

int main() {
  const double x[2] = {1.5, -0.5}, y[2] = {2.0, 0.75};
  for (int which = 0; which < 2; ++which) {
    double dx[2] = {}, dy[2] = {};
    double v = ct::gradient<views>(x, y, 2, which, dx, dy);
    const double *w = which ? x : y;
    check::near("views value", v,
                w[0] * w[0] + w[1] * w[1] + 2 * y[1] + y[1] * x[0], 1e-12);
    check::near("views d/dx0", dx[0], (which ? 2 * x[0] : 0.0) + y[1], 1e-12);
    check::near("views d/dx1", dx[1], which ? 2 * x[1] : 0.0, 1e-12);
    check::near("views d/dy0", dy[0], which ? 0.0 : 2 * y[0], 1e-12);
    check::near("views d/dy1", dy[1], (which ? 0.0 : 2 * y[1]) + 2 + x[0],
                1e-12);
    const double tx[2] = {0, 0}, ty[2] = {0, 1};
    check::near("views jvp", ct::jvp<views>(x, y, 2, which, tx, ty).tangent,
                dy[1], 1e-12);
  }
  double dx[2] = {}, dy[2] = {};
  View view{x, 2}, dview{dx, 2};
  double v = ct::gradient<fromCaller>(view, y, &dview, dy);
  check::near("caller value", v, x[0] * y[1], 1e-12);
  check::near("caller d/dx0", dx[0], y[1], 1e-12);
  check::near("caller d/dy1", dy[1], x[0], 1e-12);
  check::near("caller d/dy0", dy[0], 0.0, 1e-12);
  return check::report();
}
