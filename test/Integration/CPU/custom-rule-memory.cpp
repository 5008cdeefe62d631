// A custom rule's pullback reads its pointer arguments in the reverse
// sweep, and reads them as the call left them: code after the call that
// overwrites the memory (a local array, a parameter's elements, a
// std::vector), an array made afresh in each iteration of a loop, a rule
// called again in a later iteration on the same memory, a split rule's
// backward half (CT_CUSTOM_VJP), vector lanes, a rule whose memory is read
// by a derivative differentiated again, a rule reading its parameter's
// memory four elements per step (the copy kept for the pullback holds the
// elements the steps reach, not three past the end: AddressSanitizer would
// see the copy read them), and one whose inner loop runs for no outer
// iteration at the smallest size (the copy holds none of the elements it
// would have read). Checked against central differences of the function,
// at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: 37 passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>
#include <vector>

// p[0] * sin(x) + p[1] * x, with a hand-written pullback that reads p.
double scaledSine(const double *p, double x) {
  return p[0] * std::sin(x) + p[1] * x;
}
void scaledSinePullback(const double *p, double x, double dret, double *dp,
                        double *dx) {
  dp[0] += dret * std::sin(x);
  dp[1] += dret * x;
  *dx += dret * (p[0] * std::cos(x) + p[1]);
}
CT_CUSTOM_GRADIENT(scaledSine, scaledSinePullback);

// The array is overwritten after the call.
double overwritten(double x) {
  double p[2] = {x * x, 3 * x};
  double s = scaledSine(p, x);
  p[0] = 100;
  p[1] = -7;
  return s + p[0] * x;
}

// A parameter's elements are overwritten after the call.
double parameterOverwritten(double *p, double x) {
  double s = scaledSine(p, x);
  p[0] = x * x;
  p[1] = 0;
  return s * p[0];
}

// An array made in each iteration, overwritten after the call.
double perIteration(double x) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    double p[2] = {x * (i + 1), 0.5};
    s += scaledSine(p, x + i);
    p[0] = 100;
  }
  return s;
}

// One array, changed between the calls of later iterations.
double laterIterations(double x) {
  double p[2] = {x, 1};
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    s += scaledSine(p, x * i);
    p[0] += std::cos(s);
    p[1] *= x;
  }
  return s;
}

// A std::vector's elements, changed after the call.
double vectorChanged(double x, int n) {
  std::vector<double> p(n, x);
  double s = scaledSine(p.data(), x);
  for (int i = 0; i < n; ++i)
    p[i] = s * i;
  return s + p[n - 1];
}

// A split rule: the backward half reads the call's arguments as well as
// its residuals.
double weighted(const double *w, double x) { return w[0] * std::exp(w[1] * x); }
struct WeightedResiduals {
  double e;
};
double weightedForward(const double *w, double x, WeightedResiduals *res) {
  res->e = std::exp(w[1] * x);
  return w[0] * res->e;
}
void weightedBackward(const WeightedResiduals *res, const double *w, double x,
                      double dret, double *dw, double *dx) {
  dw[0] += res->e * dret;
  dw[1] += w[0] * res->e * x * dret;
  *dx += w[0] * res->e * w[1] * dret;
}
CT_CUSTOM_VJP(weighted, weightedForward, weightedBackward);

double splitRuleOverwritten(double x) {
  double w[2] = {x, 0.3 * x};
  double s = weighted(w, x);
  w[0] = -5;
  w[1] = s;
  return s + w[1] * w[0];
}

// Four elements per step, up to the last multiple of four.
double blockDot(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n / 4 * 4; i += 4)
    s += p[i] * p[i + 3] + p[i + 1] * p[i + 2];
  return s;
}
void blockDotPullback(const double *p, int n, double dret, double *dp) {
  for (int i = 0; i < n / 4 * 4; i += 4) {
    dp[i] += dret * p[i + 3];
    dp[i + 3] += dret * p[i];
    dp[i + 1] += dret * p[i + 2];
    dp[i + 2] += dret * p[i + 1];
  }
}
CT_CUSTOM_GRADIENT(blockDot, blockDotPullback);

// The parameter's memory (the caller's vector of exactly n) is overwritten
// after the call.
double blocksOverwritten(double *p, int n) {
  double s = blockDot(p, n);
  for (int i = 0; i < n; ++i)
    p[i] = s;
  return s * p[0];
}

