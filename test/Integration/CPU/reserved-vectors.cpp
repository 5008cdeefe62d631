// A reserve is a request, not a bound: C++ grows a std::vector past the
// capacity it reserved, and so does differentiable code (such vectors take
// the general memory model, docs/Memory.md). Local vectors of numbers and
// of structs reserved for fewer elements than they get (none, one, n - 1;
// a struct of two numbers with its own operator-, as a particle code
// writes it), a vector field reserved by its struct's constructor and
// pushed to past it by a member function, vectors of structs holding
// pointers reserved, pushed to and swapped, and a reserve that asks for
// more than the vector will hold (nothing moves). Beside them, vectors of
// structs holding pointers made from a count and a value or from a list
// (each element's pointer designating what the value's or the list's
// designates; they were "used before it is set"). Every mode against
// central differences and the function's own value (modes.h), at -O0 and
// -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "modes.h"

template <int Reserved> double pushedPast(const double *x, int n) {
  std::vector<double> v;
  v.reserve(Reserved < 0 ? n + Reserved : Reserved);
  for (int i = 0; i < n; ++i)
    v.push_back(std::sin(x[i]) * x[(i + 1) % n]);
  double s = 0;
  for (double e : v)
    s += e * e;
  return s + v.back() * v.front();
}
double reservedNone(const double *x, int n) { return pushedPast<0>(x, n); }
double reservedOne(const double *x, int n) { return pushedPast<1>(x, n); }
double reservedShort(const double *x, int n) { return pushedPast<-1>(x, n); }
double reservedMore(const double *x, int n) { return pushedPast<64>(x, n); }

struct Point {
  double x = 0, y = 0;
  Point operator-(const Point &o) const { return {x - o.x, y - o.y}; }
};

double springChain(const double *x, int n) {
  std::vector<Point> points;
  points.reserve(0);
  for (int i = 0; i < n; ++i)
    points.push_back(Point{x[i], std::cos(x[i]) + 0.5 * i});
  double e = 0;
  for (size_t i = 0; i + 1 < points.size(); ++i) {
    Point d = points[i + 1] - points[i];
    double length = std::sqrt(d.x * d.x + d.y * d.y);
    e += (length - 1) * (length - 1);
  }
  return e;
}

class History {
  std::vector<double> values_;

public:
  History() { values_.reserve(2); }
  void record(double v) { values_.push_back(v); }
  double weighted() const {
    double s = 0;
    for (size_t i = 0; i < values_.size(); ++i)
      s += (i + 1) * values_[i] * values_[i];
    return s;
  }
};

double historyField(const double *x, int n) {
  History h;
  double state = x[0];
  for (int i = 0; i < n; ++i) {
    state = 0.5 * state + x[i] * x[i];
    h.record(state);
  }
  return h.weighted();
}

struct Ref {
  const double *p;
  double scale;
};

double swappedReferences(const double *x, int n) {
  std::vector<Ref> a, b;
  a.reserve(1);
  b.reserve(1);
  for (int i = 0; i < n; ++i)
    if (i % 2)
      a.push_back(Ref{x + i, 1.0 + i});
    else
      b.push_back(Ref{x + i, 1.0 + i});
  a.swap(b);
  double s = 0;
  for (const Ref &r : a)
    s += r.scale * r.p[0] * r.p[0];
  for (const Ref &r : b)
    s += r.scale * std::exp(r.p[0]);
  return s;
}

double filledWithPointers(const double *x, int n) {
  std::vector<Ref> same(3, Ref{x + 1, 2.0});
  std::vector<Ref> listed{Ref{x + 2, 1.0}, Ref{x, 3.0}};
  double s = 0;
  for (const Ref &r : same)
    s += r.scale * r.p[0] * r.p[1];
  return s + listed[0].p[0] * listed[1].p[n - 1] * listed[1].scale;
}

int main() {
  const double x[5] = {0.3, -0.7, 1.1, 0.4, 0.9};
  check::checkModes<reservedNone>("reserve(0)", x, 5);
  check::checkModes<reservedOne>("reserve(1)", x, 5);
  check::checkModes<reservedShort>("reserve(n - 1)", x, 5);
  check::checkModes<reservedMore>("reserve(64)", x, 5);
  check::checkModes<springChain>("struct elements", x, 5);
  check::checkModes<historyField>("field", x, 5);
  check::checkModes<swappedReferences>("structs of pointers", x, 5);
  check::checkModes<filledWithPointers>("filled with pointers", x, 5);
  return check::report();
}
