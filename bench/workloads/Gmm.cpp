//===- Gmm.cpp - GMM objective and its Cotangent derivatives --------------===//
//
// Compiled with the Cotangent plugin. Written as ADBench states the
// objective: per-component exp(diagonal) and log-determinant computed once,
// then for every point and component the Mahalanobis term through the
// triangular factor, a log-sum-exp over components, and the Wishart prior.
//
//===----------------------------------------------------------------------===//

#include "Gmm.h"
#include "Random.h"

#include <cotangent/cotangent.h>

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
gmmObjective(int d, int k, int n, const double *alphas, const double *means,
             const double *icf, const double *x, double gamma, int m) {
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

  double mainTerm[kMaxComponents];
  double centered[kMaxDimension];
  double transformed[kMaxDimension];
  double sumLse = 0;
  for (int i = 0; i < n; ++i) {
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

Input generate(int d, int k, int n, uint64_t seed) {
  Random random(seed);
  Input in;
  in.d = d, in.k = k, in.n = n;
  in.alphas = random.uniformVector(k, -1, 1);
  in.means = random.uniformVector(size_t(k) * d, 0, 1);
  in.icf = random.uniformVector(k * in.icfSize(), -0.5, 0.5);
  in.x = random.uniformVector(size_t(n) * d, 0, 1);
  in.gamma = 1.0;
  in.m = 0;
  return in;
}

double objectiveAt(const Input &in, const double *params) {
  const double *alphas = params, *means = alphas + in.k,
               *icf = means + size_t(in.k) * in.d;
  return gmmObjective(in.d, in.k, in.n, alphas, means, icf, in.x.data(),
                      in.gamma, in.m);
}

double objective(const Input &in) {
  return gmmObjective(in.d, in.k, in.n, in.alphas.data(), in.means.data(),
                      in.icf.data(), in.x.data(), in.gamma, in.m);
}

double gradient(const Input &in, double *grad) {
  double *dAlphas = grad, *dMeans = dAlphas + in.k,
         *dIcf = dMeans + size_t(in.k) * in.d;
  for (size_t i = 0; i < in.parameterCount(); ++i)
    grad[i] = 0;
  return ct::gradient<gmmObjective, ct::wrt<3, 4, 5>>(
      in.d, in.k, in.n, in.alphas.data(), in.means.data(), in.icf.data(),
      in.x.data(), in.gamma, in.m, dAlphas, dMeans, dIcf);
}

void hessianVector(const Input &in, const double *v, double *hv) {
  const size_t meansAt = in.k, icfAt = meansAt + size_t(in.k) * in.d;
  for (size_t i = 0; i < in.parameterCount(); ++i)
    hv[i] = 0;
  ct::hvp<gmmObjective, ct::wrt<3, 4, 5>>(
      in.d, in.k, in.n, in.alphas.data(), in.means.data(), in.icf.data(),
      in.x.data(), in.gamma, in.m, v, v + meansAt, v + icfAt, hv, hv + meansAt,
      hv + icfAt);
}

void hessian(const Input &in, double *H) {
  ct::hessian<gmmObjective, ct::wrt<3, 4, 5>>(
      ct::extents{in.k, in.k * in.d, in.k * long(in.icfSize())}, in.d, in.k,
      in.n, in.alphas.data(), in.means.data(), in.icf.data(), in.x.data(),
      in.gamma, in.m, H);
}

void pullbacks(const Input &in, const double *seeds, double *grads,
               bool vectorMode) {
  const size_t count = in.parameterCount();
  const size_t meansAt = in.k, icfAt = meansAt + size_t(in.k) * in.d;
  if (vectorMode) {
    // grads holds the 4 gradients interleaved: parameter i, lane l at 4i+l.
    for (size_t i = 0; i < 4 * count; ++i)
      grads[i] = 0;
    ct::pullback<gmmObjective, ct::wrt<3, 4, 5>, ct::lanes<4>>(
        in.d, in.k, in.n, in.alphas.data(), in.means.data(), in.icf.data(),
        in.x.data(), in.gamma, in.m, seeds, grads, grads + 4 * meansAt,
        grads + 4 * icfAt);
    return;
  }
  std::vector<double> one(count);
  for (int l = 0; l < 4; ++l) {
    std::fill(one.begin(), one.end(), 0.0);
    ct::pullback<gmmObjective, ct::wrt<3, 4, 5>>(
        in.d, in.k, in.n, in.alphas.data(), in.means.data(), in.icf.data(),
        in.x.data(), in.gamma, in.m, seeds[l], one.data(), one.data() + meansAt,
        one.data() + icfAt);
    for (size_t i = 0; i < count; ++i)
      grads[4 * i + l] = one[i];
  }
}

} // namespace bench::gmm
