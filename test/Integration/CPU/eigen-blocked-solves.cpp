// The triangular-solve kernel solves by blocks of four pivots (each block's
// rows among themselves, then the rows after it updated by the whole
// block) and the pivots past the last whole block one at a time: lower,
// upper and unit-diagonal solves on the left and on the right (X stored by
// columns and by rows), with a vector, at sizes that are and are not
// multiples of four, and inside llt's blocked factorization at a size
// whose last panel is narrower than the others. Also Gram products
// (Inputs/eigen-gram.h). Reverse and forward mode against central
// differences, at -O0
// and under AddressSanitizer (every element a kernel or its rule touches
// lies inside its matrices).
// REQUIRES: plugin, eigen
// RUN: %clangxx-ct -O0 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %eigen -DEIGEN_DONT_VECTORIZE %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: 66 passed, 0 failed

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

#include "eigen-check.h"
#include "eigen-gram.h"

#include <cmath>

using Eigen::MatrixXd;

using check::filled;

template <int R, int C> struct Solves {
  [[ct::differentiable]] static double left(const double *x, int n) {
    MatrixXd t = filled(x, n, R, R), b = filled(x + 1, n - 1, R, C);
    return t.triangularView<Eigen::Lower>().solve(b).sum() +
           t.triangularView<Eigen::Upper>().solve(b).squaredNorm() / 10 +
           t.triangularView<Eigen::UnitLower>().solve(b).sum() / 100;
  }
  [[ct::differentiable]] static double right(const double *x, int n) {
    MatrixXd t = filled(x, n, R, R), b = filled(x + 1, n - 1, R, C);
    MatrixXd lower = b.transpose(), upper = b.transpose();
    t.triangularView<Eigen::Lower>().solveInPlace<Eigen::OnTheRight>(lower);
    t.triangularView<Eigen::UnitUpper>().solveInPlace<Eigen::OnTheRight>(
        upper);
    return lower.sum() + upper.squaredNorm() / 100;
  }
  [[ct::differentiable]] static double vector(const double *x, int n) {
    MatrixXd t = filled(x, n, R, R), b = filled(x + 1, n - 1, R, C);
    return t.triangularView<Eigen::Lower>().solve(b.col(0)).sum() +
           t.triangularView<Eigen::Upper>().solve(b.col(1)).sum();
  }
};

// 37 x 37: Eigen's llt blocks by 8, its last panel 5 wide.
[[ct::differentiable]] double cholesky(const double *x, int n) {
  MatrixXd a = filled(x, n, 37, 37);
  Eigen::LLT<MatrixXd> llt(a * a.transpose());
  double logDet = 0;
  for (int i = 0; i < 37; ++i)
    logDet += std::log(llt.matrixL()(i, i));
  return llt.solve(MatrixXd::Identity(37, 37)).trace() + logDet;
}

/// The gradient and a JVP against central differences of f.
template <double (*F)(const double *, int)> void checkBoth(const char *name) {
  double x[4] = {0.3, -0.4, 0.6, 0.8}, dx[4] = {};
  double value = ct::gradient<F>(x, 4, dx);
  check::near(name, value, F(x, 4), 1e-12);
  double direction[4] = {0.5, -1.0, 0.25, 2.0}, along = 0;
  for (int i = 0; i < 4; ++i) {
    double difference = check::differenceAt(x, i, [&] { return F(x, 4); });
    check::near(name, dx[i], difference, 1e-6);
    along += direction[i] * difference;
  }
  check::near(name, ct::jvp<F>(x, 4, direction).tangent, along, 1e-6);
}

template <int R, int C> void checkSolves() {
  checkBoth<Solves<R, C>::left>("left");
  checkBoth<Solves<R, C>::right>("right");
  checkBoth<Solves<R, C>::vector>("vector");
}

int main() {
  checkSolves<13, 7>();
  checkSolves<16, 5>();
  checkSolves<40, 17>();
  checkBoth<cholesky>("cholesky");
  checkBoth<check::gram>("gram");
  return check::report();
}
