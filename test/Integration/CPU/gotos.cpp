// `goto` as C and older numerical code write it: a forward jump skipping
// work in a loop, a jump out of nested loops to the function's end, a
// jump back that makes a loop (a retry with a counter), jumps leaving
// blocks that hold std::vectors (destroyed as they are left, also those
// declared after the label a jump goes back to), and a helper with gotos
// inlined twice. Every mode against central differences
// (check::checkModes) and closed forms, at -O0 and -O2 (and under
// AddressSanitizer in the sanitizer build: nothing leaks).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "Inputs/modes.h"

// Negative entries skipped by a jump to the end of the loop's body.
[[ct::differentiable]] double positives(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] < 0)
      goto next;
    s += (i + 1) * x[i] * x[i];
  next:;
  }
  return s;
}

// The first pair whose product passes a bound ends both loops, leaving
// the block of the vector made for it. (Read after the loops, through the
// jump, that vector would be memory made in a loop and used after it,
// which reverse mode refuses, as it does for an early `return`.)
[[ct::differentiable]] double firstPair(const double *x, int n) {
  double found = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      std::vector<double> pair{x[i], x[j]};
      if (pair[0] * pair[1] > 0.2) {
        found = std::sin(x[i]) * x[j];
        goto done;
      }
    }
  found = -1;
done:
  return found + x[0];
}

// A loop made by a jump back: halving until small, at most 6 times, each
// round with a vector of its own declared after the label.
[[ct::differentiable]] double halved(const double *x, int n) {
  double v = x[0] * x[1] + 4;
  int rounds = 0;
again:
  std::vector<double> scaled(n);
  for (int i = 0; i < n; ++i)
    scaled[i] = v * x[i];
  v = 0.5 * v + 0.1 * scaled[n - 1];
  if (v > 1 && ++rounds < 6)
    goto again;
  return v + rounds;
}

// A helper with a goto, inlined twice.
static double clipped(double v) {
  if (v < 1)
    goto small;
  return std::log(v);
small:
  return v - 1;
}

[[ct::differentiable]] double twice(const double *x, int n) {
  return clipped(x[0] * 3) + clipped(x[1] * x[2]);
}

int main() {
  const double point[4] = {0.7, -0.4, 1.3, 0.25};
  const double x0 = point[0], x1 = point[1], x2 = point[2], x3 = point[3];
  check::checkModes<positives>("positives", point, 4);
  check::checkModes<firstPair>("firstPair", point, 4);
  check::checkModes<halved>("halved", point, 4);
  check::checkModes<twice>("twice", point, 4);
  check::near("positives value", positives(point, 4),
              x0 * x0 + 3 * x2 * x2 + 4 * x3 * x3, 1e-14);
  // x0 x1 < 0, x0 x2 = 0.91: the pair (0, 2).
  check::near("firstPair value", firstPair(point, 4),
              std::sin(x0) * x2 + x0, 1e-14);
  check::near("twice value", twice(point, 4),
              std::log(3 * x0) + x1 * x2 - 1, 1e-14);
  // Closed form of the rounds: v <- v (0.5 + 0.1 x3) while v > 1.
  double v = x0 * x1 + 4;
  int rounds = 0;
  do {
    v = v * (0.5 + 0.1 * x3);
  } while (v > 1 && ++rounds < 6);
  check::near("halved value", halved(point, 4), v + rounds, 1e-14);
  return check::report();
}
