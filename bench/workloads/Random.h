//===- Random.h - Deterministic inputs for the benchmark workloads --------===//
//
// SplitMix64: the same seed gives the same inputs on every machine, so the
// benchmarks need no data files.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_RANDOM_H
#define COTANGENT_BENCH_RANDOM_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {

class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}

  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * double(next() >> 11) * 0x1.0p-53;
  }

  std::vector<double> uniformVector(size_t size, double lo, double hi) {
    std::vector<double> values(size);
    for (double &value : values)
      value = uniform(lo, hi);
    return values;
  }

private:
  uint64_t state;
};

} // namespace bench

#endif // COTANGENT_BENCH_RANDOM_H
