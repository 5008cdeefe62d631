//===- OdeAsWritten.cpp - The ODE as GradBench writes it ------------------===//
//
// The same integration as Ode.cpp, written the way GradBench's C++ writes
// it (for this benchmark, from its public formulation): a right-hand side
// helper over `restrict` pointers, `size_t` loops against run-time bounds,
// std::vector scratch buffers, std::fill, and the final state as an output
// array. Compiled with the Cotangent plugin.
//
//===----------------------------------------------------------------------===//

#include "Ode.h"

#include <cotangent/cotangent.h>

#include <algorithm>

namespace bench::ode {
namespace {

void rightHandSide(size_t n, const double *__restrict__ x,
                   const double *__restrict__ y, double *__restrict__ z) {
  z[0] = x[0];
  for (size_t i = 1; i < n; i++)
    z[i] = x[i] * y[i - 1];
}

[[ct::differentiable]] void integrateAsWritten(size_t n,
                                               const double *__restrict__ x,
                                               size_t steps,
                                               double *__restrict__ y) {
  double tf = kFinalTime;
  double h = tf / double(steps);
  std::vector<double> k1(n), k2(n), k3(n), k4(n), yTmp(n);
  std::fill(y, y + n, 0.0);
  for (size_t s = 0; s < steps; s++) {
    rightHandSide(n, x, y, k1.data());
    for (size_t i = 0; i < n; i++)
      yTmp[i] = y[i] + h * k1[i] / 2.0;
    rightHandSide(n, x, yTmp.data(), k2.data());
    for (size_t i = 0; i < n; i++)
      yTmp[i] = y[i] + h * k2[i] / 2.0;
    rightHandSide(n, x, yTmp.data(), k3.data());
    for (size_t i = 0; i < n; i++)
      yTmp[i] = y[i] + h * k3[i];
    rightHandSide(n, x, yTmp.data(), k4.data());
    for (size_t i = 0; i < n; i++)
      y[i] += h * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) / 6.0;
  }
}

} // namespace

double objectiveAsWrittenAt(const Input &in, const double *x) {
  std::vector<double> y(in.n);
  integrateAsWritten(in.n, x, in.steps, y.data());
  return y.back();
}

double objectiveAsWritten(const Input &in) {
  return objectiveAsWrittenAt(in, in.x.data());
}

double gradientAsWritten(const Input &in, double *grad) {
  std::vector<double> y(in.n), dy(in.n, 0.0);
  dy.back() = 1;
  for (int i = 0; i < in.n; ++i)
    grad[i] = 0;
  ct::pullback<integrateAsWritten>(in.n, in.x.data(), in.steps, y.data(), grad,
                                   dy.data());
  return y.back();
}

} // namespace bench::ode
