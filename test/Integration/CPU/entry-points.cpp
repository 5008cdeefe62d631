// Every entry point of <cotangent/cotangent.h> from C++ compiled with the
// plugin, at -O0 and -O2: gradient, wrt selection, pullback seeds, jvp, hvp;
// in/out memory; float and double; loops, arrays, structs, templates,
// recursion, <cmath>; ct::stop_gradient. References are closed forms and
// central finite differences.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <array>
#include <cmath>

// f(x, y) = x^2 y (the README's example).
[[ct::differentiable]] double f(double x, double y) { return x * x * y; }

// A loop over memory, a <cmath> call and an integer parameter.
[[ct::differentiable]] double weightedLogSum(const double *p, int n,
                                             double w) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::log(1 + p[i] * p[i]) * w;
  return s;
}

// In/out memory: p[i] <- sin(p[i]) * a, returns sum of the old values.
[[ct::differentiable]] double scaleInPlace(double *p, int n, double a) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += p[i];
    p[i] = std::sin(p[i]) * a;
  }
  return s;
}

// A pure output: out[i] = x^(i+1).
[[ct::differentiable]] void powers(double x, double *out) {
  double v = 1;
  for (int i = 0; i < 3; ++i) {
    v *= x;
    out[i] = v;
  }
}

struct Vec3 {
  double x, y, z;
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};

// A struct by value and by reference.
[[ct::differentiable]] double energy(Vec3 v, const Vec3 &k) {
  return 0.5 * v.dot(v) + k.dot(v);
}

// A template, instantiated for float.
template <class T> T cubicSum(const std::array<T, 3> &a) {
  T s = 0;
  for (T v : a)
    s += v * v * v;
  return s;
}
[[ct::differentiable]] float cubicSumF(const std::array<float, 3> &a) {
  return cubicSum(a);
}

// Recursion: x^n by squaring.
double power(double x, int n) {
  if (n == 0)
    return 1;
  double h = power(x, n / 2);
  return n % 2 ? h * h * x : h * h;
}
[[ct::differentiable]] double powerOf7(double x) { return power(x, 7); }

// stop_gradient: d/dx [x * stop(x)] = stop(x) = x.
[[ct::differentiable]] double halfStopped(double x) {
  return x * ct::stop_gradient(x);
}

// The quadratic form 1/2 x'Ax of a non-symmetric A: H v = (A + A')/2 v.
constexpr int N = 4;
[[ct::differentiable]] double quadraticForm(const double *A, const double *x) {
  double s = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      s += 0.5 * x[i] * A[i * N + j] * x[j];
  return s;
}

