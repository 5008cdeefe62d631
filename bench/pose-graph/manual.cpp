//===- manual.cpp - The pose-graph edge's Jacobian, written by hand -------===//
//
// Quaternions in Eigen's (x, y, z, w) order. The product is bilinear:
// p q = L(p) q = R(q) p with
//   L(p) = [pw I + [pv]x, pv; -pv^T, pw],  R(q) = [qw I - [qv]x, qv; -qv^T,
//   qw].
// delta = q_m conj(q_ab) = q_m conj(q_b) q_a, so d delta / d q_a =
// L(q_m) L(conj q_b) and d delta / d q_b = L(q_m) R(q_a) C, C = diag(-1, -1,
// -1, 1) (conjugation). Eigen rotates v by (w, u) as v + 2w (u x v) + 2u x (u x
// v); with u = -vec(q_a), w = q_a.w, v = p_b - p_a its derivatives are
//   d/dv = I + 2w [u]x + 2[u]x[u]x,  d/dw = 2 u x v,
//   d/du = -2w [v]x + 2((u.v) I + u v^T - 2 v u^T).
// The Jacobian is the square root of the information times these blocks.
//
//===----------------------------------------------------------------------===//

#include "PoseGraphError.h"

namespace bench::posegraph {

namespace {
using Matrix3 = Eigen::Matrix3d;
using Matrix4 = Eigen::Matrix4d;
using Vector3 = Eigen::Vector3d;

Matrix3 crossMatrix(const Vector3 &v) {
  Matrix3 m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

Matrix4 leftProduct(const Eigen::Quaterniond &p) {
  Matrix4 m;
  m.topLeftCorner<3, 3>() = p.w() * Matrix3::Identity() + crossMatrix(p.vec());
  m.topRightCorner<3, 1>() = p.vec();
  m.bottomLeftCorner<1, 3>() = -p.vec().transpose();
  m(3, 3) = p.w();
  return m;
}

Matrix4 rightProduct(const Eigen::Quaterniond &q) {
  Matrix4 m;
  m.topLeftCorner<3, 3>() = q.w() * Matrix3::Identity() - crossMatrix(q.vec());
  m.topRightCorner<3, 1>() = q.vec();
  m.bottomLeftCorner<1, 3>() = -q.vec().transpose();
  m(3, 3) = q.w();
  return m;
}
} // namespace

void jacobianByHand(const PoseGraphError &error, const Edge &edge,
                    EdgeJacobian &out) {
  Eigen::Map<const Vector3> pA(edge.block(0)), pB(edge.block(2));
  Eigen::Map<const Eigen::Quaterniond> qA(edge.block(1)), qB(edge.block(3));
  const Eigen::Quaterniond &qM = error.measured().q;
  const Eigen::Matrix<double, 6, 6> &s = error.sqrtInformation();

  // The residuals, as the functor computes them.
  Eigen::Quaterniond inverseA = qA.conjugate();
  Vector3 v = pB - pA;
  Vector3 positionAB = inverseA * v;
  Eigen::Quaterniond delta = qM * (inverseA * qB).conjugate();
  Eigen::Matrix<double, 6, 1> raw;
  raw << positionAB - error.measured().p, 2.0 * delta.vec();
  Eigen::Map<Eigen::Matrix<double, 6, 1>>(out.residuals) = s * raw;

  // The rotated difference's derivatives in (u, w, v).
  Vector3 u = inverseA.vec();
  double w = inverseA.w();
  Matrix3 cu = crossMatrix(u);
  Matrix3 byV = Matrix3::Identity() + 2 * w * cu + 2 * cu * cu;
  Matrix3 byU =
      -2 * w * crossMatrix(v) + 2 * (u.dot(v) * Matrix3::Identity() +
                                     u * v.transpose() - 2 * v * u.transpose());
  Vector3 byW = 2 * u.cross(v);

  // The rotation residual's, through the bilinear products (the vector
  // part's three rows).
  Eigen::Matrix<double, 3, 4> left = leftProduct(qM).topRows<3>();
  Eigen::Matrix<double, 3, 4> deltaByQA = left * leftProduct(qB.conjugate());
  Eigen::Matrix<double, 3, 4> deltaByQB = left * rightProduct(qA);
  deltaByQB.leftCols<3>() = -deltaByQB.leftCols<3>();

  // S times the unweighted Jacobian, whose position rows do not depend on
  // q_b and whose rotation rows depend on the quaternions alone.
  for (int r = 0; r < 6; ++r) {
    for (int j = 0; j < 3; ++j) {
      double position = 0;
      for (int k = 0; k < 3; ++k)
        position += s(r, k) * byV(k, j);
      out.pA[r * 3 + j] = -position;
      out.pB[r * 3 + j] = position;
    }
    for (int j = 0; j < 4; ++j) {
      double byQA = 0, byQB = 0;
      for (int k = 0; k < 3; ++k) {
        byQA += s(r, k) * (j < 3 ? -byU(k, j) : byW(k)) +
                2 * s(r, 3 + k) * deltaByQA(k, j);
        byQB += 2 * s(r, 3 + k) * deltaByQB(k, j);
      }
      out.qA[r * 4 + j] = byQA;
      out.qB[r * 4 + j] = byQB;
    }
  }
}

} // namespace bench::posegraph
