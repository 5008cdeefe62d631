// Derivatives of derivatives from C++: an entry point (ct::gradient,
// ct::pullback, ct::jvp, ct::hvp) called inside a
// function that is differentiated again, in either mode, to third order:
//  - input-gradient regularisation: the gradient of sum_i g_i^2 where g is
//    the gradient of a model in its inputs (reverse over reverse, through a
//    loop and memory);
//  - third derivatives of sin and of a polynomial as ct::jvp of ct::hvp
//    (forward over reverse over forward) and as ct::gradient of a second
//    derivative;
//  - a Hessian column by forward mode over a gradient that writes memory.
// Values against closed forms and finite differences of lower derivatives.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[0-9]+}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

constexpr int N = 4;

/// A model of one weight w over inputs x: sum_i exp(w x_i) x_i.
double model(double w, const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += std::exp(w * x[i]) * x[i];
  return r;
}

/// Input-gradient regularisation: |d model / d x|^2.
double regulariser(double w, const double *x, int n) {
  double g[N] = {};
  ct::gradient<model, ct::wrt<1>>(w, x, n, g);
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += g[i] * g[i];
  return r;
}

double sine(double x) { return std::sin(x); }
double cubic(double x) { return x * x * x * x - 3 * x * x * x + 2 * x; }

/// f''(x) by a Hessian-vector product with v = 1.
double secondOfSine(double x) {
  double h = 0;
  ct::hvp<sine>(x, 1.0, &h);
  return h;
}
double secondOfCubic(double x) {
  double h = 0;
  ct::hvp<cubic>(x, 1.0, &h);
  return h;
}
/// f'(x) by forward mode.
double firstOfSine(double x) { return ct::jvp<sine>(x, 1.0).tangent; }

/// A function of two inputs, and its gradient written to memory.
double bowl(const double *p) {
  return std::exp(p[0] * p[1]) + p[0] * p[0] * std::sin(p[1]);
}
void bowlGradient(const double *p, double *g) {
  g[0] = g[1] = 0;
  ct::gradient<bowl>(p, g);
}

int main() {
  // Reverse over reverse through a loop and memory.
  double x[N] = {0.1, 0.2, -0.3, 0.4}, w = 0.5, dw = 0, dx[N] = {};
  ct::gradient<regulariser>(w, x, N, &dw, dx);
  auto closed = [&](double wt) {
    double r = 0;
    for (double xi : x) {
      double g = std::exp(wt * xi) * (1 + wt * xi);
      r += g * g;
    }
    return r;
  };
  check::near("regulariser value", regulariser(w, x, N), closed(w), 1e-12);
  check::near("regulariser dw", dw, check::centralDifference(closed, w), 1e-7);
  for (int i = 0; i < N; ++i)
    check::near("regulariser dx", dx[i],
                check::differenceAt(x, i, [&] { return closed(w); }), 1e-7);

  // Third derivatives.
  for (double t : {0.3, 0.7, 1.9}) {
    check::near("sin''' by jvp of hvp", ct::jvp<secondOfSine>(t, 1.0).tangent,
                -std::cos(t), 1e-12);
    double d3 = 0;
    ct::gradient<secondOfSine>(t, &d3);
    check::near("sin''' by gradient of hvp", d3, -std::cos(t), 1e-12);
    double d2 = 0;
    ct::gradient<firstOfSine>(t, &d2);
    check::near("sin'' by gradient of jvp", d2, -std::sin(t), 1e-12);
    check::near("cubic''' by jvp of hvp",
                ct::jvp<secondOfCubic>(t, 1.0).tangent, 24 * t - 18, 1e-12);
  }

  // A Hessian column: forward mode over a gradient written to memory.
  double p[2] = {0.4, -0.8}, g[2], column[2], e0[2] = {1, 0};
  ct::jvp<bowlGradient>(p, g, e0, column);
  for (int i = 0; i < 2; ++i)
    check::near("hessian column", column[i],
                check::differenceAt(p, 0,
                                    [&] {
                                      double gi[2];
                                      bowlGradient(p, gi);
                                      return gi[i];
                                    }),
                1e-7);

  return check::report();
}
