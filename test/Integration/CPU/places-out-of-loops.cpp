// A reference chosen inside a loop and used after the loop exits early (a
// `return` in its body): structuring carries the place out of the loop,
// with no place on the paths that chose none. Written after the exit and
// read after it: the value, reverse mode, forward mode and vector mode
// against central differences, at -O0 and -O2. From one of two arrays:
// forward and vector mode (reverse mode refuses it:
// Diagnostics/places-out-of-loops.cpp). (Regression: forward mode lost the
// write through the carried place; before that, these were refused.)
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

// The place is written after the loop exits: r += x*y changes a[1] or a[4].
[[ct::differentiable]] double writtenAfterExit(double x, double y) {
  double a[5] = {x, y, x * y, 0.5, std::sin(x)};
  int i = 0;
  while (i < 3) {
    double &r = i > 1 ? (a[4] = y) : a[(i + 1) % 5];
    if (i < 1) {
      a[(i + 1) % 5] += std::sin(a[4]);
    } else {
      r += x * y;
      return a[0] + a[1] + a[2] * a[3] + a[4] * x;
    }
    ++i;
  }
  return x;
}

// The place is read after the loop exits, beside other writes.
[[ct::differentiable]] double readAfterExit(double x, double y) {
  double a[5] = {x, y, x * y, 0.5, std::sin(x)};
  int i = 0;
  while (i < 3) {
    a[4] = std::atan2(a[4], 1.5 + std::cos(y));
    double &r = i > 1 ? (a[4] = y) : a[(i + 1) % 5];
    r *= std::cos(x / (2.0 + y * y));
    if (i < 1 || std::cos(a[1]) > 0.99) {
      a[(i + 1) % 5] += std::sin(a[4]);
    } else {
      a[(i + 4) % 5] = a[(i + 2) % 5] / (1.5 + std::sin(y)) - r;
      return a[(i + 4) % 5] * x + r;
    }
    ++i;
  }
  return x * a[0] + a[2] * a[3];
}

// The place is in one of two arrays, chosen by the iteration.
[[ct::differentiable]] double oneOfTwo(double x, double y) {
  double a[3] = {x, y, x * y};
  double b[2] = {y * y, x};
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

template <auto F> void checkForward(const char *name, double x, double y) {
  double fx = check::centralDifference([&](double t) { return F(t, y); }, x);
  double fy = check::centralDifference([&](double t) { return F(x, t); }, y);
  auto forward = ct::jvp<F>(x, y, 1.0, 2.0);
  check::near(name, forward.value, F(x, y), 1e-12);
  check::near(name, forward.tangent, fx + 2 * fy, 1e-6);
  double tx[2] = {1, 0}, ty[2] = {0, 1};
  auto lanes = ct::jvp<F, ct::lanes<2>>(x, y, tx, ty);
  check::near(name, lanes.tangent[0], fx, 1e-6);
  check::near(name, lanes.tangent[1], fy, 1e-6);
}

template <auto F> void checkAt(const char *name, double x, double y) {
  double dx = 0, dy = 0;
  double value = ct::gradient<F>(x, y, &dx, &dy);
  check::near(name, value, F(x, y), 1e-12);
  check::near(name, dx,
              check::centralDifference([&](double t) { return F(t, y); }, x),
              1e-6);
  check::near(name, dy,
              check::centralDifference([&](double t) { return F(x, t); }, y),
              1e-6);
  check::near(name, ct::jvp<F>(x, y, 1.0, 2.0).tangent, dx + 2 * dy, 1e-9);
  checkForward<F>(name, x, y);
}

int main() {
  checkAt<writtenAfterExit>("writtenAfterExit", 0.3, 0.7);
  checkAt<writtenAfterExit>("writtenAfterExit", -1.2, 0.4);
  checkAt<readAfterExit>("readAfterExit", 0.3, 0.7);
  checkAt<readAfterExit>("readAfterExit", 1.1, -0.6);
  checkForward<oneOfTwo>("oneOfTwo", 0.3, 0.7);
  checkForward<oneOfTwo>("oneOfTwo", -1.3, 2.5);
  return check::report();
}