int main() {
  using check::near;
  { // gradient: value and both partials.
    double dx = 0, dy = 0;
    double v = ct::gradient<f>(3.0, 4.0, &dx, &dy);
    near("gradient value", v, 36, 1e-15);
    near("gradient dx", dx, 24, 1e-15);
    near("gradient dy", dy, 9, 1e-15);
    // Adjoints accumulate.
    ct::gradient<f>(3.0, 4.0, &dx, &dy);
    near("gradient accumulates", dx, 48, 1e-15);
  }
  { // wrt: only y is active; a single extra argument.
    double dy = 0;
    double v = ct::gradient<f, ct::wrt<1>>(3.0, 4.0, &dy);
    near("wrt value", v, 36, 1e-15);
    near("wrt dy", dy, 9, 1e-15);
  }
  { // pullback: the seed scales the gradient.
    double dx = 0, dy = 0;
    ct::pullback<f>(3.0, 4.0, -2.5, &dx, &dy);
    near("pullback dx", dx, -60, 1e-15);
    near("pullback dy", dy, -22.5, 1e-15);
  }
  { // Memory, loops, <cmath>, an integer parameter; against differences.
    double p[3] = {0.3, -1.2, 2.0}, dp[3] = {0, 0, 0}, dw = 0;
    double w = 1.7;
    ct::gradient<weightedLogSum>(p, 3, w, dp, &dw);
    for (int i = 0; i < 3; ++i) {
      double fd = check::centralDifference(
          [&](double t) {
            double q[3] = {p[0], p[1], p[2]};
            q[i] = t;
            return weightedLogSum(q, 3, w);
          },
          p[i]);
      near("memory gradient vs FD", dp[i], fd, 1e-8);
    }
    near("memory dw", dw, weightedLogSum(p, 3, 1.0), 1e-14);
    auto dual = ct::jvp<weightedLogSum>(p, 3, w, dp, 0.5);
    double expected = 0.5 * weightedLogSum(p, 3, 1.0);
    for (int i = 0; i < 3; ++i)
      expected += dp[i] * dp[i];
    near("jvp value", dual.value, weightedLogSum(p, 3, w), 1e-14);
    near("jvp tangent", dual.tangent, expected, 1e-12);
  }
  { // In/out memory: the shadow holds the seed of the final contents and
    // receives the cotangent of the initial ones.
    double p[2] = {0.4, 1.1}, dp[2] = {1.0, -2.0}, da = 0;
    double a = 3.0;
    double p0[2] = {p[0], p[1]};
    ct::gradient<scaleInPlace>(p, 2, a, dp, &da);
    near("in/out value written", p[1], std::sin(1.1) * 3.0, 1e-15);
    // d/dp_i [sum p + seed . a sin(p)] = 1 + seed_i a cos(p_i)
    near("in/out dp0", dp[0], 1 + 1.0 * a * std::cos(p0[0]), 1e-14);
    near("in/out dp1", dp[1], 1 - 2.0 * a * std::cos(p0[1]), 1e-14);
    near("in/out da", da, std::sin(p0[0]) - 2 * std::sin(p0[1]), 1e-14);
  }
  { // A pure output: its shadow is the seed in, zero out.
    double out[3], dout[3] = {1, 1, 1}, dx = 0;
    ct::pullback<powers>(2.0, out, &dx, dout);
    near("pure output value", out[2], 8, 1e-15);
    near("pure output dx", dx, 1 + 2 * 2.0 + 3 * 4.0, 1e-14);
    near("pure output shadow zeroed", dout[0] + dout[1] + dout[2], 0, 0);
    double tout[3];
    ct::jvp<powers>(2.0, out, 1.0, tout);
    near("pure output tangent", tout[2], 3 * 4.0, 1e-14);
  }
  { // Structs by value and by reference.
    Vec3 v{1, 2, 3}, k{0.5, -1, 2}, dv{0, 0, 0}, dk{0, 0, 0};
    double e = ct::gradient<energy>(v, k, &dv, &dk);
    near("struct value", e, 7 + 0.5 - 2 + 6, 1e-15);
    near("struct by value dv.y", dv.y, v.y + k.y, 1e-15);
    near("struct by reference dk.z", dk.z, v.z, 1e-15);
  }
  { // float, std::array, a template.
    std::array<float, 3> a{1.5f, -2.0f, 0.5f}, da{0, 0, 0};
    float s = ct::gradient<cubicSumF>(a, &da);
    near("float value", s, 3.375 - 8 + 0.125, 1e-6);
    near("float da1", da[1], 3 * 4.0, 1e-6);
  }
  { // Recursion.
    double dx = 0;
    ct::gradient<powerOf7>(1.3, &dx);
    near("recursion", dx, 7 * std::pow(1.3, 6), 1e-12);
  }
  { // stop_gradient.
    double dx = 0;
    ct::gradient<halfStopped>(1.5, &dx);
    near("stop_gradient", dx, 1.5, 1e-15);
  }
  { // HVP of a quadratic form.
    double A[N * N], x[N], v[N], hv[N] = {0, 0, 0, 0};
    for (int i = 0; i < N * N; ++i)
      A[i] = std::sin(1.0 + i) * 2;
    for (int i = 0; i < N; ++i) {
      x[i] = 0.1 * i - 0.3;
      v[i] = std::cos(0.7 * i);
    }
    double dA[N * N] = {}, dx[N] = {}; // unused: A is constant below
    (void)dA;
    (void)dx;
    ct::hvp<quadraticForm, ct::wrt<1>>(A, x, v, hv);
    for (int i = 0; i < N; ++i) {
      double expected = 0;
      for (int j = 0; j < N; ++j)
        expected += 0.5 * (A[i * N + j] + A[j * N + i]) * v[j];
      near("hvp quadratic form", hv[i], expected, 1e-13);
    }
  }
  return check::report();
}
