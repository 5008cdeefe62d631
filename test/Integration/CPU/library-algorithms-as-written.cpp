// Standard algorithms lowered from libstdc++'s (and libc++'s) own code, not
// modelled: binary searches over a table (std::upper_bound, lower_bound,
// binary_search: a piecewise-linear interpolation), std::find_if, count_if,
// any_of, partial_sum, adjacent_difference, reverse, iota, rotate (which
// asks a type trait, `__is_pod(T)`, a constant), copy_backward over its own
// range, and std::invoke of a named function. They take
// comparison objects whose `()` is given iterators, iterators by const
// reference (tag dispatch), compare iterators by C++20's `<=>`, and return
// an iterator from several returns. User helpers returning a pointer or a
// reference from several returns work the same way, and so do helpers
// moving the caller's pointer or iterator through a reference to it
// (`void skip(const double *&p, int k)`). Reverse and forward
// mode and Hessian-vector products against central differences, at -O0 and
// -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

#include "check-modes.h"

static const double knots[6] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0};
static const double values[6] = {1.0, 1.4, 2.1, 2.0, 1.2, 0.3};

static double interpolate(double t) {
  const double *after = std::upper_bound(knots, knots + 6, t);
  long i = std::clamp<long>(after - knots, 1, 5);
  double w = (t - knots[i - 1]) / (knots[i] - knots[i - 1]);
  return (1 - w) * values[i - 1] + w * values[i];
}

[[ct::differentiable]] double searches(const double *x, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += interpolate(x[i]) * x[i];
  std::vector<double> sorted(x, x + n);
  std::sort(sorted.begin(), sorted.end());
  auto firstPositive = std::lower_bound(sorted.begin(), sorted.end(), 0.0);
  sum += *firstPositive * 2;
  sum += std::binary_search(sorted.begin(), sorted.end(), sorted[1]);
  return sum;
}

[[ct::differentiable]] double scans(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double sum = std::count_if(v.begin(), v.end(), [](double t) { return t > 0; });
  auto negative =
      std::find_if(v.begin(), v.end(), [](double t) { return t < 0; });
  if (negative != v.end())
    sum += *negative * *negative;
  sum += std::any_of(v.begin(), v.end(), [](double t) { return t > 1; });
  std::vector<double> partial(n), differences(n);
  std::partial_sum(v.begin(), v.end(), partial.begin());
  std::adjacent_difference(v.begin(), v.end(), differences.begin());
  sum += partial.back() * partial[1] + differences[2] * differences[1];
  std::reverse(v.begin(), v.end());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  return sum + v[0] * 3 + v[1] + x[order[2]] * x[order[3]];
}

static const double *firstAbove(const double *a, int n, double level) {
  for (int i = 0; i < n; ++i)
    if (a[i] > level)
      return a + i;
  return a + n - 1;
}

static double &chosen(std::vector<double> &v, double key) {
  if (key > 0)
    return v[0];
  for (double &e : v)
    if (e < key)
      return e;
  return v.back();
}

[[ct::differentiable]] double severalReturns(const double *x, int n) {
  const double *p = firstAbove(x, n, 0.5);
  std::vector<double> v(x, x + n);
  chosen(v, x[1]) *= 3;
  return *p * *p + v[0] + v[1] * v[2] + v[n - 1];
}

static void skip(const double *&p, int k) { p += k; }

template <class Iterator> static void skipTwo(Iterator &it) {
  ++it;
  ++it;
}

[[ct::differentiable]] double movedByReference(const double *x, int n) {
  const double *p = x;
  skip(p, 2);
  double sum = *p * *p;
  std::vector<double> v(x, x + n);
  auto it = v.begin();
  skipTwo(it);
  sum += *it * 3;
  std::advance(it, 1);
  return sum + *it * *it;
}

static double cubic(double t) { return t * t * t - t; }

[[ct::differentiable]] double permutations(const double *x, int n) {
  double a[6] = {x[0], x[1], x[2], x[3], x[0] * x[1], x[2] - x[3]};
  // (libc++'s rotate returns a pair of pointers made on several paths: not
  // yet.)
#ifndef _LIBCPP_VERSION
  std::rotate(a, a + 2, a + 6);
#endif
  std::reverse(a, a + 3);
  std::copy_backward(a, a + 4, a + 6);
  double s = std::invoke(cubic, a[0]);
  for (int i = 0; i < 6; ++i)
    s += (i + 1) * a[i] * a[i];
  return s + x[n - 1];
}

int main() {
  double x[4] = {0.3, -0.7, 1.1, 2.5};
  const double v[4] = {0.5, -1.0, 0.25, 1.5};
  check::gradientAndTangents<searches>("searches", x, 4);
  check::gradientAndTangents<scans>("scans", x, 4);
  check::hessianVectorProduct<scans>("scans hvp", x, v, 4);
  check::gradientAndTangents<severalReturns>("several returns", x, 4);
  check::hessianVectorProduct<severalReturns>("several returns hvp", x, v, 4);
  double y[4] = {0.3, 0.2, 1.1, 2.5};
  check::gradientAndTangents<severalReturns>("several returns, first", y, 4);
  check::gradientAndTangents<movedByReference>("moved by reference", x, 4);
  check::gradientAndTangents<permutations>("permutations", x, 4);
  check::hessianVectorProduct<permutations>("permutations hvp", x, v, 4);
  return check::report();
}
