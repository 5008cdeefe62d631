// A reference chosen inside a loop between different arrays and used after
// the loop exits early is carried out of the loop; reverse mode cannot tell
// which array it is, and says so at the loop. Forward mode takes it
// (Integration/CPU/places-out-of-loops.cpp).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

[[ct::differentiable]] double oneOfTwo(double x, double y) {
  double a[3] = {x, y, x * y};
  double b[2] = {y * y, x};
  // CHECK: places-out-of-loops.cpp:[[@LINE+1]]:3: error: cannot differentiate in reverse mode: a reference or pointer chosen inside this loop, between different arrays or variables, is used after the loop; choose it after the loop, or use forward mode (ct::jvp)
  for (int i = 0; i < 4; ++i) {
    double &r = i % 2 ? a[i % 3] : b[i % 2];
    r *= x;
    if (i == 2) {
      r += y;
      return a[0] + 2 * a[1] + 3 * a[2] + 4 * b[0] + 5 * b[1];
    }
  }
  return y;
}

double gradient(double x, double y, double *dx, double *dy) {
  return ct::gradient<oneOfTwo>(x, y, dx, dy);
}
