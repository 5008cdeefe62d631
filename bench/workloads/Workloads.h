//===- Workloads.h - The benchmark workloads behind one interface ---------===//
//
// Each workload is an input plus closures over it: the primal, Cotangent's
// derivative, the hand-written one, and central finite differences, all
// writing the same derivative layout. The test suite runs them at small
// sizes (Scale::Test), the benchmarks at the published ones (Scale::Full).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_WORKLOADS_H
#define COTANGENT_BENCH_WORKLOADS_H

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace bench {

enum class Scale { Test, Full };

struct Workload {
  std::string name;
  /// Entries of the derivative (a gradient, or BA's Jacobian entries).
  size_t derivativeSize = 0;
  std::function<void()> primal;
  std::function<void(double *)> derivative, manual;
  /// Finite differences come in units (a coordinate, or one BA
  /// observation); each writes the entries it determines.
  size_t differenceUnits = 0;
  std::function<void(size_t unit, double *)> difference;
  /// Hessian-vector product with a fixed direction, where offered.
  std::function<void(double *)> hessianVector;
  /// The finite-difference check of hessianVector: the directional
  /// difference of the hand-written gradient.
  std::function<void(double *)> hessianVectorDifference;
  /// Further timed derivatives of the same input (vector mode, dense
  /// Hessians), each named after its kind.
  std::vector<std::pair<std::string, std::function<void()>>> variants;
};

std::vector<Workload> makeWorkloads(Scale scale);

/// max_i |actual_i - expected_i| / max(|expected_i|, floor max_j |expected_j|):
/// relative, except that entries far below the largest are compared at the
/// floor's scale (finite differences cannot resolve them better). Infinite
/// when either side holds a NaN or an infinity, or the sizes differ.
double maxRelativeError(const std::vector<double> &actual,
                        const std::vector<double> &expected,
                        double floor = 1e-6);

} // namespace bench

#endif // COTANGENT_BENCH_WORKLOADS_H
