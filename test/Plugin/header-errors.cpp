// <cotangent/cotangent.h> type-checks every call, with or without the
// plugin: wrong counts and types are errors at the call; wrong ct::wrt
// indices and custom rules are static assertions that say what is wrong;
// so are vector mode's lanes and the extents of ct::jacobian and
// ct::hessian.
// RUN: not %clangxx-plain -fsyntax-only -ferror-limit=0 %s 2>&1 | FileCheck %s

#include <cotangent/cotangent.h>

[[ct::differentiable]] double f(double x, double y) { return x * x * y; }
[[ct::differentiable]] double g(double x, int n) { return x * n; }
[[ct::differentiable]] double h(double x, const double *p, int n) {
  return x * p[0];
}

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

[[ct::differentiable]] double relaxInPlace(double w, double *y) {
  return y[0] *= w;
}

struct Pair {
  double a, b;
};
[[ct::differentiable]] Pair twice(double x) { return {x, 2 * x}; }

void vectorMode() {
  double x = 1, p[2] = {1, 2}, seeds[4] = {}, dx[4] = {}, dp[8] = {}, J[3];
  // A scalar's seed and adjoint hold K lanes each: pointers.
  // CHECK: header-errors.cpp:[[@LINE+1]]:42: error: cannot initialize a parameter of type 'const double *' with an lvalue of type 'double'
  ct::pullback<h, ct::lanes<4>>(x, p, 2, x, dx, dp);
  // CHECK: error: static assertion failed{{.*}}ct::lanes<K> is for ct::pullback and ct::jvp
  ct::gradient<h, ct::lanes<4>>(x, p, 2, dx, dp);
  // An aggregate result's lanes are not laid out yet.
  // CHECK: error: static assertion failed{{.*}}ct::jvp<f, ct::lanes<K>> needs f to return a number or void
  (void)ct::jvp<twice, ct::lanes<2>>;
  // CHECK: error: static assertion failed{{.*}}ct::lanes<K>: K must be from 1 to 64
  ct::pullback<h, ct::lanes<65>>(x, p, 2, seeds, dx, dp);
  // CHECK: error: static assertion failed{{.*}}Cotangent's entry points take at most one ct::wrt<I...> and one ct::lanes<K>
  ct::pullback<h, ct::lanes<2>, ct::lanes<2>>(x, p, 2, seeds, dx, dp);
  // (A class's assertions come first, a function template's at the end of
  // the translation unit.)
  // CHECK: error: static assertion failed{{.*}}ct::hessian<f> needs f's memory parameters to be const
  ct::hessian<relaxInPlace>(x, p, J);
  // A raw pointer's extent is not in its type.
  // CHECK: error: static assertion failed{{.*}}ct::jacobian: give the extent of each active raw pointer parameter first
  ct::jacobian<h>(x, p, 2, J);
  // CHECK: error: static assertion failed{{.*}}ct::jacobian: ct::extents needs one extent per active raw pointer parameter, in parameter order
  ct::jacobian<h>(ct::extents{2, 3}, x, p, 2, J);
}
