// std::vector<bool> masks in differentiable code: a parameter read by
// index and by range-for, a local filled by push_back and by assignment to
// its elements (the library's proxies, run as compiled), tested in
// branches; the derivative flows through the numbers the masks select.
// Reverse and forward mode against closed forms, at -O0 and -O2 (where
// the optimised unit keeps none of the library's inline code the
// derivatives call: they carry their own copies).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "check.h"

[[ct::differentiable]] double masked(const std::vector<bool> &mask,
                                     const double *x, int n) {
  std::vector<bool> large;
  for (int i = 0; i < n; ++i)
    large.push_back(x[i] * x[i] > 0.3);
  std::vector<bool> positive(n);
  for (int i = 0; i < n; ++i)
    positive[i] = x[i] > 0;
  double sum = 0;
  int k = 0;
  for (bool on : mask) {
    if (on && !large[k])
      sum += std::sin(x[k]);
    else if (positive[k])
      sum += x[k] * x[k];
    else
      sum -= x[k];
    ++k;
  }
  if (mask.back() && large.size() == static_cast<std::size_t>(n))
    sum *= 2;
  return sum;
}

int main() {
  std::vector<bool> mask = {true, false, true, false};
  double x[4] = {0.5, -1.0, 0.2, 0.7}, g[4] = {};
  double value = ct::gradient<masked, ct::wrt<1>>(mask, x, 4, g);
  // Not doubled (the last mask bit is off): sin(0.5) + 1 + sin(0.2) + 0.49.
  check::near("mask value", value,
              std::sin(0.5) + 1.0 + std::sin(0.2) + 0.49, 1e-15);
  const double expected[4] = {std::cos(0.5), -1.0, std::cos(0.2), 1.4};
  for (int i = 0; i < 4; ++i)
    check::near("mask gradient", g[i], expected[i], 1e-15);
  for (int i = 0; i < 4; ++i) {
    double t[4] = {};
    t[i] = 1;
    auto jvp = ct::jvp<masked, ct::wrt<1>>(mask, x, 4, t);
    check::near("mask jvp", jvp.tangent, expected[i], 1e-15);
  }
  return check::report();
}
