//===- Stencil.cpp - The stencil workload and its Cotangent gradients -----===//
//
// Compiled with the Cotangent plugin.
//
//===----------------------------------------------------------------------===//

#include "Stencil.h"
#include "Random.h"

#include <cotangent/cotangent.h>

namespace bench::stencil {
namespace {

/// One explicit step from u into next (interior points; the boundary keeps
/// its values).
inline void step(int n, const double *u, double *next) {
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j) {
      const double c = u[i * n + j];
      const double lap = u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                         u[i * n + j - 1] + u[i * n + j + 1] - 4 * c;
      next[i * n + j] = c + kDiffusion * lap + kTimeStep * c * (1 - c);
    }
}

[[ct::differentiable]] double evolve(const double *u0, int n, int steps) {
  std::vector<double> u(u0, u0 + n * n), next(u0, u0 + n * n);
  for (int t = 0; t < steps; ++t) {
    step(n, u.data(), next.data());
    for (int k = 0; k < n * n; ++k)
      u[k] = next[k];
  }
  double sum = 0;
  for (int k = 0; k < n * n; ++k)
    sum += u[k] * u[k];
  return sum / (n * n);
}

[[ct::differentiable]] double evolveCheckpointed(const double *u0, int n,
                                                 int steps) {
  std::vector<double> u(u0, u0 + n * n), next(u0, u0 + n * n);
#pragma ct checkpoint snapshots(16)
  for (int t = 0; t < steps; ++t) {
    step(n, u.data(), next.data());
    for (int k = 0; k < n * n; ++k)
      u[k] = next[k];
  }
  double sum = 0;
  for (int k = 0; k < n * n; ++k)
    sum += u[k] * u[k];
  return sum / (n * n);
}

} // namespace

Input generate(int n, int steps, uint64_t seed) {
  Random random(seed);
  Input in;
  in.n = n, in.steps = steps;
  in.u0 = random.uniformVector(n * n, 0.0, 1.0);
  return in;
}

double objectiveAt(const Input &in, const double *u0) {
  return evolve(u0, in.n, in.steps);
}

double objective(const Input &in) { return objectiveAt(in, in.u0.data()); }

double gradient(const Input &in, double *grad) {
  for (size_t i = 0; i < in.u0.size(); ++i)
    grad[i] = 0;
  return ct::gradient<evolve>(in.u0.data(), in.n, in.steps, grad);
}

double gradientCheckpointed(const Input &in, double *grad) {
  for (size_t i = 0; i < in.u0.size(); ++i)
    grad[i] = 0;
  return ct::gradient<evolveCheckpointed>(in.u0.data(), in.n, in.steps, grad);
}

} // namespace bench::stencil
