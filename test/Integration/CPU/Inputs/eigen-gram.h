//===- eigen-gram.h - Gram products through the product rule --------------===//
//
// Gram products A A^T (one operand the other's transpose in the same
// memory: one product gives both operands' adjoints), with a scalar factor
// that carries a derivative, of a tall and of a wide matrix, and rank
// updates of either triangle; then products of one matrix's memory that
// are not (operands at different places, strides not swapped).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_TEST_EIGEN_GRAM_H
#define COTANGENT_TEST_EIGEN_GRAM_H

#include "eigen-check.h"

namespace check {

[[ct::differentiable]] inline double gram(const double *x, int n) {
  Eigen::MatrixXd a = filled(x, n, 30, 21);
  Eigen::MatrixXd outer = (x[1] * a) * a.transpose();
  Eigen::MatrixXd inner = a.transpose() * a;
  Eigen::MatrixXd lower = Eigen::MatrixXd::Identity(21, 21);
  Eigen::MatrixXd upper = lower;
  lower.selfadjointView<Eigen::Lower>().rankUpdate(a.topRows(21), x[2]);
  upper.selfadjointView<Eigen::Upper>().rankUpdate(a.bottomRows(21), 0.5);
  Eigen::MatrixXd shifted = a.topRows(21) * a.bottomRows(21).transpose();
  Eigen::MatrixXd cross = a.leftCols(20) * a.rightCols(20).transpose();
  Eigen::MatrixXd m = a.topLeftCorner(21, 21);
  Eigen::MatrixXd square = m * m;
  return outer.squaredNorm() / 1000 + inner.sum() / 100 +
         lower.triangularView<Eigen::Lower>().toDenseMatrix().sum() / 10 +
         upper.triangularView<Eigen::Upper>().toDenseMatrix().sum() / 10 +
         shifted.sum() / 100 + cross.trace() + square.sum() / 100;
}

} // namespace check

#endif // COTANGENT_TEST_EIGEN_GRAM_H
