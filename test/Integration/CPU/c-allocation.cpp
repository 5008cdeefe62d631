// C's allocation functions in differentiable code: `(T *)malloc(bytes)`,
// calloc (zeroed), realloc (grown, contents kept), aligned_alloc and free, on numbers and
// on structs of numbers, with the null check C programs write. The memory takes its type from the cast
// that follows the allocation. A buffer grown in a loop by `p = realloc(p,
// ...)` (the pointer variable given only allocations keeps their size),
// starting from malloc or from nullptr, of numbers and of structs, shrunk
// at the end. Reverse and forward mode at -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cstdlib>

#include "check.h"

// sum x_i^3 through a malloc'd work array.
[[ct::differentiable]] double cubes(const double *x, int n) {
  double *t = static_cast<double *>(std::malloc(n * sizeof(double)));
  if (!t)
    std::abort();
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * x[i];
  std::free(t);
  return s;
}

// aligned_alloc at malloc's alignment: sum x_i^2.
[[ct::differentiable]] double alignedSquares(const double *x, int n) {
  double *t = static_cast<double *>(std::aligned_alloc(16, 16 * sizeof(double)));
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i];
  std::free(t);
  return s;
}

// Prefix sums in zeroed memory: sum_i (n - i) x_i.
[[ct::differentiable]] double prefixSums(const double *x, int n) {
  double *prefix = (double *)calloc(n + 1, sizeof(double));
  for (int i = 0; i < n; ++i)
    prefix[i + 1] = prefix[i] + x[i];
  double s = 0;
  for (int i = 1; i <= n; ++i)
    s += prefix[i];
  free(prefix);
  return s;
}

// A history grown by realloc once, its first half kept: h_k = h_{k-1} *
// x0 + x1, h_0 = 1; the result is the sum of the history.
[[ct::differentiable]] double grownHistory(const double *x, int steps) {
  int half = steps / 2;
  double *first = static_cast<double *>(std::malloc((half + 1) * sizeof(double)));
  first[0] = 1.0;
  for (int k = 1; k <= half; ++k)
    first[k] = first[k - 1] * x[0] + x[1];
  double *h =
      static_cast<double *>(std::realloc(first, (steps + 1) * sizeof(double)));
  for (int k = half + 1; k <= steps; ++k)
    h[k] = h[k - 1] * x[0] + x[1];
  double s = 0;
  for (int k = 0; k <= steps; ++k)
    s += h[k];
  std::free(h);
  return s;
}

struct Particle {
  double position, velocity;
};

// Structs of numbers in malloc'd memory: sum of kinetic energies plus
// positions after one step.
[[ct::differentiable]] double particles(const double *x, int n) {
  auto *p = static_cast<Particle *>(std::malloc(n * sizeof(Particle)));
  for (int i = 0; i < n; ++i)
    p[i] = {x[i], 2.0 * x[i]};
  double e = 0;
  for (int i = 0; i < n; ++i) {
    p[i].position += 0.5 * p[i].velocity;
    e += 0.5 * p[i].velocity * p[i].velocity + p[i].position;
  }
  std::free(p);
  return e;
}

// sum_i (i + 1) x_i^2 through a buffer doubled by realloc when full.
[[ct::differentiable]] double doubledBuffer(const double *x, int n) {
  int capacity = 2, used = 0;
  double *buffer = (double *)std::malloc(capacity * sizeof(double));
  for (int i = 0; i < n; ++i) {
    if (used == capacity) {
      capacity *= 2;
      buffer = (double *)std::realloc(buffer, capacity * sizeof(double));
    }
    buffer[used++] = x[i] * x[i];
  }
  // Shrunk to what it holds.
  buffer = (double *)std::realloc(buffer, used * sizeof(double));
  double s = 0;
  for (int i = 0; i < used; ++i)
    s += buffer[i] * (i + 1);
  std::free(buffer);
  return s;
}

struct Sample {
  double at, value;
};

// Samples (x_i, x_i^3) appended one at a time, from nullptr: sum at * value
// = sum x_i^4.
[[ct::differentiable]] double appendedSamples(const double *x, int n) {
  Sample *samples = nullptr;
  int count = 0;
  for (int i = 0; i < n; ++i) {
    samples = static_cast<Sample *>(
        std::realloc(samples, (count + 1) * sizeof(Sample)));
    samples[count].at = x[i];
    samples[count].value = x[i] * x[i] * x[i];
    ++count;
  }
  double s = 0;
  for (int i = 0; i < count; ++i)
    s += samples[i].at * samples[i].value;
  std::free(samples);
  return s;
}

