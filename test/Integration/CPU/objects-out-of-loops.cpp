// Objects made in a loop's iteration and read after the loop: a
// std::vector or array an early `return` reads, and a reference chosen in
// the loop between arrays (made before the loop, or in an enclosing
// loop's iteration) that the code after an early exit reads and writes.
// The forward sweep makes such an object's derivative beside it and passes
// it out of the loop with it (docs/Memory.md). Value, reverse mode, forward
// mode, Hessian-vector products and vector lanes against central
// differences, at -O0 and -O2; also a gradient differentiated again, and
// loops under `#pragma ct checkpoint` (recorded instead).
// (Regression: reverse mode refused these: "a reference or pointer chosen
// inside this loop ... is used after the loop".)
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <utility>
#include <vector>

#include "modes.h"

// A vector made in each iteration, read by the `return` that leaves the
// loop.
[[ct::differentiable]] double earlyReturn(const double *x, int n) {
  double acc = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> pair{x[i], x[(i + 1) % n]};
    if (pair[0] > 2.5)
      return std::sin(pair[0]) * pair[1] + acc;
    acc += pair[0] * pair[1];
  }
  return acc;
}

// The same with a local array.
[[ct::differentiable]] double arrayInIteration(const double *x, int n) {
  for (int i = 0; i < n; ++i) {
    double t[3] = {x[i], x[i] * x[i], std::exp(x[i])};
    if (t[1] > 5)
      return t[0] * t[2] + t[1];
  }
  return x[0];
}

// Made in an outer loop's iteration, returned from an inner loop.
[[ct::differentiable]] double nestedLoops(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> row(3);
    for (int j = 0; j < 3; ++j)
      row[j] = x[(i + j) % n] * (j + 1);
    for (int j = 0; j < 3; ++j) {
      if (row[j] > 7)
        return row[0] * row[1] * row[2] + s;
      s += std::sin(row[j]);
    }
  }
  return s;
}

// A while loop whose vector is read after a product reaches a bound.
[[ct::differentiable]] double whileLoop(const double *x, int n) {
  int i = 0;
  double acc = 1;
  while (i < n) {
    std::vector<double> v{x[i] * acc, x[i] + 1};
    acc *= v[1];
    if (acc > 10)
      return v[0] * v[1];
    ++i;
  }
  return acc;
}

// A helper returning a vector from inside its loop, or another made after
// it: the return chooses between them.
static std::vector<double> firstLarge(const double *x, int n) {
  for (int i = 0; i < n; ++i) {
    std::vector<double> t{x[i] * x[i], std::sin(x[i])};
    if (t[0] > 2.0)
      return t;
  }
  return {x[0], x[1]};
}

[[ct::differentiable]] double returnedVector(const double *x, int n) {
  std::vector<double> v = firstLarge(x, n);
  std::vector<double> w = firstLarge(x + 3, 1); // made after the loop
  return v[0] * v[1] + v[1] * w[0] + w[1];
}

// A do-while loop's array read by its early return.
[[ct::differentiable]] double doWhileLoop(const double *x, int n) {
  int i = 0;
  double acc = 0;
  do {
    double t[2] = {x[i] + acc, x[i] * x[i]};
    acc += t[1];
    if (acc > 4.5)
      return t[0] * t[1];
    ++i;
  } while (i < n);
  return acc;
}

// The best of the iterations' vectors, moved out of them.
[[ct::differentiable]] double movedOut(const double *x, int n) {
  std::vector<double> best{0.0, 0.0};
  for (int i = 0; i < n; ++i) {
    std::vector<double> t{x[i], std::cos(x[i])};
    if (t[0] > best[0])
      best = std::move(t);
  }
  return best[0] * best[1];
}

// A reference chosen in the loop between two arrays made before it,
// written and read after the loop exits early.
[[ct::differentiable]] double oneOfTwo(const double *x, int) {
  double a[3] = {x[0], x[1], x[0] * x[1]};
  double b[2] = {x[1] * x[1], x[0]};
  for (int i = 0; i < 4; ++i) {
    double &r = i % 2 ? a[i % 3] : b[i % 2];
    r *= x[0];
    if (i == 2) {
      r += x[1];
      return r * r + a[0] + 2 * a[1] + 3 * a[2] + 4 * b[0] + 5 * b[1];
    }
  }
  return x[1];
}

