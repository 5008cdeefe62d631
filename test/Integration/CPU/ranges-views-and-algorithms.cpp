// C++20 ranges from the library's own code: range-for over views
// (views::reverse, views::iota, views::transform, views::drop and
// views::take stacked, std::span::subspan) and the ranges algorithms
// (ranges::sort, whose comparison is a generic lambda the library makes and
// returns; ranges::max_element). They need iterators kept in objects, a
// pointer moved to another view of its array (ranges::next assigns the
// end), and lambdas returned from functions. Reverse and forward mode and
// Hessian-vector products against central differences, at -O0 and -O2,
// with libstdc++ and libc++ (whose views::transform keeps the lambda in a
// std::tuple, a closure kept in memory; whose ranges::sort of doubles calls
// the sort compiled into the library; and whose ranges::max_element calls
// its comparison through __builtin_invoke of a forwarded pack: none of
// these is lowered yet).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>
#include <ranges>
#include <span>
#include <vector>

#include "Inputs/check-modes.h"

[[ct::differentiable]] double reversedWeights(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double s = 0, w = 1;
  for (double e : v | std::views::reverse) {
    s += w * e * e;
    w += 0.5;
  }
  return s;
}

[[ct::differentiable]] double overIota(const double *x, int n) {
  double s = 0;
  for (int i : std::views::iota(0, n))
    s += std::sin(x[i]) * (i + 1);
  return s;
}

#ifndef _LIBCPP_VERSION
[[ct::differentiable]] double transformed(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double s = 0;
  for (double e : v | std::views::transform([](double t) { return t * t; }))
    s += std::exp(0.1 * e);
  return s;
}
#endif

[[ct::differentiable]] double droppedAndTaken(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double s = 0;
  for (double e : v | std::views::drop(1) | std::views::take(2))
    s += e * e * e;
  return s;
}

[[ct::differentiable]] double subspans(const double *x, int n) {
  std::span<const double> all(x, n);
  double s = 0;
  for (double e : all.subspan(1))
    s += e * std::cos(e);
  return s;
}

#ifndef _LIBCPP_VERSION
[[ct::differentiable]] double rangesAlgorithms(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::ranges::sort(v);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * v[i];
  return s + *std::ranges::max_element(v) * x[0];
}
#endif

int main() {
  double x[5] = {0.3, -1.2, 0.7, 2.1, -0.4};
  double v[5] = {0.5, -0.25, 1.0, 0.75, -1.5};
  check::gradientAndTangents<reversedWeights>("reversedWeights", x, 5);
  check::gradientAndTangents<overIota>("overIota", x, 5);
#ifndef _LIBCPP_VERSION
  check::gradientAndTangents<transformed>("transformed", x, 5);
  check::hessianVectorProduct<transformed>("transformed", x, v, 5);
#endif
  check::gradientAndTangents<droppedAndTaken>("droppedAndTaken", x, 5);
  check::gradientAndTangents<subspans>("subspans", x, 5);
  check::hessianVectorProduct<droppedAndTaken>("droppedAndTaken", x, v, 5);
#ifndef _LIBCPP_VERSION
  check::gradientAndTangents<rangesAlgorithms>("rangesAlgorithms", x, 5);
  check::hessianVectorProduct<rangesAlgorithms>("rangesAlgorithms", x, v, 5);
#endif
  return check::report();
}
