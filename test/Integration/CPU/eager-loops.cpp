// Loops reversed in place (docs/AD.md, "Loops reversed in place"): a
// mixture log-likelihood sums one log-sum-exp per point, and the sum
// reaches the result linearly, so each point's iteration is undone right
// after it ran. Its gradient and Hessian-vector product against central
// finite differences, and the same sum squared (reversed after the
// forward sweep) as a cross-check.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[0-9]+}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

constexpr int kMax = 8;

double logLikelihood(const double *x, const double *means,
                     const double *scales, int n, int k, int d) {
  double terms[kMax], centered[kMax];
  double total = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < k; ++j) {
      for (int r = 0; r < d; ++r)
        centered[r] = (x[i * d + r] - means[j * d + r]) * scales[j];
      double norm = 0;
      for (int r = 0; r < d; ++r)
        norm += centered[r] * centered[r];
      terms[j] = std::log(scales[j]) - 0.5 * norm;
    }
    // terms[0] is written first by every iteration (when k > 0).
    double largest = terms[0];
    for (int j = 1; j < k; ++j)
      if (terms[j] > largest)
        largest = terms[j];
    double sum = 0;
    for (int j = 0; j < k; ++j)
      sum += std::exp(terms[j] - largest);
    total += std::log(sum) + largest;
  }
  return total;
}

// Linear in the loop's sum, with a factor known before the loop.
[[ct::differentiable]] double mixture(const double *x, const double *means,
                                      const double *scales, double weight,
                                      int n, int k, int d) {
  const double factor = weight * weight;
  return factor * logLikelihood(x, means, scales, n, k, d) - 2 * weight;
}

// Not linear in the sum: reversed after the forward sweep.
[[ct::differentiable]] double squared(const double *x, const double *means,
                                      const double *scales, double weight,
                                      int n, int k, int d) {
  const double total = logLikelihood(x, means, scales, n, k, d);
  return weight * total * total;
}

int main() {
  using check::near;
  constexpr int n = 6, k = 3, d = 4;
  double x[n * d], means[k * d], scales[k], weight = 0.7;
  for (int i = 0; i < n * d; ++i)
    x[i] = std::sin(0.7 * i + 0.3);
  for (int i = 0; i < k * d; ++i)
    means[i] = 0.5 * std::cos(1.1 * i);
  for (int j = 0; j < k; ++j)
    scales[j] = 0.8 + 0.2 * j;

  auto checkGradient = [&](const char *name, auto f, auto gradient) {
    double dx[n * d] = {}, dm[k * d] = {}, ds[k] = {}, dw = 0;
    gradient(dx, dm, ds, &dw);
    auto fd = [&](double *p, int i) {
      return check::centralDifference([&](double t) {
        double saved = p[i];
        p[i] = t;
        double v = f(x, means, scales, weight, n, k, d);
        p[i] = saved;
        return v;
      }, p[i]);
    };
    for (int i = 0; i < n * d; ++i)
      near(name, dx[i], fd(x, i), 1e-6);
    for (int i = 0; i < k * d; ++i)
      near(name, dm[i], fd(means, i), 1e-6);
    for (int j = 0; j < k; ++j)
      near(name, ds[j], fd(scales, j), 1e-6);
    near(name, dw, fd(&weight, 0), 1e-6);
  };
  checkGradient("mixture gradient", mixture,
                [&](double *dx, double *dm, double *ds, double *dw) {
                  ct::gradient<mixture, ct::wrt<0, 1, 2, 3>>(
                      x, means, scales, weight, n, k, d, dx, dm, ds, dw);
                });
  checkGradient("squared gradient", squared,
                [&](double *dx, double *dm, double *ds, double *dw) {
                  ct::gradient<squared, ct::wrt<0, 1, 2, 3>>(
                      x, means, scales, weight, n, k, d, dx, dm, ds, dw);
                });

  { // Hessian-vector product in direction v (on the means), against a
    // finite difference of the gradient.
    double v[k * d], hv[k * d] = {};
    for (int i = 0; i < k * d; ++i)
      v[i] = std::cos(0.9 * i);
    ct::hvp<mixture, ct::wrt<1>>(x, means, scales, weight, n, k, d, v, hv);
    auto gradientAt = [&](double t, double *g) {
      double moved[k * d];
      for (int i = 0; i < k * d; ++i)
        moved[i] = means[i] + t * v[i], g[i] = 0;
      ct::gradient<mixture, ct::wrt<1>>(x, moved, scales, weight, n, k, d, g);
    };
    double plus[k * d], minus[k * d];
    gradientAt(1e-5, plus);
    gradientAt(-1e-5, minus);
    for (int i = 0; i < k * d; ++i)
      near("mixture hvp", hv[i], (plus[i] - minus[i]) / 2e-5, 1e-6);
  }
  return check::report();
}
