//===- TestUtils.cpp - Checks callable from executed test IR --------------===//
//
// Linked into `mlir-runner` by the lit substitution %mlir-runner. Each check
// prints one line; tests FileCheck for `ok` and for the absence of `FAIL`.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <cstdio>

/// Passes when |actual - expected| <= tolerance * max(1, |expected|).
extern "C" void ctExpectNear(double actual, double expected, double tolerance,
                             int64_t id) {
  double scale = std::fmax(1.0, std::fabs(expected));
  bool ok = std::fabs(actual - expected) <= tolerance * scale;
  if (ok)
    std::printf("check %lld: ok\n", static_cast<long long>(id));
  else
    std::printf("check %lld: FAIL actual=%.17g expected=%.17g\n",
                static_cast<long long>(id), actual, expected);
  std::fflush(stdout);
}
