// Objects whose pointer fields designate arrays, chosen at run time by
// conditionals: `(c ? a : b).f()`, a reference bound to `c ? a : b`, a
// pointer variable initialized with `c ? &a : &b` and only read, nested
// conditionals among three objects, a struct member of a chosen object, and
// a store through a chosen object's pointer field. Each field of the chosen
// object is the same choice among the fields of the objects. Memory whose
// derivative is not tracked chosen beside memory whose derivative is (a
// table of constants, a pointer or std::vector parameter left out of
// ct::wrt) contributes nothing, in either mode and in Hessian-vector
// products (closed forms). Gradients
// against central differences, on both sides of each condition; forward
// mode against the gradient; Hessian-vector products against differences of
// gradients; two forward lanes.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "modes.h"

#include <cmath>
#include <cstdio>
#include <vector>

struct View {
  const double *p;
  int n;
  double sumOfSquares() const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += p[i] * p[i];
    return s;
  }
};

struct Channel {
  View in;
  double *out;
};

// A method called on a conditional.
[[ct::differentiable]] double methodOfChoice(const double *x, int n) {
  double y[4];
  for (int i = 0; i < 4; ++i)
    y[i] = std::sin(x[i]);
  View a{x, n}, b{y, 4};
  return (x[0] > 0 ? a : b).sumOfSquares() + (x[1] > 0 ? b : a).p[2];
}

// A reference and an only-read pointer variable bound to choices, and a
// choice among three objects.
[[ct::differentiable]] double boundChoices(const double *x, int n) {
  double y[4], z[3] = {1.0, 2.0, 3.0};
  for (int i = 0; i < 4; ++i)
    y[i] = x[i] * x[(i + 1) % 4];
  View a{x, n}, b{y, 4}, c{z, 3};
  const View &r = x[0] > 0 ? a : b;
  const View *q = x[1] > 0 ? &b : &a;
  const View &w = x[2] > 0 ? (x[3] > 0 ? c : a) : b;
  return r.sumOfSquares() * q->p[1] + w.p[2] * w.sumOfSquares() + q->n;
}

// A chosen object's member object, and a store through its pointer field.
[[ct::differentiable]] double chosenChannels(const double *x, int n) {
  double y[4], first = 0, second = 0;
  for (int i = 0; i < 4; ++i)
    y[i] = std::exp(0.5 * x[i]);
  Channel p{{x, n}, &first}, q{{y, 4}, &second};
  (x[3] < 0 ? p : q).out[0] = x[1] * x[2];
  Channel &chosen = x[0] > 1 ? p : q;
  return chosen.in.sumOfSquares() + 3 * first + second * second;
}

// Choices between the differentiated array and one that is not.
[[ct::differentiable]] double orDefaults(const double *x, const double *d,
                                         int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const double *p = x[i] > 0 ? x : d;
    s += p[i] * x[i];
  }
  return s;
}
[[ct::differentiable]] double orDefaultVector(const std::vector<double> &x,
                                              const std::vector<double> &d) {
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const std::vector<double> &p = x[i] < 1 ? d : x;
    s += p[i] * x[i] * x[i];
  }
  return s;
}

void checkConstantChoices() {
  using check::near;
  // d/dx_i: 2 x_i where x_i > 0, d_i elsewhere.
  double x[3] = {0.5, -1.0, 2.0}, d[3] = {3.0, 4.0, 5.0}, dx[3] = {};
  double t[3] = {1.0, 2.0, -1.0}, hv[3] = {};
  near("or defaults value", ct::gradient<orDefaults, ct::wrt<0>>(x, d, 3, dx),
       0.25 - 4.0 + 4.0, 1e-15);
  near("or defaults d/dx0", dx[0], 1.0, 1e-15);
  near("or defaults d/dx1", dx[1], 4.0, 1e-15);
  near("or defaults d/dx2", dx[2], 4.0, 1e-15);
  near("or defaults jvp",
       ct::jvp<orDefaults, ct::wrt<0>>(x, d, 3, t).tangent, 1.0 + 8.0 - 4.0,
       1e-15);
  ct::hvp<orDefaults, ct::wrt<0>>(x, d, 3, t, hv);
  near("or defaults hvp0", hv[0], 2.0, 1e-15);
  near("or defaults hvp1", hv[1], 0.0, 1e-15);
  near("or defaults hvp2", hv[2], -2.0, 1e-15);
  // x_i^3 where x_i >= 1, d_i x_i^2 elsewhere.
  std::vector<double> vx{0.5, -1.0, 2.0}, vd{3.0, 4.0, 5.0}, vdx(3);
  std::vector<double> vt{1.0, 2.0, -1.0};
  near("or default vector value",
       ct::gradient<orDefaultVector, ct::wrt<0>>(vx, vd, &vdx),
       0.75 + 4.0 + 8.0, 1e-15);
  near("or default vector d/dx0", vdx[0], 3.0, 1e-15);
  near("or default vector d/dx1", vdx[1], -8.0, 1e-15);
  near("or default vector d/dx2", vdx[2], 12.0, 1e-15);
  near("or default vector jvp",
       ct::jvp<orDefaultVector, ct::wrt<0>>(vx, vd, &vt).tangent,
       3.0 - 16.0 - 12.0, 1e-15);
}

int main() {
  const double points[4][4] = {{0.7, 0.4, -0.3, 0.2},
                               {-0.6, -0.5, 0.8, 0.9},
                               {1.3, 0.2, 0.6, -0.4},
                               {-0.2, 0.9, 0.5, -0.7}};
  for (const auto &point : points) {
    check::checkModes<methodOfChoice>("method of a choice", point, 4);
    check::checkModes<boundChoices>("bound choices", point, 4);
    check::checkModes<chosenChannels>("chosen channels", point, 4);
  }
  checkConstantChoices();
  return check::report();
}
