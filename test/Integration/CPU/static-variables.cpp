// Variables with internal linkage and static locals, read and written by
// differentiable code like any variable outside the function: a `static`
// scratch array at namespace scope, a struct in an unnamed namespace, a
// static local scratch buffer of a helper (internal symbol), a static
// local of a template keeping the previous argument between calls
// (linkonce_odr symbol), and a static data member, all carrying
// derivatives within a call. The plugin links the derivatives into the
// unit, where it points references to local symbols at the unit's own
// variables (cotangent-cc --emit=obj cannot: static-rules-own-object.cpp).
// Derivatives against finite differences of the functions as Clang
// compiled them, reverse and forward mode; the variables end as the
// primal leaves them. -O0 and -O2.
// REQUIRES: plugin
// UNSUPPORTED: sanitizer
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

using check::near;

static double scratch[3];
namespace {
struct Moments {
  double mean, spread;
} moments;
} // namespace

// sum of (s_i - mean)^2 for s = {x, 2y, x y}, through the two variables.
[[ct::differentiable]] double variance(double x, double y) {
  scratch[0] = x;
  scratch[1] = 2 * y;
  scratch[2] = x * y;
  moments.mean = (scratch[0] + scratch[1] + scratch[2]) / 3;
  moments.spread = 0;
  for (double s : scratch)
    moments.spread += (s - moments.mean) * (s - moments.mean);
  return moments.spread;
}

double smoothed(double x) {
  static double buffer[2];
  buffer[0] = std::sin(x);
  buffer[1] = buffer[0] * x;
  return buffer[0] + buffer[1];
}

template <class T> T withPrevious(T x) {
  static T previous = 0;
  T result = x * x + previous * x;
  previous = x;
  return result;
}

struct Solver {
  static double residual[2];
};
double Solver::residual[2];

// smoothed(x) + the two calls of withPrevious (the second sees x) + the
// residual's norm.
[[ct::differentiable]] double pipeline(double x) {
  double a = smoothed(x);
  double b = withPrevious(x) + withPrevious(2 * x);
  Solver::residual[0] = a - 1;
  Solver::residual[1] = b * x;
  return a + b +
         Solver::residual[0] * Solver::residual[0] +
         Solver::residual[1] * Solver::residual[1];
}

int main() {
  double p[2] = {0.7, -1.2};
  double d[2] = {};
  ct::gradient<variance>(p[0], p[1], &d[0], &d[1]);
  near("static array: spread left", moments.spread, variance(p[0], p[1]), 0);
  for (int i = 0; i < 2; ++i)
    near("static array and unnamed namespace: gradient", d[i],
         check::differenceAt(p, i, [&] { return variance(p[0], p[1]); }),
         1e-7);
  near("static array: jvp", ct::jvp<variance>(p[0], p[1], 0.0, 1.0).tangent,
       d[1], 1e-12);

  // previous holds 2x from the last call; each derivative call starts
  // from the value the last call left (a constant for it).
  const double x = 0.4;
  withPrevious(2 * x);
  double dx = 0;
  ct::gradient<pipeline>(x, &dx);
  near("static locals: previous left", withPrevious(1.0), 1 + 2 * x, 0);
  withPrevious(2 * x);
  near("static locals: gradient", dx,
       check::centralDifference(
           [&](double t) {
             withPrevious(2 * x); // the state the derivative call saw
             return pipeline(t);
           },
           x),
       1e-7);
  withPrevious(2 * x);
  near("static locals: jvp", ct::jvp<pipeline>(x, 1.0).tangent, dx, 1e-12);
  near("static data member left", Solver::residual[0], smoothed(x) - 1, 0);
  return check::report();
}
