// A custom rule's pullback reads its pointer arguments in the reverse
// sweep, as the call left them (Integration/CPU/custom-rule-memory.cpp):
// where the code after the call may change that memory, the elements the
// rule reads are kept. Those of a function whose body is compiled
// elsewhere, through a pointer of unknown extent, cannot be told: an error
// at the call. Memory nothing changes after the call needs no copy.
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
#include <cotangent/cotangent.h>

double library(const double *p, double x);
void libraryPullback(const double *p, double x, double dret, double *dp,
                     double *dx) {
  dp[0] += dret * x;
  *dx += dret * p[0];
}
CT_CUSTOM_GRADIENT(library, libraryPullback);

double changedAfter(double *p, double x) {
  // CHECK: custom-rule-memory.cpp:[[@LINE+1]]:14: error: cannot differentiate in reverse mode: the custom rule of 'library' reads its arguments' memory in the reverse sweep, after the code that follows the call may have changed it: cannot tell which elements of 'p' it reads (its body is compiled elsewhere); copy the elements it reads into a local array the code does not change before the call
  double s = library(p, x);
  p[0] = s;
  return s * x;
}

double unchanged(const double *p, double x) { return library(p, x) * x; }

// A local array: its extent is known, so it is kept whole.
double localArray(double x) {
  double p[3] = {x, 2 * x, 3 * x};
  double s = library(p, x);
  p[0] = s;
  return s + p[0];
}

void derivatives(double *p, double x, double *dp, double *dx) {
  ct::gradient<changedAfter>(p, x, dp, dx);
  ct::gradient<unchanged>(p, x, dp, dx);
  ct::gradient<localArray>(x, dx);
}
