// Lambdas a differentiable function defines and calls: no captures, by
// copy (a snapshot where the lambda is defined), by reference (writes
// reach the enclosing variables), `mutable` state kept between calls,
// generic lambdas, lambdas returning references, lambdas calling lambdas,
// called in loops and where they are written; functions passed by pointer
// to helpers and templates (the call through the parameter calls the
// function given, also passed on again); a lambda without captures kept
// in an object (a functor template holding it) and called from there;
// structs returned by a function given a lambda, and by a lambda, into a
// variable (they were left unset: a silent wrong value); reverse and
// forward mode at -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

// acc = x^3 + y x^2.
[[ct::differentiable]] double captures(double x, double y) {
  auto square = [](double t) { return t * t; };
  auto scaled = [y](double t) { return y * t; };
  double acc = 0;
  auto add = [&](double t) { acc += t * x; };
  add(square(x));
  add(scaled(x));
  return acc;
}

// The copy of y is taken where the lambda is defined: later changes to y
// do not reach it. f = 2 y0 x + (y0 + 1) where y0 is the argument.
[[ct::differentiable]] double snapshot(double x, double y) {
  auto times = [y](double t) { return y * t; };
  y = y + 1;
  return times(2 * x) + y;
}

// A mutable lambda's copy persists between calls: p = x, x^2, x^3 ...
// f = x + x^2 + x^3 for n = 3.
[[ct::differentiable]] double powers(double x, int n) {
  auto next = [p = 1.0, x]() mutable {
    p *= x;
    return p;
  };
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += next();
  return s;
}

// Generic lambdas, references in and out, a lambda calling a lambda, and
// one called where it is written.
[[ct::differentiable]] double generic(double *v, double x) {
  auto larger = [](auto &a, auto &b) -> auto & { return a > b ? a : b; };
  auto twice = [&](auto t) { return larger(v[0], v[1]) * t * 2; };
  larger(v[0], v[1]) += x;         // the larger of v0, v1 grows by x
  return twice(x) + [&] { return v[0] * v[1]; }();
}

// Captures by copy of an array (copied element by element) and of a
// pointer (the lambda keeps where it pointed): sum_i w_i (a_i + p_i).
[[ct::differentiable]] double copiedCaptures(const double *p, double w) {
  double a[3] = {w, 2 * w, 3 * w};
  const double *q = p;
  auto term = [=](int i) { return a[i] + q[i]; };
  a[0] = 100; // the lambda's copy is unchanged
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += w * term(i);
  return s;
}

// A lambda capturing another by copy: x^3 + 4x.
[[ct::differentiable]] double nestedLambdas(double x) {
  auto square = [](double t) { return t * t; };
  auto scaled = [=](double t) { return square(t) * x; };
  return scaled(x) + scaled(2.0);
}

static double times(const double &a, const double &b) { return a * b; }
static double plus(double a, double b) { return a + b; }
static double multiply(double a, double b) { return a * b; }

template <class Op> static double combine(double a, double b, Op op) {
  return op(a, b);
}
static double fold(const double *x, int n, double (*op)(double, double)) {
  double acc = x[0];
  for (int i = 1; i < n; ++i)
    acc = op(acc, x[i]);
  return acc;
}
static double foldTwice(const double *x, int n,
                        double (*op)(double, double)) {
  return op(fold(x, n, op), fold(x, n, plus));
}

// x0 x1 (a template given &times) + prod(x) (fold given times through a
// pointer) + 2 sum(x) (a pointer passed on).
[[ct::differentiable]] double functionPointers(const double *x) {
  return combine(x[0], x[1], &times) +
         fold(x, 3, multiply) +
         foldTwice(x, 3, plus);
}

template <class F> struct Applied {
  F f;
  double scale;
  double operator()(double t) const { return scale * f(t); }
};
template <class F> static Applied<F> applied(F f, double scale) {
  return Applied<F>{f, scale};
}

// 2 x^3 + 3 y^3 through functors holding a lambda without captures.
[[ct::differentiable]] double keptLambda(double x, double y) {
  auto cube = [](double t) { return t * t * t; };
  Applied<decltype(cube)> twice{cube, 2.0};
  return twice(x) + applied(cube, 3.0)(y);
}

struct Pair2 {
  double a, b;
};
template <class F> static Pair2 makePair(F f, double x) {
  return Pair2{f(x), 2 * x};
}

// x^2 + 2x (a template given a lambda) + x^3 + x (a lambda's struct).
[[ct::differentiable]] double structsFromLambdas(double x) {
  Pair2 p = makePair([](double t) { return t * t; }, x);
  auto cubeAndSelf = [](double t) { return Pair2{t * t * t, t}; };
  Pair2 q = cubeAndSelf(x);
  return p.a + p.b + q.a + q.b;
}

