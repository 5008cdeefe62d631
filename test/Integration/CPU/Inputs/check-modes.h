//===- check-modes.h - Checks of every mode of f(const double *x, int n) --===//
//
// Shared by the integration tests whose functions take an array and its
// length: the gradient, each tangent and a Hessian-vector product against
// central differences, at the points the test gives.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_TEST_CHECK_MODES_H
#define COTANGENT_TEST_CHECK_MODES_H

#include <cotangent/cotangent.h>

#include "check.h"

namespace check {

/// F's value, gradient (reverse mode) and each tangent (forward mode) at
/// x[0..n), against F itself and central differences (n <= 16).
template <auto F> void gradientAndTangents(const char *name, double *x, int n) {
  double d[16] = {};
  double value = ct::gradient<F>(x, n, d);
  near(name, value, F(x, n), 1e-12);
  for (int i = 0; i < n; ++i) {
    double fd = differenceAt(x, i, [&] { return F(x, n); });
    near(name, d[i], fd, 1e-6);
    double t[16] = {};
    t[i] = 1;
    near(name, ct::jvp<F>(x, n, t).tangent, fd, 1e-6);
  }
}

/// ct::hvp of F at x[0..n) along v, against central differences of
/// gradients (n <= 16).
template <auto F>
void hessianVectorProduct(const char *name, const double *x, const double *v,
                          int n) {
  double hv[16] = {};
  ct::hvp<F>(x, n, v, hv);
  const double h = 1e-5;
  double up[16], down[16], gUp[16] = {}, gDown[16] = {};
  for (int k = 0; k < n; ++k) {
    up[k] = x[k] + h * v[k];
    down[k] = x[k] - h * v[k];
  }
  ct::gradient<F>(up, n, gUp);
  ct::gradient<F>(down, n, gDown);
  for (int i = 0; i < n; ++i)
    near(name, hv[i], (gUp[i] - gDown[i]) / (2 * h), 1e-6);
}

} // namespace check

#endif // COTANGENT_TEST_CHECK_MODES_H
