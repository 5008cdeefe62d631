// A place chosen at run time and written (`(c ? q[2] : (y *= 3)) = x`)
// writes every memory it may be: the reverse sweep must not read again,
// after the write, a value an earlier loop read from that memory (here the
// loop building a network of layers, whose loads the reverse sweep would
// otherwise read again rather than tape). Found by the fuzzer (seed 93040):
// the gradient in x read q[2] as x instead of cos(x). Reverse and forward
// mode against central differences, -O0 and -O2.
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <array>
#include <cmath>
#include <vector>

#include "check.h"

struct Layer {
  std::vector<double> w;
  double s;
};

[[ct::differentiable]] double network(double y, double x) {
  std::array<double, 4> q{};
  for (double &e : q)
    e = std::cos(x);
  std::vector<Layer> layers;
  for (int i = 0; i < 3; ++i) {
    Layer layer;
    layer.s = std::sin(x * q[(i + 2) % 4]);
    layer.w.push_back(x);
    layers.push_back(layer);
  }
  for (const Layer &layer : layers)
    for (double v : layer.w)
      y += 0.5 * v * layer.s;
  ((q[3] - q[2]) > -0.25 ? q[2] : (y *= 3.0)) = x;
  return y;
}

// The same through a reference bound to the chosen place, written twice.
[[ct::differentiable]] double throughReference(double y, double x) {
  double q[3] = {std::cos(x), std::sin(x), x * x};
  std::vector<Layer> layers(2);
  for (int i = 0; i < 2; ++i) {
    layers[i].s = q[i + 1] * y;
    layers[i].w.resize(2, q[0] * x);
  }
  double s = 0;
  for (const Layer &layer : layers)
    s += layer.s * layer.w[1];
  double &chosen = y > 0 ? q[1] : s;
  chosen = x;
  chosen *= 2;
  return s + q[1] * y;
}

template <double (*F)(double, double)>
static void checkAt(const char *name, double y, double x) {
  double dy = 0, dx = 0;
  F(y, x); // (a first call changes nothing)
  ct::gradient<F>(y, x, &dy, &dx);
  double p[2] = {y, x};
  for (int i = 0; i < 2; ++i) {
    double expected =
        check::differenceAt(p, i, [&] { return F(p[0], p[1]); });
    check::near(name, i == 0 ? dy : dx, expected, 1e-7);
    double t[2] = {0, 0};
    t[i] = 1;
    check::near(name, ct::jvp<F>(y, x, t[0], t[1]).tangent, expected, 1e-7);
  }
}

int main() {
  for (double x : {0.742534, -0.4, 1.3}) {
    checkAt<network>("network", -0.605494, x);
    checkAt<throughReference>("through a reference", 0.8, x);
    checkAt<throughReference>("through a reference, other place", -0.8, x);
  }
  return check::report();
}
