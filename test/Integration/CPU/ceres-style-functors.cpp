// Cost functors written the way Ceres Solver's examples write them (for
// this test, from the public formulas): a templated operator() returning
// bool, data held in the functor, rotations in the style of
// ceres/rotation.h (angle-axis with a small-angle branch, dot and cross
// products on arrays, DCHECKs as asserts), an empty functor. Each
// compiles unchanged; its Jacobian, row by row with ct::pullback of
// &Functor::operator()<double>, matches a dual-number evaluation of the
// same template to 1e-12.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cassert>
#include <cmath>
#include <limits>

#include "check.h"
#include "dual.h"

template <typename T> inline T DotProduct(const T x[3], const T y[3]) {
  return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}

template <typename T>
inline void CrossProduct(const T x[3], const T y[3], T result[3]) {
  result[0] = x[1] * y[2] - x[2] * y[1];
  result[1] = x[2] * y[0] - x[0] * y[2];
  result[2] = x[0] * y[1] - x[1] * y[0];
}

// Rotates pt by the angle-axis vector; near zero, the first-order form.
template <typename T>
inline void AngleAxisRotatePoint(const T angle_axis[3], const T pt[3],
                                 T result[3]) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  assert(pt != result && "in-place rotation is not supported");
  const T theta2 = DotProduct(angle_axis, angle_axis);
  if (theta2 > T(std::numeric_limits<double>::epsilon())) {
    const T theta = sqrt(theta2);
    const T costheta = cos(theta);
    const T sintheta = sin(theta);
    const T theta_inverse = T(1.0) / theta;
    const T w[3] = {angle_axis[0] * theta_inverse,
                    angle_axis[1] * theta_inverse,
                    angle_axis[2] * theta_inverse};
    T w_cross_pt[3];
    CrossProduct(w, pt, w_cross_pt);
    const T tmp = DotProduct(w, pt) * (T(1.0) - costheta);
    result[0] = pt[0] * costheta + w_cross_pt[0] * sintheta + w[0] * tmp;
    result[1] = pt[1] * costheta + w_cross_pt[1] * sintheta + w[1] * tmp;
    result[2] = pt[2] * costheta + w_cross_pt[2] * sintheta + w[2] * tmp;
  } else {
    T w_cross_pt[3];
    CrossProduct(angle_axis, pt, w_cross_pt);
    result[0] = pt[0] + w_cross_pt[0];
    result[1] = pt[1] + w_cross_pt[1];
    result[2] = pt[2] + w_cross_pt[2];
  }
}

// The bundle-adjustment residual of Ceres's simple_bundle_adjuster: a
// camera of 9 parameters (rotation, translation, focal, two distortion
// terms) and a 3-D point against an observation the functor holds.
struct SnavelyReprojectionError {
  SnavelyReprojectionError(double observed_x, double observed_y)
      : observed_x(observed_x), observed_y(observed_y) {}

  template <typename T>
  bool operator()(const T *const camera, const T *const point,
                  T *residuals) const {
    T p[3];
    AngleAxisRotatePoint(camera, point, p);
    p[0] = p[0] + camera[3];
    p[1] = p[1] + camera[4];
    p[2] = p[2] + camera[5];
    const T xp = -p[0] / p[2];
    const T yp = -p[1] / p[2];
    const T &l1 = camera[7];
    const T &l2 = camera[8];
    const T r2 = xp * xp + yp * yp;
    const T distortion = T(1.0) + r2 * (l1 + l2 * r2);
    const T &focal = camera[6];
    residuals[0] = focal * distortion * xp - T(observed_x);
    residuals[1] = focal * distortion * yp - T(observed_y);
    return true;
  }

  double observed_x;
  double observed_y;
};

// An empty functor: Rosenbrock's residuals.
struct Rosenbrock {
  template <typename T> bool operator()(const T *x, T *residuals) const {
    residuals[0] = T(10.0) * (x[1] - x[0] * x[0]);
    residuals[1] = T(1.0) - x[0];
    return true;
  }
};

static void testSnavely(const double camera[9], const double point[3]) {
  SnavelyReprojectionError cost(0.3, -0.2);
  for (int row = 0; row < 2; ++row) {
    double dcamera[9] = {}, dpoint[3] = {}, residuals[2] = {};
    double seed[2] = {row == 0 ? 1.0 : 0.0, row == 1 ? 1.0 : 0.0};
    bool ok = ct::pullback<&SnavelyReprojectionError::operator()<double>>(
        cost, camera, point, residuals, dcamera, dpoint, seed);
    check::near("snavely ok", ok, 1, 0);
    for (int k = 0; k < 12; ++k) {
      Dual c[9], p[3], r[2];
      for (int i = 0; i < 9; ++i)
        c[i] = Dual(camera[i], k == i ? 1 : 0);
      for (int i = 0; i < 3; ++i)
        p[i] = Dual(point[i], k == 9 + i ? 1 : 0);
      cost(c, p, r);
      check::near("snavely residual", residuals[row], r[row].v, 1e-12);
      check::near("snavely jacobian", k < 9 ? dcamera[k] : dpoint[k - 9],
                  r[row].d, 1e-12);
    }
  }
}

int main() {
  const double camera[9] = {0.1, -0.2, 0.3, 0.5, -0.3, -4.0, 800.0, -1e-7, 2e-13};
  const double point[3] = {0.4, 0.25, 1.5};
  testSnavely(camera, point);
  // The small-angle branch.
  const double still[9] = {1e-9, 0.0, -1e-9, 0.5, -0.3, -4.0, 800.0, -1e-7, 2e-13};
  testSnavely(still, point);

  Rosenbrock rosenbrock;
  double x[2] = {-1.2, 1.0}, residuals[2];
  for (int row = 0; row < 2; ++row) {
    double dx[2] = {}, seed[2] = {row == 0 ? 1.0 : 0.0, row == 1 ? 1.0 : 0.0};
    ct::pullback<&Rosenbrock::operator()<double>>(rosenbrock, x, residuals, dx,
                                                   seed);
    double expected[2][2] = {{-20 * x[0], 10}, {-1, 0}};
    check::near("rosenbrock jacobian", dx[0], expected[row][0], 1e-15);
    check::near("rosenbrock jacobian", dx[1], expected[row][1], 1e-15);
  }
  return check::report();
}
