// Fixed-size Eigen as written (Debian's libeigen3-dev), on Eigen's scalar
// code path: vectors and matrices as locals and parameters (their
// derivatives in vectors of their type), Eigen::Map over the caller's
// memory, a Ceres-style templated functor (Map<const Matrix<T, 3, 1>>,
// Quaternion<T>) through ct::pullback, expression templates (sums,
// products, transposes, blocks, head/tail/segment, the comma initializer),
// dot, cross, norm, normalized, determinant, trace, quaternions and
// angle-axis rotations. What this needs of the memory model: CRTP (a base
// cast back to the derived class), empty classes (functors, tags) and
// reference fields of evaluators, a base constructed again in place
// (placement new), the address of memory as an integer (Eigen's alignment
// checks), and deep chains of calls lowered in place. Reverse and forward
// mode at -O0 and -O2 against finite differences and closed forms.
// REQUIRES: plugin, eigen
// RUN: %clangxx-ct -O0 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %eigen -DEIGEN_DONT_VECTORIZE %s -o %t2 && %t2 | FileCheck %s
// With Eigen's SSE2 packets on (its default), the headers found by -I or
// -isystem (the packets' masks are recognized by the default strategy):
// RUN: %if ad-optimizations %{ %clangxx-ct -O0 %eigen-as-user %s -o %tv0 && %tv0 | FileCheck %s %}
// RUN: %if ad-optimizations %{ %clangxx-ct -O2 %eigen %s -o %tv2 && %tv2 | FileCheck %s %}
// With the processor's own (SSE3 and later: the quaternion product's
// alternating sums, AVX, AVX-512 where it has them):
// RUN: %if ad-optimizations %{ %clangxx-ct -O2 -march=native %eigen %s -o %tn2 && %tn2 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <cotangent/cotangent.h>

#include "check.h"

using Eigen::Matrix3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

// Products, cross products, norms and a determinant of vectors built from x.
[[ct::differentiable]] double vectorAlgebra(const double *x) {
  Vector3d a(x[0], x[1], x[2]);
  Vector3d b(x[3], x[4], x[5]);
  Vector3d c = a.cross(b) + 0.5 * a;
  Matrix3d outer = a * b.transpose() + Matrix3d::Identity() * x[6];
  double d = outer.determinant() + outer.trace();
  return c.squaredNorm() + a.dot(b) * b.norm() + (a - 2 * b).normalized()(1) +
         d + a.head<2>().dot(b.tail<2>()) + a.segment<2>(1).sum();
}

// A pose-graph edge residual (robotics style): the position of b seen from
// a, rotated by a's orientation, against a measurement; x holds pa, pb and
// a quaternion's vector part (w = 1, normalized here).
[[ct::differentiable]] double poseResidual(const double *x) {
  Eigen::Map<const Vector3d> pa(x), pb(x + 3);
  Quaterniond qa(1.0, x[6], x[7], x[8]);
  qa.normalize();
  const Vector3d measured(0.3, -0.2, 0.1);
  Vector3d r = qa.conjugate() * (pb - pa) - measured;
  return r.squaredNorm();
}

// A relative rotation's error (pose graphs): q_m conj(conj(q_a) q_b), both
// quaternions products (Eigen's vectorized ones where it has SSE3); x holds
// the vector parts of q_a and q_b (w = 1, normalized here) and of q_m.
[[ct::differentiable]] double rotationResidual(const double *x) {
  Quaterniond qa(1.0, x[0], x[1], x[2]), qb(1.0, x[3], x[4], x[5]);
  Quaterniond qm(2.0, x[6], x[7], x[8]);
  Quaterniond relative = qa.normalized().conjugate() * qb.normalized();
  Quaterniond delta = qm * relative.conjugate();
  return delta.vec().squaredNorm() + 0.5 * delta.w();
}

// A rigid body's kinetic energy 1/2 w^T (R I R^T) w with R from an angle
// and axis, I diagonal; x holds w, the axis and the angle.
[[ct::differentiable]] double rigidBodyEnergy(const double *x) {
  Vector3d w(x[0], x[1], x[2]);
  Vector3d axis(x[3], x[4], x[5]);
  Matrix3d R = Eigen::AngleAxisd(x[6], axis.normalized()).toRotationMatrix();
  Matrix3d inertia = Vector3d(1.0, 2.0, 3.0).asDiagonal();
  Matrix3d world = R * inertia * R.transpose();
  return 0.5 * w.dot(world * w);
}

