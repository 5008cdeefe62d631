// `#pragma omp parallel for` loops in differentiable functions, built with
// -fopenmp and run on two threads: gradients and tangents against central
// finite differences and closed forms, and against the same program built
// without -fopenmp (serial loops; atomics and parallel reductions reorder
// sums, so the builds agree within rounding). The serial build writes its
// derivatives to a file that each parallel run reads back. Covers a map
// with a sum reduction (a weight every iteration reads), a histogram by
// atomic updates (scatter-adds), max and min reductions (the derivative
// goes to the first iteration that reached the extremum), a product
// reduction, collapse(2), a serial loop inside a parallel one, a buffer
// declared in the parallel body, and a parallel loop inside a serial one.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t.serial && %t.serial %t.ref | FileCheck %s
// RUN: %clangxx-ct -O0 -fopenmp %s -o %t0 && env OMP_NUM_THREADS=2 %t0 %t.ref | FileCheck %s --check-prefixes=CHECK,PARALLEL
// RUN: %clangxx-ct -O2 -fopenmp %s -o %t2 && env OMP_NUM_THREADS=2 %t2 %t.ref | FileCheck %s --check-prefixes=CHECK,PARALLEL
// RUN: env OMP_NUM_THREADS=2 %t2 %t.ref | FileCheck %s --check-prefixes=CHECK,PARALLEL
// CHECK-NOT: FAIL
// PARALLEL: check same as serial: ok
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int N = 1000, Bins = 16;

[[ct::differentiable]] double mapSum(const double *x, double *y, int n,
                                     double w) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (int i = 0; i < n; ++i) {
    y[i] = w * std::sin(x[i]);
    s += x[i] * y[i];
  }
  return s;
}

[[ct::differentiable]] double histogram(const double *x, const double *w,
                                        const int *bin, int n, double *h) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    h[bin[i]] += w[i] * x[i];
  }
  double s = 0;
  for (int j = 0; j < Bins; ++j)
    s += h[j] * h[j];
  return s;
}

[[ct::differentiable]] double extremes(const double *x, int n) {
  double hi = -1e300, lo = 1e300;
#pragma omp parallel for reduction(max : hi) reduction(min : lo)
  for (int i = 0; i < n; ++i) {
    hi = std::fmax(hi, x[i] * x[i]);
    lo = std::fmin(lo, x[i]);
  }
  return hi + 3 * lo;
}

[[ct::differentiable]] double product(const double *x, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; ++i)
    p *= 1 + 0.01 * x[i];
  return p;
}

[[ct::differentiable]] double weighted(const double *a, int r, int c) {
  double s = 0;
#pragma omp parallel for collapse(2) reduction(+ : s)
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j)
      s += a[i * c + j] * a[i * c + j] * (i + 1);
  return s;
}

[[ct::differentiable]] double logSumExpRows(const double *a, double *out,
                                            int r, int c) {
#pragma omp parallel for
  for (int i = 0; i < r; ++i) {
    double t = 0;
    for (int j = 0; j < c; ++j)
      t += std::exp(0.1 * a[i * c + j]);
    out[i] = std::log(t);
  }
  double s = 0;
  for (int i = 0; i < r; ++i)
    s += out[i];
  return s;
}

[[ct::differentiable]] double softmaxRows(const double *a, double *out,
                                          int r) {
  double total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < r; ++i) {
    double e[8]; // each iteration's own
    double s = 0;
    for (int j = 0; j < 8; ++j) {
      e[j] = std::exp(0.3 * a[i * 8 + j]);
      s += e[j];
    }
    for (int j = 0; j < 8; ++j)
      out[i * 8 + j] = e[7 - j] / s;
    total += std::log(s) + out[i * 8] * out[i * 8 + 1];
  }
  return total;
}

[[ct::differentiable]] double relax(const double *x, double *u, int n,
                                    int sweeps) {
  for (int k = 0; k < sweeps; ++k) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      u[i] = 0.5 * u[i] + 0.25 * std::cos(u[i] * x[i]);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += u[i];
  return s;
}

/// Every derivative this program computes, in order: written by the
/// serial build, compared by the parallel ones.
std::vector<double> results;

