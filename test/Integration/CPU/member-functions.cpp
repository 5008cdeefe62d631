// Member functions as the function to differentiate: `ct::gradient<&C::f>`
// takes the object first; by default the object is constant (no extra
// argument), `ct::wrt<0, ...>` makes it active (index 0 is the object).
// Ceres-style functors: a templated `operator()` instantiated for double,
// returning `bool` (no seed, the result returned as it is), with data held
// in the functor; a non-const member function writing its object (which
// must then be selected: writing active values into constant memory is an
// error); member functions qualified `&`, `const &`, `&&`, `volatile`,
// `const volatile` and `noexcept`. Reverse and forward mode at -O0 and -O2
// against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

struct Model {
  double scale;
  int n;
  // scale * sum x_i^2.
  double loss(const double *x) const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += scale * x[i] * x[i];
    return s;
  }
  // Moves scale towards t; returns the new scale squared.
  double step(double t) {
    scale += 0.5 * (t - scale);
    return scale * scale;
  }
};

// r = observed - a exp(b), the shape of Ceres's curve-fitting example.
struct ExponentialResidual {
  double x, y;
  template <class T> bool operator()(const T *ab, T *residual) const {
    residual[0] = T(y) - ab[0] * std::exp(ab[1] * T(x));
    return true;
  }
};

static void testConstObject() {
  Model m{2.0, 3};
  double x[3] = {1, 2, 3}, dx[3] = {0, 0, 0};
  check::near("loss value", ct::gradient<&Model::loss>(m, x, dx), 28, 1e-15);
  for (int i = 0; i < 3; ++i)
    check::near("loss gradient", dx[i], 2 * 2.0 * x[i], 1e-15);
  // The object too: d/dscale = sum x_i^2.
  Model dm{0, 0};
  double dx2[3] = {0, 0, 0};
  ct::gradient<&Model::loss, ct::wrt<0, 1>>(m, x, &dm, dx2);
  check::near("loss d scale", dm.scale, 14, 1e-15);
  check::near("loss gradient with object", dx2[2], 12, 1e-15);
  double t[3] = {1, 0, -1};
  check::near("loss jvp", ct::jvp<&Model::loss>(m, x, t).tangent,
              2 * 2.0 * (1 - 3), 1e-15);
}

static void testMutatingObject() {
  // step: s' = s + (t - s)/2, result s'^2; ds'/dt = ds'/ds = 1/2. The
  // object is written with values that depend on t, so it must be active
  // (in/out memory: its adjoint receives the cotangent of the initial
  // contents).
  Model m{1.0, 0}, dm{0, 0};
  double dt = 0;
  double v = ct::gradient<&Model::step, ct::wrt<0, 1>>(m, 3.0, &dm, &dt);
  check::near("step value", v, 4.0, 1e-15);
  check::near("step object written", m.scale, 2.0, 1e-15);
  check::near("step d t", dt, 2 * 2.0 * 0.5, 1e-15);
  check::near("step d scale", dm.scale, 2 * 2.0 * 0.5, 1e-15);
}

static void testCeresFunctor() {
  ExponentialResidual r{0.5, 1.5};
  double ab[2] = {2.0, 0.25}, residual[1] = {0}, dresidual[1] = {1.0};
  double dab[2] = {0, 0};
  bool ok = ct::pullback<&ExponentialResidual::operator()<double>>(
      r, ab, residual, dab, dresidual);
  double e = std::exp(0.25 * 0.5);
  check::near("functor result", ok ? 1 : 0, 1, 0);
  check::near("functor residual", residual[0], 1.5 - 2.0 * e, 1e-15);
  check::near("functor d a", dab[0], -e, 1e-15);
  check::near("functor d b", dab[1], -2.0 * 0.5 * e, 1e-15);
  // Forward mode: the Jacobian's column for b.
  double tangentAb[2] = {0, 1}, tangentResidual[1] = {0};
  ct::jvp<&ExponentialResidual::operator()<double>>(r, ab, residual,
                                                      tangentAb,
                                                      tangentResidual);
  check::near("functor jvp", tangentResidual[0], -2.0 * 0.5 * e, 1e-15);
}

// Qualified member functions: the object is a reference qualified as the
// function is (an rvalue for `&&`, volatile for `volatile`).
struct Qualified {
  double w;
  double lvalueOnly(double x) & { return w * x * x * x; }
  double constLvalue(double x) const & { return w * std::exp(x); }
  double rvalueOnly(double x) && { return w * std::cos(x); }
  double asVolatile(double x) volatile { return w * x; }
  double constVolatile(double x) const volatile { return w * x * x; }
  double noThrow(double x) const & noexcept { return w * std::log(x); }
};

static void testQualifiedMembers() {
  const double x = 0.7, w = 1.5;
  Qualified q{w}, dq{0};
  double dx = 0;
  auto reset = [&] {
    dq.w = 0;
    dx = 0;
  };
  ct::gradient<&Qualified::lvalueOnly, ct::wrt<0, 1>>(q, x, &dq, &dx);
  check::near("& d x", dx, 3 * w * x * x, 1e-14);
  check::near("& d w", dq.w, x * x * x, 1e-14);
  reset();
  ct::gradient<&Qualified::constLvalue, ct::wrt<0, 1>>(q, x, &dq, &dx);
  check::near("const & d x", dx, w * std::exp(x), 1e-14);
  check::near("const & d w", dq.w, std::exp(x), 1e-14);
  reset();
  ct::gradient<&Qualified::rvalueOnly, ct::wrt<0, 1>>(Qualified{w}, x, &dq,
                                                       &dx);
  check::near("&& d x", dx, -w * std::sin(x), 1e-14);
  check::near("&& d w", dq.w, std::cos(x), 1e-14);
  reset();
  ct::gradient<&Qualified::asVolatile, ct::wrt<0, 1>>(q, x, &dq, &dx);
  check::near("volatile d x", dx, w, 1e-14);
  check::near("volatile d w", dq.w, x, 1e-14);
  reset();
  ct::gradient<&Qualified::constVolatile, ct::wrt<0, 1>>(q, x, &dq, &dx);
  check::near("const volatile d x", dx, 2 * w * x, 1e-14);
  check::near("const volatile d w", dq.w, x * x, 1e-14);
  reset();
  ct::gradient<&Qualified::noThrow, ct::wrt<0, 1>>(q, x, &dq, &dx);
  check::near("noexcept d x", dx, w / x, 1e-14);
  check::near("noexcept d w", dq.w, std::log(x), 1e-14);
  check::near("const & jvp",
              ct::jvp<&Qualified::constLvalue>(q, x, 1.0).tangent,
              w * std::exp(x), 1e-14);
  check::near("&& jvp", ct::jvp<&Qualified::rvalueOnly>(Qualified{w}, x, 1.0)
                            .tangent,
              -w * std::sin(x), 1e-14);
}

int main() {
  testQualifiedMembers();
  testConstObject();
  testMutatingObject();
  testCeresFunctor();
  return check::report();
}
