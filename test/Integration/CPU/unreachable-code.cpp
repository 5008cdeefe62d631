// Code after a `return` whose condition is always true (`v >= v` with a
// known v) is unreachable once constants are known; the greedy clean-up
// used to rewrite its promoted values forever (`%a = arith.addi %a, %c0`
// defines itself there). It is erased first, so the program compiles in
// seconds (the limit below is generous), at -O0 and -O2, and its gradient
// matches finite differences. (Found by random programs, reduced.)
// REQUIRES: plugin
// RUN: timeout 120 %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: timeout 120 %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

[[ct::differentiable]] double f6(double x2, int n3, double x1) {
  double v80 = x2 * 4.0;
  double v81 = 1.5;
  x2 /= (std::exp(std::cos(x1)) + 0.5);
  if ((static_cast<double>((n3 + 1)) >= v80) || (v81 >= v81))
    return (v80 < 0.3 ? (x2 * x1) : static_cast<double>(x1));
  for (int i82 = 1; i82 <= 2; i82++) {
    v81 += -v80 * std::fabs(0.25 * x1);
    v81 = std::atan(static_cast<double>(i82 % 3) *
                    (-(v80 * static_cast<double>(n3 + 1))));
    if (std::sqrt(2.0 + std::cos(x2)) >= -0.25) {
      for (int i83 = 2; i83 >= 0; --i83) {
        double m84[2][2] = {{v80 * v81}, {0.5 - (-0.75), x2 * x2}};
        m84[(i82 + 1) % 2][(i83 + 1) % 2] *=
            (0.5 + 0.25 * std::sin(x2 + m84[(n3 + 1) % 2][n3 % 2]));
      }
      if (i82 < 1)
        break;
      double a85[5] = {x1, v81};
    }
  }
  return v81;
}

int main() {
  for (double x2 : {0.05, 0.5}) {
    double dx2 = 0;
    double value = ct::gradient<f6, ct::wrt<0>>(x2, 1, 0.7, &dx2);
    check::near("value", value, f6(x2, 1, 0.7), 1e-12);
    check::near("d/dx2", dx2,
                check::centralDifference([](double t) { return f6(t, 1, 0.7); },
                                         x2),
                1e-6);
  }
  return check::report();
}
