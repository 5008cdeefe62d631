//===- eigen-check.h - Shared checks of the Eigen integration tests -------===//
//
// A well-conditioned square matrix of the inputs, and the check every
// Eigen test makes of f(x, n): its gradient against central differences and
// its directional derivative (forward mode) against the gradient.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_TEST_EIGEN_CHECK_H
#define COTANGENT_TEST_EIGEN_CHECK_H

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

namespace check {

/// size x size: 4 on the diagonal plus sin of the inputs, cycled.
inline Eigen::MatrixXd matrixOf(const double *x, int n, int size) {
  Eigen::MatrixXd a(size, size);
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j)
      a(i, j) = (i == j ? 4.0 : 0.0) + std::sin(x[(i + 2 * j) % n] + i - j);
  return a;
}

/// rows x cols: 3 on the diagonal plus 0.3 sin of the inputs, cycled, and
/// of the place (the matrices of the matrix-rule tests).
inline Eigen::MatrixXd filled(const double *x, int n, int rows, int cols) {
  Eigen::MatrixXd a(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      a(i, j) = (i == j ? 3.0 : 0.0) +
                0.3 * std::sin(x[(i + 2 * j) % n] + 0.1 * i - 0.2 * j);
  return a;
}

/// Reverse mode against central differences, forward mode against the
/// gradient, at x = (0.3, -0.4, 0.6, 0.8).
template <auto F> void againstDifferences(const char *name) {
  const int n = 4;
  double x[n] = {0.3, -0.4, 0.6, 0.8}, dx[n] = {};
  double v = ct::gradient<F>(x, n, dx);
  near(name, v, F(x, n), 1e-12);
  double tx[n] = {1.0, -0.5, 0.25, 2.0}, directional = 0;
  for (int i = 0; i < n; ++i) {
    double fd = differenceAt(x, i, [&] { return F(x, n); });
    near(name, dx[i], fd, 1e-6);
    directional += dx[i] * tx[i];
  }
  near(name, ct::jvp<F>(x, n, tx).tangent, directional, 1e-10);
}

} // namespace check

#endif // COTANGENT_TEST_EIGEN_CHECK_H
