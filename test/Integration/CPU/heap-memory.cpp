// new and delete in differentiable code: arrays of run-time size (zeroed
// with `()` or left uninitialized), arrays given initial values
// (`new double[4]{x, y}`: the rest zero; of arrays and of structs, whose
// default member initializers fill the rest), single objects, allocation and release
// inside a loop, std::unique_ptr owning arrays and objects (from `new` and
// std::make_unique, per loop iteration too); reverse and forward mode at
// -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <memory>

#include "check.h"

// x0 * sum x_i^2.
[[ct::differentiable]] double scratch(const double *x, int n) {
  double *squares = new double[n]();
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  double *first = new double(x[0]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += squares[i] * *first;
  delete[] squares;
  delete first;
  return s;
}

// A buffer per iteration: sum_k (k + 1)^2 sum x_i^2.
[[ct::differentiable]] double perIteration(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < 2; ++k) {
    double *w = new double[n];
    for (int i = 0; i < n; ++i)
      w[i] = x[i] * (k + 1);
    for (int i = 0; i < n; ++i)
      s += w[i] * w[i];
    delete[] w;
  }
  return s;
}

// The same as `scratch` and `perIteration`, owned by std::unique_ptr.
struct Pair {
  double a, b;
};
[[ct::differentiable]] double owned(const double *x, int n) {
  std::unique_ptr<double[]> squares(new double[n]());
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  auto first = std::make_unique<double>(x[0]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += squares.get()[i] * *first;
  for (int k = 0; k < 2; ++k) {
    auto w = std::make_unique<double[]>(n); // zeros
    for (int i = 0; i < n; ++i)
      w[i] += x[i] * (k + 1);
    for (int i = 0; i < n; ++i)
      s += w[i] * w[i];
  }
  std::unique_ptr<Pair> pair(new Pair{x[1], x[2]});
  return s + pair->a * (*pair).b;
}

struct Pair3 {
  double a = 7, b;
};

// Arrays `new` gives initial values: what the list does not give is zero
// (or the default member initializers).
[[ct::differentiable]] double listed(double x) {
  double *p = new double[4]{x, x * x};
  double(*m)[2] = new double[2][2]{{x, 2 * x}, {3 * x}};
  Pair *pairs = new Pair[3]{{x, 1}, {2, x * x}};
  Pair3 *filled = new Pair3[2]{{x, x}};
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += (i + 1) * p[i] + (i + 1) * m[i / 2][i % 2];
  for (int i = 0; i < 3; ++i)
    s += pairs[i].a * (i + 1) + pairs[i].b;
  s += filled[0].a * filled[0].b + filled[1].a + filled[1].b;
  delete[] p;
  delete[] m;
  delete[] pairs;
  delete[] filled;
  return s;
}

int main() {
  // listed: x + 2x^2 + (x + 4x + 9x) + (x + 1 + 4 + x^2) + x^2 + 7.
  for (double at : {1.5, -0.5}) {
    double d = 0;
    double value = ct::gradient<listed>(at, &d);
    check::near("listed value", value,
                16 * at + 4 * at * at + 12, 1e-14);
    check::near("listed gradient", d, 16 + 8 * at, 1e-14);
    check::near("listed jvp", ct::jvp<listed>(at, 1.0).tangent, 16 + 8 * at,
                1e-14);
  }
  const double x[3] = {1, 2, 3};
  double dx[3] = {};
  double v = ct::gradient<scratch>(x, 3, dx);
  check::near("scratch value", v, 14.0, 1e-15);
  const double expected[3] = {16.0, 4.0, 6.0};
  for (int i = 0; i < 3; ++i)
    check::near("scratch gradient", dx[i], expected[i], 1e-15);
  const double t[3] = {1, 1, 1};
  check::near("scratch jvp", ct::jvp<scratch>(x, 3, t).tangent, 26.0, 1e-15);

  double dg[3] = {};
  v = ct::gradient<perIteration>(x, 3, dg);
  check::near("perIteration value", v, 70.0, 1e-15);
  for (int i = 0; i < 3; ++i)
    check::near("perIteration gradient", dg[i], 10.0 * x[i], 1e-15);
  check::near("perIteration jvp", ct::jvp<perIteration>(x, 3, t).tangent,
              60.0, 1e-15);

  double dOwned[3] = {};
  v = ct::gradient<owned>(x, 3, dOwned);
  // x0 sum x_i^2 + 5 sum x_i^2 + x1 x2
  check::near("owned value", v, 14.0 + 70.0 + 6.0, 1e-15);
  const double expectedOwned[3] = {16.0 + 10.0, 4.0 + 20.0 + 3.0,
                                   6.0 + 30.0 + 2.0};
  for (int i = 0; i < 3; ++i)
    check::near("owned gradient", dOwned[i], expectedOwned[i], 1e-15);
  check::near("owned jvp", ct::jvp<owned>(x, 3, t).tangent,
              26.0 + 60.0 + 5.0, 1e-15);
  return check::report();
}
