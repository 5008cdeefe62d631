// Loops reversed in place (docs/AD.md, "Loops reversed in place"): a
// mixture log-likelihood sums one log-sum-exp per point, and the sum
// reaches the result linearly, so each point's iteration is undone right
// after it ran. Its gradient and Hessian-vector product against central
// finite differences, and the same sum squared (reversed after the
// forward sweep) as a cross-check. Eager calls: the determinant by
// minors, whose recursive calls get their adjoint before they run (the
// pullback calls itself, with no tape), against finite differences and
// the closed form (the cofactor matrix).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

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

double minorDeterminant(const double *a, int n, int row, int removed) {
  if (row == n - 1) {
    int column = 0;
    while (removed & (1 << column))
      ++column;
    return a[row * n + column];
  }
  double sum = 0, sign = 1;
  for (int column = 0; column < n; ++column) {
    if (removed & (1 << column))
      continue;
    sum += sign * a[row * n + column] *
           minorDeterminant(a, n, row + 1, removed | (1 << column));
    sign = -sign;
  }
  return sum;
}

[[ct::differentiable]] double determinant(const double *a, int n) {
  return minorDeterminant(a, n, 0, 0);
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
      return check::differenceAt(
          p, i, [&] { return f(x, means, scales, weight, n, k, d); });
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
  { // d det(A) / d a_ij is the cofactor C_ij; for a 3 x 3 matrix, closed
    // forms, and for 5 x 5, finite differences.
    double a[9] = {2, -1, 0.5, 1, 3, -2, 0.25, 4, 1}, da[9] = {};
    ct::gradient<determinant>(a, 3, da);
    auto at = [&](int r, int c) { return a[r * 3 + c]; };
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3,
            c2 = (c + 2) % 3;
        double cofactor = at(r1, c1) * at(r2, c2) - at(r1, c2) * at(r2, c1);
        near("determinant cofactor", da[r * 3 + c], cofactor, 1e-12);
      }
    double b[25], db[25] = {};
    for (int i = 0; i < 25; ++i)
      b[i] = std::sin(1.7 * i + 0.2);
    ct::gradient<determinant>(b, 5, db);
    for (int i = 0; i < 25; ++i)
      near("determinant gradient", db[i],
           check::differenceAt(b, i, [&] { return determinant(b, 5); }), 1e-7);
  }
  return check::report();
}
