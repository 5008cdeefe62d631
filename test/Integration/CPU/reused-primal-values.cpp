// Partials that the primal computed already are fetched by the reverse
// sweep, not computed again (sin's partial is the primal's cos, cos's the
// primal's sin): in a loop that overwrites the values it reads (so they are taped),
// in a branch, with cos before sin, through a gradient, a Hessian-vector
// product and a two-lane pullback, against closed forms:
// f(x) = sum_i (cos x_i sin x_i)^2 = sum_i sin^2(2 x_i) / 4, so
// df/dx_i = sin(4 x_i) / 2 and d2f/dx_i2 = 2 cos(4 x_i).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

[[ct::differentiable]] double squaredProducts(const double *x, int n) {
  double work[8], total = 0;
  for (int i = 0; i < n; ++i)
    work[i] = x[i];
  for (int i = 0; i < n; ++i) {
    double a = work[i], product = 0;
    if (a != 0) {
      double c = std::cos(a);
      double s = std::sin(a);
      product = c * s;
    }
    work[i] = product;
    total += product * product;
  }
  return total;
}

[[ct::differentiable]] void rotated(const double *angle, const double *p,
                                    double *out) {
  double c = std::cos(angle[0]), s = std::sin(angle[0]);
  out[0] = c * p[0] - s * p[1];
  out[1] = s * p[0] + c * p[1];
}

int main() {
  using check::near;
  constexpr int n = 5;
  auto fill = [](double *x) {
    for (int i = 0; i < n; ++i)
      x[i] = 0.3 + 0.4 * i;
  };
  double x[n], dx[n] = {};
  fill(x);
  ct::gradient<squaredProducts>(x, n, dx);
  for (int i = 0; i < n; ++i) {
    double a = 0.3 + 0.4 * i;
    near("gradient", dx[i], std::sin(4 * a) / 2, 1e-13);
  }
  double v[n], hv[n] = {};
  for (int i = 0; i < n; ++i)
    v[i] = 1 - 0.3 * i;
  fill(x);
  ct::hvp<squaredProducts>(x, n, v, hv);
  for (int i = 0; i < n; ++i) {
    double a = 0.3 + 0.4 * i;
    near("hvp", hv[i], 2 * std::cos(4 * a) * v[i], 1e-12);
  }

  // Both rows of a rotation's Jacobian in one sweep: d out / d angle is
  // (-s p0 - c p1, c p0 - s p1), d out / d p the rotation matrix.
  double angle = 0.8, p[2] = {1.5, -0.4}, out[2];
  double seeds[2 * 2] = {1, 0, 0, 1}, dAngle[2] = {}, dP[2 * 2] = {};
  ct::pullback<rotated, ct::wrt<0, 1, 2>, ct::lanes<2>>(&angle, p, out,
                                                         dAngle, dP, seeds);
  double c = std::cos(angle), s = std::sin(angle);
  near("rotation d0/dangle", dAngle[0], -s * p[0] - c * p[1], 1e-14);
  near("rotation d1/dangle", dAngle[1], c * p[0] - s * p[1], 1e-14);
  near("rotation d0/dp0", dP[0], c, 1e-14);
  near("rotation d1/dp0", dP[1], s, 1e-14);
  near("rotation d0/dp1", dP[2], -s, 1e-14);
  near("rotation d1/dp1", dP[3], c, 1e-14);
  return check::report();
}
