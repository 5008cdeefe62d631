// `v.assign(first, last)` and `v.assign({a, b, ...})` on each kind of
// std::vector the memory model has: a vector of numbers whose memory is
// replaced (the range's elements, copied into new memory), a local vector
// that also grows (a clear, then the range inserted), a vector field of a
// struct kept in memory (its old elements destroyed, the range's copied
// in), and a vector of structs holding vectors given a range of another
// one (each element a deep copy). Every mode against differences
// (check::checkModes), at -O0 and -O2 (and under AddressSanitizer in the
// sanitizer build).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "Inputs/modes.h"

namespace {
struct Layer {
  std::vector<double> w;
  double b;
};
} // namespace

// Memory replaced: the range of a pointer pair, then of another vector.
[[ct::differentiable]] double replaced(const double *x, int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = x[i];
  double r = v[0] * v[1];
  v.assign(x + 1, x + n);
  for (double e : v)
    r += e * e * e;
  std::vector<double> other{x[0] * x[2], x[3]};
  v.assign(other.begin(), other.end());
  r += v[0] / (1.0 + v[1] * v[1]);
  v.assign({x[1], std::exp(x[2])});
  return r + v[1] * static_cast<double>(v.size());
}

// A vector that also grows: assigned a range, then a list, then pushed.
[[ct::differentiable]] double grown(const double *x, int n) {
  std::vector<double> v;
  v.assign(x, x + n);
  double r = 0;
  for (double e : v)
    r += e * e;
  v.assign({x[0], 2 * x[1]});
  for (int k = 0; k < 3; ++k)
    v.push_back(x[k] * x[k + 1]);
  for (double e : v)
    r += std::cos(e);
  return r + static_cast<double>(v.size());
}

// A struct's vector field (kept in memory).
[[ct::differentiable]] double field(const double *x, int n) {
  Layer layer{{}, x[0]};
  layer.w.assign(x, x + n);
  double r = 0;
  for (double w : layer.w)
    r += w * w * layer.b;
  std::vector<double> source{x[1], x[2] * x[3]};
  layer.w.assign(source.begin(), source.end());
  for (double w : layer.w)
    r += std::sin(w);
  return r + static_cast<double>(layer.w.size());
}

// A vector of structs holding vectors, given a range of another one.
[[ct::differentiable]] double layers(const double *x, int n) {
  std::vector<Layer> all;
  for (int i = 0; i + 1 < n; ++i)
    all.push_back(Layer{{x[i], x[i + 1]}, x[i] * x[i + 1]});
  std::vector<Layer> some;
  some.push_back(Layer{{1.0}, 2.0});
  some.assign(all.begin() + 1, all.end());
  all[1].w[0] = 100.0; // the copies are the vector's own
  double r = 0;
  for (const Layer &layer : some)
    for (double w : layer.w)
      r += w * layer.b;
  return r + static_cast<double>(some.size());
}

int main() {
  const double point[4] = {0.7, -0.4, 1.3, 0.25};
  check::checkModes<replaced>("replaced", point, 4);
  check::checkModes<grown>("grown", point, 4);
  // (Vector mode does not yet follow objects holding both addresses and
  // numbers that carry derivatives.)
  check::checkModes<field, false>("field", point, 4);
  check::checkModes<layers, false>("layers", point, 4);
  return check::report();
}
