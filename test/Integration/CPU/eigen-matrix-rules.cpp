// Eigen's products and triangular solves differentiated by matrix-level
// rules (the adjoint of a product is two products; that of a triangular
// solve a transposed solve and a product), where Eigen reaches its product
// and solve kernels: general products past its coefficient-based threshold
// (a scalar factor folded into the kernel's alpha, a transposed operand,
// Gram products A A^T),
// the blocked Cholesky factorization of llt (triangular solves on the
// right, rank updates of a triangle), its solves with a vector and a
// matrix, partialPivLu's blocked factorization (unit-lower solves),
// triangular solves the user writes (lower, upper, unit diagonal, on the
// right, a row-major matrix), solves repeated in a loop (each one's copies
// kept for the reverse sweep), single precision, llt<Upper> after a rank
// update of an upper triangle; products with triangular
// views (lower, unit upper, strictly lower on the right, a row-major
// matrix, a trapezoid) and self-adjoint views (either triangle, either
// side), and the blocked Householder QR whose block reflectors are
// triangular products. Reverse and forward mode
// and Hessian-vector products against finite differences at -O0 (Eigen's
// scalar code) and at -O2 with Eigen's default vectorized code; forward
// and reverse lanes (vector mode) through the products and solves.
// Eigen's packets need the default strategy (for their sign-bit masks), so
// the plain strategy runs the scalar build only.
// REQUIRES: plugin, eigen
// RUN: %clangxx-ct -O0 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t0 && %t0 | FileCheck %s
// RUN: %if ad-optimizations %{ %clangxx-ct -O2 %eigen %s -o %t2 && %t2 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

#include <cmath>

#include "eigen-check.h"
#include "eigen-gram.h"
#include "modes.h"

using Eigen::MatrixXd;
using Eigen::VectorXd;

using check::filled;

[[ct::differentiable]] double products(const double *x, int n) {
  MatrixXd a = filled(x, n, 12, 9), b = filled(x + 1, n - 1, 9, 14);
  MatrixXd c = (x[0] * a) * b;
  MatrixXd d = a.transpose() * c;
  return c.squaredNorm() / 100 + d.sum() / 50;
}

// 40 x 40: past the 32 where Eigen's Cholesky blocks.
[[ct::differentiable]] double cholesky(const double *x, int n) {
  MatrixXd a = filled(x, n, 40, 40);
  MatrixXd s = a * a.transpose();
  Eigen::LLT<MatrixXd> llt(s);
  VectorXd b = VectorXd::LinSpaced(40, -1.0, 1.0);
  VectorXd v = llt.solve(b);
  MatrixXd w = llt.solve(a);
  double logDet = 0;
  for (int i = 0; i < 40; ++i)
    logDet += std::log(llt.matrixL()(i, i));
  return v.dot(b) + w.trace() + 2 * logDet;
}

// The upper triangle: a rank update of it and llt<Upper> (the products
// into the upper triangle of their result).
[[ct::differentiable]] double upperCholesky(const double *x, int n) {
  MatrixXd a = filled(x, n, 40, 40);
  MatrixXd s = MatrixXd::Identity(40, 40);
  s.selfadjointView<Eigen::Upper>().rankUpdate(a, 0.5);
  Eigen::LLT<MatrixXd, Eigen::Upper> llt(s);
  VectorXd b = VectorXd::LinSpaced(40, -1.0, 1.0);
  return llt.solve(b).squaredNorm() +
         s.triangularView<Eigen::Upper>().toDenseMatrix().sum() / 100;
}

[[ct::differentiable]] double lu(const double *x, int n) {
  MatrixXd a = filled(x, n, 36, 36);
  Eigen::PartialPivLU<MatrixXd> lu(a);
  VectorXd b = VectorXd::Ones(36);
  return std::log(std::abs(lu.determinant())) + lu.solve(b).sum();
}

[[ct::differentiable]] double triangular(const double *x, int n) {
  MatrixXd t = filled(x, n, 10, 10);
  MatrixXd b = filled(x + 2, n - 2, 10, 6);
  MatrixXd lower = t.triangularView<Eigen::Lower>().solve(b);
  MatrixXd upper = t.triangularView<Eigen::UnitUpper>().solve(b);
  MatrixXd right = b.transpose();
  t.triangularView<Eigen::Upper>().solveInPlace<Eigen::OnTheRight>(right);
  Eigen::Matrix<double, -1, -1, Eigen::RowMajor> r = t;
  VectorXd v = r.triangularView<Eigen::Lower>().solve(b.col(0));
  return lower.sum() + upper.squaredNorm() + right.sum() + v.sum();
}

