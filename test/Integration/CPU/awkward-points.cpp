// The derivative of every <cmath> rule where the formula breaks down, in
// reverse and forward mode, at -O0 and -O2 (docs/AD.md lists the choices):
// pow(x, 0) is constant, pow's exponent has derivative 0 where the base is
// not positive, fabs'(0) = 0, fmin/fmax split a tie, atan2 and hypot are 0
// at the origin, sqrt and cbrt are +inf at 0; hypot neither overflows nor
// underflows.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>
#include <limits>

[[ct::differentiable]] double power(double x, double y) {
  return std::pow(x, y);
}
[[ct::differentiable]] double powerInt(double x, int n) {
  return std::pow(x, n);
}
[[ct::differentiable]] double root(double x) { return std::sqrt(x); }
[[ct::differentiable]] double cubeRoot(double x) { return std::cbrt(x); }
[[ct::differentiable]] double absolute(double x) { return std::fabs(x); }
[[ct::differentiable]] double maximum(double x, double y) {
  return std::fmax(x, y);
}
[[ct::differentiable]] double minimum(double x, double y) {
  return std::fmin(x, y);
}
[[ct::differentiable]] double angle(double y, double x) {
  return std::atan2(y, x);
}
[[ct::differentiable]] double length(double x, double y) {
  return std::hypot(x, y);
}

/// Both partials of a two-argument function, by gradient and by jvp.
template <auto F>
void partials(const char *name, double x, double y, double dx, double dy) {
  double gx = 0, gy = 0;
  ct::gradient<F>(x, y, &gx, &gy);
  check::near(name, gx, dx, 1e-12);
  check::near(name, gy, dy, 1e-12);
  check::near(name, ct::jvp<F>(x, y, 1.0, 0.0).tangent, dx, 1e-12);
  check::near(name, ct::jvp<F>(x, y, 0.0, 1.0).tangent, dy, 1e-12);
}

template <auto F> void derivative(const char *name, double x, double d) {
  double g = 0;
  ct::gradient<F>(x, &g);
  double t = ct::jvp<F>(x, 1.0).tangent;
  if (std::isinf(d)) {
    check::near(name, g == d, 1, 0);
    check::near(name, t == d, 1, 0);
    return;
  }
  check::near(name, g, d, 1e-12);
  check::near(name, t, d, 1e-12);
}

int main() {
  const double inf = std::numeric_limits<double>::infinity();
  // pow: x^0 is the constant 1, also at x = 0; the exponent's derivative
  // is x^y log x where x > 0 and 0 elsewhere.
  partials<power>("pow(0,0)", 0.0, 0.0, 0.0, 0.0);
  partials<power>("pow(0,2)", 0.0, 2.0, 0.0, 0.0);
  partials<power>("pow(0,1)", 0.0, 1.0, 1.0, 0.0);
  partials<power>("pow(2,3)", 2.0, 3.0, 12.0, 8.0 * std::log(2.0));
  partials<power>("pow(-2,2)", -2.0, 2.0, -4.0, 0.0);
  {
    double g = 0;
    ct::gradient<powerInt>(0.0, 0, &g);
    check::near("pow(0,int 0)", g, 0, 0);
    ct::gradient<powerInt>(0.0, 1, &g);
    check::near("pow(0,int 1)", g, 1, 0);
  }
  // One-sided infinite slopes stay infinite.
  derivative<root>("sqrt(0)", 0.0, inf);
  derivative<root>("sqrt(4)", 4.0, 0.25);
  derivative<cubeRoot>("cbrt(0)", 0.0, inf);
  derivative<cubeRoot>("cbrt(8)", 8.0, 1.0 / 12);
  // fabs: sign(x), 0 at 0.
  derivative<absolute>("fabs(0)", 0.0, 0.0);
  derivative<absolute>("fabs(-2)", -2.0, -1.0);
  derivative<absolute>("fabs(3)", 3.0, 1.0);
  // fmin/fmax: the chosen operand; at a tie half each.
  partials<maximum>("fmax(1,1)", 1.0, 1.0, 0.5, 0.5);
  partials<maximum>("fmax(2,1)", 2.0, 1.0, 1.0, 0.0);
  partials<minimum>("fmin(1,1)", 1.0, 1.0, 0.5, 0.5);
  partials<minimum>("fmin(2,1)", 2.0, 1.0, 0.0, 1.0);
  // atan2 and hypot: 0 at the origin.
  partials<angle>("atan2(0,0)", 0.0, 0.0, 0.0, 0.0);
  partials<angle>("atan2(1,1)", 1.0, 1.0, 0.5, -0.5);
  partials<length>("hypot(0,0)", 0.0, 0.0, 0.0, 0.0);
  partials<length>("hypot(3,4)", 3.0, 4.0, 0.6, 0.8);
  check::near("hypot value", length(3.0, 4.0), 5.0, 1e-15);
  // hypot does not overflow where x*x + y*y would (1e200^2 = inf), nor
  // lose its derivative where they underflow.
  check::near("hypot(3e200,4e200) value", length(3e200, 4e200) / 5e200, 1.0,
              1e-15);
  partials<length>("hypot(3e200,4e200)", 3e200, 4e200, 0.6, 0.8);
  partials<length>("hypot(3e-200,4e-200)", 3e-200, 4e-200, 0.6, 0.8);
  return check::report();
}
