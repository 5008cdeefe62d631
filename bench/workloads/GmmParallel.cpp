//===- GmmParallel.cpp - GMM with its per-point loop as an OpenMP loop ----===//
//
// The objective of Gmm.cpp with the loop over points written
// `#pragma omp parallel for reduction(+ : sumLse)` and its scratch buffers
// declared in the loop's body. Compiled with the plugin and -fopenmp: the
// primal runs on OpenMP threads (Clang's code), and so do the derivative
// loops Cotangent proves independent (docs/Parallel.md).
//
// With GMM_ON_GPU (bench/gpu/GmmOnGpu.cpp) the loop is written
// `#pragma omp target teams distribute parallel for` instead and built for
// a GPU: its derivative loops become kernels.
//
//===----------------------------------------------------------------------===//

#include "Gmm.h"

#include <cotangent/cotangent.h>

#include <omp.h>

#include <algorithm>
#include <cmath>

namespace bench::gmm {
namespace {

double logSumExp(const double *v, int count) {
  double largest = v[0];
  for (int i = 1; i < count; ++i)
    if (v[i] > largest)
      largest = v[i];
  double sum = 0;
  for (int i = 0; i < count; ++i)
    sum += std::exp(v[i] - largest);
  return std::log(sum) + largest;
}

/// log Gamma_p(a), the multivariate gamma function.
double logMultiGamma(double a, int p) {
  double result = 0.25 * p * (p - 1) * std::log(M_PI);
  for (int j = 1; j <= p; ++j)
    result += std::lgamma(a + 0.5 * (1 - j));
  return result;
}

/// Where column c of the strictly lower triangle starts in a component's
/// icf block (after the d log-diagonal entries).
int columnStart(int d, int c) { return d + c * (d - 1) - c * (c - 1) / 2; }

[[ct::differentiable]] double
gmmObjectiveParallel(int d, int k, int n, const double *alphas,
                     const double *means, const double *icf, const double *x,
                     double gamma, int m) {
  const int icfSize = d * (d + 1) / 2;
  double diagonal[kMaxComponents * kMaxDimension];
  double sumLogDiagonal[kMaxComponents];
  for (int j = 0; j < k; ++j) {
    double sum = 0;
    for (int r = 0; r < d; ++r) {
      diagonal[j * d + r] = std::exp(icf[j * icfSize + r]);
      sum += icf[j * icfSize + r];
    }
    sumLogDiagonal[j] = sum;
  }

  double sumLse = 0;
#ifdef GMM_ON_GPU
#pragma omp target teams distribute parallel for reduction(+ : sumLse)         \
    map(to : x[0 : n * d], alphas[0 : k], means[0 : k * d],                    \
            icf[0 : k * icfSize])
#else
#pragma omp parallel for reduction(+ : sumLse) schedule(static)
#endif
  for (int i = 0; i < n; ++i) {
    double mainTerm[kMaxComponents];
    double centered[kMaxDimension];
    double transformed[kMaxDimension];
    for (int j = 0; j < k; ++j) {
      const double *q = icf + j * icfSize;
      for (int r = 0; r < d; ++r) {
        centered[r] = x[i * d + r] - means[j * d + r];
        transformed[r] = diagonal[j * d + r] * centered[r];
      }
      for (int c = 0; c < d; ++c) {
        const int start = columnStart(d, c) - c - 1;
        for (int r = c + 1; r < d; ++r)
          transformed[r] += q[start + r] * centered[c];
      }
      double squaredNorm = 0;
      for (int r = 0; r < d; ++r)
        squaredNorm += transformed[r] * transformed[r];
      mainTerm[j] = alphas[j] + sumLogDiagonal[j] - 0.5 * squaredNorm;
    }
    sumLse += logSumExp(mainTerm, k);
  }

  double prior = 0;
  for (int j = 0; j < k; ++j) {
    double frobenius = 0;
    for (int r = 0; r < d; ++r)
      frobenius += diagonal[j * d + r] * diagonal[j * d + r];
    for (int l = d; l < icfSize; ++l)
      frobenius += icf[j * icfSize + l] * icf[j * icfSize + l];
    prior += 0.5 * gamma * gamma * frobenius - m * sumLogDiagonal[j];
  }
  const int dof = d + m + 1;
  const double normalizer = dof * d * (std::log(gamma) - 0.5 * std::log(2.0)) -
                            logMultiGamma(0.5 * dof, d);
  prior -= k * normalizer;

  const double constant = -n * d * 0.5 * std::log(2 * M_PI);
  return constant + sumLse - n * logSumExp(alphas, k) + prior;
}

} // namespace

void setThreads(int threads) { omp_set_num_threads(threads); }

double objectiveParallel(const Input &in) {
  return gmmObjectiveParallel(in.d, in.k, in.n, in.alphas.data(),
                              in.means.data(), in.icf.data(), in.x.data(),
                              in.gamma, in.m);
}

double gradientParallel(const Input &in, double *grad) {
  double *dAlphas = grad, *dMeans = dAlphas + in.k,
         *dIcf = dMeans + size_t(in.k) * in.d;
  std::fill(grad, grad + in.parameterCount(), 0.0);
  return ct::gradient<gmmObjectiveParallel, ct::wrt<3, 4, 5>>(
      in.d, in.k, in.n, in.alphas.data(), in.means.data(), in.icf.data(),
      in.x.data(), in.gamma, in.m, dAlphas, dMeans, dIcf);
}

double directionalParallel(const Input &in, const double *v) {
  const size_t meansAt = in.k, icfAt = meansAt + size_t(in.k) * in.d;
  return ct::jvp<gmmObjectiveParallel, ct::wrt<3, 4, 5>>(
             in.d, in.k, in.n, in.alphas.data(), in.means.data(), in.icf.data(),
             in.x.data(), in.gamma, in.m, v, v + meansAt, v + icfAt)
      .tangent;
}

} // namespace bench::gmm