int main(int argc, char **argv) {
  using check::near;
  static double x[N], y[N], dx[N], dy[N], w[N], dw[N], h[Bins], dh[Bins],
      u[N], du[N];
  static int bin[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.5 + 0.4 * std::cos(1.3 * i);
    w[i] = 1.0 + 0.1 * std::sin(0.7 * i);
    bin[i] = (i * 7) % Bins;
  }
  auto keep = [](const double *v, int n) { results.insert(results.end(), v, v + n); };

  // Sum reduction, and the adjoint of a weight every iteration reads.
  double wt = 0.8, dwt = 0;
  // y is selected too: it is written, then read back (the plain strategy
  // needs its shadow for that).
  for (double &v : dy) v = 0;
  ct::gradient<mapSum, ct::wrt<0, 1, 3>>(x, y, N, wt, dx, dy, &dwt);
  for (int k : {0, 1, 17, 999})
    near("mapSum dx", dx[k],
         check::differenceAt(x, k, [&] { return mapSum(x, y, N, wt); }), 1e-6);
  near("mapSum dw", dwt,
       check::centralDifference([&](double v) { return mapSum(x, y, N, v); }, wt),
       1e-6);
  keep(dx, N);
  results.push_back(dwt);
  std::vector<double> ones(N, 1.0);
  std::vector<double> noTangent(N, 0.0);
  ct::dual<double> d =
      ct::jvp<mapSum, ct::wrt<0, 1>>(x, y, N, wt, ones.data(), noTangent.data());
  double directional = 0;
  for (int i = 0; i < N; ++i)
    directional += dx[i];
  near("mapSum jvp", d.tangent, directional, 1e-9);
  results.push_back(d.tangent);

  // Scatter-adds: atomic updates forward, reads of the bins' adjoints back.
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
  keep(dx, N);
  keep(dw, N);

  // max and min: all of the derivative to the first extremal iteration.
  for (double &v : dx) v = 0;
  ct::gradient<extremes, ct::wrt<0>>(x, N, dx);
  int hi = 0, lo = 0;
  for (int i = 1; i < N; ++i) {
    if (x[i] * x[i] > x[hi] * x[hi]) hi = i;
    if (x[i] < x[lo]) lo = i;
  }
  near("extremes at max", dx[hi], 2 * x[hi], 1e-12);
  near("extremes at min", dx[lo], 3, 1e-12);
  double elsewhere = 0;
  for (int i = 0; i < N; ++i)
    if (i != hi && i != lo) elsewhere += std::fabs(dx[i]);
  near("extremes elsewhere", elsewhere, 0, 0);
  keep(dx, N);

  // Product: d/dx_k = 0.01 p / (1 + 0.01 x_k).
  for (double &v : dx) v = 0;
  double p = ct::gradient<product, ct::wrt<0>>(x, N, dx);
  for (int k : {0, 333})
    near("product dx", dx[k], 0.01 * p / (1 + 0.01 * x[k]), 1e-12);
  keep(dx, N);

  // collapse(2): d/da_ij = 2 a_ij (i + 1).
  for (double &v : dx) v = 0;
  ct::gradient<weighted, ct::wrt<0>>(x, 20, 50, dx);
  for (int k : {0, 51, 999})
    near("weighted dx", dx[k], 2 * x[k] * (k / 50 + 1), 1e-12);
  keep(dx, N);

  // A serial loop in each parallel iteration.
  for (double &v : dx) v = 0;
  for (double &v : dy) v = 0;
  ct::gradient<logSumExpRows, ct::wrt<0, 1>>(x, y, 20, 50, dx, dy);
  for (int k : {0, 51, 999})
    near("logSumExpRows dx", dx[k],
         check::differenceAt(x, k, [&] { return logSumExpRows(x, y, 20, 50); }),
         1e-6);
  keep(dx, N);

  // A buffer declared in the parallel loop's body: each iteration its own.
  for (double &v : dx) v = 0;
  for (double &v : dy) v = 0;
  ct::gradient<softmaxRows, ct::wrt<0, 1>>(x, y, 100, dx, dy);
  for (int k : {0, 9, 799})
    near("softmaxRows dx", dx[k],
         check::differenceAt(x, k, [&] { return softmaxRows(x, y, 100); }),
         1e-6);
  keep(dx, N);

  // A parallel loop in each iteration of a serial one, updating in place.
  auto runRelax = [&] {
    for (int i = 0; i < N; ++i) u[i] = 0.1 * i / N;
    return relax(x, u, N, 5);
  };
  for (double &v : dx) v = 0;
  for (double &v : du) v = 0;
  for (int i = 0; i < N; ++i) u[i] = 0.1 * i / N;
  ct::gradient<relax, ct::wrt<0, 1>>(x, u, N, 5, dx, du);
  for (int k : {0, 250, 999})
    near("relax dx", dx[k], check::differenceAt(x, k, runRelax), 1e-6);
  keep(dx, N);

  // The serial build writes the reference; the parallel builds compare.
#ifdef _OPENMP
  if (argc > 1) {
    FILE *file = std::fopen(argv[1], "r");
    double worst = 0;
    size_t count = 0;
    for (double value; file && std::fscanf(file, "%lf", &value) == 1; ++count)
      if (count < results.size())
        worst = std::fmax(worst, std::fabs(value - results[count]) /
                                     std::fmax(1.0, std::fabs(value)));
    if (file)
      std::fclose(file);
    near("same count as serial", static_cast<double>(count),
         static_cast<double>(results.size()), 0);
    near("same as serial", worst, 0, 1e-12);
  }
#else
  if (argc > 1) {
    FILE *file = std::fopen(argv[1], "w");
    for (double value : results)
      std::fprintf(file, "%.17g\n", value);
    std::fclose(file);
  }
#endif
  return check::report();
}
