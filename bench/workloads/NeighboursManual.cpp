//===- NeighboursManual.cpp - Hand-written neighbour-list gradient --------===//
//
// One pass over the pairs: each close pair adds its energy and, by the
// chain rule through r^2 = |x_i - x_j|^2, 2 phi'(r^2) (x_i - x_j) to
// particle i's gradient and the opposite to particle j's.
//
//===----------------------------------------------------------------------===//

#include "Neighbours.h"

namespace bench::neighbours {

double gradientManual(const Input &in, double *grad) {
  const double *x = in.positions.data();
  const int n = in.n;
  for (int i = 0; i < 3 * n; ++i)
    grad[i] = 0;
  double total = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double d[3] = {x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1],
                     x[3 * i + 2] - x[3 * j + 2]};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (r2 >= kCutoff * kCutoff)
        continue;
      total += pairEnergy(r2);
      double slope = 2 * pairEnergySlope(r2);
      for (int c = 0; c < 3; ++c) {
        grad[3 * i + c] += slope * d[c];
        grad[3 * j + c] -= slope * d[c];
      }
    }
  return total;
}

} // namespace bench::neighbours
