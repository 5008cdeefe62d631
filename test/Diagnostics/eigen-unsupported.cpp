// What differentiable code refuses of Eigen, each once (no other error may
// appear), with a note at the user's line: a triangular solve on the right
// taken as a value, whose result Eigen returns as a ReturnByValue object
// (solveInPlace<OnTheRight> works, Integration/CPU/eigen-matrix-rules.cpp).
// REQUIRES: eigen
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 %eigen -DEIGEN_DONT_VECTORIZE -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <Eigen/Dense>
#include <cotangent/cotangent.h>

using Eigen::MatrixXd;

[[ct::differentiable]] double rightSolve(const double *x, int n) {
  Eigen::Map<const MatrixXd> a(x, n, n);
  MatrixXd m = a;
  // CHECK: error: this conversion to a derived class cannot be differentiated: the base's memory is not known to be part of a 'Eigen::ReturnByValue'; pass the derived object
  // CHECK: eigen-unsupported.cpp:[[@LINE+1]]:16: note: in call to 'Eigen::Matrix<double, -1, -1>::Matrix' from here
  MatrixXd r = m.triangularView<Eigen::Lower>().solve<Eigen::OnTheRight>(m);
  return r.sum();
}

double gradient(double *x, double *dx, int n) {
  return ct::gradient<rightSolve>(x, n, dx);
}
