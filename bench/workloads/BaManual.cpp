//===- BaManual.cpp - Hand-written bundle adjustment Jacobian -------------===//
//
// Per observation, one forward evaluation keeps the intermediates; each of
// the two residual rows is then propagated back by hand through the
// weighting, the distortion, the perspective division, the Rodrigues
// rotation and the translation.
//
//===----------------------------------------------------------------------===//

#include "Ba.h"

#include <cmath>

namespace bench::ba {
namespace {

struct Rotation {
  double rot[3], x[3];
  bool small;
  double angle, cosine, sine, axis[3], axisCrossX[3], dot;
};

void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

void rotateForward(Rotation &r, double *out) {
  const double squaredAngle =
      r.rot[0] * r.rot[0] + r.rot[1] * r.rot[1] + r.rot[2] * r.rot[2];
  r.small = squaredAngle == 0;
  if (r.small) {
    double rotCrossX[3];
    cross(r.rot, r.x, rotCrossX);
    for (int i = 0; i < 3; ++i)
      out[i] = r.x[i] + rotCrossX[i];
    return;
  }
  r.angle = std::sqrt(squaredAngle);
  r.cosine = std::cos(r.angle);
  r.sine = std::sin(r.angle);
  for (int i = 0; i < 3; ++i)
    r.axis[i] = r.rot[i] / r.angle;
  cross(r.axis, r.x, r.axisCrossX);
  r.dot = r.axis[0] * r.x[0] + r.axis[1] * r.x[1] + r.axis[2] * r.x[2];
  for (int i = 0; i < 3; ++i)
    out[i] = r.x[i] * r.cosine + r.axisCrossX[i] * r.sine +
             r.axis[i] * r.dot * (1 - r.cosine);
}

/// Given g = d/d out, sets dRot and dX.
void rotateBackward(const Rotation &r, const double *g, double *dRot,
                    double *dX) {
  double gCross[3];
  if (r.small) {
    // out = x + rot x x: d rot = x x g, d x = g + g x rot.
    cross(r.x, g, dRot);
    cross(g, r.rot, gCross);
    for (int i = 0; i < 3; ++i)
      dX[i] = g[i] + gCross[i];
    return;
  }
  const double along = r.dot * (1 - r.cosine);
  double dAxis[3];
  double dCosine = 0, dSine = 0, dAlong = 0;
  for (int i = 0; i < 3; ++i) {
    dX[i] = g[i] * r.cosine;
    dCosine += g[i] * r.x[i];
    dSine += g[i] * r.axisCrossX[i];
    dAxis[i] = g[i] * along;
    dAlong += g[i] * r.axis[i];
  }
  const double dDot = dAlong * (1 - r.cosine);
  dCosine -= dAlong * r.dot;
  // axisCrossX = axis x x with adjoint g * sine.
  double gs[3] = {g[0] * r.sine, g[1] * r.sine, g[2] * r.sine};
  double xCrossGs[3], gsCrossAxis[3];
  cross(r.x, gs, xCrossGs);
  cross(gs, r.axis, gsCrossAxis);
  for (int i = 0; i < 3; ++i) {
    dAxis[i] += dDot * r.x[i] + xCrossGs[i];
    dX[i] += dDot * r.axis[i] + gsCrossAxis[i];
  }
  // axis = rot / angle.
  double dAngle = -r.sine * dCosine + r.cosine * dSine;
  double axisDotDAxis = 0;
  for (int i = 0; i < 3; ++i)
    axisDotDAxis += r.axis[i] * dAxis[i];
  dAngle -= axisDotDAxis / r.angle;
  // angle = |rot|.
  for (int i = 0; i < 3; ++i)
    dRot[i] = dAxis[i] / r.angle + dAngle * r.axis[i];
}

} // namespace

void jacobianManual(const Input &in, double *jacobian) {
  for (int o = 0; o < in.p; ++o) {
    const double *camera =
        &in.cameras[size_t(in.observations[2 * o]) * kCameraSize];
    const double *point = &in.points[size_t(in.observations[2 * o + 1]) * 3];
    const double weight = in.weights[o];
    const double *feature = &in.features[2 * size_t(o)];

    Rotation r;
    for (int i = 0; i < 3; ++i) {
      r.rot[i] = camera[i];
      r.x[i] = point[i] - camera[3 + i];
    }
    double inCamera[3];
    rotateForward(r, inCamera);
    const double uv[2] = {inCamera[0] / inCamera[2], inCamera[1] / inCamera[2]};
    const double radius2 = uv[0] * uv[0] + uv[1] * uv[1];
    const double distortion =
        1 + camera[9] * radius2 + camera[10] * radius2 * radius2;
    const double focal = camera[6];

    for (int row = 0; row < 2; ++row) {
      double *out = jacobian + (2 * size_t(o) + row) * kBlockColumns;
      for (int j = 0; j < kBlockColumns; ++j)
        out[j] = 0;
      // error[row] = weight * (uv[row] * distortion * focal + x0[row] - f).
      const double projected = uv[row] * distortion * focal + camera[7 + row];
      out[kCameraSize + 3] = projected - feature[row];
      out[7 + row] = weight;
      out[6] = weight * uv[row] * distortion;
      double dUv[2] = {0, 0};
      dUv[row] = weight * focal * distortion;
      const double dDistortion = weight * focal * uv[row];
      out[9] = dDistortion * radius2;
      out[10] = dDistortion * radius2 * radius2;
      const double dRadius2 =
          dDistortion * (camera[9] + 2 * camera[10] * radius2);
      dUv[0] += 2 * uv[0] * dRadius2;
      dUv[1] += 2 * uv[1] * dRadius2;
      const double dInCamera[3] = {dUv[0] / inCamera[2], dUv[1] / inCamera[2],
                                   -(dUv[0] * uv[0] + dUv[1] * uv[1]) /
                                       inCamera[2]};
      double dRot[3], dRelative[3];
      rotateBackward(r, dInCamera, dRot, dRelative);
      for (int i = 0; i < 3; ++i) {
        out[i] = dRot[i];
        out[3 + i] = -dRelative[i];
        out[kCameraSize + i] = dRelative[i];
      }
    }
  }
  double *weights = jacobian + size_t(in.p) * 2 * kBlockColumns;
  for (int o = 0; o < in.p; ++o)
    weights[o] = -2 * in.weights[o];
}

} // namespace bench::ba
