// Hessian-vector products (forward over reverse) of Eigen code as written,
// with Eigen's default SSE2 packets: a Gaussian log-likelihood's objective
// by llt (its blocked Cholesky, solves and products through the
// matrix-level rules, whose backward halves are then differentiated in
// forward mode), a least-squares fit through a matrix product with its
// transpose (the Gram product), and a fixed-size relative-pose error
// (quaternion products). Each H v against central differences of the
// gradient along v.
// REQUIRES: plugin, eigen
// (The packets' sign masks are recognized by the default strategy; the
// plain one differentiates Eigen's scalar code.)
// RUN: %if ad-optimizations %{ %clangxx-ct -O1 %eigen %s -o %t1 %} %else %{ %clangxx-ct -O1 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t1 %}
// RUN: %t1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

// b^T S^-1 b + log det S, S = A A^T + n I (A is n x n, by columns).
[[ct::differentiable]] double logLikelihood(const double *x, int n) {
  Eigen::Map<const Eigen::MatrixXd> a(x, n, n);
  Eigen::MatrixXd s = a * a.transpose();
  s.diagonal().array() += double(n);
  Eigen::LLT<Eigen::MatrixXd> llt(s);
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1.0, 1.0);
  double logDet = 0;
  for (int i = 0; i < n; ++i)
    logDet += std::log(llt.matrixL()(i, i));
  return b.dot(llt.solve(b)) + 2 * logDet;
}

// || A^T A w - c ||^2 for w = x's first column, A its n x n matrix.
[[ct::differentiable]] double gramResidual(const double *x, int n) {
  Eigen::Map<const Eigen::MatrixXd> a(x, n, n);
  Eigen::MatrixXd gram = a.transpose() * a;
  Eigen::VectorXd c = Eigen::VectorXd::Constant(n, 0.5);
  return (gram * a.col(0) - c).squaredNorm();
}

// The relative rotation's and position's error of two poses (x: p_a, the
// vector part of q_a, p_b, of q_b; w = 1, normalized).
[[ct::differentiable]] double relativePose(const double *x, int) {
  Eigen::Map<const Eigen::Vector3d> pa(x), pb(x + 6);
  Eigen::Quaterniond qa(1.0, x[3], x[4], x[5]), qb(1.0, x[9], x[10], x[11]);
  Eigen::Quaterniond inverseA = qa.normalized().conjugate();
  Eigen::Quaterniond measured(0.9, 0.1, -0.2, 0.3);
  Eigen::Quaterniond delta =
      measured.normalized() * (inverseA * qb.normalized()).conjugate();
  Eigen::Vector3d position = inverseA * (pb - pa) - Eigen::Vector3d(1, 0, 0);
  return position.squaredNorm() + 4 * delta.vec().squaredNorm();
}

template <auto F>
static void hvpAgainstDifferences(const char *name, int size, int n) {
  double x[400], v[400], hv[400] = {}, up[400] = {}, down[400] = {};
  double xUp[400], xDown[400];
  const double h = 1e-5;
  for (int i = 0; i < size; ++i) {
    x[i] = 0.5 * std::sin(0.37 * i + 0.1);
    v[i] = std::cos(0.23 * i);
    xUp[i] = x[i] + h * v[i];
    xDown[i] = x[i] - h * v[i];
  }
  ct::hvp<F>(x, n, v, hv);
  ct::gradient<F>(xUp, n, up);
  ct::gradient<F>(xDown, n, down);
  for (int i = 0; i < size; ++i)
    check::near(name, hv[i], (up[i] - down[i]) / (2 * h), 1e-6);
}

int main() {
  // 20 x 20: past the products' and the solves' smallest blocks.
  hvpAgainstDifferences<logLikelihood>("log-likelihood H v", 400, 20);
  hvpAgainstDifferences<gramResidual>("Gram residual H v", 100, 10);
  hvpAgainstDifferences<relativePose>("relative pose H v", 12, 12);
  return check::report();
}
