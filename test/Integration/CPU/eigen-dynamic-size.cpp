// Dynamic-size Eigen as written (Debian's libeigen3-dev), on Eigen's scalar
// code path: VectorXd and MatrixXd locals sized at run time, resized (also
// keeping their contents, `conservativeResize`),
// filled by the comma initializer and by coefficients, members of a struct,
// given by reference to helpers and returned by value from them; Map over
// the caller's memory; sums, coefficient-wise products, array functions,
// matrix-vector products (also of a transposed matrix, through Eigen's
// GEMV kernel), matrix-matrix products (its GEMM kernel), llt() and ldlt()
// solves, a Cholesky log-determinant, a
// product of a transposed matrix evaluated coefficient by coefficient,
// column sums, dot, norm, normalized,
// squaredNorm, minCoeff, maxCoeff, prod, LinSpaced, unaryExpr with a
// lambda. What this needs of the memory
// model: memory from malloc kept as `void *` until Eigen's cast gives it
// its type, freed through a `void *` helper; a pointer declared first and
// assigned after; a helper returning null early for no elements, its result
// kept in the storage's field inside a branch; branches the compiler
// decides (Eigen's `if (NumTraits<T>::RequireInitialization)` around a try
// block); function pointers passed to templates (min/max reductions); a
// lambda without captures kept in an expression object; scratch memory
// chosen between an aligned alloca and malloc, freed by a handler when it
// owns it; assembly comments, prefetch hints, destructors of numbers and
// functions that do nothing; a function on integers only (cache sizes
// read by cpuid into a static) called as compiled; an
// evaluator's data pointer and stride (integers) held among numbers.
// Reverse and forward mode at -O0 and -O2 against finite differences.
// REQUIRES: plugin, eigen
// RUN: %clangxx-ct -O0 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t2 && %t2 | FileCheck %s
// (With AVX's packets, Eigen allocates with its own 32-byte aligned malloc
// and rounds its stack buffers up to 32 bytes; packets need the default
// strategy.)
// RUN: %if avx2 && ad-optimizations %{ %clangxx-ct -O2 -mavx2 -mfma %eigen %s -o %t3 && %t3 | FileCheck %s %}
// (With the processor's own extensions: AVX-512's masked packets where it
// has them.)
// RUN: %if ad-optimizations %{ %clangxx-ct -O2 -march=native %eigen %s -o %t4 && %t4 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

#include <cmath>

#include "eigen-check.h"

using Eigen::MatrixXd;
using Eigen::VectorXd;

// A least-squares loss of tanh(A p) against b, through helpers taking
// Eigen objects by reference and returning them by value.
static VectorXd activations(const VectorXd &p, const MatrixXd &a) {
  VectorXd r = a * p;
  for (Eigen::Index i = 0; i < r.size(); ++i)
    r[i] = std::tanh(r[i]);
  return r;
}

struct Model {
  MatrixXd a;
  VectorXd b;
};

static double modelLoss(const Model &m, const VectorXd &p) {
  VectorXd r = activations(p, m.a) - m.b;
  return 0.5 * r.squaredNorm();
}

[[ct::differentiable]] double leastSquares(const double *x, int n) {
  Model m;
  m.a.resize(3, n);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < n; ++j)
      m.a(i, j) = 0.1 * (i + 1) + 0.05 * j - 0.02 * i * j;
  m.b = VectorXd::Constant(3, 0.2);
  VectorXd p = Eigen::Map<const VectorXd>(x, n);
  return modelLoss(m, p);
}

// Coefficient-wise work on vectors the function sizes and resizes.
[[ct::differentiable]] double vectorWork(const double *x, int n) {
  VectorXd v(3);
  v << x[0], x[1], x[2];
  double head = v.squaredNorm();
  v.resize(n);
  for (int i = 0; i < n; ++i)
    v[i] = x[i] * x[i] + 0.5;
  VectorXd s = v.array().sin().matrix();
  VectorXd w = Eigen::Map<const VectorXd>(x, n);
  VectorXd u = w.normalized();
  VectorXd ramp = VectorXd::LinSpaced(n, 0.0, 1.0);
  double squares = w.unaryExpr([](double t) { return t * t; }).sum();
  return head + s.sum() + v.cwiseProduct(w).sum() + (v - w).norm() +
         u[0] * x[1] + v.maxCoeff() - v.minCoeff() +
         w.segment(1, 2).dot(u.head(2)) + ramp.dot(w) + squares;
}

// Vectors and matrices grown keeping their contents (`conservativeResize`:
// with AVX, Eigen's own aligned realloc).
[[ct::differentiable]] double grown(const double *x, int n) {
  VectorXd v(2);
  v << x[0], x[1];
  v.conservativeResize(n);
  for (int i = 2; i < n; ++i)
    v[i] = x[i] * v[i - 1];
  MatrixXd m(2, 1);
  m << x[0], x[1];
  m.conservativeResize(2, 2);
  m.col(1) = m.col(0) * x[2];
  return v.squaredNorm() + m.sum();
}

// A matrix filled by coefficients, its column sums' product, and the trace
// of A^T A (a lazy product of a transposed matrix).
[[ct::differentiable]] double matrixWork(const double *x, int n) {
  MatrixXd a(2, n);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < n; ++j)
      a(i, j) = x[j] * (i + 1) + 0.1 * i;
  VectorXd c = a.colwise().sum();
  MatrixXd i3 = MatrixXd::Identity(n, n);
  i3(0, 1) = x[0];
  i3(1, 2) = x[1] * x[2];
  // A transposed matrix-vector product (Eigen's GEMV kernel, with its
  // scratch buffer chosen between the stack and the heap).
  VectorXd r = VectorXd::LinSpaced(2, 1.0, 2.0);
  VectorXd g = a.transpose() * r;
  return c.prod() + (i3.transpose() * i3).trace() + g.squaredNorm();
}

// Matrix-matrix products (Eigen's GEMM kernel: blocking, packing and the
// register-blocked kernel, cache sizes read by compiled code), a ridge
// regression solved by Cholesky factorisations (llt().solve, ldlt().solve)
// and a log-determinant from the Cholesky factor.
[[ct::differentiable]] double productsAndSolve(const double *x, int n) {
  MatrixXd a(3, n);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < n; ++j)
      a(i, j) = x[j] * (0.5 + i) - 0.1 * i * j;
  MatrixXd gram = a.transpose() * a;
  MatrixXd outer = a * a.transpose();
  MatrixXd regularised = gram + MatrixXd::Identity(n, n);
  VectorXd rhs = Eigen::Map<const VectorXd>(x, n);
  VectorXd w = regularised.llt().solve(rhs);
  VectorXd u = regularised.ldlt().solve(rhs);
  // log det by the Cholesky factor: 2 sum log L_ii.
  Eigen::LLT<MatrixXd> cholesky(regularised);
  MatrixXd l = cholesky.matrixL();
  double logDet = 2 * l.diagonal().array().log().sum();
  return gram.sum() + outer.trace() + w.squaredNorm() + u.dot(rhs) + logDet;
}

int main() {
  check::againstDifferences<leastSquares>("least squares");
  check::againstDifferences<vectorWork>("vector work");
  check::againstDifferences<grown>("grown");
  check::againstDifferences<matrixWork>("matrix work");
  check::againstDifferences<productsAndSolve>("products and solve");
  return check::report();
}
