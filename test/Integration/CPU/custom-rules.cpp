// CT_CUSTOM_GRADIENT and CT_CUSTOM_JVP from C++. log1pexp(x) = log(1 + e^x)
// in float overflows at x = 100 (e^100 > FLT_MAX): differentiating its body
// gives inf/inf = NaN, the rules' stable sigmoid gives 1. The rules also
// serve calls inside another differentiable function, in both modes.
// REQUIRES: plugin
// RUN: %clangxx-ct -O1 %s -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: 6 passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

float log1pexp(float x) { return std::log1p(std::exp(x)); }

void log1pexpPullback(float x, float dret, float *dx) {
  *dx += dret / (1 + std::exp(-x));
}
ct::dual<float> log1pexpJvp(float x, float tx) {
  return {log1pexp(x), tx / (1 + std::exp(-x))};
}
CT_CUSTOM_GRADIENT(log1pexp, log1pexpPullback);
CT_CUSTOM_JVP(log1pexp, log1pexpJvp);

// The same function without rules: what differentiating the body gives.
[[ct::differentiable]] float naive(float x) {
  return std::log1p(std::exp(x));
}

[[ct::differentiable]] float softplusSum(const float *p, int n, float a) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += log1pexp(a * p[i]);
  return s;
}

int main() {
  using check::near;
  float dx = 0;
  ct::gradient<log1pexp>(100.0f, &dx);
  near("custom gradient at 100", dx, 1.0, 1e-6);
  near("the body's derivative is NaN there",
       std::isnan([] { float d = 0; ct::gradient<naive>(100.0f, &d); return d; }()),
       1, 0);
  near("custom jvp at 100", ct::jvp<log1pexp>(100.0f, 1.0f).tangent, 1.0,
       1e-6);

  float p[3] = {1.0f, -2.0f, 0.5f}, dp[3] = {0, 0, 0}, da = 0;
  float a = 0.8f;
  ct::gradient<softplusSum>(p, 3, a, dp, &da);
  double expected = 0;
  for (float v : p)
    expected += v / (1 + std::exp(-a * v));
  near("rule inside a loop (reverse)", da, expected, 1e-5);
  near("rule inside a loop, memory", dp[1], a / (1 + std::exp(-a * p[1])),
       1e-5);
  near("rule inside a loop (forward)",
       ct::jvp<softplusSum>(p, 3, a, dp, 0.0f).tangent,
       [&] {
         double t = 0;
         for (int i = 0; i < 3; ++i)
           t += a * dp[i] / (1 + std::exp(-a * p[i]));
         return t;
       }(),
       1e-5);
  return check::report();
}
