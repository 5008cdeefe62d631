// User-defined conversion operators in differentiable code: a class's
// `operator double()` (implicit, in arithmetic and as an argument) and an
// `explicit operator bool()` tested in a branch are lowered as calls of the
// conversion function, so the derivative flows through what it computes.
// Reverse and forward mode against closed forms and central differences,
// at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

/// A quantity in scaled units: converting gives its value in base units.
struct Scaled {
  double amount;
  double unit;
  operator double() const { return amount * unit; }
};

/// A guard: true while its level is above a threshold.
struct Above {
  double level;
  double threshold;
  explicit operator bool() const { return level > threshold; }
};

double square(double v) { return v * v; }

[[ct::differentiable]] double converted(double x, double y) {
  Scaled s{x, 2.5};
  double plain = s;                 // implicit conversion
  double squared = square(s);       // as an argument
  double mixed = s * y + std::sin(Scaled{y, x});
  if (Above{x, 0.1})
    mixed *= x;
  return plain + squared + mixed;
}

double convertedClosedForm(double x, double y) {
  double s = 2.5 * x;
  double mixed = s * y + std::sin(y * x);
  if (x > 0.1)
    mixed *= x;
  return s + s * s + mixed;
}

int main() {
  const double x = 0.6, y = -0.8;
  double dx = 0, dy = 0;
  double value = ct::gradient<converted>(x, y, &dx, &dy);
  check::near("value", value, convertedClosedForm(x, y), 1e-14);
  double fx = check::centralDifference(
      [&](double t) { return convertedClosedForm(t, y); }, x);
  double fy = check::centralDifference(
      [&](double t) { return convertedClosedForm(x, t); }, y);
  check::near("reverse dx", dx, fx, 1e-7);
  check::near("reverse dy", dy, fy, 1e-7);
  check::near("forward dx", ct::jvp<converted>(x, y, 1.0, 0.0).tangent, fx,
              1e-7);
  check::near("forward dy", ct::jvp<converted>(x, y, 0.0, 1.0).tangent, fy,
              1e-7);
  // Below the threshold the branch is not taken.
  double small = ct::gradient<converted>(0.05, y, &dx, &dy);
  check::near("untaken value", small, convertedClosedForm(0.05, y), 1e-14);
  return check::report();
}
