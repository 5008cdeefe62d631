// Strong zero (-fplugin-arg-cotangent-strong-zero, off by default): a zero
// adjoint or tangent times any partial is zero. clamped(x) = min(e^{1000x},
// 1) + x at x = 1: e^{1000} overflows, min passes a zero adjoint to it, and
// the exponential's partial is infinite, so in reverse mode IEEE arithmetic
// gives d/dx = 0 * inf + 1 = NaN; with strong zero, 1. In forward mode the
// choice (min) takes the chosen side's tangent, not a product with the
// other's infinite one, so it is 1 either way. Both modes, -O0 and -O2;
// ordinary derivatives are unchanged.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O0 -fplugin-arg-cotangent-strong-zero -DSTRONG_ZERO %s -o %ts0 && %ts0 | FileCheck %s
// RUN: %clangxx-ct -O2 -fplugin-arg-cotangent-strong-zero -DSTRONG_ZERO %s -o %ts2 && %ts2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>

#include "check.h"

[[ct::differentiable]] double clamped(double x) {
  return std::min(std::exp(1000 * x), 1.0) + x;
}
[[ct::differentiable]] double smooth(double x, double y) {
  return std::sin(x) * std::exp(y) + x * y;
}

int main() {
  using check::near;
  double dx = 0;
  ct::gradient<clamped>(1.0, &dx);
  double tangent = ct::jvp<clamped>(1.0, 1.0).tangent;
#ifdef STRONG_ZERO
  near("strong zero, reverse", dx, 1, 0);
  near("strong zero, forward", tangent, 1, 0);
#else
  near("IEEE, reverse: NaN", std::isnan(dx), 1, 0);
  near("IEEE, forward: the choice", tangent, 1, 0);
#endif
  // Below the overflow the clamp passes e^{1000x} on: 1000 e^{1000x} + 1.
  double small = -0.01, ds = 0;
  ct::gradient<clamped>(small, &ds);
  near("below the clamp", ds, 1000 * std::exp(1000 * small) + 1, 1e-13);
  double gx = 0, gy = 0;
  ct::gradient<smooth>(0.3, -0.7, &gx, &gy);
  near("ordinary derivative, x", gx, std::cos(0.3) * std::exp(-0.7) - 0.7,
       1e-14);
  near("ordinary derivative, y", gy, std::sin(0.3) * std::exp(-0.7) + 0.3,
       1e-14);
  return check::report();
}
