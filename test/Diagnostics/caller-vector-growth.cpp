// Reverse mode cannot grow a std::vector of the caller's whose elements
// carry derivatives: the derivative vector given for it would have to grow
// too, and the cotangents of its first elements would have no place. The
// error is at the growth (forward mode and vectors without derivatives
// grow: test/Integration/CPU/caller-vector-growth.cpp).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <vector>

struct Layer {
  std::vector<double> w;
  double s;
};

[[ct::differentiable]] double appended(std::vector<Layer> &net, double x) {
  // CHECK: caller-vector-growth.cpp:[[@LINE+1]]:3: error: cannot differentiate in reverse mode: this grows a std::vector of the caller's whose elements carry derivatives, so the derivative vector given for it would have to grow too, leaving the cotangents of its first elements no place; grow a local copy and assign it back, or use forward mode (ct::jvp)
  net[0].w.push_back(x);
  return net[0].w[0] * x;
}

double run(std::vector<Layer> &net, std::vector<Layer> *dnet, double x,
           double *dx) {
  return ct::gradient<appended, ct::wrt<0, 1>>(net, x, dnet, dx);
}