// The elements below the diagonal of an n x n matrix (rows `stride` apart),
// each times its column's diagonal element, and the first: for n = 1 the
// inner loop never runs and only p[0] is read.
double belowDiagonal(const double *p, int n, int stride) {
  double s = p[0];
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i)
      s += p[i * stride + j * n * stride] * p[j * (n + 1) * stride];
  return s;
}
void belowDiagonalPullback(const double *p, int n, int stride, double dret,
                           double *dp) {
  dp[0] += dret;
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i) {
      dp[i * stride + j * n * stride] += dret * p[j * (n + 1) * stride];
      dp[j * (n + 1) * stride] += dret * p[i * stride + j * n * stride];
    }
}
CT_CUSTOM_GRADIENT(belowDiagonal, belowDiagonalPullback);

double belowOverwritten(double *p, int n) {
  double s = belowDiagonal(p, n, 1);
  for (int i = 0; i < n * n; ++i)
    p[i] = s;
  return s * p[0];
}

// Differentiated again: the slope of `overwritten` and `perIteration`.
double overwrittenSlope(double x) {
  double d = 0;
  ct::gradient<overwritten>(x, &d);
  return d;
}
double perIterationSlope(double x) {
  double d = 0;
  ct::gradient<perIteration>(x, &d);
  return d;
}

template <double (*F)(double)> void checkScalar(const char *name, double x) {
  double d = 0;
  double value = ct::gradient<F>(x, &d);
  check::near(name, value, F(x), 1e-12);
  check::near(name, d, check::centralDifference(F, x), 1e-7);
}

int main() {
  for (double x : {0.7, -1.2}) {
    checkScalar<overwritten>("overwritten", x);
    checkScalar<perIteration>("perIteration", x);
    checkScalar<laterIterations>("laterIterations", x);
    checkScalar<splitRuleOverwritten>("splitRuleOverwritten", x);
    checkScalar<overwrittenSlope>("overwrittenSlope", x);
  }
  {
    double p[2] = {0.4, -0.9}, x = 0.6;
    double dp[2] = {}, dx = 0;
    double q[2] = {0.4, -0.9};
    ct::gradient<parameterOverwritten>(q, x, dp, &dx);
    auto f = [&] {
      double r[2] = {p[0], p[1]};
      return parameterOverwritten(r, x);
    };
    check::near("parameterOverwritten.x", dx,
                check::centralDifference(
                    [&](double t) {
                      double r[2] = {p[0], p[1]};
                      return parameterOverwritten(r, t);
                    },
                    x),
                1e-7);
    check::near("parameterOverwritten.p0", dp[0],
                check::differenceAt(p, 0, f), 1e-7);
    check::near("parameterOverwritten.p1", dp[1],
                check::differenceAt(p, 1, f), 1e-7);
  }
  for (int n : {8, 10}) {
    // (Each on the heap, of its exact size.)
    std::vector<double> p(n), q(n);
    for (int i = 0; i < n; ++i)
      p[i] = 0.3 + 0.1 * i;
    std::vector<double> dp(n, 0.0);
    q = p;
    ct::gradient<blocksOverwritten>(q.data(), n, dp.data());
    auto f = [&] {
      std::vector<double> r = p;
      return blocksOverwritten(r.data(), n);
    };
    for (int k : {0, n - 1})
      check::near("blocksOverwritten", dp[k], check::differenceAt(p.data(), k, f),
                  1e-7);
  }
  for (int n : {1, 2}) {
    // (On the heap, of its exact size: n * n.)
    std::vector<double> p(n * n), q(n * n), dp(n * n, 0.0);
    for (int i = 0; i < n * n; ++i)
      p[i] = 0.5 + 0.25 * i;
    q = p;
    ct::gradient<belowOverwritten>(q.data(), n, dp.data());
    auto f = [&] {
      std::vector<double> r = p;
      return belowOverwritten(r.data(), n);
    };
    for (int k : {0, n * n - 1})
      check::near("belowOverwritten", dp[k],
                  check::differenceAt(p.data(), k, f), 1e-7);
  }
  for (double x : {0.3, 1.1}) {
    double d = 0;
    ct::gradient<vectorChanged>(x, 4, &d);
    check::near("vectorChanged", d,
                check::centralDifference(
                    [](double t) { return vectorChanged(t, 4); }, x),
                1e-7);
  }
  {
    // Vector mode: two seeds through one sweep.
    double x = 0.7, seeds[2] = {1.0, -2.5}, d[2] = {0, 0};
    ct::pullback<perIteration, ct::lanes<2>>(x, seeds, d);
    double slope = check::centralDifference(perIteration, x);
    check::near("perIteration lane 0", d[0], slope, 1e-7);
    check::near("perIteration lane 1", d[1], -2.5 * slope, 1e-7);
  }
  for (double x : {0.5, -0.8}) {
    double d = 0;
    ct::gradient<perIterationSlope>(x, &d);
    check::near("perIterationSlope", d,
                check::centralDifference(perIterationSlope, x, 1e-5), 1e-6);
  }
  return check::report();
}
