//===- Neighbours.cpp - Neighbour-list energy, differentiated -------------===//
//
// Written as a molecular-dynamics code writes it: the list of close pairs
// is built with push_back as they are found, then the energy is summed
// over it. `energyReserved` is the same with room for every pair made
// where the lists are declared (vectors of n(n-1)/2 elements, filled by
// index and a count of pairs), which keeps them on the memref model: the
// two measure what the general model costs. (A `reserve` would not: C++
// grows a vector past what it reserved, so a vector pushed to takes the
// general model, reserved or not.)
//
//===----------------------------------------------------------------------===//

#include "Neighbours.h"

#include "Random.h"

#include <cotangent/cotangent.h>

#include <cmath>

namespace bench::neighbours {
namespace {

[[ct::differentiable]] double energy(const double *x, int n) {
  std::vector<int> first, second;
  std::vector<double> distances2;
  const double cutoff2 = kCutoff * kCutoff;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
             dz = x[3 * i + 2] - x[3 * j + 2];
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < cutoff2) {
        first.push_back(i);
        second.push_back(j);
        distances2.push_back(r2);
      }
    }
  double total = 0;
  for (size_t k = 0; k < distances2.size(); ++k)
    total += pairEnergy(distances2[k]);
  return total;
}

[[ct::differentiable]] double energyReserved(const double *x, int n) {
  const int room = n * (n - 1) / 2;
  std::vector<int> first(room), second(room);
  std::vector<double> distances2(room);
  int pairs = 0;
  const double cutoff2 = kCutoff * kCutoff;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
             dz = x[3 * i + 2] - x[3 * j + 2];
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < cutoff2) {
        first[pairs] = i;
        second[pairs] = j;
        distances2[pairs] = r2;
        ++pairs;
      }
    }
  double total = 0;
  for (int k = 0; k < pairs; ++k)
    total += pairEnergy(distances2[k]);
  return total;
}

} // namespace

Input generate(int n, int neighbours, uint64_t seed) {
  Random random(seed);
  Input in;
  in.n = n;
  // n particles in a cube of side L have about n (4/3 pi rc^3) / L^3
  // partners each.
  double volume = n * 4.18879 * kCutoff * kCutoff * kCutoff / neighbours;
  double side = std::cbrt(volume);
  in.positions = random.uniformVector(3 * n, 0.0, side);
  return in;
}

double objectiveAt(const Input &in, const double *positions) {
  return energy(positions, in.n);
}

double objective(const Input &in) {
  return objectiveAt(in, in.positions.data());
}

double gradient(const Input &in, double *grad) {
  for (size_t i = 0; i < in.positions.size(); ++i)
    grad[i] = 0;
  return ct::gradient<energy>(in.positions.data(), in.n, grad);
}

double gradientReserved(const Input &in, double *grad) {
  for (size_t i = 0; i < in.positions.size(); ++i)
    grad[i] = 0;
  return ct::gradient<energyReserved>(in.positions.data(), in.n, grad);
}

} // namespace bench::neighbours
