// Range-`for` over any range C++ accepts, as C++ expands the loop: a
// std::span (and a span's subspan), a container class of the user's whose
// begin() and end() return pointers (written through by reference), an
// iterator class of the user's that steps through a column by a stride
// (its pointer field moved by `p += s`, also `++p` and `p -= k` on pointer
// fields and elements), an index range of integers; std::array positions
// in a std::vector grown by push_back, viewed by a span. Reverse and
// forward mode against central differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "check-modes.h"

// sum_i min(x_i^2, 0.5) + max(x_1, x_2) * x_0 over a span and a subspan.
[[ct::differentiable]] double overSpan(const double *x, int n) {
  std::span<const double> all(x, n);
  double s = 0;
  for (double v : all)
    s += std::fmin(v * v, 0.5);
  for (double v : all.subspan(1, 2))
    s += v * all[0];
  return s;
}

// A buffer class of the user's: pointers as iterators.
struct Buffer {
  double *data;
  int size;
  double *begin() { return data; }
  double *end() { return data + size; }
  const double *begin() const { return data; }
  const double *end() const { return data + size; }
};

[[ct::differentiable]] double overBuffer(const double *x, int n) {
  double scratch[8];
  for (int i = 0; i < n; ++i)
    scratch[i] = 3 * x[i];
  Buffer buffer{scratch, n};
  for (double &v : buffer)
    v = std::sin(v);
  double s = 0;
  for (double v : buffer)
    s += v * v;
  return s;
}

// An iterator class of the user's stepping through a column.
struct Column {
  const double *first;
  int stride, rows;
  struct Iterator {
    const double *at;
    int stride;
    double operator*() const { return *at; }
    Iterator &operator++() {
      at += stride;
      return *this;
    }
    bool operator!=(const Iterator &other) const { return at != other.at; }
  };
  Iterator begin() const { return {first, stride}; }
  Iterator end() const { return {first + rows * stride, stride}; }
};

[[ct::differentiable]] double overColumn(const double *x, int n) {
  double s = 0;
  for (double v : Column{x + 1, 2, n / 2})
    s += v * v * v;
  return s;
}

// Pointer fields moved one element at a time, and back.
struct Cursor {
  const double *at;
};

[[ct::differentiable]] double movedFields(const double *x, int n) {
  Cursor c{x};
  const double *marks[2] = {x, x + 1};
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    s += *c.at * *marks[1];
    ++c.at;
  }
  c.at -= 2;
  marks[1] += 1;
  return s + *c.at * *marks[1];
}

// An index range: integers from its own iterator class.
struct Indices {
  int from, to;
  struct Iterator {
    int i;
    int operator*() const { return i; }
    Iterator &operator++() {
      ++i;
      return *this;
    }
    bool operator!=(Iterator other) const { return i != other.i; }
  };
  Iterator begin() const { return {from}; }
  Iterator end() const { return {to}; }
};

[[ct::differentiable]] double overIndices(const double *x, int n) {
  double s = 0;
  for (int i : Indices{0, n})
    s += std::exp(0.5 * x[i]) * (i + 1);
  return s;
}

// Positions as std::arrays in a growing vector, summed through a span.
using Point = std::array<double, 3>;

static double inverseSquares(std::span<const Point> points) {
  double e = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t j = i + 1; j < points.size(); ++j) {
      double r2 = 0;
      for (int k = 0; k < 3; ++k) {
        double d = points[i][k] - points[j][k];
        r2 += d * d;
      }
      e += 1 / r2;
    }
  return e;
}

[[ct::differentiable]] double pointEnergy(const double *x, int n) {
  std::vector<Point> points;
  for (int i = 0; i + 2 < n; i += 3)
    points.push_back({x[i], x[i + 1], x[i + 2]});
  return inverseSquares(points);
}

template <auto F> void checkBothModes(const char *name, int n) {
  double x[9] = {0.3, -0.2, 0.45, 0.7, 0.1, -0.4, 0.25, 0.6, -0.3};
  check::gradientAndTangents<F>(name, x, n);
}

int main() {
  checkBothModes<overSpan>("span", 5);
  checkBothModes<overBuffer>("buffer", 6);
  checkBothModes<overColumn>("column", 8);
  checkBothModes<movedFields>("moved fields", 5);
  checkBothModes<overIndices>("indices", 6);
  checkBothModes<pointEnergy>("points", 9);
  return check::report();
}
