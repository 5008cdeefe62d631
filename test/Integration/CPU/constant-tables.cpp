// Constant data a differentiable function reads without receiving it:
// constexpr and const arrays (1-D and 2-D, int and floating) and structs
// at namespace scope, in namespaces, static const locals, static constexpr
// data members. Reverse and forward mode, -O0 and -O2, against closed forms
// (the tables themselves have no derivative).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

constexpr double weights[4] = {0.5, 1.5, -2.0, 3.0};
static const double offsets[2][2] = {{1, 2}, {3, 4}};
struct Coefficients {
  double a, b;
};
constexpr Coefficients coefficients{2.0, -1.0};
namespace tables {
const int order[3] = {2, 0, 1};
constexpr float partial[3] = {0.25f}; // the rest is zero
} // namespace tables
struct Model {
  static constexpr double gain[2] = {3.0, -0.5};
};

[[ct::differentiable]] double weighted(const double *x, int n) {
  static const double scale[3] = {1.0, 10.0, 100.0};
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += weights[i] * x[i] * x[i] + offsets[i % 2][1] * x[i];
  return s * scale[tables::order[0]] + coefficients.a * x[0] +
         coefficients.b + Model::gain[1] * x[1];
}

[[ct::differentiable]] float lookup(float x, int k) {
  return tables::partial[k] * x * x + x;
}

int main() {
  const double x[4] = {1, 2, 3, 4};
  double dx[4] = {};
  double v = ct::gradient<weighted>(x, 4, dx);
  // s = 0.5 + 6 - 18 + 48 + (2 + 8 + 6 + 16) = 68.5; 100 s + 2 - 1 - 1.
  check::near("value", v, 6850.0 + 2.0 - 1.0 - 1.0, 1e-12);
  // d/dx_i = 100 (2 w_i x_i + offsets[i % 2][1]) + (2 at i = 0) + (-0.5
  // at i = 1).
  const double expected[4] = {302.0, 999.5, -1000.0, 2800.0};
  for (int i = 0; i < 4; ++i)
    check::near("gradient", dx[i], expected[i], 1e-12);
  const double t[4] = {1, 0, 1, 0};
  check::near("jvp", ct::jvp<weighted>(x, 4, t).tangent, 302.0 - 1000.0,
              1e-12);
  float df = 0;
  ct::gradient<lookup>(2.0f, 0, &df);
  check::near("float table", df, 2 * 0.25 * 2 + 1, 1e-6);
  df = 0;
  ct::gradient<lookup>(2.0f, 2, &df);
  check::near("float table filler", df, 1.0, 1e-6);
  return check::report();
}
