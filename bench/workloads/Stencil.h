//===- Stencil.h - A nonlinear 2-D heat equation, many explicit steps -----===//
//
// u_t = D lap(u) + u (1 - u) (Fisher-KPP) on an n x n grid with fixed
// boundary values, `steps` explicit Euler steps of 5-point finite
// differences from initial values u0. The objective is the mean of u^2 at
// the end; its gradient with respect to u0 is what is differentiated. The
// reaction term makes the derivative depend on the states, so a reverse
// sweep needs every step's grid: the long time-stepping case that
// checkpointing (#pragma ct checkpoint) is for.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_STENCIL_H
#define COTANGENT_BENCH_STENCIL_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::stencil {

/// Diffusion number D dt / h^2 and time step of the explicit scheme
/// (stable: below 1/4).
constexpr double kDiffusion = 0.2;
constexpr double kTimeStep = 0.01;

struct Input {
  int n = 0, steps = 0;
  std::vector<double> u0;
  size_t parameterCount() const { return u0.size(); }
};

Input generate(int n, int steps, uint64_t seed);

double objective(const Input &in);
double objectiveAt(const Input &in, const double *u0);
/// Every step recorded for the reverse sweep.
double gradient(const Input &in, double *grad);
/// The steps under `#pragma ct checkpoint snapshots(16)`.
double gradientCheckpointed(const Input &in, double *grad);
/// Hand-written adjoint, keeping every step's grid.
double gradientManual(const Input &in, double *grad);

} // namespace bench::stencil

#endif // COTANGENT_BENCH_STENCIL_H
