// Recursion over objects whose pointer fields designate the caller's numbers
// (spans, strided views): divide-and-conquer sums that halve a span, split a
// strided view into its even and odd elements (the shape of a recursive
// FFT), recurse on a pair of spans passed by const reference, on
// std::span's halves, and on a struct holding a std::vector. Each call
// past the first is a call of the function lowered on its own, the memory
// its fields designate passed beside the object (it used to be "calls
// itself, and it is lowered in place"). Gradients, forward mode and
// Hessian-vector products against central differences (modes.h), at -O0
// and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <span>
#include <vector>

#include "modes.h"

struct Span {
  const double *data;
  int size;
};

double sumOfSines(Span s) {
  if (s.size == 1)
    return std::sin(s.data[0]) * s.data[0];
  int half = s.size / 2;
  return sumOfSines(Span{s.data, half}) +
         sumOfSines(Span{s.data + half, s.size - half});
}

[[ct::differentiable]] double halves(const double *x, int n) {
  return sumOfSines(Span{x, n});
}

struct Strided {
  const double *first;
  int count;
  int stride;
};

// Even elements, then odd ones, each weighted by how deep it lies.
double evenOdd(Strided v, double weight) {
  if (v.count == 1)
    return weight * v.first[0] * v.first[0];
  Strided even{v.first, (v.count + 1) / 2, 2 * v.stride};
  Strided odd{v.first + v.stride, v.count / 2, 2 * v.stride};
  return evenOdd(even, 0.5 * weight) + std::exp(0.1 * evenOdd(odd, weight));
}

[[ct::differentiable]] double stridedSplit(const double *x, int n) {
  return evenOdd(Strided{x, n, 1}, 1.0);
}

struct Pair {
  const double *a;
  const double *b;
};

double dot(const Pair &p, int lo, int hi) {
  if (hi - lo == 1)
    return p.a[lo] * std::cos(p.b[lo]);
  int mid = (lo + hi) / 2;
  return dot(p, lo, mid) + dot(p, mid, hi);
}

[[ct::differentiable]] double pairDot(const double *x, int n) {
  Pair p{x, x + n / 2};
  return dot(p, 0, n / 2);
}

double sinesOfSpan(std::span<const double> s) {
  if (s.size() == 1)
    return std::sin(s[0]) * std::exp(s[0]);
  std::size_t half = s.size() / 2;
  return sinesOfSpan(s.first(half)) * 0.5 + sinesOfSpan(s.subspan(half));
}

[[ct::differentiable]] double standardSpan(const double *x, int n) {
  return sinesOfSpan(std::span<const double>(x, n));
}

struct Weights {
  std::vector<double> values;
};

double range(const Weights &w, int lo, int hi) {
  if (hi - lo == 1)
    return w.values[lo] * w.values[lo] * w.values[lo];
  int mid = (lo + hi) / 2;
  return range(w, lo, mid) * range(w, mid, hi);
}

[[ct::differentiable]] double vectorField(const double *x, int n) {
  Weights w{std::vector<double>(x, x + n)};
  return range(w, 0, n);
}

int main() {
  const double x[7] = {0.3, -1.1, 0.8, 1.7, -0.4, 0.9, 2.2};
  check::checkModes<halves>("halves 7", x, 7);
  check::checkModes<halves>("halves 4", x, 4);
  check::checkModes<stridedSplit>("strided split", x, 7);
  check::checkModes<pairDot>("pair dot", x, 6);
  check::checkModes<standardSpan>("std::span", x, 7);
  const double small[5] = {0.9, -1.1, 0.8, 1.2, -0.7};
  check::checkModes<vectorField>("vector field", small, 5);
  return check::report();
}
