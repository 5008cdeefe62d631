// Derivatives of derivatives from C++: an entry point (ct::gradient,
// ct::pullback, ct::jvp, ct::hvp) called inside a
// function that is differentiated again, in either mode, to third order:
//  - third derivatives of sin and of a polynomial as ct::jvp of ct::hvp
//    (forward over reverse over forward) and as ct::gradient of a second
//    derivative;
//  - a Hessian column by forward mode over a gradient that writes memory.
// Values against closed forms and finite differences of lower derivatives.
// Reverse over reverse: input-gradient-regularisation.cpp.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

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
