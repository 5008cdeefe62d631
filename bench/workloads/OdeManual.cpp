//===- OdeManual.cpp - Hand-written adjoint of the Runge-Kutta steps ------===//
//
// The forward pass keeps the state before every step; the backward pass
// recomputes that step's stages and applies the transposed stage Jacobians:
// for f_i(z) = x_i z_(i-1), a stage adjoint a gives z_(i-1) += x_i a_i and
// x_i += z_(i-1) a_i (x_0 += a_0).
//
//===----------------------------------------------------------------------===//

#include "Ode.h"

#include <algorithm>
#include <vector>

namespace bench::ode {
namespace {

/// Adds the transposed Jacobian of rate(z) applied to `a` to dz and dx.
void rateAdjoint(int n, const double *x, const double *z, const double *a,
                 double *dz, double *dx) {
  dx[0] += a[0];
  for (int i = 1; i < n; ++i) {
    dz[i - 1] += x[i] * a[i];
    dx[i] += z[i - 1] * a[i];
  }
}

} // namespace

double gradientManual(const Input &in, double *grad) {
  const int n = in.n, steps = in.steps;
  const double *x = in.x.data();
  const double h = kFinalTime / steps;
  std::vector<double> states(size_t(steps + 1) * n, 0.0);
  std::vector<double> k1(n), k2(n), k3(n), k4(n), z2(n), z3(n), z4(n);
  auto stages = [&](const double *y) {
    rate(n, x, y, k1.data());
    for (int i = 0; i < n; ++i)
      z2[i] = y[i] + h / 2 * k1[i];
    rate(n, x, z2.data(), k2.data());
    for (int i = 0; i < n; ++i)
      z3[i] = y[i] + h / 2 * k2[i];
    rate(n, x, z3.data(), k3.data());
    for (int i = 0; i < n; ++i)
      z4[i] = y[i] + h * k3[i];
    rate(n, x, z4.data(), k4.data());
  };
  for (int s = 0; s < steps; ++s) {
    const double *y = &states[size_t(s) * n];
    double *next = &states[size_t(s + 1) * n];
    stages(y);
    for (int i = 0; i < n; ++i)
      next[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }

  for (int i = 0; i < n; ++i)
    grad[i] = 0;
  std::vector<double> dy(n, 0.0), dk1(n), dk2(n), dk3(n), dk4(n), dz(n);
  dy[n - 1] = 1;
  for (int s = steps - 1; s >= 0; --s) {
    const double *y = &states[size_t(s) * n];
    stages(y);
    for (int i = 0; i < n; ++i) {
      dk1[i] = h / 6 * dy[i];
      dk2[i] = h / 3 * dy[i];
      dk3[i] = h / 3 * dy[i];
      dk4[i] = h / 6 * dy[i];
    }
    // Each stage input z = y + c k_prev: its adjoint goes to y and k_prev.
    auto throughStage = [&](const double *z, const double *dk, double c,
                            double *dkPrev) {
      std::fill(dz.begin(), dz.end(), 0.0);
      rateAdjoint(n, x, z, dk, dz.data(), grad);
      for (int i = 0; i < n; ++i) {
        dy[i] += dz[i];
        if (dkPrev)
          dkPrev[i] += c * dz[i];
      }
    };
    throughStage(z4.data(), dk4.data(), h, dk3.data());
    throughStage(z3.data(), dk3.data(), h / 2, dk2.data());
    throughStage(z2.data(), dk2.data(), h / 2, dk1.data());
    throughStage(y, dk1.data(), 0, nullptr);
  }
  return states[size_t(steps) * n + n - 1];
}

} // namespace bench::ode
