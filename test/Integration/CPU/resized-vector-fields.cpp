// std::vector fields the function resizes: a struct whose vector field the
// program grows or shrinks (`s.xs.push_back(v)`, `erase`, `resize`,
// `clear`, `insert`) keeps that field in memory as C++ lays it out, three
// addresses, as vectors held by vectors are (docs/Memory.md): locals grown
// in loops and branches, a struct grown by a helper taking it by
// reference, a field grown by a helper taking the vector by reference and
// through a reference variable, a struct holding such a struct, one of
// them copied, and a
// constant parameter of the struct's type read as the caller laid it out,
// and an active one whose field gives a range of iterators.
// Reverse and forward mode against central differences and closed forms,
// at -O0 and -O2 (and under AddressSanitizer in the sanitizer build).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "check.h"
#include "scalar-derivatives.h"

struct Trace {
  std::vector<double> xs;
  double scale;
};

/// Grown in a loop and a branch, its first element erased.
[[ct::differentiable]] double traced(double x) {
  Trace t;
  t.scale = x;
  for (int i = 0; i < 5; ++i) {
    if (i % 2)
      t.xs.push_back(std::sin(x * i) * t.scale);
    else
      t.xs.insert(t.xs.begin(), std::cos(x * i));
  }
  t.xs.erase(t.xs.begin());
  double s = 0;
  for (double v : t.xs)
    s += v * v;
  return s;
}
double tracedPrimal(double x) {
  // Pushed at i = 1, 3; inserted in front at i = 0, 2, 4; the front
  // (cos 4x) erased.
  double terms[4] = {std::cos(2 * x), std::cos(0.0), std::sin(x) * x,
                     std::sin(3 * x) * x};
  double s = 0;
  for (double v : terms)
    s += v * v;
  return s;
}

void append(Trace &t, double v) { t.xs.push_back(v * t.scale); }

/// Grown by a helper taking it by reference, resized, cleared, refilled.
[[ct::differentiable]] double helped(double x) {
  Trace t{{}, 2.0};
  append(t, x);
  append(t, x * x);
  double first = t.xs[0] * t.xs[1];
  t.xs.resize(4, x);
  double padded = t.xs[2] + t.xs[3];
  t.xs.clear();
  append(t, std::exp(x));
  return first + padded * t.xs[0] + static_cast<double>(t.xs.size());
}
double helpedPrimal(double x) {
  return 4 * x * x * x + 2 * x * 2 * std::exp(x) + 1;
}

struct Outer {
  Trace inner;
  double weight;
};

/// A struct holding one, and a copy of it grown apart.
[[ct::differentiable]] double nested(double x) {
  Outer o{{{}, 1.0}, x};
  for (int i = 1; i <= 3; ++i)
    o.inner.xs.push_back(x * i);
  Outer copy = o;
  copy.inner.xs.push_back(o.weight * o.weight);
  double s = 0;
  for (double v : copy.inner.xs)
    s += v;
  return s * o.inner.xs.back();
}
double nestedPrimal(double x) { return (6 * x + x * x) * 3 * x; }

struct Neighbours {
  std::vector<double> distances;
  double cutoff;
};

void collect(std::vector<double> &out, double v) { out.push_back(v); }

/// The field grown by a helper that takes a vector by reference, in a
/// branch, and another through a reference variable bound to it.
[[ct::differentiable]] double collected(double x) {
  Neighbours near{{}, 0.0};
  for (int i = 0; i < 4; ++i) {
    double r = std::sin(x * (i + 1));
    if (r > near.cutoff)
      collect(near.distances, r);
  }
  Trace log{{}, 1.0};
  std::vector<double> &xs = log.xs;
  xs.push_back(x * x);
  xs.push_back(std::exp(x));
  double s = 0;
  for (double v : near.distances)
    s += v * v;
  return s + log.xs[0] * log.xs[1] * log.scale;
}
double collectedPrimal(double x) {
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    double r = std::sin(x * (i + 1));
    if (r > 0)
      s += r * r;
  }
  return s + x * x * std::exp(x);
}

/// A constant parameter of the struct's type, read as the caller laid it
/// out.
[[ct::differentiable]] double weighted(const Trace &t, double x) {
  double s = 0;
  for (double v : t.xs)
    s += v * std::sin(x * v);
  return s * t.scale;
}

/// A vector made from a range of iterators into the field (each
/// iterator views the field's elements afresh: one array all the same),
/// and an algorithm over the field, of an active parameter.
[[ct::differentiable]] double ranged(const Trace &t, double x) {
  std::vector<double> middle(t.xs.begin() + 1, t.xs.begin() + 3);
  double total = std::accumulate(t.xs.begin(), t.xs.end(), 0.0);
  return (middle[0] + middle[1] * x) * x + total * t.scale;
}

void checkWeighted() {
  Trace t{{0.5, -1.5, 2.0}, 0.75};
  double x = 0.3, dx = 0;
  ct::gradient<weighted, ct::wrt<1>>(t, x, &dx);
  double expected = 0;
  for (double v : t.xs)
    expected += v * v * std::cos(x * v);
  check::near("weighted reverse", dx, expected * t.scale, 1e-13);
  check::near("weighted forward", ct::jvp<weighted, ct::wrt<1>>(t, x, 1.0).tangent,
              expected * t.scale, 1e-13);
}

void checkRanged() {
  Trace t{{1.0, 2.0, 3.0, 4.0}, 0.5}, dt{{0, 0, 0, 0}, 0};
  double x = 0.7, dx = 0;
  double value = ct::gradient<ranged>(t, x, &dt, &dx);
  check::near("ranged value", value, (2.0 + 3.0 * x) * x + 10.0 * 0.5, 1e-14);
  check::near("ranged dx", dx, 2.0 + 2 * 3.0 * x, 1e-14);
  check::near("ranged dscale", dt.scale, 10.0, 1e-14);
  check::near("ranged dxs0", dt.xs[0], 0.5, 1e-14);
  check::near("ranged dxs1", dt.xs[1], x + 0.5, 1e-14);
  check::near("ranged dxs2", dt.xs[2], x * x + 0.5, 1e-14);
  check::near("ranged dxs3", dt.xs[3], 0.5, 1e-14);
}

int main() {
  checkRanged();
  check::checkScalar<traced>("traced", tracedPrimal, 0.7);
  check::checkScalar<helped>("helped", helpedPrimal, 0.4);
  check::checkScalar<nested>("nested", nestedPrimal, 0.9);
  check::checkScalar<collected>("collected", collectedPrimal, 0.9);
  checkWeighted();
  return check::report();
}
