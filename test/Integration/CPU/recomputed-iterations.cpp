// Loops whose iterations fill scratch buffers before reading them: the
// reverse sweep runs each iteration again instead of taping the buffers
// (docs/AD.md, "Recomputed iterations"). A triangular product like GMM's,
// one whose iterations read what the previous one wrote (taped instead),
// and the Hessian-vector product of the first; against central finite
// differences.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

constexpr int kMax = 8;

// sum_i log(1 + |L (x_i - m)|^2) with L lower triangular (diagonal exp(l)).
[[ct::differentiable]] double mahalanobis(const double *x, const double *m,
                                          const double *l, int n, int d) {
  double centered[kMax], transformed[kMax], terms[16];
  for (int i = 0; i < n; ++i) {
    for (int r = 0; r < d; ++r) {
      centered[r] = x[i * d + r] - m[r];
      transformed[r] = std::exp(l[r]) * centered[r];
    }
    for (int c = 0; c < d; ++c)
      for (int r = c + 1; r < d; ++r)
        transformed[r] += l[d + c * d + r] * centered[c];
    double norm = 0;
    for (int r = 0; r < d; ++r)
      norm += transformed[r] * transformed[r];
    terms[i] = std::log(1 + norm);
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += terms[i];
  return sum;
}

// Each iteration updates state the previous one left in the buffer: an
// iteration cannot be rerun from its inputs, so it is taped.
[[ct::differentiable]] double carried(const double *x, int n, int d) {
  double state[kMax] = {}, terms[16];
  for (int i = 0; i < n; ++i) {
    for (int r = 0; r < d; ++r)
      state[r] = 0.5 * state[r] + std::sin(x[i * d + r]);
    double s = 0;
    for (int r = 0; r < d; ++r)
      s += state[r] * state[r];
    terms[i] = s;
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += terms[i] * terms[i];
  return sum;
}

int main() {
  using check::near;
  constexpr int n = 5, d = 4;
  double x[n * d], m[d], l[d + d * d];
  for (int i = 0; i < n * d; ++i)
    x[i] = std::sin(0.7 * i + 0.3);
  for (int r = 0; r < d; ++r)
    m[r] = 0.1 * r - 0.2;
  for (int i = 0; i < d + d * d; ++i)
    l[i] = 0.3 * std::cos(1.3 * i);

  { // Gradient wrt every input, against finite differences.
    double dx[n * d] = {}, dm[d] = {}, dl[d + d * d] = {};
    ct::gradient<mahalanobis, ct::wrt<0, 1, 2>>(x, m, l, n, d, dx, dm, dl);
    auto fd = [&](double *p, int k) {
      return check::differenceAt(p, k,
                                 [&] { return mahalanobis(x, m, l, n, d); });
    };
    for (int k = 0; k < n * d; ++k)
      near("mahalanobis dx", dx[k], fd(x, k), 1e-7);
    for (int k = 0; k < d; ++k)
      near("mahalanobis dm", dm[k], fd(m, k), 1e-7);
    for (int k = 0; k < d + d * d; ++k)
      near("mahalanobis dl", dl[k], fd(l, k), 1e-7);
  }
  { // Hessian-vector product in direction v (on l), against a finite
    // difference of the gradient.
    double v[d + d * d], hv[d + d * d] = {};
    for (int i = 0; i < d + d * d; ++i)
      v[i] = std::cos(0.9 * i);
    ct::hvp<mahalanobis, ct::wrt<2>>(x, m, l, n, d, v, hv);
    auto gradientAt = [&](double t, double *g) {
      double moved[d + d * d];
      for (int i = 0; i < d + d * d; ++i)
        moved[i] = l[i] + t * v[i], g[i] = 0;
      ct::gradient<mahalanobis, ct::wrt<2>>(x, m, moved, n, d, g);
    };
    double plus[d + d * d], minus[d + d * d];
    gradientAt(1e-5, plus);
    gradientAt(-1e-5, minus);
    for (int i = 0; i < d + d * d; ++i)
      near("mahalanobis hvp", hv[i], (plus[i] - minus[i]) / 2e-5, 1e-6);
  }
  { // The taped variant.
    double dx[n * d] = {};
    ct::gradient<carried, ct::wrt<0>>(x, n, d, dx);
    for (int k = 0; k < n * d; ++k)
      near("carried dx", dx[k],
           check::differenceAt(x, k, [&] { return carried(x, n, d); }), 1e-7);
  }
  return check::report();
}
