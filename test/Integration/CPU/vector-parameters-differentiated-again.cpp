// Entry points of functions taking std::vectors of numbers, called inside a
// function that is differentiated again (the inner derivative's vectors are
// memory like any other): the gradient of a gradient's norm (reverse over
// reverse), forward mode over the same, the gradient of a Jacobian's
// entries (ct::jacobian of a function of a std::vector), the gradient of
// lanes of a pullback, and an HVP of a function calling ct::gradient; each
// against closed forms or central differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>
#include <cotangent/dense.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

using check::centralDifference;
using check::near;

constexpr int N = 3;

double cubes(const std::vector<double> &x) {
  double s = 0;
  for (double v : x)
    s += v * v * v;
  return s;
}

// |grad cubes|^2 = 9 sum x^4: its gradient is 36 x^3.
double gradientNorm(const double *x) {
  std::vector<double> v(x, x + N), dv(N, 0.0);
  ct::gradient<cubes>(v, &dv);
  double s = 0;
  for (double g : dv)
    s += g * g;
  return s;
}

double product(const std::vector<double> &x) { return x[0] * x[1] * x[2]; }

// The Jacobian of product (its gradient) by the dense driver: the sum of
// its entries squared, sum over i of (prod / x_i)^2.
double jacobianEntries(const double *x) {
  std::vector<double> v(x, x + N);
  double J[N];
  ct::jacobian<product>(v, J);
  double s = 0;
  for (double e : J)
    s += e * e;
  return s;
}

void scaled(const std::vector<double> &x, std::vector<double> &out) {
  for (int i = 0; i < N; ++i)
    out[i] = std::sin(x[i]) * x[(i + 1) % N];
}

// Two seeds through one pullback of a function of vectors: the sum of the
// two lanes' adjoints.
double lanesOfPullback(const double *x) {
  std::vector<double> v(x, x + N), out(N), dv(2 * N, 0.0), seeds(2 * N, 0.0);
  for (int i = 0; i < N; ++i) {
    seeds[2 * i] = 1;
    seeds[2 * i + 1] = i;
  }
  ct::pullback<scaled, ct::lanes<2>>(v, out, &dv, &seeds);
  double s = 0;
  for (double d : dv)
    s += d * d;
  return s;
}

/// F's gradient against central differences (and those against
/// `expected`, when given).
template <double (*F)(const double *)>
void checkGradient(const char *name, const double *expected) {
  double x[N] = {0.7, -1.3, 1.1}, dx[N] = {};
  ct::gradient<F>(x, dx);
  char label[64];
  for (int i = 0; i < N; ++i) {
    std::snprintf(label, sizeof label, "%s d/dx%d", name, i);
    double difference = check::differenceAt(x, i, [&] { return F(x); });
    near(label, dx[i], expected ? expected[i] : difference, 1e-7);
    if (expected)
      near(label, difference, expected[i], 1e-6);
  }
}

int main() {
  double x[N] = {0.7, -1.3, 1.1};
  double closed[N];
  for (int i = 0; i < N; ++i)
    closed[i] = 36 * x[i] * x[i] * x[i];
  checkGradient<gradientNorm>("gradient norm", closed);
  checkGradient<jacobianEntries>("jacobian entries", nullptr);
  checkGradient<lanesOfPullback>("lanes of pullback", nullptr);
  // Forward over reverse: the directional derivative of gradientNorm.
  double t[N] = {0.5, -1, 2}, expected = 0;
  for (int i = 0; i < N; ++i)
    expected += closed[i] * t[i];
  near("gradient norm jvp", ct::jvp<gradientNorm>(x, t).tangent, expected,
       1e-10);
  // A Hessian-vector product of gradientNorm: 108 x^2 t elementwise.
  double hv[N] = {};
  ct::hvp<gradientNorm>(x, t, hv);
  for (int i = 0; i < N; ++i) {
    char label[64];
    std::snprintf(label, sizeof label, "gradient norm hvp %d", i);
    near(label, hv[i], 108 * x[i] * x[i] * t[i], 1e-9);
  }
  return check::report();
}
