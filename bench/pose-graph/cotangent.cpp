//===- cotangent.cpp - The pose-graph edge's Jacobian by Cotangent --------===//
//
// Compiled with the plugin. The functor's operator()<double> as written,
// differentiated two ways: one reverse sweep with six lanes (one per
// residual, seeded with the unit vectors) and one forward sweep with
// fourteen lanes (one per parameter). Lanes are interleaved (element j,
// lane k at j * lanes + k), so the forward sweep's residual tangents are
// the Jacobian row by row and the reverse sweep's adjoints its transpose.
//
//===----------------------------------------------------------------------===//

#include "PoseGraphError.h"

#include <cotangent/cotangent.h>

namespace bench::posegraph {

namespace {
constexpr int kRows = PoseGraphError::kResiduals;
constexpr int kColumns = PoseGraphError::kParameters;

/// The identity, in lanes of `size` (element j, lane k at j * size + k).
template <int size> struct UnitSeeds {
  double values[size * size] = {};
  constexpr UnitSeeds() {
    for (int i = 0; i < size; ++i)
      values[i * size + i] = 1;
  }
};
constexpr UnitSeeds<kRows> kResidualSeeds;
constexpr UnitSeeds<kColumns> kParameterSeeds;
constexpr const int *kOffsets = PoseGraphError::kBlockOffsets;

/// Copies the Jacobian, element (row, column) at row * rowStride + column *
/// columnStride of `jacobian`, into Ceres's row-major blocks.
void copyIntoBlocks(const double *jacobian, int rowStride, int columnStride,
                    EdgeJacobian &out) {
  for (int b = 0; b < 4; ++b) {
    int size = PoseGraphError::kBlockSizes[b];
    for (int row = 0; row < kRows; ++row)
      for (int j = 0; j < size; ++j)
        out.blocks[b][row * size + j] =
            jacobian[row * rowStride + (kOffsets[b] + j) * columnStride];
  }
}
} // namespace

bool evaluatePrimal(const PoseGraphError &error, const Edge &edge,
                    double *residuals) {
  return error(edge.block(0), edge.block(1), edge.block(2), edge.block(3),
               residuals);
}

void jacobianByPullback(const PoseGraphError &error, const Edge &edge,
                        EdgeJacobian &out) {
  double adjoints[kColumns * kRows] = {};
  // (The sweep consumes the residuals' adjoints: a copy of the seeds.)
  double seeds[kRows * kRows];
  for (int i = 0; i < kRows * kRows; ++i)
    seeds[i] = kResidualSeeds.values[i];
  ct::pullback<&PoseGraphError::operator()<double>, ct::lanes<kRows>>(
      error, edge.block(0), edge.block(1), edge.block(2), edge.block(3),
      out.residuals, adjoints, adjoints + kRows * kOffsets[1],
      adjoints + kRows * kOffsets[2], adjoints + kRows * kOffsets[3], seeds);
  copyIntoBlocks(adjoints, 1, kRows, out);
}

void jacobianByJvp(const PoseGraphError &error, const Edge &edge,
                   EdgeJacobian &out) {
  double tangents[kRows * kColumns];
  const double *seeds = kParameterSeeds.values;
  ct::jvp<&PoseGraphError::operator()<double>, ct::lanes<kColumns>>(
      error, edge.block(0), edge.block(1), edge.block(2), edge.block(3),
      out.residuals, seeds, seeds + kColumns * kOffsets[1],
      seeds + kColumns * kOffsets[2], seeds + kColumns * kOffsets[3], tangents);
  copyIntoBlocks(tangents, kColumns, 1, out);
}

} // namespace bench::posegraph
