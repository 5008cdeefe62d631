// Dynamic-size Eigen with its SSE2 packets on (the default flags; also AVX2
// and the processor's own, AVX-512's masked packets where it has them) and its
// directory named by -I, as a program's own build may name it: matrix
// products of the caller's memory (Eigen's GEMM and GEMV kernels, their
// packed blocks and aligned stack buffers, cache sizes read by code that
// works on integers only and runs as compiled), its packet minima (written
// in assembly for compilers that say they are an old GCC), swizzles of
// packets through integer lanes, and a Cholesky solve. Gradients against
// central differences, forward mode against the gradient. (The packets'
// masks and swizzles are recognized on values in registers: the default
// strategy.)
// REQUIRES: plugin, eigen, ad-optimizations
// RUN: %clangxx-ct -O2 %eigen-as-user %s -o %t2 && %t2 | FileCheck %s
// RUN: %if avx2 %{ %clangxx-ct -O2 -mavx2 -mfma %eigen-as-user %s -o %t3 && %t3 | FileCheck %s %}
// RUN: %clangxx-ct -O2 -march=native %eigen-as-user %s -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

#include "eigen-check.h"

[[ct::differentiable]] double productsAndSolve(const double *x, int n) {
  Eigen::Map<const Eigen::VectorXd> v(x, n);
  Eigen::MatrixXd a = check::matrixOf(x, n, 5);
  Eigen::MatrixXd gram = a.transpose() * a;
  Eigen::VectorXd r = a * Eigen::VectorXd::LinSpaced(5, 0.5, 1.5);
  Eigen::VectorXd w = gram.llt().solve(r);
  double smallest = (a.array() - v.sum()).minCoeff();
  return gram.sum() + w.squaredNorm() + smallest * v.squaredNorm();
}

int main() {
  check::againstDifferences<productsAndSolve>("products and solve");
  return check::report();
}
