// Heap memory made by `new` where a pointer variable is assigned, in loops
// and branches, and read after them (reverse mode keeps what it needs):
// a buffer grown by new-copy-delete as a library grows one, a state
// replaced by a fresh buffer each step, a buffer made in either branch,
// one freed and made again in a loop from a null pointer. Reverse and
// forward mode and Hessian-vector products against central differences,
// at -O0 and -O2 (the sanitizer build checks that nothing leaks and that
// the reverse sweep reads no freed memory).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <string>

#include "check.h"

constexpr int kSize = 4;

[[ct::differentiable]] double grown(const double *x, int n) {
  int capacity = 1, size = 0;
  double *buffer = new double[capacity];
  for (int i = 0; i < n; ++i) {
    if (size == capacity) {
      double *bigger = new double[2 * capacity];
      for (int k = 0; k < size; ++k)
        bigger[k] = buffer[k];
      delete[] buffer;
      buffer = bigger;
      capacity *= 2;
    }
    buffer[size++] = std::sin(x[i]) * x[0];
  }
  double sum = 0;
  for (int k = 0; k < size; ++k)
    sum += buffer[k] * buffer[k] * (k + 1);
  delete[] buffer;
  return sum;
}

[[ct::differentiable]] double stepped(const double *x, int n) {
  double *state = new double[n];
  for (int i = 0; i < n; ++i)
    state[i] = x[i];
  for (int t = 0; t < 3; ++t) {
    double *next = new double[n];
    for (int i = 0; i < n; ++i)
      next[i] = std::cos(state[i]) + state[(i + 1) % n] * x[i];
    delete[] state;
    state = next;
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += state[i] * state[i];
  delete[] state;
  return sum;
}

[[ct::differentiable]] double branched(const double *x, int n) {
  double *p = nullptr;
  if (x[0] > 0) {
    p = new double[n];
    for (int i = 0; i < n; ++i)
      p[i] = x[i] * x[i];
  } else {
    p = new double[n + 1];
    for (int i = 0; i <= n; ++i)
      p[i] = std::exp(x[i % n]);
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += p[i] * x[(i + 1) % n];
  delete[] p;
  return sum;
}

[[ct::differentiable]] double remade(const double *x, int n) {
  double *p = nullptr;
  for (int l = 0; l < 3; ++l) {
    delete[] p;
    p = new double[n];
    for (int i = 0; i < n; ++i)
      p[i] = std::sin(x[i] * (l + 1));
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += p[i] * x[i];
  delete[] p;
  return sum;
}

template <auto F> static void checkAll(const char *name, double first) {
  double x[kSize] = {first, -0.2, 0.5, 0.7}, g[kSize] = {};
  std::string label(name);
  double value = ct::gradient<F, ct::wrt<0>>(x, kSize, g);
  check::near((label + " value").c_str(), value, F(x, kSize), 1e-13);
  for (int i = 0; i < kSize; ++i) {
    double fd = check::differenceAt(x, i, [&] { return F(x, kSize); });
    check::near((label + " gradient").c_str(), g[i], fd, 1e-6);
    double t[kSize] = {};
    t[i] = 1;
    auto jvp = ct::jvp<F, ct::wrt<0>>(x, kSize, t);
    check::near((label + " jvp").c_str(), jvp.tangent, fd, 1e-6);
  }
  // H v against central differences of the gradient along v.
  double v[kSize] = {1, 0.5, -2, 0.25}, hv[kSize] = {};
  ct::hvp<F, ct::wrt<0>>(x, kSize, v, hv);
  for (int i = 0; i < kSize; ++i) {
    auto gradientAlong = [&](double s) {
      double y[kSize], gy[kSize] = {};
      for (int k = 0; k < kSize; ++k)
        y[k] = x[k] + s * v[k];
      ct::gradient<F, ct::wrt<0>>(y, kSize, gy);
      return gy[i];
    };
    check::near((label + " hvp").c_str(), hv[i],
                check::centralDifference(gradientAlong, 0.0, 1e-5), 1e-5);
  }
}

int main() {
  checkAll<grown>("grown", 0.3);
  checkAll<stepped>("stepped", 0.3);
  checkAll<branched>("branched (then)", 0.3);
  checkAll<branched>("branched (else)", -0.3);
  checkAll<remade>("remade", 0.3);
  return check::report();
}
