// Tapes that outgrow the slots kept in the tape's header (32), in straight
// code: at -O2 the growth's copy of those slots must not be taken for a
// read of unrelated memory (dead-store elimination then dropped the pushes
// and the Hessian-vector product came out NaN). Gradients and HVPs against
// central finite differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <array>
#include <cmath>

// The reproducer: a dead loop over a local std::array, a helper whose
// local array is read back, hypot and atan2; about 40 tape entries.
double helper(const double *p, int n) {
  double a[5] = {-p[(n + 2) % 4], p[(n + 3) % 4] * p[(n + 1) % 4], p[2],
                 std::hypot(p[n % 4], 1.0 + p[2] * p[2]),
                 p[(n + 2) % 4] * static_cast<double>(n + 1)};
  return a[2] / (2.0 + std::tanh(a[0] / (std::exp(std::sin(1.0)) + 0.5)));
}

[[ct::differentiable]] double reproducer(const double *c3, double x2,
                                         const double *c4, double x1) {
  double t = -std::atan2(x2, 1.5 + std::cos(x1));
  x1 = std::hypot(c4[1], 1.0 + t * t);
  std::array<double, 2> q{};
  for (int i = 0; i <= 3; i++)
    q[(i + 2) % 2] *= std::cos(ct::stop_gradient(-(c3[i] * x2)));
  double a[2] = {helper(c3, 4), x1 - x1};
  return std::fabs(x1 + a[0]) + x2 + x1;
}

// Straight code with many nonlinear intermediates.
[[ct::differentiable]] double manyTerms(const double *x) {
  double s = 0;
  for (int k = 0; k < 1; ++k) {
    s += std::sin(x[0] * x[1]) * std::exp(std::cos(x[2]));
    s += std::tanh(x[1] * x[2] + x[3]) / (2 + std::sin(x[0]));
    s += std::log(1 + x[3] * x[3]) * std::cos(x[1] * x[0]);
    s += std::sqrt(1 + x[0] * x[0] * x[2] * x[2]) * std::atan(x[3]);
    s += std::exp(std::sin(x[0] + x[1] * x[2])) * std::tanh(x[3] * x[1]);
    s += std::cos(x[0] * x[3]) / (1.5 + std::sin(x[2] * x[1]));
    s += std::hypot(x[0], x[1] * x[3]) * std::sin(x[2] * x[2]);
    s += std::atan2(x[1], 2 + std::cos(x[3])) * std::exp(-x[0] * x[0]);
  }
  return s;
}

template <auto F> void checkGradientAndHvp(const char *name, double *x,
                                           int n) {
  double g[4] = {}, hv[4] = {}, v[4] = {0.3, -0.5, 0.7, 0.2};
  ct::gradient<F>(x, g);
  ct::hvp<F>(x, v, hv);
  for (int i = 0; i < n; ++i) {
    check::near(name, g[i], check::differenceAt(x, i, [&] { return F(x); }),
                1e-7);
    // H v by central differences of the gradient along v.
    auto gradientAlong = [&](double t) {
      double shifted[4], d[4] = {};
      for (int j = 0; j < n; ++j)
        shifted[j] = x[j] + t * v[j];
      ct::gradient<F>(shifted, d);
      return d[i];
    };
    check::near(name, hv[i], check::centralDifference(gradientAlong, 0.0),
                1e-6);
  }
}

int main() {
  double x[4] = {0.4, -0.3, 0.8, 0.6};
  checkGradientAndHvp<manyTerms>("manyTerms", x, 4);

  double c3[4] = {0.3, -0.7, 0.9, 0.4}, c4[2] = {0.6, -0.2};
  double v3[4] = {0.1, 0.2, -0.3, 0.4}, v4[2] = {0.5, -0.6};
  double h3[4] = {}, h4[2] = {}, hx2 = 0, hx1 = 0;
  double x2 = 0.35, x1 = -0.8, v2 = 0.7, v1 = -0.2;
  ct::hvp<reproducer>(c3, x2, c4, x1, v3, v2, v4, v1, h3, &hx2, h4, &hx1);
  // Each HVP entry against central differences of the gradient along v.
  auto gradientAlong = [&](double t, int which) {
    double c3s[4], c4s[2], d3[4] = {}, d4[2] = {}, dx2 = 0, dx1 = 0;
    for (int j = 0; j < 4; ++j)
      c3s[j] = c3[j] + t * v3[j];
    for (int j = 0; j < 2; ++j)
      c4s[j] = c4[j] + t * v4[j];
    ct::gradient<reproducer>(c3s, x2 + t * v2, c4s, x1 + t * v1, d3, &dx2, d4,
                             &dx1);
    double all[8] = {d3[0], d3[1], d3[2], d3[3], dx2, d4[0], d4[1], dx1};
    return all[which];
  };
  double hvp[8] = {h3[0], h3[1], h3[2], h3[3], hx2, h4[0], h4[1], hx1};
  for (int i = 0; i < 8; ++i)
    check::near("reproducer.hvp", hvp[i],
                check::centralDifference(
                    [&](double t) { return gradientAlong(t, i); }, 0.0),
                1e-6);
  return check::report();
}
