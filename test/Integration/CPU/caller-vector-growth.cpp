// The caller's std::vector fields grown inside the function (a network
// whose layers hold std::vectors, kept in memory as C++ lays them out):
// the derivative code allocates and frees their memory with C++'s
// operator new and operator delete, as the vectors' own destructors do
// (under AddressSanitizer: no allocator mismatch, leak or double free).
// Forward mode grows the tangent network beside the network; reverse mode
// grows a network that carries no derivative (growing one that does is an
// error: test/Diagnostics/caller-vector-growth.cpp). Closed forms, -O0 and
// -O2.
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <vector>

#include "check.h"

using check::near;

struct Layer {
  std::vector<double> w;
  double s;
};

// Appends x and 2x to the first layer's weights (growing its memory twice
// past a capacity of one), then sum of squares times the second layer's
// scale.
[[ct::differentiable]] double appended(std::vector<Layer> &net, double x) {
  net[0].w.push_back(x);
  net[0].w.push_back(2 * x);
  double s = 0;
  for (double v : net[0].w)
    s += v * v;
  return s * net[1].s;
}

// Appends constants and resizes: sum over the weights of w^2 x.
[[ct::differentiable]] double filled(std::vector<Layer> &net, double x) {
  for (int i = 0; i < 5; ++i)
    net[0].w.push_back(i + 1.0);
  net[1].w.resize(3, 0.5);
  double s = 0;
  for (const Layer &layer : net)
    for (double v : layer.w)
      s += v * v * x;
  return s;
}

int main() {
  {
    std::vector<Layer> net(2), tangent(2);
    net[0].w = {1.0};
    net[1].s = 3.0;
    tangent[0].w = {0.5};
    tangent[1].s = 0.25;
    const double x = 1.5;
    auto r = ct::jvp<appended, ct::wrt<0, 1>>(net, x, &tangent, 1.0);
    // s = 1 + 5 x^2; ds = 2 * 1 * 0.5 + 10 x; value s * 3.
    near("forward: value", r.value, (1 + 5 * x * x) * 3, 1e-13);
    near("forward: tangent", r.tangent,
         (2 * 0.5 + 10 * x) * 3 + (1 + 5 * x * x) * 0.25, 1e-13);
    near("forward: network grown", net[0].w.size(), 3, 0);
    near("forward: tangent network grown", tangent[0].w.size(), 3, 0);
    near("forward: new weight", net[0].w[2], 2 * x, 0);
    near("forward: tangent of the new weights", tangent[0].w[1], 1.0, 0);
    near("forward: tangent of the new weights", tangent[0].w[2], 2.0, 0);
    near("forward: tangent of the old weight", tangent[0].w[0], 0.5, 0);
  }
  {
    std::vector<Layer> net(2);
    net[0].w = {2.0};
    net[1].w = {1.0, 1.0, 1.0, 1.0};
    const double x = 0.75;
    double dx = 0;
    double value = ct::gradient<filled, ct::wrt<1>>(net, x, &dx);
    // 4 + 55, and the three ones the resize keeps.
    near("reverse: value", value, (4 + 55 + 3) * x, 1e-13);
    near("reverse: d/dx", dx, 4 + 55 + 3, 1e-13);
    near("reverse: network grown", net[0].w.size(), 6, 0);
    near("reverse: network shrunk", net[1].w.size(), 3, 0);
    near("reverse: appended weight", net[0].w[5], 5.0, 0);
  }
  return check::report();
}
