//===- GmmManual.cpp - Hand-written GMM gradient --------------------------===//
//
// The reference gradient, derived by hand. With y = Q_j (x_i - mu_j) and
// w_ij the softmax over components of the main terms:
//   d/d alpha_j  = sum_i w_ij - n softmax(alpha)_j
//   d/d logdiag  = w_ij (1 - y_r x_r exp(q_r)) summed, + gamma^2 D_r^2 - m
//   d/d L_rc     = -w_ij y_r x_c summed, + gamma^2 L_rc
//   d/d mu_j     = w_ij Q_j^T y summed
// (x already centered). Per point it keeps every component's y and centered
// x, then sweeps the components once backwards.
//
//===----------------------------------------------------------------------===//

#include "Gmm.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace bench::gmm {

double gradientManual(const Input &in, double *grad) {
  const int d = in.d, k = in.k, n = in.n;
  const size_t icfSize = in.icfSize();
  double *dAlphas = grad, *dMeans = dAlphas + k, *dIcf = dMeans + size_t(k) * d;
  std::fill(grad, grad + in.parameterCount(), 0.0);

  std::vector<double> diagonal(size_t(k) * d), sumLogDiagonal(k);
  for (int j = 0; j < k; ++j) {
    const double *q = &in.icf[j * icfSize];
    double sum = 0;
    for (int r = 0; r < d; ++r) {
      diagonal[j * d + r] = std::exp(q[r]);
      sum += q[r];
    }
    sumLogDiagonal[j] = sum;
  }

  std::vector<double> centered(size_t(k) * d), transformed(size_t(k) * d);
  std::vector<double> mainTerm(k), dTransformed(d), dCentered(d);
  double sumLse = 0;
  for (int i = 0; i < n; ++i) {
    const double *xi = &in.x[size_t(i) * d];
    for (int j = 0; j < k; ++j) {
      const double *q = &in.icf[j * icfSize];
      double *xc = &centered[size_t(j) * d], *y = &transformed[size_t(j) * d];
      for (int r = 0; r < d; ++r) {
        xc[r] = xi[r] - in.means[j * d + r];
        y[r] = diagonal[j * d + r] * xc[r];
      }
      const double *lower = q + d;
      for (int c = 0; c < d; ++c)
        for (int r = c + 1; r < d; ++r)
          y[r] += *lower++ * xc[c];
      double squaredNorm = 0;
      for (int r = 0; r < d; ++r)
        squaredNorm += y[r] * y[r];
      mainTerm[j] = in.alphas[j] + sumLogDiagonal[j] - 0.5 * squaredNorm;
    }
    const double largest = *std::max_element(mainTerm.begin(), mainTerm.end());
    double sum = 0;
    for (int j = 0; j < k; ++j)
      sum += std::exp(mainTerm[j] - largest);
    sumLse += std::log(sum) + largest;

    for (int j = 0; j < k; ++j) {
      const double weight = std::exp(mainTerm[j] - largest) / sum;
      const double *q = &in.icf[j * icfSize];
      double *dq = &dIcf[j * icfSize];
      const double *xc = &centered[size_t(j) * d],
                   *y = &transformed[size_t(j) * d];
      dAlphas[j] += weight;
      for (int r = 0; r < d; ++r) {
        dTransformed[r] = -weight * y[r];
        dq[r] += weight + dTransformed[r] * xc[r] * diagonal[j * d + r];
        dCentered[r] = diagonal[j * d + r] * dTransformed[r];
      }
      const double *lower = q + d;
      double *dLower = dq + d;
      for (int c = 0; c < d; ++c) {
        double acc = 0;
        for (int r = c + 1; r < d; ++r) {
          *dLower++ += dTransformed[r] * xc[c];
          acc += *lower++ * dTransformed[r];
        }
        dCentered[c] += acc;
      }
      for (int r = 0; r < d; ++r)
        dMeans[j * d + r] -= dCentered[r];
    }
  }

  // -n logsumexp(alphas).
  const double largestAlpha =
      *std::max_element(in.alphas.begin(), in.alphas.end());
  double alphaSum = 0;
  for (int j = 0; j < k; ++j)
    alphaSum += std::exp(in.alphas[j] - largestAlpha);
  for (int j = 0; j < k; ++j)
    dAlphas[j] -= n * std::exp(in.alphas[j] - largestAlpha) / alphaSum;

  // The Wishart prior.
  const double gamma2 = in.gamma * in.gamma;
  double prior = 0;
  for (int j = 0; j < k; ++j) {
    const double *q = &in.icf[j * icfSize];
    double *dq = &dIcf[j * icfSize];
    double frobenius = 0;
    for (int r = 0; r < d; ++r) {
      const double dr = diagonal[j * d + r];
      frobenius += dr * dr;
      dq[r] += gamma2 * dr * dr - in.m;
    }
    for (size_t l = d; l < icfSize; ++l) {
      frobenius += q[l] * q[l];
      dq[l] += gamma2 * q[l];
    }
    prior += 0.5 * gamma2 * frobenius - in.m * sumLogDiagonal[j];
  }
  const int dof = d + in.m + 1;
  double logMultiGamma = 0.25 * d * (d - 1) * std::log(M_PI);
  for (int j = 1; j <= d; ++j)
    logMultiGamma += std::lgamma(0.5 * dof + 0.5 * (1 - j));
  prior -= k * (dof * d * (std::log(in.gamma) - 0.5 * std::log(2.0)) -
                logMultiGamma);
  const double constant = -n * d * 0.5 * std::log(2 * M_PI);
  return constant + sumLse - n * (std::log(alphaSum) + largestAlpha) + prior;
}

} // namespace bench::gmm
