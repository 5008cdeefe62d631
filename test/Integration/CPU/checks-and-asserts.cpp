// Checks that touch no active value never block differentiation: assert,
// the standard library's own checks (std::clamp's), __builtin_expect, and
// calls that do not return, `throw` in a statement of its own (argument
// checks that throw std::invalid_argument). A check that fails inside a
// derivative prints what the primal would have printed and aborts; a throw
// says what was thrown and aborts (derivatives do not unwind).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t2 fail 2>&1 | FileCheck %s --check-prefix=ASSERT
// RUN: not --crash %t2 abort 2>&1 | FileCheck %s --check-prefix=ABORT
// RUN: not --crash %t2 throw 2>&1 | FileCheck %s --check-prefix=THROW
// RUN: not --crash %t0 throw 2>&1 | FileCheck %s --check-prefix=THROW
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed
// ASSERT: checks-and-asserts.cpp:{{[0-9]+}}: double guarded(const double *, int): Assertion `n > 0 && "at least one element"' failed.
// ABORT: checks-and-asserts.cpp:{{[0-9]+}}: 'abort' was called in a derivative; aborting
// THROW: checks-and-asserts.cpp:{{[0-9]+}}: an exception of type 'std::invalid_argument' was thrown in a derivative, which does not unwind to a caller; aborting

#include <cotangent/cotangent.h>

#include "check.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

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

// sum p_i^2 / scale, with the argument checks a library writes.
[[ct::differentiable]] double scaledSquares(const double *p, int n,
                                            double scale) {
  if (n <= 0)
    throw std::invalid_argument("scaledSquares: n must be positive");
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (!(p[i] == p[i]))
      throw std::domain_error("scaledSquares: NaN input");
    s += p[i] * p[i];
  }
  return s / scale;
}

int main(int argc, char **argv) {
  const double p[3] = {0.5, -2.0, 3.0};
  double dp[3] = {};
  if (argc > 1 && !std::strcmp(argv[1], "fail"))
    ct::gradient<guarded>(p, 0, dp);
  if (argc > 1 && !std::strcmp(argv[1], "throw")) {
    double ds = 0;
    ct::gradient<scaledSquares>(p, 0, 2.0, dp, &ds);
  }
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
  // The throwing checks pass: d/dp = 2p / scale, d/dscale = -s / scale^2.
  double dq[3] = {}, dscale = 0;
  double q = ct::gradient<scaledSquares>(p, 3, 2.0, dq, &dscale);
  check::near("checked value", q, (0.25 + 4.0 + 9.0) / 2.0, 1e-15);
  for (int i = 0; i < 3; ++i)
    check::near("checked d/dp", dq[i], p[i], 1e-15);
  check::near("checked d/dscale", dscale, -(0.25 + 4.0 + 9.0) / 4.0, 1e-15);
  return check::report();
}
