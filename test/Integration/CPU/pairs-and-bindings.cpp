// std::pair and std::tuple of floating values (as function results and
// locals, std::get, std::make_pair) and structured bindings of pairs,
// tuples, structs and arrays, by value and by reference. Reverse and
// forward mode at -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <tuple>
#include <utility>

#include "check.h"

struct Interval {
  double low, high;
};

static std::pair<double, double> sumAndProduct(double x, double y) {
  return std::make_pair(x + y, x * y);
}

// (x + y) * xy + (y + x)(yx) via a binding + x y via a tuple
// + (low * high) of a struct binding + a[0] + 2 a[1] through references.
[[ct::differentiable]] double bindings(double x, double y) {
  std::pair<double, double> p = sumAndProduct(x, y);
  auto [s, q] = sumAndProduct(y, x);
  std::tuple<double, double> t{x, y};
  Interval interval{x, 2 * y};
  auto [low, high] = interval;
  double a[2] = {x, y};
  auto &[first, second] = a;
  second *= 2; // writes a[1]
  return p.first * p.second + s * q + std::get<0>(t) * std::get<1>(t) +
         low * high + a[0] + a[1] + first;
}

int main() {
  // f = 2 (x + y) x y + x y + 2 x y + 2 x + 2 y.
  double x = 0.5, y = 1.5, dx = 0, dy = 0;
  double v = ct::gradient<bindings>(x, y, &dx, &dy);
  check::near("bindings value",
              v, 2 * (x + y) * x * y + 3 * x * y + 2 * x + 2 * y, 1e-15);
  check::near("bindings d/dx", dx, 2 * (2 * x * y + y * y) + 3 * y + 2,
              1e-14);
  check::near("bindings d/dy", dy, 2 * (x * x + 2 * x * y) + 3 * x + 2,
              1e-14);
  check::near("bindings jvp", ct::jvp<bindings>(x, y, 1.0, 0.0).tangent, dx,
              1e-14);
  return check::report();
}
