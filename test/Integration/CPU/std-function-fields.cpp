// std::function objects kept in objects, made from the function's lambdas
// or named functions: a layer's activation (from a lambda capturing by copy,
// from a named function, assigned after the layer is made), copies of the
// layer, a std::function variable assigned after its declaration, a helper
// given the field by reference, an ODE stepper holding its right-hand side
// (given to its constructor, a lambda capturing by reference), and an array
// of layers indexed by constants. Each is the callable it was made from,
// held beside its place (docs/Memory.md, item 17). Every mode against
// central differences and the function's own value (modes.h), at -O0 and
// -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <functional>
#include <utility>

#include "modes.h"

static double softplus(double t) { return std::log1p(std::exp(t)); }

struct Layer {
  std::function<double(double)> activation;
  double weight;
};

static double output(const Layer &layer, double z) {
  return layer.weight * layer.activation(z);
}
static double applyTo(const std::function<double(double)> &f, double z) {
  return f(z) * z;
}

double layers(const double *x, int) {
  double gain = x[1];
  Layer squashed{[gain](double t) { return std::tanh(gain * t); }, 2.0};
  Layer smooth{softplus, x[2]};
  Layer copy = squashed;
  Layer later;
  later.weight = 0.5;
  later.activation = [&](double t) { return t * x[0] * x[0]; };
  std::function<double(double)> assigned;
  assigned = softplus;
  Layer stack[2] = {smooth, copy};
  return output(squashed, x[0]) + output(smooth, x[0]) +
         copy.activation(x[2]) + output(later, x[1]) + assigned(x[1]) +
         applyTo(smooth.activation, x[1]) + output(stack[1], x[3]) +
         stack[0].activation(x[2]);
}

class Heun {
  std::function<void(const double *, double *)> rhs_;
  double step_;

public:
  Heun(std::function<void(const double *, double *)> rhs, double step)
      : rhs_(std::move(rhs)), step_(step) {}
  void advance(double *y) const {
    double k1[2], k2[2], predicted[2];
    rhs_(y, k1);
    for (int i = 0; i < 2; ++i)
      predicted[i] = y[i] + step_ * k1[i];
    rhs_(predicted, k2);
    for (int i = 0; i < 2; ++i)
      y[i] += 0.5 * step_ * (k1[i] + k2[i]);
  }
};

double stepper(const double *x, int) {
  double rate = x[0], damping = x[3];
  Heun heun(
      [&](const double *y, double *dy) {
        dy[0] = -rate * y[1] - damping * y[0];
        dy[1] = rate * y[0];
      },
      0.1);
  double y[2] = {x[1], x[2]};
  for (int s = 0; s < 5; ++s)
    heun.advance(y);
  return y[0] * y[0] + y[1];
}

int main() {
  const double x[] = {0.7, -0.4, 1.3, 0.2};
  check::checkModes<layers>("layers", x, 4);
  check::checkModes<stepper>("stepper", x, 4);
  return check::report();
}
