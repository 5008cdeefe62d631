//===- MapSumOnGpu.cpp - An elementwise map with a sum, as a GPU loop -----===//
//
// s = Σ log(1 + x_i²) · w·exp(x_i / 2), y_i = w·exp(x_i / 2): one GPU loop,
// whose gradient is a forward kernel (the primal, writing its tape by
// position) and a reversed kernel, and whose JVP is one kernel. Its kernel
// times (CT_VERBOSE=2) give the derivative-to-primal kernel ratio.
//
//===----------------------------------------------------------------------===//

#include <cotangent/cotangent.h>

#include <cmath>

namespace bench::gpu {
namespace {

[[ct::differentiable]] double mapSum(const double *x, double *y, int n,
                                     double w) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)              \
    map(to : x[0 : n]) map(from : y[0 : n])
  for (int i = 0; i < n; ++i) {
    y[i] = w * std::exp(0.5 * x[i]);
    s += std::log(1 + x[i] * x[i]) * y[i];
  }
  return s;
}

} // namespace

double mapSumValue(const double *x, double *y, int n, double w) {
  return mapSum(x, y, n, w);
}

double mapSumGradient(const double *x, double *y, int n, double w, double *dx,
                      double *dy, double *dw) {
  return ct::gradient<mapSum, ct::wrt<0, 1, 3>>(x, y, n, w, dx, dy, dw);
}

double mapSumTangent(const double *x, double *y, int n, double w,
                     const double *tx) {
  return ct::jvp<mapSum, ct::wrt<0>>(x, y, n, w, tx).tangent;
}

} // namespace bench::gpu
