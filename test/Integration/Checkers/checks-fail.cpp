// The checkers of the integration tests must be able to fail: a planted
// wrong number, a NaN, and a test that checks nothing each make the program
// exit non-zero and print what FileCheck patterns of the tests reject.
// RUN: %clangxx-plain %s -DPLANT_WRONG -o %t.wrong && not %t.wrong | FileCheck %s --check-prefix=WRONG
// RUN: %clangxx-plain %s -DPLANT_NAN -o %t.nan && not %t.nan | FileCheck %s --check-prefix=NAN
// RUN: %clangxx-plain %s -o %t.none && not %t.none | FileCheck %s --check-prefix=NONE
// The summary pattern the integration tests use rejects each of them.
// RUN: %t.wrong | not FileCheck %s --check-prefix=SUMMARY
// RUN: %t.nan | not FileCheck %s --check-prefix=SUMMARY
// RUN: %t.none | not FileCheck %s --check-prefix=SUMMARY
// WRONG: check wrong: FAIL actual=3 expected=2
// WRONG: checks: 1 passed, 1 failed
// NAN: check nan: FAIL actual={{-?}}nan expected=1
// NONE: checks: 0 passed, 0 failed
// SUMMARY: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cmath>

#include "check.h"

int main() {
#ifdef PLANT_WRONG
  check::near("right", 2.0, 2.0, 1e-12);
  check::near("wrong", 3.0, 2.0, 1e-12);
#endif
#ifdef PLANT_NAN
  check::near("nan", std::nan(""), 1.0, 1e-12);
#endif
  return check::report();
}
