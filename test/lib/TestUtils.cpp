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

/// Prints one derivative next to its finite-difference reference, for the
/// examples run by `make demo`. `what`: 0 value, 1 gradient, 2 JVP, 3 HVP.
extern "C" void ctReport(int64_t what, int64_t index, double value,
                         double reference) {
  static const char *const names[] = {"value", "gradient", "JVP", "HVP"};
  const char *name = what >= 0 && what < 4 ? names[what] : "?";
  double error = std::fabs(value - reference) /
                 std::fmax(1e-300, std::fmax(std::fabs(value),
                                             std::fabs(reference)));
  const char *against = what == 0 ? "primal call" : "finite differences";
  std::printf("  %-8s [%lld] = %+.12f   %-18s %+.12f   rel. difference "
              "%.1e\n",
              name, static_cast<long long>(index), value, against, reference,
              error);
  std::fflush(stdout);
}
