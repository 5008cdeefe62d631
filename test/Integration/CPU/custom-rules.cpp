// CT_CUSTOM_GRADIENT and CT_CUSTOM_JVP from C++. log1pexp(x) = log(1 + e^x)
// in float overflows at x = 100 (e^100 > FLT_MAX): differentiating its body
// gives inf/inf = NaN, the rules' stable sigmoid gives 1. The rules also
// serve calls inside another differentiable function, in both modes, also
// where a pointer the rule takes is not differentiated, and in vector mode
// (K tangents through the forward rule, against one lane at a time).
// REQUIRES: plugin
// RUN: %clangxx-ct -O1 %s -o %t && %t | FileCheck %s
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: 15 passed, 0 failed

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

// A rule over a pointer, called where the pointer is not differentiated:
// the rule still takes (and writes) a derivative for it, which the caller
// provides as scratch memory. A C pointer has no known extent, so that
// scratch is reserved address space, not a buffer of the pointer's size
// (which crashed).
double scaledSine(const double *p, double x) { return p[0] * std::sin(x); }
void scaledSinePullback(const double *p, double x, double dret, double *dp,
                        double *dx) {
  dp[0] += dret * std::sin(x);
  *dx += dret * p[0] * std::cos(x);
}
ct::dual<double> scaledSineJvp(const double *p, double x, const double *tp,
                               double tx) {
  return {p[0] * std::sin(x),
          tp[0] * std::sin(x) + p[0] * std::cos(x) * tx};
}
CT_CUSTOM_GRADIENT(scaledSine, scaledSinePullback);
CT_CUSTOM_JVP(scaledSine, scaledSineJvp);
double timesX(const double *p, double x) { return scaledSine(p, x) * x; }
// The same through a view of p + 1 (a smaller size, still no extent).
double timesXNext(const double *p, double x) {
  return scaledSine(p + 1, x) * x;
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
  {
    // timesX = p0 x sin x: d/dx = p0 (sin x + x cos x).
    double p[1] = {2.0}, x = 0.5, dx = 0;
    double expected = 2.0 * (std::sin(x) + x * std::cos(x));
    ct::gradient<timesX, ct::wrt<1>>(p, x, &dx);
    check::near("constant pointer.gradient", dx, expected, 1e-14);
    check::near("constant pointer.jvp",
                ct::jvp<timesX, ct::wrt<1>>(p, x, 1.0).tangent, expected,
                1e-14);
    double q[2] = {5.0, 2.0}, dq = 0;
    ct::gradient<timesXNext, ct::wrt<1>>(q, x, &dq);
    check::near("constant pointer + 1.gradient", dq, expected, 1e-14);
  }
  // Vector mode through the rules: the rule's ct::dual result is its
  // value beside its tangent, one lane at a time for each of K tangents.
  {
    float t[2] = {1, 2};
    auto d = ct::jvp<log1pexp, ct::lanes<2>>(100.0f, t);
    near("custom jvp in vector mode at 100, lane 0", d.tangent[0], 1.0,
         1e-6);
    near("custom jvp in vector mode at 100, lane 1", d.tangent[1], 2.0,
         1e-6);
    float lanes[3 * 2] = {1, 0, 0, 1, 0.5f, -1}, ta[2] = {0.25f, 0};
    auto v = ct::jvp<softplusSum, ct::lanes<2>>(p, 3, a, lanes, ta);
    for (int k = 0; k < 2; ++k) {
      float one[3] = {lanes[k], lanes[2 + k], lanes[4 + k]};
      near("custom jvp through a loop in vector mode", v.tangent[k],
           ct::jvp<softplusSum>(p, 3, a, one, ta[k]).tangent, 1e-5);
    }
    double q[2] = {0.7, -0.3}, tq[2 * 2] = {1, 0, 0.5, 2}, tx[2] = {0, 1};
    auto w = ct::jvp<timesX, ct::lanes<2>>(q, 0.4, tq, tx);
    for (int k = 0; k < 2; ++k) {
      double one[2] = {tq[k], tq[2 + k]};
      near("custom jvp over a pointer in vector mode", w.tangent[k],
           ct::jvp<timesX>(q, 0.4, one, tx[k]).tangent, 1e-12);
    }
  }
  return check::report();
}
