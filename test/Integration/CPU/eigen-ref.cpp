// Eigen::Ref parameters, as Eigen's documentation tells functions to take
// vectors and matrices: `Ref<const VectorXd>` given a Map over the
// caller's memory, a VectorXd, a segment of one, a fixed-size vector and an
// expression Eigen evaluates into the Ref's own copy (which the Ref then
// designates: the two paths of its constructor point into different
// memory); `Ref<VectorXd>` written through (a VectorXd, a segment);
// `Ref<const MatrixXd>` of a matrix and of a block. A Ref is constructed
// again in place (`::new (this) Base(data, rows, cols)`), so its data
// pointer keeps the address it is given (docs/Memory.md). Every mode
// against central differences and the function's own value (modes.h), at
// -O0 and -O2, on Eigen's scalar code and with its packets.
// REQUIRES: plugin, eigen
// RUN: %clangxx-ct -O0 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O2 %eigen %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <Eigen/Dense>

#include <cmath>

#include "modes.h"

using Eigen::Map;
using Eigen::MatrixXd;
using Eigen::Ref;
using Eigen::VectorXd;

static double energy(const Ref<const VectorXd> &v) {
  return (v.array().sin() * v.array()).sum() + v.squaredNorm();
}

static void scaleInPlace(Ref<VectorXd> v, double s) { v *= s; }

static double trace(const Ref<const MatrixXd> &m) {
  return (m * m.transpose()).trace();
}

double constRefs(const double *x, int n) {
  Map<const VectorXd> mapped(x, n);
  VectorXd copy = mapped;
  return energy(mapped) + energy(copy.tail(n - 1)) +
         energy(copy.segment(1, 2));
}

double evaluatedIntoRef(const double *x, int n) {
  Map<const VectorXd> mapped(x, n);
  // (An expression: the Ref holds its value in a VectorXd of its own.)
  return energy(mapped.array().exp().matrix()) + energy(2.0 * mapped);
}

double writableRefs(const double *x, int n) {
  VectorXd v = Map<const VectorXd>(x, n);
  scaleInPlace(v, 3.0);
  scaleInPlace(v.head(2), x[n - 1]);
  return v.squaredNorm() + v(0) * v(1);
}

double fixedSizeRef(const double *x, int) {
  Eigen::Vector3d v(x[0], x[1] * x[2], x[3]);
  Ref<const Eigen::Vector3d> r(v);
  return r.squaredNorm() * r(1);
}

double matrixRefs(const double *x, int) {
  MatrixXd m(2, 2);
  m << x[0], x[1], x[2], x[3];
  MatrixXd big = MatrixXd::Constant(3, 3, 0.5);
  big.block(1, 1, 2, 2) = m;
  return trace(m) + trace(big.block(0, 1, 3, 2));
}

int main() {
  const double x[5] = {0.3, -0.7, 1.1, 0.4, 0.9};
  check::checkModes<constRefs>("Ref<const VectorXd>", x, 5);
  check::checkModes<evaluatedIntoRef>("evaluated into a Ref", x, 5);
  check::checkModes<writableRefs>("Ref<VectorXd>", x, 5);
  check::checkModes<fixedSizeRef>("Ref<const Vector3d>", x, 4);
  check::checkModes<matrixRefs>("Ref<const MatrixXd>", x, 4);
  return check::report();
}
