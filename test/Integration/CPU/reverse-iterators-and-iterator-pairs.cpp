// Iterators kept in objects: std::vector's reverse iterators (rbegin/rend,
// crbegin/crend: the library's reverse_iterator, a class holding the
// iterator, lowered from its own code), std::partial_sum over them, a
// user's struct holding iterators, std::make_pair of iterators that move
// between containers, and std::minmax_element's pair of iterators taken
// apart by a structured binding. Reverse and forward mode and
// Hessian-vector products against central differences, at -O0 and -O2,
// with libstdc++ and libc++ (whose minmax_element keeps a comparison object
// holding references, which is not lowered yet).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <utility>
#include <vector>

#include "check-modes.h"

// Horner's rule from the highest coefficient down, by reverse iterators.
[[ct::differentiable]] double horner(const double *x, int n) {
  std::vector<double> c(x, x + n);
  double acc = 0;
  for (auto it = c.rbegin(); it != c.rend(); ++it)
    acc = acc * 0.7 + *it;
  return acc;
}

// Suffix sums by std::partial_sum over reverse iterators (the library's
// reverse_iterator operators, lowered from its code).
[[ct::differentiable]] double suffixSums(const double *x, int n) {
  std::vector<double> v(x, x + n), out(n);
  std::partial_sum(v.crbegin(), v.crend(), out.rbegin());
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += out[i] * out[i] * (i + 1);
  return s;
}

// A user's struct holding iterators, and a pair of them made by
// std::make_pair from iterators moved between two containers.
struct Window {
  std::vector<double>::const_iterator first, last;
  double sum() const {
    double s = 0;
    for (auto it = first; it != last; ++it)
      s += *it * *it;
    return s;
  }
};

[[ct::differentiable]] double windows(const double *x, int n) {
  std::vector<double> v(x, x + n), w(n);
  for (int i = 0; i < n; ++i)
    w[i] = std::sin(x[i]);
  auto from = v.begin();
  if (x[0] > 0)
    from = w.begin() + 1;
  auto range = std::make_pair(from, from + 2);
  Window window{v.cbegin() + 1, v.cend()};
  return *range.first * *range.second + window.sum();
}

#ifndef _LIBCPP_VERSION
// std::minmax_element's pair of iterators, taken apart by a structured
// binding.
[[ct::differentiable]] double spread(const double *x, int n) {
  std::vector<double> v(x, x + n);
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *hi - *lo + v[0] * v[1];
}
#endif

int main() {
  double x[6] = {0.3, -1.2, 0.8, 2.1, -0.4, 1.5};
  const double v[6] = {0.5, -1.0, 0.25, 1.5, 0.1, -0.3};
  check::gradientAndTangents<horner>("horner", x, 6);
  check::hessianVectorProduct<horner>("horner hvp", x, v, 6);
  check::gradientAndTangents<suffixSums>("suffix sums", x, 6);
  check::hessianVectorProduct<suffixSums>("suffix sums hvp", x, v, 6);
  check::gradientAndTangents<windows>("windows", x, 6);
  double y[6] = {-0.3, -1.2, 0.8, 2.1, -0.4, 1.5};
  check::gradientAndTangents<windows>("windows, other container", y, 6);
#ifndef _LIBCPP_VERSION
  check::gradientAndTangents<spread>("minmax_element", x, 6);
  check::hessianVectorProduct<spread>("minmax_element hvp", x, v, 6);
#endif
  return check::report();
}