static void checkGrownByRealloc() {
  double x[7] = {0.5, -1.0, 2.0, 0.3, 0.7, -0.2, 1.1}, dx[7] = {};
  double expected = 0, tx[7] = {1, -1, 0.5, 2, 0, 1, -0.5}, directional = 0;
  for (int i = 0; i < 7; ++i) {
    expected += (i + 1) * x[i] * x[i];
    directional += 2 * (i + 1) * x[i] * tx[i];
  }
  check::near("doubled value", ct::gradient<doubledBuffer>(x, 7, dx), expected,
              1e-12);
  for (int i = 0; i < 7; ++i)
    check::near("doubled gradient", dx[i], 2 * (i + 1) * x[i], 1e-12);
  check::near("doubled jvp", ct::jvp<doubledBuffer>(x, 7, tx).tangent,
              directional, 1e-12);
  double ds[7] = {};
  expected = directional = 0;
  for (int i = 0; i < 7; ++i) {
    expected += x[i] * x[i] * x[i] * x[i];
    directional += 4 * x[i] * x[i] * x[i] * tx[i];
  }
  check::near("samples value", ct::gradient<appendedSamples>(x, 7, ds),
              expected, 1e-12);
  for (int i = 0; i < 7; ++i)
    check::near("samples gradient", ds[i], 4 * x[i] * x[i] * x[i], 1e-12);
  check::near("samples jvp", ct::jvp<appendedSamples>(x, 7, tx).tangent,
              directional, 1e-12);
}

static void checkCubes() {
  double x[3] = {1.0, -2.0, 0.5}, dx[3] = {};
  double v = ct::gradient<cubes>(x, 3, dx);
  check::near("cubes value", v, 1.0 - 8.0 + 0.125, 1e-12);
  for (int i = 0; i < 3; ++i)
    check::near("cubes gradient", dx[i], 3 * x[i] * x[i], 1e-12);
  double tx[3] = {1, 1, 1};
  check::near("cubes jvp", ct::jvp<cubes>(x, 3, tx).tangent, 3 + 12 + 0.75,
              1e-12);
  double da[3] = {};
  check::near("aligned value", ct::gradient<alignedSquares>(x, 3, da),
              1.0 + 4.0 + 0.25, 1e-12);
  for (int i = 0; i < 3; ++i)
    check::near("aligned gradient", da[i], 2 * x[i], 1e-12);
}

static void checkPrefixSums() {
  double x[4] = {0.3, 0.1, -0.7, 2.0}, dx[4] = {};
  double v = ct::gradient<prefixSums>(x, 4, dx);
  double expected = 0;
  for (int i = 0; i < 4; ++i)
    expected += (4 - i) * x[i];
  check::near("prefix value", v, expected, 1e-12);
  for (int i = 0; i < 4; ++i)
    check::near("prefix gradient", dx[i], 4.0 - i, 1e-12);
}

static void checkGrownHistory() {
  double x[2] = {0.9, 0.2}, dx[2] = {};
  const int steps = 9;
  double v = ct::gradient<grownHistory>(x, steps, dx);
  // h_k and its derivatives by the recurrence itself.
  double h = 1, ha = 0, hb = 0, s = 1, sa = 0, sb = 0;
  for (int k = 1; k <= steps; ++k) {
    double next = h * x[0] + x[1];
    double nextA = ha * x[0] + h, nextB = hb * x[0] + 1;
    h = next, ha = nextA, hb = nextB;
    s += h, sa += ha, sb += hb;
  }
  check::near("history value", v, s, 1e-12);
  check::near("history d/dx0", dx[0], sa, 1e-12);
  check::near("history d/dx1", dx[1], sb, 1e-12);
  double tx[2] = {1, -1};
  check::near("history jvp", ct::jvp<grownHistory>(x, steps, tx).tangent,
              sa - sb, 1e-12);
}

static void checkParticles() {
  double x[3] = {0.5, -1.0, 2.0}, dx[3] = {};
  double v = ct::gradient<particles>(x, 3, dx);
  // Each: 0.5 (2x)^2 + (x + x) = 2x^2 + 2x.
  double expected = 0;
  for (double xi : x)
    expected += 2 * xi * xi + 2 * xi;
  check::near("particles value", v, expected, 1e-12);
  for (int i = 0; i < 3; ++i)
    check::near("particles gradient", dx[i], 4 * x[i] + 2, 1e-12);
}

int main() {
  checkCubes();
  checkPrefixSums();
  checkGrownHistory();
  checkParticles();
  checkGrownByRealloc();
  return check::report();
}
