// `#pragma omp target teams distribute parallel for` loops in
// differentiable functions, built for a GPU (target=cuda:sm_90): on a
// machine with a CUDA device the primal loops and their derivative loops run
// as kernels; elsewhere the same program runs them on the CPU (the
// fallback every machine tests). Gradients and tangents against central
// finite differences and closed forms. Covers a map with a sum reduction
// (exp and log inside, expanded for the device), a scatter-add histogram
// (atomic updates), max reductions (of an active value, whose derivative
// loops stay on the CPU, and of an inactive one, in a kernel), every iteration adding into a shared
// array in a nested loop (atomics on the device), and the CPU fallback of a
// loop whose body a GPU cannot run (a math function without a device
// implementation).
// REQUIRES: plugin
// RUN: %clangxx-ct -O2 -fopenmp -fplugin-arg-cotangent-target=cuda:sm_90 %s %cotangent-gpu-runtime -o %t
// RUN: env CT_VERBOSE=1 %t 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHERE < %t.err
// RUN: env CT_GPU=off CT_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %if cuda %{ env CT_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefix=GPU %}
// RUN: %clangxx-ct -O0 -fopenmp -fplugin-arg-cotangent-target=cuda:sm_90 %s %cotangent-gpu-runtime -o %t0
// RUN: %t0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed
// Without a device, the first GPU loop says why it runs on the CPU; with
// one, kernels are launched.
// WHERE: cotangent: {{no CUDA|GPU loops run on|cuInit failed}}
// OFF: cotangent: CT_GPU=off; GPU loops run on the CPU
// OFF-NOT: GPU kernel
// OFF: checks: {{[1-9][0-9]*}} passed, 0 failed
// Where a CUDA device answers (the lit feature `cuda`), loops are kernels.
// GPU: cotangent: GPU loops run on
// GPU: cotangent: GPU kernel {{.*}}_kernel: {{[0-9]+}} blocks of 256 threads
// GPU: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int N = 3000, Bins = 16, K = 5;

[[ct::differentiable]] double mapSum(const double *x, double *y, int n,
                                     double w) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) \
    map(to : x[0 : n]) map(from : y[0 : n])
  for (int i = 0; i < n; ++i) {
    y[i] = w * std::exp(0.5 * x[i]);
    s += std::log(1 + x[i] * x[i]) * y[i];
  }
  return s;
}

[[ct::differentiable]] double histogram(const double *x, const double *w,
                                        const int *bin, int n, double *h) {
#pragma omp target teams distribute parallel for map(to : x[0 : n], w[0 : n], bin[0 : n]) map(tofrom : h[0 : 16])
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    h[bin[i]] += w[i] * std::sqrt(x[i]);
  }
  double s = 0;
  for (int j = 0; j < Bins; ++j)
    s += h[j] * h[j];
  return s;
}

[[ct::differentiable]] double largest(const double *x, int n) {
  double hi = -1e300;
#pragma omp target teams distribute parallel for reduction(max : hi) \
    map(to : x[0 : n])
  for (int i = 0; i < n; ++i)
    hi = std::fmax(hi, x[i] * x[i]);
  return hi;
}

/// Every point adds into every centre's term: in the gradient, every
/// iteration adds into the whole shadow of `c` (a nested loop).
[[ct::differentiable]] double mixture(const double *x, const double *c,
                                      int n) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) \
    map(to : x[0 : n], c[0 : 5])
  for (int i = 0; i < n; ++i) {
    double t = 0;
    for (int j = 0; j < K; ++j) {
      double d = x[i] - c[j];
      t += std::exp(-d * d);
    }
    s += std::log(t);
  }
  return s;
}

/// A max reduction of values without derivative beside a sum: the forward
/// kernel combines the maximum in a compare-and-swap loop.
[[ct::differentiable]] double scaledByPeak(const double *x, const double *w,
                                           int n) {
  double peak = -1e300, s = 0;
#pragma omp target teams distribute parallel for reduction(max : peak) \
    reduction(+ : s) map(to : x[0 : n], w[0 : n])
  for (int i = 0; i < n; ++i) {
    peak = std::fmax(peak, w[i]);
    s += x[i] * x[i];
  }
  return s * peak;
}

/// tanh has no device implementation here: this loop runs on the CPU.
[[ct::differentiable]] double squashed(const double *x, int n) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) \
    map(to : x[0 : n])
  for (int i = 0; i < n; ++i)
    s += std::tanh(x[i]);
  return s;
}

