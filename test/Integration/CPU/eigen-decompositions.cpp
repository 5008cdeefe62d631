// Eigen's decompositions as written (Debian's libeigen3-dev), differentiated
// through Eigen's own scalar code: partialPivLu (determinant, inverse,
// solve; also a matrix large enough for its blocked algorithm),
// fullPivLu, householderQr and colPivHouseholderQr least squares, at
// dynamic and fixed sizes (Matrix4d inverse and determinant, Matrix3d
// llt and householderQr). What they need of the memory model: a pointer
// field bound inside a branch of an inlined constructor and read after it;
// a pointer parameter defaulting to null re-seated to the function's own
// vector; a branch whose condition folds without running its calls
// (`RequireInitialization && data()`); pointers compared across views of
// different shapes. (Eigen's eigenvalue solver and SVD:
// eigen-spectral.cpp.)
// Reverse and forward mode at -O0 and -O2 against finite differences.
// REQUIRES: plugin, eigen
// RUN: %clangxx-ct -O0 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

#include <cmath>

#include "eigen-check.h"

using Eigen::MatrixXd;
using Eigen::VectorXd;

[[ct::differentiable]] double luWork(const double *x, int n) {
  MatrixXd a = check::matrixOf(x, n, 4);
  VectorXd b = Eigen::Map<const VectorXd>(x, n);
  Eigen::PartialPivLU<MatrixXd> lu(a);
  double logDet = std::log(std::abs(lu.determinant()));
  VectorXd solved = lu.solve(b);
  MatrixXd inverse = a.inverse();
  VectorXd full = a.fullPivLu().solve(b);
  return logDet + solved.squaredNorm() + inverse.trace() + a.determinant() +
         full.sum();
}

// 18 x 18: past Eigen's 16, so its blocked LU runs.
[[ct::differentiable]] double blockedLogDet(const double *x, int n) {
  MatrixXd a = check::matrixOf(x, n, 18);
  return std::log(std::abs(a.partialPivLu().determinant()));
}

[[ct::differentiable]] double leastSquares(const double *x, int n) {
  // A line through n points (t_i, x_i): the normal solution by QR.
  MatrixXd design(n, 2);
  for (int i = 0; i < n; ++i) {
    design(i, 0) = 1.0;
    design(i, 1) = 0.5 * i + 0.1 * x[i] * x[i];
  }
  VectorXd y = Eigen::Map<const VectorXd>(x, n);
  VectorXd coefficients = design.householderQr().solve(y);
  VectorXd pivoted = design.colPivHouseholderQr().solve(y);
  return coefficients.squaredNorm() + pivoted.sum();
}

[[ct::differentiable]] double fixedSizes(const double *x, int n) {
  Eigen::Matrix4d a = check::matrixOf(x, n, 4);
  Eigen::Matrix3d corner = a.topLeftCorner<3, 3>();
  Eigen::Matrix3d s = corner * corner.transpose();
  Eigen::Vector3d b(x[0], 1.0, x[1]);
  return a.inverse().sum() + a.determinant() + s.llt().solve(b).sum() +
         s.householderQr().solve(b).squaredNorm();
}

int main() {
  check::againstDifferences<luWork>("LU");
  check::againstDifferences<blockedLogDet>("blocked LU");
  check::againstDifferences<leastSquares>("QR least squares");
  check::againstDifferences<fixedSizes>("fixed sizes");
  return check::report();
}
