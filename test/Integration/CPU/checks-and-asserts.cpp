// Checks that touch no active value never block differentiation: assert,
// the standard library's own checks (std::clamp's), __builtin_expect, and
// calls that do not return. A check that fails inside a derivative prints
// what the primal would have printed and aborts.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t2 fail 2>&1 | FileCheck %s --check-prefix=ASSERT
// RUN: not --crash %t2 abort 2>&1 | FileCheck %s --check-prefix=ABORT
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed
// ASSERT: checks-and-asserts.cpp:{{[0-9]+}}: double guarded(const double *, int): Assertion `n > 0 && "at least one element"' failed.
// ABORT: checks-and-asserts.cpp:{{[0-9]+}}: 'abort' was called in a derivative; aborting

#include <cotangent/cotangent.h>

#include "check.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>

[[ct::differentiable]] double guarded(const double *p, int n) {
  assert(n > 0 && "at least one element");
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (__builtin_expect(p[i] < -1e300, 0))
      std::abort();
    s += std::clamp(p[i], -1.0, 1.0) * p[i];
  }
  return s;
}

int main(int argc, char **argv) {
  const double p[3] = {0.5, -2.0, 3.0};
  double dp[3] = {};
  if (argc > 1 && !std::strcmp(argv[1], "fail"))
    ct::gradient<guarded>(p, 0, dp);
  if (argc > 1 && !std::strcmp(argv[1], "abort")) {
    const double huge[1] = {-1e308};
    ct::gradient<guarded>(huge, 1, dp);
  }
  // s = 0.5^2 + (-1)(-2) + (1)(3): d/dp = 2p inside [-1, 1], the clamp
  // bound outside.
  double v = ct::gradient<guarded>(p, 3, dp);
  check::near("value", v, 0.25 + 2.0 + 3.0, 1e-15);
  check::near("d/dp0", dp[0], 1.0, 1e-15);
  check::near("d/dp1", dp[1], -1.0, 1e-15);
  check::near("d/dp2", dp[2], 1.0, 1e-15);
  double tp[3] = {1.0, 1.0, 1.0};
  check::near("jvp", ct::jvp<guarded>(p, 3, tp).tangent, 1.0, 1e-15);
  return check::report();
}
