// Variables declared in loop conditions (`while (int left = k--)`,
// `for (...; double w = ...; ...)`): declared afresh before each test;
// reverse and forward mode at -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

[[ct::differentiable]] double declared(double x, int n) {
  double s = 0;
  int k = n;
  while (int left = k--)
    s += x * left; // x (n + (n-1) + ... + 1)
  for (int i = 1; double w = (i <= n ? x * x * i : 0.0); ++i)
    s += w; // x^2 (1 + ... + n)
  return s;
}

int main() {
  // n = 3: s = 6x + 6x^2; at x = 2: 36, d/dx = 6 + 12x = 30.
  double dx = 0;
  double v = ct::gradient<declared>(2.0, 3, &dx);
  check::near("value", v, 36.0, 1e-15);
  check::near("gradient", dx, 30.0, 1e-15);
  check::near("jvp", ct::jvp<declared>(2.0, 3, 1.0).tangent, 30.0, 1e-15);
  return check::report();
}
