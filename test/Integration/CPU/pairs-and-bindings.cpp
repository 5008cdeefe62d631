// std::pair and std::tuple of floating values (as function results and
// locals, std::get, std::make_pair) and structured bindings of pairs,
// tuples, structs and arrays, by value and by reference; std::tuples
// mixing integers with floating values (their integers packed in the
// floating slots, as C++ lays them out: std::get, std::make_tuple, a
// helper's result, a growing vector of them, bindings in a range-for);
// vectors of pairs and tuples built by emplace_back(args...).
// Reverse and forward mode, and Hessian-vector products, at -O0 and -O2
// against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <tuple>
#include <utility>
#include <vector>

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

static std::tuple<int, double> largest(const double *x, int n) {
  int at = 0;
  for (int i = 1; i < n; ++i)
    if (x[i] > x[at])
      at = i;
  return {at, x[at]};
}

// 3 x0 x1 + 7 (an int element) + the index of the largest and its square
// + sum (k + 1) x_k^2 through a vector of (index, square) tuples + n x2 / 2.
[[ct::differentiable]] double mixedTuples(const double *x, int n) {
  std::tuple<int, double, int> t{2, x[0] * x[1], 7};
  std::get<0>(t) += 1;
  std::get<1>(t) *= std::get<0>(t);
  auto [i, v] = largest(x, n);
  std::vector<std::tuple<int, double>> terms;
  for (int k = 0; k < n; ++k)
    terms.push_back(std::make_tuple(k, x[k] * x[k]));
  double s = 0;
  for (const auto &[k, square] : terms)
    s += (k + 1) * square;
  auto m = std::make_tuple(n, 0.5 * x[2]);
  return std::get<1>(t) + std::get<2>(t) + i + v * v + s +
         std::get<1>(m) * std::get<0>(m);
}

// Vectors of pairs and tuples built by emplace_back(args...) (the
// library's constructor template for the forwarded arguments):
// sum k x_k^2 + sum (k + 1) x_k.
[[ct::differentiable]] double emplaced(const double *x, int n) {
  std::vector<std::pair<int, double>> squares;
  std::vector<std::tuple<int, double>> values;
  for (int k = 0; k < n; ++k) {
    squares.emplace_back(k, x[k] * x[k]);
    values.emplace_back(k + 1, x[k]);
  }
  double s = 0;
  for (const auto &[k, y] : squares)
    s += k * y;
  for (const auto &[k, y] : values)
    s += k * y;
  return s;
}

static void checkEmplaced() {
  const int n = 3;
  double x[n] = {0.5, -1.5, 2.0}, g[n] = {};
  double value = ct::gradient<emplaced>(x, n, g);
  double expected = 0;
  for (int k = 0; k < n; ++k)
    expected += k * x[k] * x[k] + (k + 1) * x[k];
  check::near("emplaced value", value, expected, 1e-14);
  for (int k = 0; k < n; ++k)
    check::near("emplaced gradient", g[k], 2 * k * x[k] + (k + 1), 1e-14);
}

static void checkMixedTuples() {
  const int n = 3;
  double x[n] = {0.5, -1.5, 2.0}, g[n] = {};
  // x2 is the largest: 3 x0 x1 + 7 + 2 + x2^2 + x0^2 + 2 x1^2 + 3 x2^2
  // + 1.5 x2.
  double value = ct::gradient<mixedTuples>(x, n, g);
  check::near("tuples value", value,
              3 * x[0] * x[1] + 9 + 4 * x[2] * x[2] + x[0] * x[0] +
                  2 * x[1] * x[1] + 1.5 * x[2],
              1e-14);
  check::near("tuples d0", g[0], 3 * x[1] + 2 * x[0], 1e-14);
  check::near("tuples d1", g[1], 3 * x[0] + 4 * x[1], 1e-14);
  check::near("tuples d2", g[2], 8 * x[2] + 1.5, 1e-14);
  double t[n] = {0, 1, 0};
  check::near("tuples jvp", ct::jvp<mixedTuples>(x, n, t).tangent, g[1],
              1e-14);
  // The Hessian's second column: (3, 4, 0).
  double hv[n] = {};
  ct::hvp<mixedTuples>(x, n, t, hv);
  check::near("tuples hvp 0", hv[0], 3, 1e-12);
  check::near("tuples hvp 1", hv[1], 4, 1e-12);
  check::near("tuples hvp 2", hv[2], 0, 1e-12);
}

int main() {
  checkMixedTuples();
  checkEmplaced();
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
