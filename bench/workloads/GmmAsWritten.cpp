//===- GmmAsWritten.cpp - The GMM objective as GradBench's C++ writes it --===//
//
// The same objective as Gmm.cpp, written the way GradBench's C++ writes it
// (for this benchmark, from its public formulation): separate arrays for the
// log-diagonals q and the strictly lower parts l, `restrict` pointers, the
// Wishart parameters in a struct passed by value, std::vector scratch
// buffers, and helpers (subtract, Q times x, squared norm, log-sum-exp with
// a running maximum) on them. Compiled with the Cotangent plugin.
//
//===----------------------------------------------------------------------===//

#include "Gmm.h"

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

namespace bench::gmm {

// (Outside the anonymous namespace: an entry point's signature may not use
// a type without linkage, which C++ cannot name from elsewhere.)
struct Wishart {
  double gamma;
  int m;
};

namespace {

double maxOf(int n, const double *x) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (m < x[i])
      m = x[i];
  return m;
}

double squaredNorm(int n, const double *x) {
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += x[i] * x[i];
  return sum;
}

void subtract(int d, const double *x, const double *y, double *out) {
  for (int id = 0; id < d; id++)
    out[id] = x[id] - y[id];
}

double logSumExp(int n, const double *x) {
  double mx = maxOf(n, x);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += std::exp(x[i] - mx);
  return std::log(sum) + mx;
}

double logMultiGamma(double a, int p) {
  double result = 0.25 * p * (p - 1) * std::log(M_PI);
  for (int j = 1; j <= p; ++j)
    result += std::lgamma(a + 0.5 * (1 - j));
  return result;
}

double logWishartPrior(int d, int k, Wishart wishart, const double *sumQs,
                       const double *qDiagonals, const double *l) {
  int n = d + wishart.m + 1;
  int lSize = d * (d - 1) / 2;
  double c = n * d * (std::log(wishart.gamma) - 0.5 * std::log(2.0)) -
             logMultiGamma(0.5 * n, d);
  double out = 0;
  for (int ik = 0; ik < k; ik++) {
    double frobenius = squaredNorm(d, &qDiagonals[ik * d]) +
                       squaredNorm(lSize, &l[ik * lSize]);
    out +=
        0.5 * wishart.gamma * wishart.gamma * frobenius - wishart.m * sumQs[ik];
  }
  return -out + k * c;
}

/// out = Q x, Q with diagonal qDiagonal and strictly lower part lower
/// (column by column).
void qTimesX(int d, const double *qDiagonal, const double *lower,
             const double *x, double *out) {
  for (int id = 0; id < d; id++)
    out[id] = qDiagonal[id] * x[id];
  int index = 0;
  for (int i = 0; i < d; i++)
    for (int j = i + 1; j < d; j++) {
      out[j] = out[j] + lower[index] * x[i];
      index++;
    }
}

[[ct::differentiable]] void
gmmAsWritten(int d, int k, int n, const double *__restrict__ alpha,
             const double *__restrict__ mu, const double *__restrict__ q,
             const double *__restrict__ l, const double *__restrict__ x,
             Wishart wishart, double *__restrict__ err) {
  const double constant = -n * d * 0.5 * std::log(2 * M_PI);
  const int lSize = d * (d - 1) / 2;
  std::vector<double> qDiagonals(d * k);
  std::vector<double> sumQs(k);
  for (int i = 0; i < d * k; i++)
    qDiagonals[i] = std::exp(q[i]);
  for (int i = 0; i < k; i++)
    for (int j = 0; j < d; j++)
      sumQs[i] += q[i * d + j];

  std::vector<double> centered(d), transformed(d), mainTerm(k);
  double sumLse = 0;
  for (int ix = 0; ix < n; ix++) {
    for (int ik = 0; ik < k; ik++) {
      subtract(d, &x[ix * d], &mu[ik * d], &centered[0]);
      qTimesX(d, &qDiagonals[ik * d], &l[ik * lSize], &centered[0],
              &transformed[0]);
      mainTerm[ik] =
          alpha[ik] + sumQs[ik] - 0.5 * squaredNorm(d, &transformed[0]);
    }
    sumLse += logSumExp(k, &mainTerm[0]);
  }
  double lseAlpha = logSumExp(k, alpha);
  *err = constant + sumLse - n * lseAlpha;
  // (The prior's sign as in Gmm.cpp, so that both objectives are one
  // function with one hand-written gradient.)
  *err = *err - logWishartPrior(d, k, wishart, &sumQs[0], &qDiagonals[0], l);
}

/// The parameters in the as-written layout: q and l apart.
struct Split {
  std::vector<double> q, l;
  Split(const Input &in, const double *icf) {
    const size_t lSize = size_t(in.d) * (in.d - 1) / 2;
    for (int j = 0; j < in.k; ++j) {
      const double *block = icf + j * in.icfSize();
      q.insert(q.end(), block, block + in.d);
      l.insert(l.end(), block + in.d, block + in.d + lSize);
    }
  }
};

} // namespace

double objectiveAsWrittenAt(const Input &in, const double *params) {
  const double *alphas = params, *means = alphas + in.k,
               *icf = means + size_t(in.k) * in.d;
  Split split(in, icf);
  double err;
  gmmAsWritten(in.d, in.k, in.n, alphas, means, split.q.data(), split.l.data(),
               in.x.data(), Wishart{in.gamma, in.m}, &err);
  return err;
}

double objectiveAsWritten(const Input &in) {
  Split split(in, in.icf.data());
  double err;
  gmmAsWritten(in.d, in.k, in.n, in.alphas.data(), in.means.data(),
               split.q.data(), split.l.data(), in.x.data(),
               Wishart{in.gamma, in.m}, &err);
  return err;
}

double gradientAsWritten(const Input &in, double *grad) {
  double *dAlphas = grad, *dMeans = dAlphas + in.k,
         *dIcf = dMeans + size_t(in.k) * in.d;
  for (size_t i = 0; i < in.parameterCount(); ++i)
    grad[i] = 0;
  Split split(in, in.icf.data());
  std::vector<double> dq(split.q.size(), 0.0), dl(split.l.size(), 0.0);
  double err, seed = 1;
  ct::pullback<gmmAsWritten, ct::wrt<3, 4, 5, 6, 9>>(
      in.d, in.k, in.n, in.alphas.data(), in.means.data(), split.q.data(),
      split.l.data(), in.x.data(), Wishart{in.gamma, in.m}, &err, dAlphas,
      dMeans, dq.data(), dl.data(), &seed);
  const size_t lSize = size_t(in.d) * (in.d - 1) / 2;
  for (int j = 0; j < in.k; ++j) {
    double *block = dIcf + j * in.icfSize();
    for (int r = 0; r < in.d; ++r)
      block[r] = dq[j * in.d + r];
    for (size_t e = 0; e < lSize; ++e)
      block[in.d + e] = dl[j * lSize + e];
  }
  return err;
}

} // namespace bench::gmm
