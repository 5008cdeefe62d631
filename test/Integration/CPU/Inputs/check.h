//===- check.h - Numerical checks for the C++ integration tests -----------===//
//
// Each check prints one line, `check <name>: ok` or `... FAIL ...`; report()
// prints the totals and is main's exit status (non-zero when a check failed
// or none ran). References come from closed forms or from central finite
// differences (centralDifference).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_TEST_CHECK_H
#define COTANGENT_TEST_CHECK_H

#include <cmath>
#include <cstdio>

namespace check {

inline int passed = 0, failed = 0;

/// Passes when |actual - expected| <= tolerance * max(1, |expected|).
inline void near(const char *name, double actual, double expected,
                 double tolerance) {
  double scale = std::fmax(1.0, std::fabs(expected));
  if (std::fabs(actual - expected) <= tolerance * scale) {
    ++passed;
    std::printf("check %s: ok\n", name);
  } else {
    ++failed;
    std::printf("check %s: FAIL actual=%.17g expected=%.17g\n", name, actual,
                expected);
  }
}

/// (g(x + h) - g(x - h)) / 2h.
template <class G> double centralDifference(G g, double x, double h = 1e-6) {
  return (g(x + h) - g(x - h)) / (2 * h);
}

/// The central difference of f() in coordinate p[i] (restored after).
template <class F> double differenceAt(double *p, int i, F f) {
  return centralDifference(
      [&](double t) {
        double saved = p[i];
        p[i] = t;
        double value = f();
        p[i] = saved;
        return value;
      },
      p[i]);
}

/// Fails when a check failed, and when none ran: a test that checks nothing
/// must not pass.
inline int report() {
  std::printf("checks: %d passed, %d failed\n", passed, failed);
  return failed != 0 || passed == 0;
}

} // namespace check

#endif // COTANGENT_TEST_CHECK_H
