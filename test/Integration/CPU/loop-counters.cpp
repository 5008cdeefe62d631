// A loop counter that lives on after its loop: the next loop starts where
// the previous one stopped, or the count itself feeds the result. Covers
// while/while, do-while/while, for/do-while, steps that overshoot the bound,
// loops that never run, and counters read after the loop, in reverse and
// forward mode at -O0 and -O2. References are closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

// 5 + 5 terms x^2.
[[ct::differentiable]] double twoWhiles(double x) {
  double s = 0;
  int i = 0;
  while (i < 5) {
    s += x * x;
    ++i;
  }
  while (i < 10) {
    s += x * x;
    ++i;
  }
  return s;
}

// do-while then while: 5 + 5 terms.
[[ct::differentiable]] double doThenWhile(double x) {
  double s = 0;
  int i = 0;
  do {
    s += x * x;
    ++i;
  } while (i < 5);
  while (i < 10) {
    s += x * x;
    ++i;
  }
  return s;
}

// for then do-while: 5 terms, then 5 more.
[[ct::differentiable]] double forThenDo(double x) {
  double s = 0;
  int i;
  for (i = 0; i < 5; ++i)
    s += x * x;
  do {
    s += x * x;
    ++i;
  } while (i < 10);
  return s;
}

// Step 3 overshoots 10: the counter ends at 12, the second loop runs for
// i = 12, 13 (2 terms), 4 + 2 terms in all.
[[ct::differentiable]] double overshoot(double x) {
  double s = 0;
  int i = 0;
  while (i < 10) {
    s += x;
    i += 3;
  }
  for (; i < 14; ++i)
    s += x * x;
  return s;
}

// A loop that never runs leaves its counter alone: n >= 7 keeps i = n.
[[ct::differentiable]] double neverRuns(double x, int n) {
  double s = 0;
  int i = n;
  while (i < 7) {
    s += x;
    ++i;
  }
  return s + x * i;
}

// The count feeds the result: i ends at ceil(n / 2) * 2.
[[ct::differentiable]] double countTimes(double x, int n) {
  int i = 0;
  for (; i < n; i += 2) {
  }
  return x * x * i;
}

int main() {
  double x = 1.5;
  auto gradientOf = [](auto value, double x, double expected,
                       double expectedGrad, const char *name) {
    double dx = 0;
    double v = value(x, &dx);
    check::near(name, v, expected, 1e-12);
    check::near(name, dx, expectedGrad, 1e-12);
  };
  gradientOf([](double x, double *dx) { return ct::gradient<twoWhiles>(x, dx); },
             x, 10 * x * x, 20 * x, "twoWhiles");
  gradientOf([](double x, double *dx) { return ct::gradient<doThenWhile>(x, dx); },
             x, 10 * x * x, 20 * x, "doThenWhile");
  gradientOf([](double x, double *dx) { return ct::gradient<forThenDo>(x, dx); },
             x, 10 * x * x, 20 * x, "forThenDo");
  gradientOf([](double x, double *dx) { return ct::gradient<overshoot>(x, dx); },
             x, 4 * x + 2 * x * x, 4 + 4 * x, "overshoot");
  check::near("twoWhiles.jvp", ct::jvp<twoWhiles>(x, 1.0).tangent, 20 * x,
              1e-12);
  check::near("overshoot.jvp", ct::jvp<overshoot>(x, 1.0).tangent, 4 + 4 * x,
              1e-12);
  check::near("forThenDo.plain", forThenDo(x), 10 * x * x, 1e-12);

  for (int n : {0, 3, 7, 9}) {
    double dx = 0;
    int runs = n < 7 ? 7 - n : 0, end = n < 7 ? 7 : n;
    double v = ct::gradient<neverRuns>(x, n, &dx);
    check::near("neverRuns", v, runs * x + x * end, 1e-12);
    check::near("neverRuns.d", dx, runs + end, 1e-12);
    check::near("neverRuns.jvp", ct::jvp<neverRuns>(x, n, 1.0).tangent,
                runs + end, 1e-12);
  }
  for (int n : {-3, 0, 5, 6}) {
    double dx = 0;
    int end = n > 0 ? (n + 1) / 2 * 2 : 0;
    double v = ct::gradient<countTimes>(x, n, &dx);
    check::near("countTimes", v, x * x * end, 1e-12);
    check::near("countTimes.d", dx, 2 * x * end, 1e-12);
  }
  return check::report();
}
