//===- ridge.cpp - A Cholesky solve and log-determinant, differentiated ---===//
//
// f(A) = b^T S^-1 b + log det S with S = A A^T + n I, by Eigen's llt: the
// objective of a Gaussian log-likelihood in its covariance factor. Its
// gradient by ct::gradient (Eigen's products and solves through the
// matrix-level rules) and by hand (G = S^-1 - v v^T with v = S^-1 b, then
// df/dA = 2 G A). Run by bench/matrix_rules.py:
//   ridge <n> primal|cotangent|manual <repetitions>
// prints the median time of one evaluation in milliseconds; `ridge <n>
// check` prints the largest relative difference of the two gradients.
//
//===----------------------------------------------------------------------===//

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Eigen::MatrixXd;
using Eigen::VectorXd;

[[ct::differentiable]] double objective(const double *x, int n) {
  Eigen::Map<const MatrixXd> a(x, n, n);
  MatrixXd s = a * a.transpose();
  s.diagonal().array() += double(n);
  Eigen::LLT<MatrixXd> llt(s);
  VectorXd b = VectorXd::LinSpaced(n, -1.0, 1.0);
  double logDet = 0;
  for (int i = 0; i < n; ++i)
    logDet += std::log(llt.matrixL()(i, i));
  return b.dot(llt.solve(b)) + 2 * logDet;
}

static double handWritten(const double *x, int n, double *dx) {
  Eigen::Map<const MatrixXd> a(x, n, n);
  MatrixXd s = a * a.transpose();
  s.diagonal().array() += double(n);
  Eigen::LLT<MatrixXd> llt(s);
  VectorXd b = VectorXd::LinSpaced(n, -1.0, 1.0);
  VectorXd v = llt.solve(b);
  MatrixXd g = llt.solve(MatrixXd::Identity(n, n));
  g.noalias() -= v * v.transpose();
  Eigen::Map<MatrixXd>(dx, n, n).noalias() = 2.0 * g * a;
  double logDet = 0;
  for (int i = 0; i < n; ++i)
    logDet += std::log(llt.matrixL()(i, i));
  return b.dot(v) + 2 * logDet;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int n = std::atoi(argv[1]);
  std::vector<double> x(n * n), dx(n * n), manual(n * n);
  for (int i = 0; i < n * n; ++i)
    x[i] = std::sin(0.37 * i);
  if (std::strcmp(argv[2], "check") == 0) {
    ct::gradient<objective>(x.data(), n, dx.data());
    handWritten(x.data(), n, manual.data());
    double worst = 0;
    for (int i = 0; i < n * n; ++i)
      worst = std::max(worst, std::fabs(dx[i] - manual[i]) /
                                  std::max(1e-3, std::fabs(manual[i])));
    std::printf("%.3e\n", worst);
    return 0;
  }
  int repetitions = argc > 3 ? std::atoi(argv[3]) : 11;
  std::vector<double> times;
  volatile double sink = 0;
  for (int r = 0; r < repetitions; ++r) {
    auto start = std::chrono::steady_clock::now();
    if (std::strcmp(argv[2], "primal") == 0)
      sink = sink + objective(x.data(), n);
    else if (std::strcmp(argv[2], "cotangent") == 0)
      sink = sink + ct::gradient<objective>(x.data(), n, dx.data());
    else
      sink = sink + handWritten(x.data(), n, manual.data());
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  std::sort(times.begin(), times.end());
  std::printf("%.6f\n", times[times.size() / 2]);
  return 0;
}