// The same in a helper called in a loop: the arrays (and vectors) are made
// in the enclosing loop's iterations.
static double chooseArrays(double x, double y, int stop) {
  double a[3] = {x, y, x * y};
  double b[2] = {y * y, x};
  for (int i = 0; i < 4; ++i) {
    double &r = i % 2 ? a[i % 3] : b[i % 2];
    r *= x;
    if (i == stop)
      return r * r + a[0] * b[1];
  }
  return y;
}

static double chooseVectors(double x, double y, int stop) {
  for (int i = 0; i < 4; ++i) {
    std::vector<double> v{x * i, y + i};
    std::vector<double> w{y * x, x};
    std::vector<double> &r = i % 2 ? v : w;
    r[0] *= x;
    if (i == stop)
      return r[0] * r[1] + v[0];
  }
  return y;
}

[[ct::differentiable]] double chosenInHelpers(const double *x, int) {
  double s = 0;
  for (int k = 0; k < 3; ++k)
    s += chooseArrays(x[0] * (k + 1), x[1], k + 1) +
         chooseVectors(x[1], x[0] * (k + 1), k + 1);
  return s;
}

// Under `#pragma ct checkpoint`: snapshots keep no memory an iteration made
// or a place it chose, so the pragma is ignored with a warning
// (Diagnostics/places-out-of-loops.cpp) and the iterations are recorded.
[[ct::differentiable]] double checkpointedEarlyReturn(const double *x, int n) {
  double acc = 0;
#pragma ct checkpoint
  for (int i = 0; i < n; ++i) {
    std::vector<double> pair{x[i], x[(i + 1) % n]};
    if (pair[0] > 2.5)
      return std::sin(pair[0]) * pair[1] + acc;
    acc += pair[0] * pair[1];
  }
  return acc;
}

[[ct::differentiable]] double checkpointedOneOfTwo(const double *x, int) {
  double a[3] = {x[0], x[1], x[0] * x[1]};
  double b[2] = {x[1] * x[1], x[0]};
#pragma ct checkpoint
  for (int i = 0; i < 4; ++i) {
    double &r = i % 2 ? a[i % 3] : b[i % 2];
    r *= x[0];
    if (i == 2) {
      r += x[1];
      return r * r + a[0] + 2 * a[1] + 3 * a[2] + 4 * b[0] + 5 * b[1];
    }
  }
  return x[1];
}

// The squared norm of earlyReturn's gradient: reverse over reverse.
[[ct::differentiable]] double gradientNorm(const double *x, int n) {
  double g[5] = {};
  ct::gradient<earlyReturn>(x, n, g);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += g[i] * g[i];
  return s;
}

int main() {
  const double x[5] = {1.0, 2.0, 3.0, 0.5, 2.5};
  check::checkModes<earlyReturn>("earlyReturn", x, 5);
  check::checkModes<arrayInIteration>("arrayInIteration", x, 5);
  check::checkModes<nestedLoops>("nestedLoops", x, 5);
  check::checkModes<whileLoop>("whileLoop", x, 5);
  check::checkModes<movedOut>("movedOut", x, 5);
  check::checkModes<returnedVector>("returnedVector", x, 5);
  check::checkModes<doWhileLoop>("doWhileLoop", x, 5);
  const double p[2] = {0.7, 1.3};
  check::checkModes<oneOfTwo>("oneOfTwo", p, 2);
  check::checkModes<chosenInHelpers>("chosenInHelpers", p, 2);
  check::checkModes<gradientNorm>("gradientNorm", x, 5);
  check::checkModes<checkpointedEarlyReturn>("checkpointedEarlyReturn", x, 5);
  check::checkModes<checkpointedOneOfTwo>("checkpointedOneOfTwo", p, 2);
  return check::report();
}
