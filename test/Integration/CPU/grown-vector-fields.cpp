// Reverse mode of functions that grow std::vector fields of the objects
// their parameters designate (`s.history.push_back(v)` with `State &s`, a
// field of a field, a member function growing its object's field): as for a
// std::vector parameter the function resizes, the derivative object's field
// holds the seeds of the field's final contents when called (empty: none)
// and the cotangents of its initial contents on return. (It used to be an
// error: the seeds of the final contents had no place.) Checked against
// central differences of f plus the seeded sum of the final contents.
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address,undefined %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <vector>

#include "check.h"

using check::near;

struct Inner {
  double scale;
  std::vector<double> xs;
};

struct State {
  std::vector<double> history;
  double w;
  Inner inner;
};

/// Appends to a field and twice to a field of a field, then reads them.
[[ct::differentiable]] double step(State &s, double x) {
  s.history.push_back(x * s.w);
  s.inner.xs.push_back(s.inner.scale * x);
  s.inner.xs.push_back(x * x);
  double t = 0;
  for (double h : s.history)
    t += h * h;
  for (double v : s.inner.xs)
    t += v * s.w;
  return t;
}

State initial() { return State{{1.0, 2.0}, 3.0, {2.0, {5.0}}}; }

/// step's value plus the seeded sum of the final contents of the two
/// fields, at the state `state` and x.
double seeded(State state, double x, const std::vector<double> &historySeeds,
              const std::vector<double> &xsSeeds) {
  double value = step(state, x);
  for (size_t j = 0; j < historySeeds.size(); ++j)
    value += historySeeds[j] * state.history[j];
  for (size_t j = 0; j < xsSeeds.size(); ++j)
    value += xsSeeds[j] * state.inner.xs[j];
  return value;
}

void checkStep(const char *what, const std::vector<double> &historySeeds,
               const std::vector<double> &xsSeeds) {
  const double x = 0.5;
  State s = initial();
  State d{historySeeds, 0.0, {0.0, xsSeeds}};
  double dx = 0;
  double value = ct::gradient<step>(s, x, &d, &dx);
  State fresh = initial();
  near(what, value, step(fresh, x), 1e-12);
  near("grown as C++ grows it", s.history.size() + s.inner.xs.size(), 6, 0);
  near("derivative fields of the initial sizes",
       d.history.size() + d.inner.xs.size(), 3, 0);
  auto g = [&](State state, double at) {
    return seeded(state, at, historySeeds, xsSeeds);
  };
  near("d/dx", dx,
       check::centralDifference([&](double t) { return g(initial(), t); }, x),
       1e-6);
  near("d/dw", d.w, check::centralDifference([&](double t) {
         State state = initial();
         state.w = t;
         return g(state, x);
       }, 3.0),
       1e-6);
  near("d/dscale", d.inner.scale, check::centralDifference([&](double t) {
         State state = initial();
         state.inner.scale = t;
         return g(state, x);
       }, 2.0),
       1e-6);
  for (int j = 0; j < 2; ++j)
    near("d/dhistory (initial)", d.history[j],
         check::centralDifference([&](double t) {
           State state = initial();
           state.history[j] = t;
           return g(state, x);
         }, initial().history[j]),
         1e-6);
  near("d/dxs (initial)", d.inner.xs[0],
       check::centralDifference([&](double t) {
         State state = initial();
         state.inner.xs[0] = t;
         return g(state, x);
       }, 5.0),
       1e-6);
}

/// A member function growing its object's field: a running log.
struct Tracker {
  std::vector<double> log;
  double gain;
  [[ct::differentiable]] double record(double x) {
    log.push_back(gain * x);
    double s = 0;
    for (double v : log)
      s += v * v;
    return s;
  }
};

void checkTracker() {
  Tracker t{{1.0, -2.0}, 1.5}, dt{{}, 0.0};
  double dx = 0;
  double value = ct::gradient<&Tracker::record, ct::wrt<0, 1>>(t, 2.0, &dt, &dx);
  // s = 1 + 4 + (g x)^2: 14, ds/dx = 2 g^2 x = 9, ds/dg = 2 g x^2 = 12,
  // ds/dlog = 2 log.
  near("tracker value", value, 14.0, 1e-12);
  near("tracker log grown", t.log.size(), 3, 0);
  near("tracker d/dx", dx, 9.0, 1e-12);
  near("tracker d/dgain", dt.gain, 12.0, 1e-12);
  near("tracker d/dlog[0]", dt.log[0], 2.0, 1e-12);
  near("tracker d/dlog[1]", dt.log[1], -4.0, 1e-12);
}

