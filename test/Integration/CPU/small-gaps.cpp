// Small C++ forms a peer AD tool's regression tests use: braces around a
// scalar (`double s{x + y};`, `int n{}`) or a pointer (`double *p{&x};`),
// `nullptr` for a pointer the callee does not follow, or for a pointer
// variable assigned an array later; GNU statement expressions (the macros
// C code writes); a class converting to `double&` (a reference wrapper)
// read through its conversion; a pointer parameter moved along its array
// in a loop (`arr = arr + 1`), and a pointer given an older copy of itself
// after it moved to another array (`old = p; p = b; p = old + 1;`); a shift of a `long` by an `int` (inside
// std::lower_bound); `ct::pass_through<g>(x)` where g's value does not
// follow x (a step); a functor of an empty class called through an address
// made from an integer, an empty union. Reverse and forward mode against closed forms, at -O0
// and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <algorithm>
#include <cstddef>

// s = x + y, t = x y: f = s t.
[[ct::differentiable]] double braces(double x, double y) {
  double s{x + y};
  double t{x * y};
  int n{};
  double zero{};
  return s * t + n + zero;
}

// A pointer parameter the callee does not follow.
double weighted(const double *w, double x) { return x * x; }

[[ct::differentiable]] double nulls(double x) {
  double a = weighted(nullptr, x);
  const double *p = nullptr;
  double b[2] = {x, 2 * x};
  p = b;
  return a + p[1];
}

// p designates x through braces: f = (x + y) y.
[[ct::differentiable]] double bracedPointer(double x, double y) {
  double *p{&x};
  *p += y;
  return *p * y;
}

#define SQUARE(a) ({ double t_ = (a); t_ * t_; })
#define MAX(a, b) ({ double a_ = (a), b_ = (b); a_ > b_ ? a_ : b_; })
// (x + y)^2 + max(x y, y) + x, where x y > y.
[[ct::differentiable]] double statementExpressions(double x, double y) {
  double s = SQUARE(x + y) + MAX(x * y, y);
  ({ s += x; (void)0; });
  return s;
}

struct Ref {
  double *p;
  Ref(double &x) : p(&x) {}
  operator double &() const { return *p; }
};
template <class T> double productOf(const T *x) { return x[0] * x[1] * x[2]; }
// p[2] p[1] p[0], through references kept in a braced array.
[[ct::differentiable]] double referenceWrappers(double *p) {
  Ref x[]{p[2], p[1], p[0]};
  return productOf(x);
}

// sum of i arr[i], the parameter moved along its array.
[[ct::differentiable]] double movingParameter(const double *arr,
                                              std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t *j = &i;
    sum += arr[0] * double(*j);
    arr = arr + 1;
  }
  return sum;
}

// p moves to b, then back to a through an older copy: s = b[0] + 10 a[1].
[[ct::differentiable]] double olderCopy(const double *a, const double *b,
                                        int k) {
  const double *p = a;
  const double *old = p;
  if (k > 0)
    p = b;
  double s = p[0];
  p = old + 1;
  return s + 10 * p[0];
}

// The bin of x among sorted boundaries, found by std::lower_bound.
unsigned binOf(double x, const double *boundaries, std::size_t n) {
  const double *end = boundaries + n;
  const double *it = std::lower_bound(boundaries, end, x);
  while (boundaries != it && (end == it || end == it + 1 || x < *it))
    --it;
  return unsigned(it - boundaries);
}
// sum over i of (1 + p[bin(x_i)]).
[[ct::differentiable]] double binned(double *p, const double *x,
                                     const double *boundaries) {
  double t[3]{1 + p[0], 1 + p[1], 1 + p[2]};
  double out = 0;
  for (int i = 0; i < 4; ++i)
    out += t[binOf(x[i], boundaries, 4)];
  return out;
}

// A step whose value is 1 wherever x is: passed through as x.
static double saturated(double) { return 1.0; }
[[ct::differentiable]] double straightThrough(double x, double y) {
  return ct::pass_through<saturated>(x) * y;
}

// A functor of an empty class called through a made-up address (it has
// no data to read), and an empty union made and returned.
struct Square {
  double operator()(double v) const { return v * v; }
};
union Nothing {};

static Nothing makeNothing(int) {
  Nothing n;
  n = {};
  return n;
}

[[ct::differentiable]] double emptyObjects(double x) {
  Nothing unused = makeNothing(3);
  (void)unused;
  return reinterpret_cast<const Square *>(0x40)->operator()(x) * x;
}

