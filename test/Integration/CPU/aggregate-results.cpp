// Derivatives of functions that return an aggregate of one floating type
// (std::array, a struct of doubles): the result's scalars are the first
// block of outputs, then the non-const memory. ct::jacobian (reverse mode
// when inputs outnumber outputs, forward otherwise), ct::batch_jacobian,
// ct::pullback (the result's seed is an object of the result's type) and
// ct::jvp (a ct::dual of the result's type), against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <array>
#include <cmath>

#include "check.h"

// f(x) = (x0 x1, sin x2 + x0): 3 inputs, 2 outputs.
std::array<double, 2> f(const std::array<double, 3> &x) {
  return {x[0] * x[1], std::sin(x[2]) + x[0]};
}
void jacobianOfF(const std::array<double, 3> &x, double *J) {
  const double expected[6] = {x[1], x[0], 0, 1, 0, std::cos(x[2])};
  for (int i = 0; i < 6; ++i)
    J[i] = expected[i];
}

struct Vec2 {
  double a, b;
};
// g(x, y) = (x y, x + y^2): 2 inputs, 2 outputs (forward mode).
Vec2 g(double x, double y) { return {x * y, x + y * y}; }

// h writes work[i] = 2 x[i] and returns (sum x, prod x): rows are h's
// result, then work (with respect to x only: work's initial contents,
// which h overwrites, would be inputs too).
Vec2 h(const double *x, double *work) {
  double s = 0, p = 1;
  for (int i = 0; i < 3; ++i) {
    work[i] = 2 * x[i];
    s += x[i];
    p *= x[i];
  }
  return {s, p};
}

int main() {
  using check::near;
  std::array<double, 3> x = {0.5, -1.25, 0.75};
  double expected[6];
  jacobianOfF(x, expected);
  {
    double J[6] = {};
    ct::jacobian<f>(x, J);
    for (int i = 0; i < 6; ++i)
      near("jacobian of std::array result (reverse)", J[i], expected[i],
           1e-14);
  }
  {
    double J[4] = {};
    ct::jacobian<g>(1.5, -2.0, J);
    const double want[4] = {-2.0, 1.5, 1.0, -4.0};
    for (int i = 0; i < 4; ++i)
      near("jacobian of struct result (forward)", J[i], want[i], 1e-14);
    double Jy[2] = {};
    ct::jacobian<g, ct::wrt<1>>(1.5, -2.0, Jy);
    near("jacobian of struct result, wrt<1>: row 0", Jy[0], 1.5, 1e-14);
    near("jacobian of struct result, wrt<1>: row 1", Jy[1], -4.0, 1e-14);
  }
  {
    // Rows: s, p, work0..2; columns x0..x2.
    double p[3] = {2.0, 3.0, -0.5}, work[3] = {};
    double J[5 * 3] = {};
    ct::jacobian<h, ct::wrt<0>>(ct::extents{3, 3}, p, work, J);
    const double want[15] = {1,    1,   1,   p[1] * p[2], p[0] * p[2],
                             p[0] * p[1], 2, 0, 0, 0, 2, 0, 0, 0, 2};
    for (int i = 0; i < 15; ++i)
      near("jacobian of result then memory", J[i], want[i], 1e-14);
  }
  {
    std::array<double, 3> xs[2] = {x, {1.0, 2.0, -3.0}};
    double J[2 * 6] = {};
    ct::batch_jacobian<f>(2, xs, J);
    for (int b = 0; b < 2; ++b) {
      double want[6];
      jacobianOfF(xs[b], want);
      for (int i = 0; i < 6; ++i)
        near("batch jacobian of std::array result", J[b * 6 + i], want[i],
             1e-14);
    }
  }
  {
    std::array<double, 2> dret = {0.5, -2.0};
    std::array<double, 3> dx = {};
    std::array<double, 2> value = ct::pullback<f>(x, dret, &dx);
    near("pullback of std::array result: value 0", value[0], x[0] * x[1],
         1e-15);
    near("pullback of std::array result: value 1", value[1],
         std::sin(x[2]) + x[0], 1e-15);
    for (int j = 0; j < 3; ++j)
      near("pullback of std::array result: J^T dret", dx[j],
           dret[0] * expected[j] + dret[1] * expected[3 + j], 1e-14);
  }
  {
    std::array<double, 3> tx = {1.0, 0.5, -2.0};
    ct::dual<std::array<double, 2>> d = ct::jvp<f>(x, &tx);
    near("jvp of std::array result: value", d.value[1],
         std::sin(x[2]) + x[0], 1e-15);
    for (int i = 0; i < 2; ++i)
      near("jvp of std::array result: J t", d.tangent[i],
           expected[3 * i] * tx[0] + expected[3 * i + 1] * tx[1] +
               expected[3 * i + 2] * tx[2],
           1e-14);
    ct::dual<Vec2> e = ct::jvp<g, ct::wrt<0>>(1.5, -2.0, 1.0);
    near("jvp of struct result, wrt<0>", e.tangent.a, -2.0, 1e-14);
    near("jvp of struct result, wrt<0>, second", e.tangent.b, 1.0, 1e-14);
  }
  return check::report();
}