// Blocks, the comma initializer and a matrix-vector product.
[[ct::differentiable]] double blocks(const double *x) {
  Matrix3d m;
  m << x[0], x[1], x[2], //
      x[3], x[4], x[5],  //
      x[6], 1.0, 2.0;
  Vector3d v = m.block<2, 3>(0, 0).transpose() * Eigen::Vector2d(x[7], x[8]);
  m.col(2) = v;
  return (m * v).sum() + m.row(1).squaredNorm();
}

// Eigen vectors as parameters, their derivatives in vectors of their type.
[[ct::differentiable]] double crossEnergy(const Vector3d &a, const Vector3d &b) {
  return a.cross(b).squaredNorm() + a.dot(b);
}

// A Ceres-style templated functor: a pose (translation, quaternion vector
// part) applied to a point, through Map<const Matrix<T, 3, 1>> and
// Quaternion<T>.
struct PoseResidual {
  template <class T>
  bool operator()(const T *pose, const T *point, T *residual) const {
    Eigen::Map<const Eigen::Matrix<T, 3, 1>> t(pose), p(point);
    Eigen::Quaternion<T> q(T(1), pose[3], pose[4], pose[5]);
    Eigen::Matrix<T, 3, 1> y = q.normalized() * p + t;
    residual[0] = y[0] - T(0.5);
    residual[1] = y[1] * y[2];
    return true;
  }
};

static void checkParameters() {
  Vector3d a(0.1, 0.2, 0.3), b(0.4, 0.5, 0.6);
  Vector3d da = Vector3d::Zero(), db = Vector3d::Zero();
  double value = ct::gradient<crossEnergy>(a, b, &da, &db);
  check::near("parameters value", value, crossEnergy(a, b), 1e-12);
  // d/da = 2 b x (a x b) + b, d/db = 2 (a x b) x a + a.
  Vector3d c = a.cross(b);
  Vector3d expectA = 2 * b.cross(c) + b, expectB = 2 * c.cross(a) + a;
  for (int i = 0; i < 3; ++i) {
    check::near("parameters d/da", da[i], expectA[i], 1e-12);
    check::near("parameters d/db", db[i], expectB[i], 1e-12);
  }
}

static void checkFunctor() {
  double pose[6] = {0.1, 0.2, 0.3, 0.1, -0.2, 0.05}, point[3] = {1, 2, 3};
  PoseResidual functor;
  for (int row = 0; row < 2; ++row) {
    double residual[2], dpose[6] = {}, dpoint[3] = {}, seed[2] = {};
    seed[row] = 1;
    ct::pullback<&PoseResidual::operator()<double>>(functor, pose, point,
                                                     residual, dpose, dpoint,
                                                     seed);
    auto rowOf = [&] {
      double r[2];
      functor(pose, point, r);
      return r[row];
    };
    for (int i = 0; i < 6; ++i)
      check::near("functor d/dpose", dpose[i],
                  check::differenceAt(pose, i, rowOf), 1e-6);
    for (int i = 0; i < 3; ++i)
      check::near("functor d/dpoint", dpoint[i],
                  check::differenceAt(point, i, rowOf), 1e-6);
  }
}

template <double (*F)(const double *)>
static void checkAgainstDifferences(const char *name, double *x) {
  constexpr int n = 9;
  double dx[n] = {};
  double value = ct::gradient<F>(x, dx);
  check::near(name, value, F(x), 1e-12);
  double tx[n], directional = 0;
  for (int i = 0; i < n; ++i) {
    double expected = check::differenceAt(x, i, [&] { return F(x); });
    check::near(name, dx[i], expected, 1e-6);
    tx[i] = 0.1 * (i + 1);
    directional += expected * tx[i];
  }
  check::near(name, ct::jvp<F>(x, tx).tangent, directional, 1e-6);
}

int main() {
  double x[9] = {0.3, -0.7, 0.5, 1.1, 0.2, -0.4, 0.8, 0.6, -0.9};
  checkAgainstDifferences<vectorAlgebra>("vector algebra", x);
  checkAgainstDifferences<poseResidual>("pose residual", x);
  checkAgainstDifferences<rotationResidual>("rotation residual", x);
  checkAgainstDifferences<rigidBodyEnergy>("rigid body", x);
  checkAgainstDifferences<blocks>("blocks", x);
  checkParameters();
  checkFunctor();
  return check::report();
}
