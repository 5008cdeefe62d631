// Fixed-size Eigen with its SIMD packets on (the default flags: SSE2 on
// x86-64): a quaternion rotation, its rotation matrix, a cross product and
// norms, whose packet code (loads and stores through pointers to packets,
// arithmetic on `__m128d`, reductions by shuffles, a negation by flipping
// sign bits) is lowered lane by lane. Storage Eigen aligns to 16 bytes is
// aligned so in the derivative too (its alignment checks). Every mode at
// -O0 and -O2 against central differences. (Array functions of packets:
// eigen-packet-math.cpp.) (Eigen's sign flips are recognized once the lanes
// are promoted out of memory and its helpers inlined, which the plain
// derivative strategy does not do: there they are refused.)
// REQUIRES: plugin, eigen, ad-optimizations
// RUN: %clangxx-ct -O0 %eigen %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %eigen %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <cotangent/cotangent.h>

#include "check.h"
#include "modes.h"

double rotated(const double *x, int n) {
  Eigen::Quaterniond q(x[0], x[1], x[2], x[n - 1]);
  q.normalize();
  Eigen::Vector3d p(x[1], 2.0 * x[2], 3.0);
  Eigen::Vector3d r = q * p + Eigen::Vector3d(1, 2, 3);
  Eigen::Matrix3d R = q.toRotationMatrix();
  return r.squaredNorm() + (R * p).cross(p).norm() - (-r).dot(p);
}

int main() {
  const double point[4] = {0.9, 0.1, 0.2, 0.3};
  check::checkModes<rotated>("rotated", point, 4);
  return check::report();
}
