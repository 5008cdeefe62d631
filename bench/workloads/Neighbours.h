//===- Neighbours.h - Pair energy over a neighbour list -------------------===//
//
// n particles in a periodic-free 3-D box; the pairs closer than a cutoff
// are collected into a neighbour list inside the differentiated function
// (std::vector push_back with no reserve: the general memory model's
// growing vectors, docs/Memory.md), then a smooth pair energy
// (rc^2 - r^2)^3 / (r^2 + a) is summed over the list. The gradient with
// respect to the positions is the negated force.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_NEIGHBOURS_H
#define COTANGENT_BENCH_NEIGHBOURS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::neighbours {

constexpr double kCutoff = 1.0;
constexpr double kSoftening = 0.1;

struct Input {
  int n = 0;
  std::vector<double> positions; // x, y, z of each particle
  size_t parameterCount() const { return positions.size(); }
};

/// Particles uniform in a cube sized for about `neighbours` partners each.
Input generate(int n, int neighbours, uint64_t seed);

/// The pair energy of squared distance r2 < kCutoff^2 (shared by every
/// formulation) and its derivative in r2.
inline double pairEnergy(double r2) {
  double gap = kCutoff * kCutoff - r2;
  return gap * gap * gap / (r2 + kSoftening);
}
inline double pairEnergySlope(double r2) {
  double gap = kCutoff * kCutoff - r2, soft = r2 + kSoftening;
  return (-3 * gap * gap * soft - gap * gap * gap) / (soft * soft);
}

double objective(const Input &in);
double objectiveAt(const Input &in, const double *positions);
/// The list grown by push_back (the general memory model).
double gradient(const Input &in, double *grad);
/// The same with the list's capacity reserved first (the memref model).
double gradientReserved(const Input &in, double *grad);
double gradientManual(const Input &in, double *grad);

} // namespace bench::neighbours

#endif // COTANGENT_BENCH_NEIGHBOURS_H
