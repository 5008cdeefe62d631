//===- Ba.h - Bundle adjustment residuals and Jacobian (ADBench "ba") -----===//
//
// n cameras of 11 parameters (Rodrigues rotation[3], center[3], focal
// length, principal point[2], radial distortion[2]), m points[3], and p
// observations (camera, point, feature[2], weight). Residuals: per
// observation w * (project(camera, point) - feature) (2 values), and
// 1 - w^2 per weight. The derivative is the sparse Jacobian: per
// observation a 2 x 15 block (camera, point, weight), per weight -2w.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_BA_H
#define COTANGENT_BENCH_BA_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::ba {

constexpr int kCameraSize = 11;
/// Columns of an observation's Jacobian block: camera, point, weight.
constexpr int kBlockColumns = kCameraSize + 3 + 1;

struct Input {
  int n = 0, m = 0, p = 0;
  std::vector<double> cameras, points, weights, features;
  std::vector<int> observations; // camera, point per observation
  /// The Jacobian's stored entries: p blocks of 2 x 15, then p weights.
  size_t jacobianSize() const { return size_t(p) * 2 * kBlockColumns + p; }
  size_t residualCount() const { return size_t(p) * 3; }
};

Input generate(int n, int m, int p, uint64_t seed);

/// All residuals into residuals[residualCount()].
void residuals(const Input &in, double *residuals);
/// One observation's reprojection error with the camera, point and weight
/// taken from block[15], for finite differences.
void reprojectionAt(const Input &in, int observation, const double *block,
                    double *error);
/// Cotangent's Jacobian: both rows of a block by one two-lane reverse
/// sweep (vector mode).
void jacobian(const Input &in, double *jacobian);
/// Per observation, four pullbacks of its two residuals with the seeds
/// seeds[2 * l + r] (lane l, residual r), their block rows interleaved
/// into out[4 * p * 15] (column j, lane l at 4j + l): in one four-lane
/// sweep, or one by one.
void pullbacks(const Input &in, const double *seeds, double *out,
               bool vectorMode);
/// The hand-written Jacobian.
void jacobianManual(const Input &in, double *jacobian);

} // namespace bench::ba

#endif // COTANGENT_BENCH_BA_H
