// Pointer variables re-seated to other memory: a pointer parameter assigned
// another parameter and moved (`b = a; ++b;`, from a peer AD tool's
// regression tests), in a loop that alternates two buffers, and pointers
// chosen by conditionals (`c ? p : q`), and an optional pointer parameter
// tested for null. Reverse and forward mode against central differences,
// at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

constexpr int kSize = 4;

[[ct::differentiable]] double reseated(double *a, double *b, int n) {
  b = a;
  ++b;
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += b[i] * std::sin(a[i]);
  return s;
}

// Each step reads one buffer and writes the other, the pointers swapped.
[[ct::differentiable]] double pingPong(const double *x, int steps) {
  double u[kSize], v[kSize];
  for (int k = 0; k < kSize; ++k)
    u[k] = x[k];
  double *from = u, *to = v;
  for (int s = 0; s < steps; ++s) {
    for (int k = 0; k < kSize; ++k)
      to[k] = std::tanh(from[k] + 0.5 * from[(k + 1) % kSize]);
    double *t = from;
    from = to;
    to = t;
  }
  return from[0] * from[1] + from[2] - from[3];
}

// The buffers are made in each iteration of an outer loop (their
// shadows on the heap in reverse mode).
[[ct::differentiable]] double pingPongEachStep(const double *x, int outer) {
  double s = 0;
  for (int o = 0; o < outer; ++o) {
    double u[kSize], v[kSize];
    for (int k = 0; k < kSize; ++k)
      u[k] = x[k] * (1.0 + 0.1 * o);
    double *from = u, *to = v;
    for (int step = 0; step < 2; ++step) {
      for (int k = 0; k < kSize; ++k)
        to[k] = std::sin(from[k]) * from[(k + 1) % kSize];
      double *t = from;
      from = to;
      to = t;
    }
    s += from[o % kSize];
  }
  return s;
}

[[ct::differentiable]] double chosen(const double *a, const double *b,
                                     int i) {
  const double *p = i > 0 ? a + 1 : b;
  const double *q = i > 1 ? b : p;
  return p[0] * q[1] + std::exp(p[1]);
}

// Weights are optional: null means all ones.
[[ct::differentiable]] double weightedSum(const double *x, const double *w,
                                          int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (w ? w[i] : 1.0) * std::sin(x[i]);
  if (w == nullptr)
    s *= 2;
  return s;
}

template <auto F, class... Ints>
void checkAt(const char *name, double *x, double *y, Ints... ints) {
  double dx[kSize] = {}, dy[kSize] = {};
  double value = ct::gradient<F>(x, y, ints..., dx, dy);
  check::near(name, value, F(x, y, ints...), 1e-12);
  double t[kSize] = {0.3, -1.0, 0.5, 2.0}, zero[kSize] = {};
  double directional = 0;
  for (int k = 0; k < kSize; ++k) {
    check::near(name, dx[k],
                check::differenceAt(x, k, [&] { return F(x, y, ints...); }),
                1e-6);
    check::near(name, dy[k],
                check::differenceAt(y, k, [&] { return F(x, y, ints...); }),
                1e-6);
    directional += t[k] * dx[k];
  }
  auto forward = ct::jvp<F>(x, y, ints..., t, zero);
  check::near(name, forward.tangent, directional, 1e-9);
}

int main() {
  double a[kSize] = {0.4, -1.1, 0.7, 1.3}, b[kSize] = {2.0, 0.1, -0.6, 0.8};
  checkAt<reseated>("reseated", a, b, kSize);
  for (int i = 0; i < 3; ++i)
    checkAt<chosen>("chosen", a, b, i);
  for (const double *w : {static_cast<const double *>(b),
                          static_cast<const double *>(nullptr)}) {
    double dx[kSize] = {}, dw[kSize] = {};
    double value = ct::gradient<weightedSum>(a, w, kSize, dx, dw);
    check::near("weightedSum value", value, weightedSum(a, w, kSize), 1e-12);
    for (int k = 0; k < kSize; ++k)
      check::near("weightedSum gradient", dx[k],
                  check::differenceAt(a, k,
                                      [&] { return weightedSum(a, w, kSize); }),
                  1e-6);
    if (w)
      check::near("weightedSum d/dw", dw[1], std::sin(a[1]), 1e-12);
  }
  double dx[kSize] = {};
  double value = ct::gradient<pingPong>(a, 3, dx);
  check::near("pingPong value", value, pingPong(a, 3), 1e-12);
  for (int k = 0; k < kSize; ++k)
    check::near("pingPong gradient", dx[k],
                check::differenceAt(a, k, [&] { return pingPong(a, 3); }),
                1e-6);
  {
    double de[kSize] = {};
    double each = ct::gradient<pingPongEachStep>(a, 3, de);
    check::near("pingPongEachStep value", each, pingPongEachStep(a, 3), 1e-12);
    for (int k = 0; k < kSize; ++k)
      check::near("pingPongEachStep gradient", de[k],
                  check::differenceAt(a, k,
                                      [&] { return pingPongEachStep(a, 3); }),
                  1e-6);
  }
  double t[kSize] = {1, 0, 0, 0};
  check::near("pingPong jvp", ct::jvp<pingPong>(a, 3, t).tangent, dx[0], 1e-9);
  return check::report();
}