int main() {
  double dx = 0, dy = 0;
  double de = 0;
  check::near("empty objects",
              ct::gradient<emptyObjects>(1.5, &de), 1.5 * 1.5 * 1.5, 1e-12);
  check::near("empty objects d/dx", de, 3 * 1.5 * 1.5, 1e-12);
  check::near("empty objects jvp", ct::jvp<emptyObjects>(1.5, 1.0).tangent,
              3 * 1.5 * 1.5, 1e-12);
  double value = ct::gradient<braces>(2.0, 3.0, &dx, &dy);
  check::near("braces", value, 5 * 6, 1e-12);
  // d/dx (x + y) x y = x y + (x + y) y; d/dy = x y + (x + y) x.
  check::near("braces d/dx", dx, 6 + 5 * 3, 1e-12);
  check::near("braces d/dy", dy, 6 + 5 * 2, 1e-12);
  check::near("braces jvp", ct::jvp<braces>(2.0, 3.0, 1.0, 0.0).tangent,
              6 + 5 * 3, 1e-12);
  dx = 0;
  value = ct::gradient<nulls>(1.5, &dx);
  check::near("nulls", value, 1.5 * 1.5 + 3, 1e-12);
  check::near("nulls d/dx", dx, 2 * 1.5 + 2, 1e-12);
  check::near("nulls jvp", ct::jvp<nulls>(1.5, 1.0).tangent, 5, 1e-12);

  dx = dy = 0;
  value = ct::gradient<bracedPointer>(2.0, 3.0, &dx, &dy);
  check::near("braced pointer", value, 15, 1e-12);
  check::near("braced pointer d/dx", dx, 3, 1e-12);
  check::near("braced pointer d/dy", dy, 2 + 2 * 3, 1e-12);

  dx = dy = 0;
  value = ct::gradient<statementExpressions>(1.5, 2.0, &dx, &dy);
  check::near("statement expressions", value, 3.5 * 3.5 + 3 + 1.5, 1e-12);
  check::near("statement expressions d/dx", dx, 2 * 3.5 + 2 + 1, 1e-12);
  check::near("statement expressions d/dy", dy, 2 * 3.5 + 1.5, 1e-12);
  check::near("statement expressions jvp",
              ct::jvp<statementExpressions>(1.5, 2.0, 0.0, 1.0).tangent,
              2 * 3.5 + 1.5, 1e-12);

  double p[3] = {2, 3, 5}, dp[3] = {};
  value = ct::gradient<referenceWrappers>(p, dp);
  check::near("reference wrappers", value, 30, 1e-12);
  check::near("reference wrappers d/dp0", dp[0], 15, 1e-12);
  check::near("reference wrappers d/dp1", dp[1], 10, 1e-12);
  check::near("reference wrappers d/dp2", dp[2], 6, 1e-12);
  double tp[3] = {1, 0, 0};
  check::near("reference wrappers jvp",
              ct::jvp<referenceWrappers>(p, tp).tangent, 15, 1e-12);

  double a[4] = {1, 2, 3, 4}, da[4] = {};
  value = ct::gradient<movingParameter>(a, 4, da);
  check::near("moving parameter", value, 2 + 6 + 12, 1e-12);
  for (int i = 0; i < 4; ++i)
    check::near("moving parameter d/da", da[i], i, 1e-12);
  double ta[4] = {1, 1, 1, 1};
  check::near("moving parameter jvp",
              ct::jvp<movingParameter>(a, 4, ta).tangent, 6, 1e-12);

  double b[4] = {5, 6, 7, 8}, db[4] = {};
  for (double &d : da)
    d = 0;
  value = ct::gradient<olderCopy, ct::wrt<0, 1>>(a, b, 1, da, db);
  check::near("older copy", value, 5 + 10 * 2, 1e-12);
  check::near("older copy d/da1", da[1], 10, 1e-12);
  check::near("older copy d/db0", db[0], 1, 1e-12);
  check::near("older copy d/db1", db[1], 0, 1e-12);

  // Bins of 0.5, 1.5, 2.5, 1.7 among {0, 1, 2, 3}: 0, 1, 2, 1.
  double weights[3] = {0.5, 0.25, 0.125}, dw[3] = {};
  const double xs[4] = {0.5, 1.5, 2.5, 1.7}, bounds[4] = {0, 1, 2, 3};
  value = ct::gradient<binned, ct::wrt<0>>(weights, xs, bounds, dw);
  check::near("binned", value, 4 + 0.5 + 2 * 0.25 + 0.125, 1e-12);
  check::near("binned d/dp0", dw[0], 1, 1e-12);
  check::near("binned d/dp1", dw[1], 2, 1e-12);
  check::near("binned d/dp2", dw[2], 1, 1e-12);

  dx = dy = 0;
  value = ct::gradient<straightThrough>(0.25, 3.0, &dx, &dy);
  check::near("straight through", value, 3, 1e-12);
  check::near("straight through d/dx", dx, 3, 1e-12);
  check::near("straight through d/dy", dy, 1, 1e-12);
  check::near("straight through jvp",
              ct::jvp<straightThrough>(0.25, 3.0, 1.0, 0.0).tangent, 3, 1e-12);
  return check::report();
}