int main() {
  using check::near;
  static double x[N], y[N], dx[N], dy[N], w[N], dw[N], h[Bins], dh[Bins];
  static int bin[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.5 + 0.4 * std::cos(1.3 * i);
    w[i] = 1.0 + 0.1 * std::sin(0.7 * i);
    bin[i] = (i * 7) % Bins;
  }

  // Sum reduction; exp and log on the device; a weight every iteration
  // reads (its adjoint a reduction of the derivative loop).
  double wt = 0.8, dwt = 0;
  double value = ct::gradient<mapSum, ct::wrt<0, 1, 3>>(x, y, N, wt, dx, dy,
                                                        &dwt);
  double expected = 0;
  for (int i = 0; i < N; ++i)
    expected += std::log(1 + x[i] * x[i]) * wt * std::exp(0.5 * x[i]);
  near("mapSum value", value, expected, 1e-12);
  for (int k : {0, 1, 17, N - 1}) {
    double closed = wt * std::exp(0.5 * x[k]) *
                    (2 * x[k] / (1 + x[k] * x[k]) +
                     0.5 * std::log(1 + x[k] * x[k]));
    near("mapSum dx closed form", dx[k], closed, 1e-12);
    near("mapSum dx", dx[k],
         check::differenceAt(x, k, [&] { return mapSum(x, y, N, wt); }), 1e-6);
  }
  near("mapSum dw", dwt, expected / wt, 1e-12);
  std::vector<double> ones(N, 1.0), none(N, 0.0);
  ct::dual<double> d =
      ct::jvp<mapSum, ct::wrt<0, 1>>(x, y, N, wt, ones.data(), none.data());
  double directional = 0;
  for (int i = 0; i < N; ++i)
    directional += dx[i];
  near("mapSum jvp", d.tangent, directional, 1e-9);

  // Scatter-adds: atomic updates.
  for (double &v : dx) v = 0;
  for (double &v : dh) v = 0;
  auto runHistogram = [&] {
    for (double &v : h) v = 0;
    return histogram(x, w, bin, N, h);
  };
  for (double &v : h) v = 0;
  ct::gradient<histogram, ct::wrt<0, 1, 4>>(x, w, bin, N, h, dx, dw, dh);
  for (int k : {0, 5, 500})
    near("histogram dx", dx[k], check::differenceAt(x, k, runHistogram), 1e-5);
  for (int k : {3, 64})
    near("histogram dw", dw[k], check::differenceAt(w, k, runHistogram), 1e-5);

  // max: all of the derivative to the first extremal iteration.
  for (double &v : dx) v = 0;
  double top = ct::gradient<largest, ct::wrt<0>>(x, N, dx);
  int at = 0;
  for (int i = 1; i < N; ++i)
    if (x[i] * x[i] > x[at] * x[at]) at = i;
  near("largest value", top, x[at] * x[at], 0);
  near("largest at max", dx[at], 2 * x[at], 1e-12);

  // Shared centres: every iteration adds into all of dc.
  double c[K] = {0.1, 0.3, 0.5, 0.7, 0.9}, dc[K] = {};
  for (double &v : dx) v = 0;
  ct::gradient<mixture, ct::wrt<0, 1>>(x, c, N, dx, dc);
  for (int j = 0; j < K; ++j)
    near("mixture dc", dc[j],
         check::differenceAt(c, j, [&] { return mixture(x, c, N); }), 1e-5);
  near("mixture dx", dx[7],
       check::differenceAt(x, 7, [&] { return mixture(x, c, N); }), 1e-6);

  // A maximum in the forward kernel: d/dx_k = 2 x_k max(w).
  for (double &v : dx) v = 0;
  double peak = w[0];
  for (int i = 1; i < N; ++i)
    peak = std::fmax(peak, w[i]);
  ct::gradient<scaledByPeak, ct::wrt<0>>(x, w, N, dx);
  for (int k : {0, 11})
    near("scaledByPeak dx", dx[k], 2 * x[k] * peak, 1e-12);

  // The CPU fallback of a loop a GPU cannot run.
  for (double &v : dx) v = 0;
  ct::gradient<squashed, ct::wrt<0>>(x, N, dx);
  for (int k : {0, 9})
    near("squashed dx", dx[k], 1 - std::tanh(x[k]) * std::tanh(x[k]), 1e-12);
  return check::report();
}