/// A vector field of structs: s = sum a b over the points, the last
/// appended (x, x w).
struct Point {
  double a, b;
};
struct Cloud {
  std::vector<Point> points;
  double w;
};

[[ct::differentiable]] double appendPoint(Cloud &c, double x) {
  c.points.push_back(Point{x, x * c.w});
  double s = 0;
  for (const Point &p : c.points)
    s += p.a * p.b;
  return s;
}

void checkCloud() {
  Cloud c{{{1, 2}}, 3.0}, dc{{}, 0.0};
  double dx = 0;
  double value = ct::gradient<appendPoint>(c, 2.0, &dc, &dx);
  // s = 2 + x^2 w: 14, ds/dx = 2 x w = 12, ds/dw = x^2 = 4, ds/dp0 = (2, 1).
  near("cloud value", value, 14.0, 1e-12);
  near("cloud d/dx", dx, 12.0, 1e-12);
  near("cloud d/dw", dc.w, 4.0, 1e-12);
  near("cloud d/dp0.a", dc.points[0].a, 2.0, 1e-12);
  near("cloud d/dp0.b", dc.points[0].b, 1.0, 1e-12);
  // Seeds of the final points: (1, 0) and (0, 1) add p0.a + p1.b = 1 + x w.
  Cloud c2{{{1, 2}}, 3.0}, seeds{{{1, 0}, {0, 1}}, 0.0};
  double dx2 = 0;
  ct::gradient<appendPoint>(c2, 2.0, &seeds, &dx2);
  near("cloud seeded d/dx", dx2, 12.0 + 3.0, 1e-12);
  near("cloud seeded d/dw", seeds.w, 4.0 + 2.0, 1e-12);
  near("cloud seeded d/dp0.a", seeds.points[0].a, 2.0 + 1.0, 1e-12);
}

/// Mixed scalar types before and between the vector fields, and a struct
/// of floats: the field is found by its byte offset.
struct Mixed {
  int n;
  float f;
  std::vector<double> a;
  double w;
  std::vector<double> b;
};

[[ct::differentiable]] double mixed(Mixed &m, double x) {
  m.b.push_back(x * m.w);
  double t = 0;
  for (double v : m.a)
    t += v * x;
  for (double v : m.b)
    t += v * v;
  return t + m.f;
}

struct Floats {
  float s;
  std::vector<float> v;
};

[[ct::differentiable]] float floats(Floats &q, float x) {
  q.v.push_back(x * q.s);
  float t = 0;
  for (float v : q.v)
    t += v * v;
  return t;
}

void checkMixed() {
  Mixed m{2, 1.0f, {1.0, 2.0}, 3.0, {4.0}};
  Mixed d{0, 0.0f, {0.0, 0.0}, 0.0, {0.0, 1.0}};
  double dx = 0;
  ct::gradient<mixed>(m, 0.5, &d, &dx);
  // t = 3 x + 16 + (x w)^2 + f, and the seed of b's last element adds x w:
  // d/dx = 3 + 2 x w^2 + w = 15, d/dw = 2 x^2 w + x = 2, d/da_i = x,
  // d/db_0 = 2 b_0 = 8, d/df = 1; a keeps its derivative in place.
  near("mixed d/dx", dx, 15.0, 1e-12);
  near("mixed d/dw", d.w, 2.0, 1e-12);
  near("mixed d/da", d.a[0] + d.a[1], 1.0, 1e-12);
  near("mixed d/db", d.b[0], 8.0, 1e-12);
  near("mixed d/df", d.f, 1.0, 1e-12);
  near("mixed derivative sizes", d.a.size() * 10 + d.b.size(), 21, 0);
  Floats q{2.0f, {1.0f}}, dq{0.0f, {}};
  float fx = 0;
  ct::gradient<floats>(q, 1.5f, &dq, &fx);
  // t = 1 + (x s)^2: d/dx = 2 x s^2 = 12, d/ds = 2 x^2 s = 9, d/dv_0 = 2.
  near("floats d/dx", fx, 12.0, 1e-6);
  near("floats d/ds", dq.s, 9.0, 1e-6);
  near("floats d/dv", dq.v[0], 2.0, 1e-6);
}

int main() {
  checkStep("no seeds", {}, {});
  checkStep("seeds of the final contents", {0.5, -1.0, 2.0},
            {1.0, 0.25, -0.5});
  checkTracker();
  checkCloud();
  checkMixed();
  return check::report();
}
