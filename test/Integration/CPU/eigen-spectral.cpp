// Eigen's spectral decompositions as written, differentiated through its
// own scalar code: SelfAdjointEigenSolver (eigenvalues, and an eigenvector
// up to its sign) and JacobiSVD's singular values, at dynamic and fixed
// sizes. What they need of the memory model beyond eigen-decompositions.cpp:
// nullptr as a default-constructed matrix's data in reverse mode, and
// memset of a number's bytes (Eigen's all-ones mask in its NaN-propagating
// max). Reverse and forward mode against finite differences, at -O0 only:
// everything here is inlined into one function of about 75,000 operations,
// whose compile at -O2 takes minutes (compile time is a tracked issue);
// and with the optimised derivative strategy only (the plain strategy's
// rerun of the integration tests would double its two-minute compile).
// REQUIRES: plugin, eigen, ad-optimizations
// RUN: %clangxx-ct -O0 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t0 && %t0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

#include <cmath>

#include "eigen-check.h"

using Eigen::MatrixXd;
using Eigen::VectorXd;

[[ct::differentiable]] double spectra(const double *x, int n) {
  MatrixXd a = check::matrixOf(x, n, 3);
  MatrixXd symmetric = a + a.transpose();
  Eigen::SelfAdjointEigenSolver<MatrixXd> eigen(symmetric);
  // |v| of the largest eigenvalue: its sign is Eigen's choice.
  double vector = eigen.eigenvectors().col(2).cwiseAbs().sum();
  MatrixXd tall(3, 2);
  tall << a(0, 0), a(0, 1), a(1, 0), a(1, 1), a(2, 0), a(2, 2);
  Eigen::JacobiSVD<MatrixXd> svd(tall);
  return eigen.eigenvalues()(2) + 0.5 * eigen.eigenvalues()(0) + vector +
         svd.singularValues()(0) + 2 * svd.singularValues()(1);
}

[[ct::differentiable]] double fixedSpectrum(const double *x, int n) {
  Eigen::Matrix3d a = check::matrixOf(x, n, 3);
  Eigen::Matrix3d symmetric = a * a.transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(symmetric);
  return eigen.eigenvalues()(0) + eigen.eigenvalues()(2);
}

int main() {
  check::againstDifferences<spectra>("eigenvalues and SVD");
  check::againstDifferences<fixedSpectrum>("fixed-size eigenvalues");
  return check::report();
}
