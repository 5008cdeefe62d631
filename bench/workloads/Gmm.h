//===- Gmm.h - Gaussian mixture model objective (ADBench/GradBench) -------===//
//
// The negative log-likelihood of n points under a k-component Gaussian
// mixture in d dimensions with a Wishart prior on the inverse covariances.
// Component j has weight logit alphas[j], mean means[j*d..], and inverse
// covariance factor Q_j = L_j with diagonal exp(icf[j][0..d)) and strictly
// lower part icf[j][d..) (column by column). The parameters are
// (alphas, means, icf); x, gamma and m are data.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_GMM_H
#define COTANGENT_BENCH_GMM_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::gmm {

/// The largest d and k the objective's fixed-size buffers hold.
constexpr int kMaxDimension = 64;
constexpr int kMaxComponents = 128;

struct Input {
  int d = 0, k = 0, n = 0;
  std::vector<double> alphas, means, icf, x;
  double gamma = 1.0;
  int m = 0;

  size_t icfSize() const { return size_t(d) * (d + 1) / 2; }
  /// alphas, means and icf, in this order, as one gradient vector.
  size_t parameterCount() const { return k + size_t(k) * d + k * icfSize(); }
};

Input generate(int d, int k, int n, uint64_t seed);

/// The objective, compiled with the Cotangent plugin.
double objective(const Input &in);
/// Cotangent's gradient (reverse mode) into grad[parameterCount()];
/// returns the objective.
double gradient(const Input &in, double *grad);
/// Cotangent's Hessian-vector product H v into hv[parameterCount()].
void hessianVector(const Input &in, const double *v, double *hv);

/// Cotangent's full Hessian (ct::hessian) into H[parameterCount()^2].
void hessian(const Input &in, double *H);
/// Four pullbacks with seeds[0..4), their gradients interleaved into
/// grads[4 * parameterCount()]: in one vector-mode sweep, or one by one.
void pullbacks(const Input &in, const double *seeds, double *grads,
               bool vectorMode);

/// The objective with its per-point loop as an OpenMP parallel loop
/// (GmmParallel.cpp, built with -fopenmp): the objective, Cotangent's
/// gradient (as gradient()) and its directional derivative along v
/// (ct::jvp); setThreads sets the OpenMP thread count.
void setThreads(int threads);
double objectiveParallel(const Input &in);
double gradientParallel(const Input &in, double *grad);
double directionalParallel(const Input &in, const double *v);

/// The hand-written gradient (GmmManual.cpp).
double gradientManual(const Input &in, double *grad);

/// The objective with parameters taken from params[parameterCount()], for
/// finite differences.
double objectiveAt(const Input &in, const double *params);

/// The same objective written as GradBench's C++ writes it
/// (GmmAsWritten.cpp), and its Cotangent gradient.
double objectiveAsWritten(const Input &in);
double objectiveAsWrittenAt(const Input &in, const double *params);
double gradientAsWritten(const Input &in, double *grad);

} // namespace bench::gmm

#endif // COTANGENT_BENCH_GMM_H