[[ct::differentiable]] double repeated(const double *x, int n) {
  MatrixXd a = filled(x, n, 24, 24);
  Eigen::LLT<MatrixXd> llt(a * a.transpose());
  VectorXd v = VectorXd::Ones(24);
  for (int k = 0; k < 3; ++k)
    v = llt.solve(v) + 0.5 * v;
  return v.sum();
}

// Eigen's triangular and self-adjoint product kernels: each the general
// product of a dense copy of the matrix the view stands for.
[[ct::differentiable]] double structured(const double *x, int n) {
  MatrixXd t = filled(x, n, 24, 24), b = filled(x + 1, n - 1, 24, 20);
  MatrixXd lower = t.triangularView<Eigen::Lower>() * b;
  MatrixXd unitUpper = t.triangularView<Eigen::UnitUpper>() * b;
  MatrixXd right = b.transpose() * t.triangularView<Eigen::StrictlyLower>();
  Eigen::Matrix<double, -1, -1, Eigen::RowMajor> r = t;
  MatrixXd rowMajor = r.triangularView<Eigen::Upper>() * b;
  MatrixXd trapezoid =
      filled(x + 2, n - 2, 30, 24).triangularView<Eigen::Lower>() * b;
  MatrixXd symmetric = t.selfadjointView<Eigen::Lower>() * b;
  MatrixXd symmetricRight = b.transpose() * t.selfadjointView<Eigen::Upper>();
  return lower.sum() + unitUpper.squaredNorm() / 100 + right.sum() +
         rowMajor.sum() + trapezoid.sum() + symmetric.sum() +
         symmetricRight.squaredNorm() / 100;
}

// 64 x 56: past the 48 columns where Eigen's Householder QR blocks.
[[ct::differentiable]] double blockedQr(const double *x, int n) {
  MatrixXd a = filled(x, n, 64, 56);
  VectorXd b = VectorXd::LinSpaced(64, -1.0, 1.0);
  return a.householderQr().solve(b).squaredNorm();
}

// Single precision: the float kernels.
[[ct::differentiable]] double singlePrecision(const double *x, int n) {
  Eigen::MatrixXf a = filled(x, n, 20, 20).cast<float>();
  Eigen::MatrixXf s = a * a.transpose();
  Eigen::VectorXf v = s.llt().solve(Eigen::VectorXf::Ones(20));
  return static_cast<double>(v.sum());
}

// Vector mode too (forward and reverse lanes), but not through
// partialPivLu: its blocked factorization is recursive and keeps
// addresses for its reverse sweep.
template <double (*F)(const double *, int), bool Lanes = false>
void checkAll(const char *name) {
  const double point[4] = {0.3, -0.4, 0.6, 0.8};
  // The value of a product summed by the kernels' loops differs from
  // Eigen's own order by rounding.
  check::checkModes<F, Lanes>(name, point, 4, 1e-12);
  if constexpr (Lanes) {
    // Two reverse lanes: the gradient seeded by 1 and by -2.
    double x[4] = {0.3, -0.4, 0.6, 0.8}, g[4] = {}, dx[8] = {};
    double seeds[2] = {1.0, -2.0};
    ct::gradient<F>(x, 4, g);
    ct::pullback<F, ct::lanes<2>>(x, 4, seeds, dx);
    for (int i = 0; i < 4; ++i) {
      check::near("reverse lane 0", dx[2 * i], g[i], 1e-12);
      check::near("reverse lane 1", dx[2 * i + 1], -2 * g[i], 1e-12);
    }
  }
}

int main() {
  checkAll<products, true>("products");
  checkAll<check::gram, true>("gram");
  checkAll<cholesky, true>("cholesky");
  checkAll<upperCholesky>("upper cholesky");
  checkAll<lu>("lu");
  checkAll<triangular, true>("triangular");
  checkAll<repeated, true>("repeated");
  checkAll<structured, true>("structured");
  checkAll<blockedQr>("blocked QR");
  // Float: the gradient against differences of the float function.
  double x[4] = {0.3, -0.4, 0.6, 0.8}, dx[4] = {};
  double value = ct::gradient<singlePrecision>(x, 4, dx);
  check::near("float value", value, singlePrecision(x, 4), 1e-5);
  for (int i = 0; i < 4; ++i) {
    auto at = [&](double h) {
      double moved[4] = {x[0], x[1], x[2], x[3]};
      moved[i] += h;
      return singlePrecision(moved, 4);
    };
    check::near("float gradient", dx[i], (at(1e-2) - at(-1e-2)) / 2e-2, 2e-3);
  }
  return check::report();
}