int main() {
  using check::near;
  {
    double dx = 0;
    double v = ct::gradient<structsFromLambdas>(3.0, &dx);
    near("lambda structs value", v, 9 + 6 + 27 + 3, 1e-15);
    near("lambda structs derivative", dx, 6 + 2 + 27 + 1, 1e-15);
    near("lambda structs jvp", ct::jvp<structsFromLambdas>(3.0, 1.0).tangent,
         36.0, 1e-15);
  }
  {
    double dx = 0, dy = 0;
    double v = ct::gradient<keptLambda>(1.5, -0.5, &dx, &dy);
    near("kept lambda value", v, 2 * 3.375 - 3 * 0.125, 1e-15);
    near("kept lambda d/dx", dx, 6 * 2.25, 1e-15);
    near("kept lambda d/dy", dy, 9 * 0.25, 1e-15);
    near("kept lambda jvp", ct::jvp<keptLambda>(1.5, -0.5, 1.0, 1.0).tangent,
         6 * 2.25 + 9 * 0.25, 1e-15);
  }
  {
    double x[3] = {1.5, -2.0, 0.5}, dx[3] = {};
    double v = ct::gradient<functionPointers>(x, dx);
    near("function pointers value", v, -3.0 - 1.5 + 2 * 0.0, 1e-15);
    near("function pointers d/dx0", dx[0], -2.0 - 1.0 + 2, 1e-15);
    near("function pointers d/dx1", dx[1], 1.5 + 0.75 + 2, 1e-15);
    near("function pointers d/dx2", dx[2], -3.0 + 2, 1e-15);
    double tx[3] = {1, 1, 1};
    near("function pointers jvp", ct::jvp<functionPointers>(x, tx).tangent,
         -1.0 + 4.25 - 1.0, 1e-15);
  }
  double dx = 0, dy = 0;
  double v = ct::gradient<captures>(2.0, 3.0, &dx, &dy);
  near("captures value", v, 8.0 + 12.0, 1e-15);
  near("captures d/dx", dx, 12.0 + 12.0, 1e-15);
  near("captures d/dy", dy, 4.0, 1e-15);
  near("captures jvp", ct::jvp<captures>(2.0, 3.0, 1.0, 1.0).tangent, 28.0,
       1e-15);

  dx = dy = 0;
  v = ct::gradient<snapshot>(2.0, 3.0, &dx, &dy);
  near("snapshot value", v, 12.0 + 4.0, 1e-15);
  near("snapshot d/dx", dx, 6.0, 1e-15);
  near("snapshot d/dy", dy, 2 * 2.0 + 1.0, 1e-15);

  dx = 0;
  v = ct::gradient<powers>(2.0, 3, &dx);
  near("powers value", v, 2.0 + 4.0 + 8.0, 1e-15);
  near("powers d/dx", dx, 1.0 + 4.0 + 12.0, 1e-15);
  near("powers jvp", ct::jvp<powers>(2.0, 3, 1.0).tangent, 17.0, 1e-15);

  // v = (1, 3), x = 2: v1 = 3 + x = 5 is the larger; f = 2 x v1 + v0 v1
  // = 2x (3 + x) + (3 + x): d/dx = 6 + 4x + 1 = 15; d/dv0 = v1 = 5,
  // d/dv1 = 2x + v0 = 5.
  double vec[2] = {1.0, 3.0}, dvec[2] = {};
  dx = 0;
  v = ct::gradient<generic>(vec, 2.0, dvec, &dx);
  near("generic value", v, 20.0 + 5.0, 1e-15);
  near("generic d/dx", dx, 15.0, 1e-15);
  near("generic d/dv0", dvec[0], 5.0, 1e-15);
  near("generic d/dv1", dvec[1], 5.0, 1e-15);
  // s = sum_i w ((i+1) w + p_i) = 6 w^2 + w sum p: d/dw = 12 w + sum p,
  // d/dp_i = w.
  double p[3] = {1.0, 2.0, 4.0}, dp[3] = {};
  dx = 0;
  v = ct::gradient<copiedCaptures>(p, 0.5, dp, &dx);
  near("copiedCaptures value", v, 6 * 0.25 + 0.5 * 7, 1e-15);
  near("copiedCaptures d/dw", dx, 12 * 0.5 + 7, 1e-15);
  near("copiedCaptures d/dp", dp[1], 0.5, 1e-15);
  dx = 0;
  v = ct::gradient<nestedLambdas>(1.5, &dx);
  near("nestedLambdas value", v, 3.375 + 6.0, 1e-15);
  near("nestedLambdas d/dx", dx, 3 * 2.25 + 4, 1e-15);
  return check::report();
}
