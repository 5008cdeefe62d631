//===- Ba.cpp - Bundle adjustment residuals and their Cotangent Jacobian --===//
//
// Compiled with the Cotangent plugin.
//
//===----------------------------------------------------------------------===//

#include "Ba.h"
#include "Random.h"

#include <cotangent/cotangent.h>

#include <cmath>

namespace bench::ba {
namespace {

void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/// Rotates x by the Rodrigues vector rot.
void rotate(const double *rot, const double *x, double *out) {
  const double squaredAngle =
      rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  if (squaredAngle != 0) {
    const double angle = std::sqrt(squaredAngle);
    const double cosine = std::cos(angle), sine = std::sin(angle);
    double axis[3], axisCrossX[3];
    for (int i = 0; i < 3; ++i)
      axis[i] = rot[i] / angle;
    cross(axis, x, axisCrossX);
    const double along =
        (axis[0] * x[0] + axis[1] * x[1] + axis[2] * x[2]) * (1 - cosine);
    for (int i = 0; i < 3; ++i)
      out[i] = x[i] * cosine + axisCrossX[i] * sine + axis[i] * along;
  } else {
    double rotCrossX[3];
    cross(rot, x, rotCrossX);
    for (int i = 0; i < 3; ++i)
      out[i] = x[i] + rotCrossX[i];
  }
}

[[ct::differentiable]] void
reprojectionError(const double *camera, const double *point, double weight,
                  const double *feature, double *error) {
  double relative[3], inCamera[3];
  for (int i = 0; i < 3; ++i)
    relative[i] = point[i] - camera[3 + i];
  rotate(camera, relative, inCamera);
  const double u = inCamera[0] / inCamera[2], v = inCamera[1] / inCamera[2];
  const double radius2 = u * u + v * v;
  const double distortion =
      1 + camera[9] * radius2 + camera[10] * radius2 * radius2;
  error[0] = weight * (u * distortion * camera[6] + camera[7] - feature[0]);
  error[1] = weight * (v * distortion * camera[6] + camera[8] - feature[1]);
}

[[ct::differentiable]] double weightError(double weight) {
  return 1 - weight * weight;
}

} // namespace

Input generate(int n, int m, int p, uint64_t seed) {
  Random random(seed);
  Input in;
  in.n = n, in.m = m, in.p = p;
  in.cameras.resize(size_t(n) * kCameraSize);
  for (int c = 0; c < n; ++c) {
    double *camera = &in.cameras[size_t(c) * kCameraSize];
    for (int i = 0; i < 3; ++i)
      camera[i] = random.uniform(-0.2, 0.2);
    camera[3] = random.uniform(-1, 1);
    camera[4] = random.uniform(-1, 1);
    camera[5] = random.uniform(-12, -8);
    camera[6] = random.uniform(0.8, 1.2);
    camera[7] = random.uniform(-0.1, 0.1);
    camera[8] = random.uniform(-0.1, 0.1);
    camera[9] = random.uniform(-0.05, 0.05);
    camera[10] = random.uniform(-0.01, 0.01);
  }
  in.points = random.uniformVector(size_t(m) * 3, -1, 1);
  in.weights = random.uniformVector(p, 0.5, 1.5);
  in.features = random.uniformVector(size_t(p) * 2, -0.2, 0.2);
  in.observations.resize(size_t(p) * 2);
  for (int o = 0; o < p; ++o) {
    in.observations[2 * o] = o % n;
    in.observations[2 * o + 1] = int(random.next() % uint64_t(m));
  }
  return in;
}

void residuals(const Input &in, double *residuals) {
  for (int o = 0; o < in.p; ++o)
    reprojectionError(&in.cameras[size_t(in.observations[2 * o]) * kCameraSize],
                      &in.points[size_t(in.observations[2 * o + 1]) * 3],
                      in.weights[o], &in.features[2 * size_t(o)],
                      residuals + 2 * size_t(o));
  for (int o = 0; o < in.p; ++o)
    residuals[2 * size_t(in.p) + o] = weightError(in.weights[o]);
}

void reprojectionAt(const Input &in, int observation, const double *block,
                    double *error) {
  reprojectionError(block, block + kCameraSize, block[kCameraSize + 3],
                    &in.features[2 * size_t(observation)], error);
}

void jacobian(const Input &in, double *jacobian) {
  // Both rows of an observation's block in one reverse sweep: two lanes,
  // seeded with the two unit vectors. The lanes of each derivative are
  // interleaved (element j, lane k at d[2 * j + k]).
  constexpr double seeds[2 * 2] = {1, 0, 0, 1};
  for (int o = 0; o < in.p; ++o) {
    const double *camera =
        &in.cameras[size_t(in.observations[2 * o]) * kCameraSize];
    const double *point = &in.points[size_t(in.observations[2 * o + 1]) * 3];
    double lanes[2 * kBlockColumns] = {}, error[2];
    double seed[2 * 2] = {seeds[0], seeds[1], seeds[2], seeds[3]};
    ct::pullback<reprojectionError, ct::wrt<0, 1, 2, 4>, ct::lanes<2>>(
        camera, point, in.weights[o], &in.features[2 * size_t(o)], error, lanes,
        lanes + 2 * kCameraSize, lanes + 2 * (kCameraSize + 3), seed);
    double *out = jacobian + 2 * size_t(o) * kBlockColumns;
    for (int row = 0; row < 2; ++row)
      for (int j = 0; j < kBlockColumns; ++j)
        out[row * kBlockColumns + j] = lanes[2 * j + row];
  }
  double *weights = jacobian + size_t(in.p) * 2 * kBlockColumns;
  for (int o = 0; o < in.p; ++o) {
    weights[o] = 0;
    ct::gradient<weightError>(in.weights[o], &weights[o]);
  }
}

void pullbacks(const Input &in, const double *seeds, double *out,
               bool vectorMode) {
  // Per observation, 4 seeds of its 2 residuals (seeds[2 * l + r]); the
  // 4 rows of adjoints interleaved: column j, lane l at 4j + l.
  double laneSeeds[2 * 4];
  for (int l = 0; l < 4; ++l)
    for (int r = 0; r < 2; ++r)
      laneSeeds[r * 4 + l] = seeds[2 * l + r];
  for (int o = 0; o < in.p; ++o) {
    const double *camera =
        &in.cameras[size_t(in.observations[2 * o]) * kCameraSize];
    const double *point = &in.points[size_t(in.observations[2 * o + 1]) * 3];
    double *block = out + 4 * size_t(o) * kBlockColumns, error[2];
    for (int j = 0; j < 4 * kBlockColumns; ++j)
      block[j] = 0;
    if (vectorMode) {
      double seed[2 * 4];
      for (int i = 0; i < 8; ++i)
        seed[i] = laneSeeds[i];
      ct::pullback<reprojectionError, ct::wrt<0, 1, 2, 4>, ct::lanes<4>>(
          camera, point, in.weights[o], &in.features[2 * size_t(o)], error,
          block, block + 4 * kCameraSize, block + 4 * (kCameraSize + 3), seed);
      continue;
    }
    for (int l = 0; l < 4; ++l) {
      double row[kBlockColumns] = {},
             seed[2] = {seeds[2 * l], seeds[2 * l + 1]};
      ct::pullback<reprojectionError, ct::wrt<0, 1, 2, 4>>(
          camera, point, in.weights[o], &in.features[2 * size_t(o)], error, row,
          row + kCameraSize, row + kCameraSize + 3, seed);
      for (int j = 0; j < kBlockColumns; ++j)
        block[4 * j + l] = row[j];
    }
  }
}

} // namespace bench::ba
