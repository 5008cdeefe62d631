//===- StencilManual.cpp - Hand-written adjoint of the stencil ------------===//
//
// The forward pass keeps every step's grid; the backward pass applies the
// transposed step: an interior point's adjoint a reaches its own value with
// 1 - 4 D + dt (1 - 2 c) and each of its four neighbours with D; boundary
// values keep their own adjoints.
//
//===----------------------------------------------------------------------===//

#include "Stencil.h"

#include <vector>

namespace bench::stencil {

double gradientManual(const Input &in, double *grad) {
  const int n = in.n, steps = in.steps;
  const size_t size = size_t(n) * n;
  std::vector<double> states((steps + 1) * size);
  std::copy(in.u0.begin(), in.u0.end(), states.begin());
  for (int t = 0; t < steps; ++t) {
    const double *u = &states[t * size];
    double *next = &states[(t + 1) * size];
    std::copy(u, u + size, next);
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j) {
        const double c = u[i * n + j];
        const double lap = u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                           u[i * n + j - 1] + u[i * n + j + 1] - 4 * c;
        next[i * n + j] = c + kDiffusion * lap + kTimeStep * c * (1 - c);
      }
  }
  const double *last = &states[steps * size];
  double value = 0;
  std::vector<double> adjoint(size), before(size);
  for (size_t k = 0; k < size; ++k) {
    value += last[k] * last[k];
    adjoint[k] = 2 * last[k] / double(size);
  }
  for (int t = steps - 1; t >= 0; --t) {
    const double *u = &states[t * size];
    // Boundary values pass through; interior ones are recomputed.
    before = adjoint;
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        before[i * n + j] = 0;
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j) {
        const double a = adjoint[i * n + j], c = u[i * n + j];
        before[i * n + j] += a * (1 - 4 * kDiffusion + kTimeStep * (1 - 2 * c));
        before[(i - 1) * n + j] += kDiffusion * a;
        before[(i + 1) * n + j] += kDiffusion * a;
        before[i * n + j - 1] += kDiffusion * a;
        before[i * n + j + 1] += kDiffusion * a;
      }
    adjoint.swap(before);
  }
  for (size_t k = 0; k < size; ++k)
    grad[k] = adjoint[k];
  return value / double(size);
}

} // namespace bench::stencil
