// exp and log in a loop built for a GPU: on a device they are computed by
// Cotangent's own expansions (no libdevice), elsewhere by the C library.
// Either way the values (written by the JVP's loop) must be within 2 ulp of
// the C library's, over the whole range: subnormal results and arguments,
// overflow to infinity, log of 0, of negative numbers and of infinity.
// REQUIRES: plugin
// RUN: %clangxx-ct -O2 -fopenmp -fplugin-arg-cotangent-target=cuda:sm_90 %s %cotangent-gpu-runtime -o %t
// RUN: %t | FileCheck %s
// RUN: %if cuda %{ env CT_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefix=GPU %}
// GPU: cotangent: GPU kernel
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

[[ct::differentiable]] double expAndLog(const double *x, const double *u,
                                        double *y, double *z, int n) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) \
    map(to : x[0 : n], u[0 : n]) map(from : y[0 : n], z[0 : n])
  for (int i = 0; i < n; ++i) {
    y[i] = std::exp(x[i]);
    z[i] = std::log(u[i]);
    s += x[i] * u[i];
  }
  return s;
}

/// |a - b| in units of the last place of b (0 when both are the same
/// infinity or both NaN).
double ulps(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) ? 0 : 1e300;
  if (std::isinf(a) || std::isinf(b))
    return a == b ? 0 : 1e300;
  double unit = std::nextafter(std::fabs(b), INFINITY) - std::fabs(b);
  return std::fabs(a - b) / unit;
}

int main() {
  std::vector<double> x, u;
  for (int i = 0; i <= 20000; ++i) {
    x.push_back(-745.0 + i * (709.7 + 745.0) / 20000);
    u.push_back(std::pow(10.0, -315.0 + i * (308.0 + 315.0) / 20000));
  }
  const double special[] = {0.0, -0.0, 1e-300, -1e-300, 1.0, -1.0, 0.5,
                            710.0, -746.0, 1e3, -1e3,
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::denorm_min()};
  for (double v : special) {
    x.push_back(v);
    u.push_back(v);
  }
  int n = static_cast<int>(x.size());
  std::vector<double> y(n), z(n), tx(n, 1.0), tu(n, 0.0), ty(n), tz(n);
  ct::jvp<expAndLog, ct::wrt<0, 1>>(x.data(), u.data(), y.data(), z.data(),
                                    n, tx.data(), tu.data());
  double worstExp = 0, worstLog = 0;
  for (int i = 0; i < n; ++i) {
    worstExp = std::fmax(worstExp, ulps(y[i], std::exp(x[i])));
    worstLog = std::fmax(worstLog, ulps(z[i], std::log(u[i])));
  }
  std::printf("worst exp error %.2f ulp, log %.2f ulp\n", worstExp, worstLog);
  check::near("exp within 2 ulp", worstExp <= 2, 1, 0);
  check::near("log within 2 ulp", worstLog <= 2, 1, 0);
  return check::report();
}
