//===- Ode.h - Fixed-step ODE integration (GradBench "ode") ---------------===//
//
// y' = f(x, y) with f_0 = x_0 and f_i = x_i y_(i-1), y(0) = 0, integrated
// to t = 2 with `steps` classical Runge-Kutta steps. The output is y_(n-1)
// at the end; its gradient with respect to x is what is differentiated.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_ODE_H
#define COTANGENT_BENCH_ODE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::ode {

/// The largest n the integrator's fixed-size buffers hold.
constexpr int kMaxSize = 128;
constexpr double kFinalTime = 2.0;

struct Input {
  int n = 0, steps = 0;
  std::vector<double> x;
  size_t parameterCount() const { return x.size(); }
};

Input generate(int n, int steps, uint64_t seed);

/// dy/dt at state y (shared by the differentiated and the hand-written code).
inline void rate(int n, const double *x, const double *y, double *dy) {
  dy[0] = x[0];
  for (int i = 1; i < n; ++i)
    dy[i] = x[i] * y[i - 1];
}

double objective(const Input &in);
double objectiveAt(const Input &in, const double *x);
double gradient(const Input &in, double *grad);
double gradientManual(const Input &in, double *grad);
/// The gradient with the steps under `#pragma ct checkpoint`.
double gradientCheckpointed(const Input &in, double *grad);

/// The same integration written as GradBench's C++ writes it
/// (OdeAsWritten.cpp).
double objectiveAsWritten(const Input &in);
double objectiveAsWrittenAt(const Input &in, const double *x);
double gradientAsWritten(const Input &in, double *grad);

} // namespace bench::ode

#endif // COTANGENT_BENCH_ODE_H
