// Memory an iteration of a checkpointed loop makes and the code after an
// early exit from the loop reads: the snapshots the loop is rerun from keep
// no such memory, and reverse mode says so at the loop. (Without the
// pragma, and for places chosen among memory from outside the loop, it
// works: Integration/CPU/objects-out-of-loops.cpp.)
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

[[ct::differentiable]] double madeInIteration(const double *x, int n) {
  double acc = 0;
#pragma ct checkpoint
  // CHECK: places-out-of-loops.cpp:[[@LINE+1]]:3: error: cannot differentiate in reverse mode: memory made or chosen inside this checkpointed loop is used after the loop (an early return reading it); remove '#pragma ct checkpoint' from this loop
  for (int i = 0; i < n; ++i) {
    std::vector<double> pair{x[i], x[(i + 1) % n]};
    if (pair[0] > 2.5)
      return std::sin(pair[0]) * pair[1] + acc;
    acc += pair[0] * pair[1];
  }
  return acc;
}

double gradient(const double *x, int n, double *dx) {
  return ct::gradient<madeInIteration>(x, n, dx);
}
