// <cotangent/cotangent.h> type-checks every call, with or without the
// plugin: wrong counts and types are errors at the call; wrong ct::wrt
// indices and custom rules are static assertions that say what is wrong.
// RUN: not %clangxx-plain -fsyntax-only %s 2>&1 | FileCheck %s

#include <cotangent/cotangent.h>

[[ct::differentiable]] double f(double x, double y) { return x * x * y; }
[[ct::differentiable]] double g(double x, int n) { return x * n; }

float softplus(float x);
void badPullback(float x, float *dx);
// CHECK: error: static assertion failed{{.*}}the custom rule's signature must be exactly the entry point's
CT_CUSTOM_GRADIENT(softplus, badPullback);

struct Saved { double value; };
double solve(double x, const double *a);
// The residuals go last, through a writable pointer.
double solveForwardNoResiduals(double x, const double *a);
void solveBackward(const Saved *res, double x, const double *a, double dret,
                   double *dx, double *da);
// CHECK: error: static assertion failed{{.*}}f_fwd's last parameter must be Res*
// CHECK: header-errors.cpp:[[@LINE+1]]:1: note: in instantiation
CT_CUSTOM_VJP(solve, solveForwardNoResiduals, solveBackward);
// The forward half returns what f returns.
float solveForwardWrongResult(double x, const double *a, Saved *res);
// CHECK: error: static assertion failed{{.*}}f_fwd must take f's parameters then Res*
// CHECK: header-errors.cpp:[[@LINE+1]]:1: note: in instantiation
CT_CUSTOM_VJP(solve, solveForwardWrongResult, solveBackward);
// The backward half takes the residuals first, then ct::pullback<f>'s
// arguments.
double solveForward(double x, const double *a, Saved *res);
void solveBackwardNoResiduals(double x, const double *a, double dret,
                              double *dx, double *da);
// CHECK: error: static assertion failed{{.*}}f_bwd must be void f_bwd(const Res* res, args..., dret, d_args...)
// CHECK: header-errors.cpp:[[@LINE+1]]:1: note: in instantiation
CT_CUSTOM_VJP(solve, solveForward, solveBackwardNoResiduals);

void use() {
  double dx = 0;
  int k = 0;
  // CHECK: header-errors.cpp:[[@LINE+1]]:32: error: too few arguments to function call, expected 4, have 3
  ct::gradient<f>(3.0, 4.0, &dx);
  // CHECK: header-errors.cpp:[[@LINE+1]]:34: error: cannot initialize a parameter of type 'double *' with an rvalue of type 'int *'
  ct::gradient<f>(3.0, 4.0, &dx, &k);
  // CHECK: error: static assertion failed{{.*}}ct::wrt<I...>: an index is not a parameter of the function
  ct::gradient<f, ct::wrt<2>>(3.0, 4.0, &dx);
  // CHECK: error: static assertion failed{{.*}}ct::wrt<I...>: a selected parameter is an integer
  ct::gradient<g, ct::wrt<1>>(3.0, 2, &dx);
}
