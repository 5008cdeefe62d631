//===- Ode.cpp - The ODE workload and its Cotangent gradient --------------===//
//
// Compiled with the Cotangent plugin.
//
//===----------------------------------------------------------------------===//

#include "Ode.h"
#include "Random.h"

#include <cotangent/cotangent.h>

namespace bench::ode {
namespace {

/// z = y + scale * k.
void axpy(int n, const double *y, double scale, const double *k, double *z) {
  for (int i = 0; i < n; ++i)
    z[i] = y[i] + scale * k[i];
}

[[ct::differentiable]] double integrate(int n, int steps, const double *x) {
  double y[kMaxSize] = {};
  double k1[kMaxSize], k2[kMaxSize], k3[kMaxSize], k4[kMaxSize];
  double stage[kMaxSize];
  const double h = kFinalTime / steps;
  for (int s = 0; s < steps; ++s) {
    rate(n, x, y, k1);
    axpy(n, y, h / 2, k1, stage);
    rate(n, x, stage, k2);
    axpy(n, y, h / 2, k2, stage);
    rate(n, x, stage, k3);
    axpy(n, y, h, k3, stage);
    rate(n, x, stage, k4);
    for (int i = 0; i < n; ++i)
      y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return y[n - 1];
}

/// The same integration, reversed from snapshots of its state instead of
/// recorded step by step.
[[ct::differentiable]] double integrateCheckpointed(int n, int steps,
                                                    const double *x) {
  double y[kMaxSize] = {};
  double k1[kMaxSize], k2[kMaxSize], k3[kMaxSize], k4[kMaxSize];
  double stage[kMaxSize];
  const double h = kFinalTime / steps;
#pragma ct checkpoint
  for (int s = 0; s < steps; ++s) {
    rate(n, x, y, k1);
    axpy(n, y, h / 2, k1, stage);
    rate(n, x, stage, k2);
    axpy(n, y, h / 2, k2, stage);
    rate(n, x, stage, k3);
    axpy(n, y, h, k3, stage);
    rate(n, x, stage, k4);
    for (int i = 0; i < n; ++i)
      y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return y[n - 1];
}

} // namespace

Input generate(int n, int steps, uint64_t seed) {
  Random random(seed);
  Input in;
  in.n = n, in.steps = steps;
  in.x = random.uniformVector(n, 0.5, 1.5);
  return in;
}

double objectiveAt(const Input &in, const double *x) {
  return integrate(in.n, in.steps, x);
}

double objective(const Input &in) { return objectiveAt(in, in.x.data()); }

double gradient(const Input &in, double *grad) {
  for (int i = 0; i < in.n; ++i)
    grad[i] = 0;
  return ct::gradient<integrate>(in.n, in.steps, in.x.data(), grad);
}

double gradientCheckpointed(const Input &in, double *grad) {
  for (int i = 0; i < in.n; ++i)
    grad[i] = 0;
  return ct::gradient<integrateCheckpointed>(in.n, in.steps, in.x.data(), grad);
}

} // namespace bench::ode
