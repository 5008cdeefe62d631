// Logging inside differentiable functions is kept as in the primal: printf,
// fprintf to stdout and stderr, puts, putchar and fflush run once per call
// of an entry point (in the forward sweep; forward mode once too), print
// the primal values, and do not change any derivative.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 2>&1 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 2>&1 | FileCheck %s
// CHECK: reverse
// CHECK-NEXT: step 1: s = 0.479426
// CHECK-NEXT: on stderr: 1.3209 after 3 terms
// CHECK-NEXT: done
// CHECK-NEXT: !
// CHECK-NEXT: forward
// CHECK-NEXT: step 1: s = 0.479426
// CHECK-NEXT: on stderr: 1.3209 after 3 terms
// CHECK-NEXT: done
// CHECK-NEXT: !
// CHECK-NEXT: checks
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>

#include "check.h"

[[ct::differentiable]] double logged(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += std::sin(x * i);
    if (i == 1)
      std::printf("step %d: s = %g\n", i, s);
  }
  std::fflush(stdout);
  std::fprintf(stderr, "on stderr: %g after %d terms\n", s, n);
  std::fflush(stderr);
  std::puts("done");
  std::putchar('!');
  std::putchar('\n');
  std::fflush(stdout);
  return s * x;
}

int main() {
  std::puts("reverse");
  double dx = 0;
  double value = ct::gradient<logged>(0.5, 3, &dx);
  std::puts("forward");
  std::fflush(stdout);
  auto jvp = ct::jvp<logged>(0.5, 3, 1.0);
  std::puts("checks");
  auto plain = [](double x) {
    double s = 0;
    for (int i = 0; i < 3; ++i)
      s += std::sin(x * i);
    return s * x;
  };
  check::near("value", value, plain(0.5), 1e-15);
  check::near("gradient", dx, check::centralDifference(plain, 0.5), 1e-8);
  check::near("jvp", jvp.tangent, dx, 1e-14);
  return check::report();
}
