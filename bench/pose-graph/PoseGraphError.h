//===- PoseGraphError.h - A 3-D pose-graph edge, as Ceres users write it --===//
//
// The residual of one edge of a 3-D pose graph, written the way Ceres
// Solver's pose-graph example writes its cost functor (here from the
// public formulas): two poses, each a position p and a unit quaternion q
// (Eigen's x, y, z, w order), the measured relative pose held by value,
// and the square root of the edge's information matrix applied to the six
// residuals,
//   q_ab = conj(q_a) q_b,  p_ab = conj(q_a) (p_b - p_a),
//   r = S [p_ab - p_measured; 2 vec(q_measured conj(q_ab))].
// A templated operator() on Eigen::Map and Eigen::Quaternion<T>.
//
//===----------------------------------------------------------------------===//

#ifndef BENCH_POSE_GRAPH_POSEGRAPHERROR_H
#define BENCH_POSE_GRAPH_POSEGRAPHERROR_H

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace bench::posegraph {

struct Pose3d {
  Eigen::Vector3d p;
  Eigen::Quaterniond q;
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW
};

class PoseGraphError {
public:
  PoseGraphError(const Pose3d &measured,
                 const Eigen::Matrix<double, 6, 6> &sqrtInformation)
      : measured_(measured), sqrtInformation_(sqrtInformation) {}

  template <typename T>
  bool operator()(const T *const pA, const T *const qA, const T *const pB,
                  const T *const qB, T *residualsOut) const {
    Eigen::Map<const Eigen::Matrix<T, 3, 1>> positionA(pA);
    Eigen::Map<const Eigen::Quaternion<T>> rotationA(qA);
    Eigen::Map<const Eigen::Matrix<T, 3, 1>> positionB(pB);
    Eigen::Map<const Eigen::Quaternion<T>> rotationB(qB);

    // B's pose in A's frame.
    Eigen::Quaternion<T> inverseA = rotationA.conjugate();
    Eigen::Quaternion<T> rotationAB = inverseA * rotationB;
    Eigen::Matrix<T, 3, 1> positionAB = inverseA * (positionB - positionA);

    // How far the estimate is from the measurement.
    Eigen::Quaternion<T> deltaRotation =
        measured_.q.template cast<T>() * rotationAB.conjugate();
    Eigen::Map<Eigen::Matrix<T, 6, 1>> residuals(residualsOut);
    residuals.template block<3, 1>(0, 0) =
        positionAB - measured_.p.template cast<T>();
    residuals.template block<3, 1>(3, 0) = T(2.0) * deltaRotation.vec();
    residuals.applyOnTheLeft(sqrtInformation_.template cast<T>());
    return true;
  }

  // The parameter blocks' sizes: p_a, q_a, p_b, q_b.
  static constexpr int kResiduals = 6;
  static constexpr int kBlockSizes[4] = {3, 4, 3, 4};
  /// Where each block starts among the 14 parameters.
  static constexpr int kBlockOffsets[4] = {0, 3, 7, 10};
  static constexpr int kParameters = 14;

  const Pose3d &measured() const { return measured_; }
  const Eigen::Matrix<double, 6, 6> &sqrtInformation() const {
    return sqrtInformation_;
  }

private:
  Pose3d measured_;
  Eigen::Matrix<double, 6, 6> sqrtInformation_;

public:
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW
};

/// One edge's inputs: the two poses' blocks, contiguous (p_a, q_a, p_b,
/// q_b: 14 numbers).
struct Edge {
  double parameters[PoseGraphError::kParameters];
  const double *block(int i) const {
    return parameters + PoseGraphError::kBlockOffsets[i];
  }
};

/// An edge's residuals and Jacobian blocks in Ceres's layout: one row-major
/// kResiduals x size block per parameter block.
struct EdgeJacobian {
  double residuals[PoseGraphError::kResiduals];
  double pA[6 * 3], qA[6 * 4], pB[6 * 3], qB[6 * 4];
  double *blocks[4] = {pA, qA, pB, qB};
};

// The ways to evaluate an edge's Jacobian, one per translation unit:
// cotangent.cpp (the plugin), manual.cpp (by hand), ceres.cpp (Ceres's
// AutoDiffCostFunction, built when Ceres is installed).
bool evaluatePrimal(const PoseGraphError &error, const Edge &edge,
                    double *residuals);
void jacobianByPullback(const PoseGraphError &error, const Edge &edge,
                        EdgeJacobian &out);
void jacobianByJvp(const PoseGraphError &error, const Edge &edge,
                   EdgeJacobian &out);
void jacobianByHand(const PoseGraphError &error, const Edge &edge,
                    EdgeJacobian &out);
/// Ceres's cost functions are made once per edge, as a Ceres user makes
/// them (AutoDiffCostFunction owns a copy of the functor); false where
/// Ceres is not installed.
bool prepareCeres(const PoseGraphError *errors, int count);
void jacobianByCeres(int index, const Edge &edge, EdgeJacobian &out);

} // namespace bench::posegraph

#endif
