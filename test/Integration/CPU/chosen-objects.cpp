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

#include "check.h"

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

template <double (*F)(const double *, int)>
void checkAt(const char *name, const double (&point)[4]) {
  using check::near;
  char label[160];
  double x[4], dx[4] = {}, t[4] = {0.3, -0.2, 0.5, 0.1};
  for (int i = 0; i < 4; ++i)
    x[i] = point[i];
  double value = ct::gradient<F>(x, 4, dx);
  std::snprintf(label, sizeof label, "%s value", name);
  near(label, value, F(x, 4), 1e-14);
  double directional = 0;
  for (int i = 0; i < 4; ++i) {
    std::snprintf(label, sizeof label, "%s d/dx%d", name, i);
    near(label, dx[i], check::differenceAt(x, i, [&] { return F(x, 4); }),
         1e-7);
    directional += dx[i] * t[i];
  }
  std::snprintf(label, sizeof label, "%s jvp", name);
  near(label, ct::jvp<F>(x, 4, t).tangent, directional, 1e-12);
  // H t against the difference of gradients along t.
  double hv[4] = {};
  ct::hvp<F>(x, 4, t, hv);
  for (int i = 0; i < 4; ++i) {
    auto gradientAlong = [&](double h) {
      double moved[4], d[4] = {};
      for (int k = 0; k < 4; ++k)
        moved[k] = x[k] + h * t[k];
      ct::gradient<F>(moved, 4, d);
      return d[i];
    };
    std::snprintf(label, sizeof label, "%s hvp %d", name, i);
    near(label, hv[i], check::centralDifference(gradientAlong, 0.0, 1e-5),
         1e-6);
  }
  // Two lanes: the tangents along t and along the first coordinate.
  double seeds[2 * 4] = {};
  for (int i = 0; i < 4; ++i) {
    seeds[2 * i] = t[i];
    seeds[2 * i + 1] = i == 0;
  }
  auto both = ct::jvp<F, ct::lanes<2>>(x, 4, seeds);
  std::snprintf(label, sizeof label, "%s lane 0", name);
  near(label, both.tangent[0], directional, 1e-12);
  std::snprintf(label, sizeof label, "%s lane 1", name);
  near(label, both.tangent[1], dx[0], 1e-12);
}

int main() {
  const double points[4][4] = {{0.7, 0.4, -0.3, 0.2},
                               {-0.6, -0.5, 0.8, 0.9},
                               {1.3, 0.2, 0.6, -0.4},
                               {-0.2, 0.9, 0.5, -0.7}};
  for (const auto &point : points) {
    checkAt<methodOfChoice>("method of a choice", point);
    checkAt<boundChoices>("bound choices", point);
    checkAt<chosenChannels>("chosen channels", point);
  }
  checkConstantChoices();
  return check::report();
}
