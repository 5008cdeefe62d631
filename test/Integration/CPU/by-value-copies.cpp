// A struct passed by value is the function's own copy: left out of
// ct::wrt, it may still store values that carry derivatives (they flow as
// through a local), in reverse and forward mode, with std::array and nested
// calls too, and in ct::hvp (reverse mode over the forward derivative,
// which writes the copy). Closed forms and central differences, at -O0
// and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <array>

#include "check.h"

struct S {
  double a, b;
};

// f = a (b + x) x: the copy's b and a take derivatives of x.
[[ct::differentiable]] double f(S s, double x) {
  s.b += x;
  s.a *= s.b;
  return s.a * x;
}

// The same through a helper that writes its own copy, and a std::array.
double scaled(S s, double x) {
  s.a *= x;
  return s.a + s.b;
}
[[ct::differentiable]] double g(std::array<double, 3> v, S s, double x) {
  v[1] = v[0] * x;
  v[2] += v[1] * v[1];
  return v[2] * scaled(s, x);
}

int main() {
  S s{2, 3};
  double x = 0.5;
  double dx = 0;
  double value = ct::gradient<f, ct::wrt<1>>(s, x, &dx);
  check::near("f", value, 2 * 3.5 * 0.5, 1e-12);
  check::near("df/dx", dx, 2 * (3 + 2 * x), 1e-12);
  check::near("the caller's struct is unchanged", s.a + s.b, 5, 0);
  check::near("df/dx jvp", ct::jvp<f, ct::wrt<1>>(s, x, 1.0).tangent,
              2 * (3 + 2 * x), 1e-12);
  // Reverse mode over forward mode through the copy, selected.
  double hx = 0;
  S direction{0, 0}, hs{0, 0};
  ct::hvp<f>(s, x, &direction, 1.0, &hs, &hx);
  check::near("d2f/dx2", hx, 4, 1e-12);
  // The copy left out: f'' = 4 a (a = 2), and g's second derivative in x
  // against central differences of its gradient.
  double hxOnly = 0;
  ct::hvp<f, ct::wrt<1>>(s, x, 1.0, &hxOnly);
  check::near("d2f/dx2, copy left out of ct::wrt", hxOnly, 4, 1e-12);
  check::near("the caller's struct is unchanged by ct::hvp", s.a + s.b, 5, 0);

  std::array<double, 3> v{1.5, 0, 0.25};
  dx = 0;
  value = ct::gradient<g, ct::wrt<2>>(v, s, x, &dx);
  auto gx = [&](double t) { return g(v, s, t); };
  check::near("g", value, g(v, s, x), 1e-12);
  check::near("dg/dx", dx, check::centralDifference(gx, x), 1e-6);
  check::near("dg/dx jvp", ct::jvp<g, ct::wrt<2>>(v, s, x, 1.0).tangent, dx,
              1e-12);
  // Every parameter active: the same derivative in x, and the adjoint of
  // the copy's initial contents.
  std::array<double, 3> dv{};
  S ds{0, 0};
  double dx2 = 0;
  ct::gradient<g>(v, s, x, &dv, &ds, &dx2);
  check::near("dg/dx all active", dx2, dx, 1e-12);
  auto ga = [&](double t) { S u{t, s.b}; return g(v, u, x); };
  check::near("dg/da", ds.a, check::centralDifference(ga, s.a), 1e-6);
  double hg = 0;
  ct::hvp<g, ct::wrt<2>>(v, s, x, 1.0, &hg);
  auto dgx = [&](double t) {
    double d = 0;
    ct::gradient<g, ct::wrt<2>>(v, s, t, &d);
    return d;
  };
  check::near("d2g/dx2, copies left out", hg,
              check::centralDifference(dgx, x), 1e-5);
  return check::report();
}
