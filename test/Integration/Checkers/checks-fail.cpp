// The checkers of the integration tests must be able to fail: a planted
// wrong number, a NaN, and a test that checks nothing each make the program
// exit non-zero and print what FileCheck patterns of the tests reject.
// RUN: %clangxx-plain %s -DPLANT_WRONG -o %t.wrong
// RUN: not %t.wrong > %t.wrong.out
// RUN: FileCheck %s --check-prefix=WRONG < %t.wrong.out
// RUN: %clangxx-plain %s -DPLANT_NAN -o %t.nan
// RUN: not %t.nan > %t.nan.out
// RUN: FileCheck %s --check-prefix=NAN < %t.nan.out
// RUN: %clangxx-plain %s -o %t.none
// RUN: not %t.none > %t.none.out
// RUN: FileCheck %s --check-prefix=NONE < %t.none.out
// The summary pattern the integration tests use rejects each of them.
// RUN: not FileCheck %s --check-prefix=SUMMARY < %t.wrong.out
// RUN: not FileCheck %s --check-prefix=SUMMARY < %t.nan.out
// RUN: not FileCheck %s --check-prefix=SUMMARY < %t.none.out
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
