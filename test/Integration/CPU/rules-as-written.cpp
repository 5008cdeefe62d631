// Custom rules are ordinary C++: halves that differentiable code cannot
// express run as Clang compiled them. quad(A, b) = b^T A^{-1} b calls a
// solver library in another translation unit whose interface takes a
// matrix by value, so neither quad nor its CT_CUSTOM_VJP halves can be
// lowered: the primal, the forward half and the backward half are called
// as written, the backward half counting its calls in a global. softclip's
// CT_CUSTOM_GRADIENT and CT_CUSTOM_JVP count their calls too (rules with
// internal linkage: static-rules.cpp), and a pointer rule is called where
// the pointer is not differentiated (scratch memory for its derivative).
// Derivatives match closed forms and finite differences, and each half
// runs once per call of its function, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-plain -O2 -c %S/Inputs/rules-as-written-lib.cpp -o %t.lib.o
// RUN: %clangxx-ct -O0 %s %t.lib.o -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s %t.lib.o -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "Inputs/rules-as-written-lib.h"
#include "check.h"

int backwardCalls = 0, pullbackCalls = 0, jvpCalls = 0, sineCalls = 0;

double quad(const double *A, const double *b) {
  Matrix3 a;
  for (int i = 0; i < 9; ++i)
    a.m[i] = A[i];
  double z[3];
  cholesky_solve(a, b, z);
  return b[0] * z[0] + b[1] * z[1] + b[2] * z[2];
}

struct Solution {
  double z[3];
};
double quadForward(const double *A, const double *b, Solution *res) {
  Matrix3 a;
  for (int i = 0; i < 9; ++i)
    a.m[i] = A[i];
  cholesky_solve(a, b, res->z);
  return b[0] * res->z[0] + b[1] * res->z[1] + b[2] * res->z[2];
}
// dq/db = 2 z, dq/dA = -z z^T.
void quadBackward(const Solution *res, const double *, const double *,
                  double dret, double *dA, double *db) {
  ++backwardCalls;
  for (int i = 0; i < 3; ++i) {
    db[i] += 2 * dret * res->z[i];
    for (int j = 0; j < 3; ++j)
      dA[i * 3 + j] -= dret * res->z[i] * res->z[j];
  }
}
CT_CUSTOM_VJP(quad, quadForward, quadBackward);

[[ct::differentiable]] double weightedQuads(const double *A, const double *b,
                                            int reps) {
  double t = 0;
  for (int i = 0; i < reps; ++i)
    t += (i + 1) * quad(A, b);
  return t;
}

// softclip(x) = x / sqrt(1 + x^2), lowerable itself; its rules are not.
double softclip(double x) { return x / std::sqrt(1 + x * x); }
void softclipPullback(double x, double dret, double *dx) {
  ++pullbackCalls;
  *dx += dret / std::pow(1 + x * x, 1.5);
}
ct::dual<double> softclipJvp(double x, double tx) {
  ++jvpCalls;
  return {softclip(x), tx / std::pow(1 + x * x, 1.5)};
}
CT_CUSTOM_GRADIENT(softclip, softclipPullback);
CT_CUSTOM_JVP(softclip, softclipJvp);

[[ct::differentiable]] double clippedSum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += softclip(x[i]) * x[i];
  return s;
}

// A pointer rule compiled as written, where only x is differentiated.
double scaledSine(const double *p, double x) { return p[0] * std::sin(x); }
void scaledSinePullback(const double *p, double x, double dret, double *dp,
                        double *dx) {
  ++sineCalls;
  dp[0] += dret * std::sin(x);
  *dx += dret * p[0] * std::cos(x);
}
CT_CUSTOM_GRADIENT(scaledSine, scaledSinePullback);
[[ct::differentiable]] double timesX(const double *p, double x) {
  return scaledSine(p, x) * x;
}

int main() {
  using check::near;
  {
    const double A[9] = {4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2};
    const double b[3] = {1, -2, 0.5};
    double dA[9] = {}, db[3] = {};
    const int reps = 3; // weights 1 + 2 + 3
    solverCalls = 0;
    double value = ct::gradient<weightedQuads, ct::wrt<0, 1>>(A, b, reps, dA,
                                                              db);
    double z[3];
    cholesky_solve(Matrix3{{4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2}}, b, z);
    double q = b[0] * z[0] + b[1] * z[1] + b[2] * z[2];
    near("vjp as written: value", value, 6 * q, 1e-12);
    for (int i = 0; i < 3; ++i)
      near("vjp as written: db", db[i], 6 * 2 * z[i], 1e-12);
    for (int k = 0; k < 9; ++k)
      near("vjp as written: dA", dA[k], -6 * z[k / 3] * z[k % 3], 1e-12);
    // The forward half solves once per call of quad, the reverse sweep
    // never (one more for the z above).
    near("vjp as written: solver calls", solverCalls, reps + 1, 0);
    near("vjp as written: backward calls", backwardCalls, reps, 0);
    // db by finite differences of the primal, which runs as written.
    for (int i = 0; i < 3; ++i) {
      double bb[3] = {b[0], b[1], b[2]};
      near("vjp as written: db (finite differences)", db[i],
           check::differenceAt(bb, i,
                               [&] { return weightedQuads(A, bb, reps); }),
           1e-6);
    }
  }
  {
    double x[3] = {0.5, -1.5, 2.0}, dx[3] = {};
    pullbackCalls = jvpCalls = 0;
    ct::gradient<clippedSum>(x, 3, dx);
    for (int i = 0; i < 3; ++i) {
      double xi = x[i];
      double expected =
          xi / std::pow(1 + xi * xi, 1.5) + xi / std::sqrt(1 + xi * xi);
      near("pullback as written", dx[i], expected, 1e-12);
    }
    near("pullback as written: calls", pullbackCalls, 3, 0);
    double t[3] = {1, 0.5, -2};
    double tangent = ct::jvp<clippedSum>(x, 3, t).tangent;
    double expected = 0;
    for (int i = 0; i < 3; ++i)
      expected += t[i] * (x[i] / std::pow(1 + x[i] * x[i], 1.5) +
                          x[i] / std::sqrt(1 + x[i] * x[i]));
    near("jvp as written", tangent, expected, 1e-12);
    near("jvp as written: calls", jvpCalls, 3, 0);
  }
  {
    double p[1] = {2.0}, x = 0.5, dx = 0;
    sineCalls = 0;
    ct::gradient<timesX, ct::wrt<1>>(p, x, &dx);
    near("pointer rule as written, pointer not differentiated", dx,
         2.0 * (std::sin(x) + x * std::cos(x)), 1e-14);
    near("pointer rule as written: calls", sineCalls, 1, 0);
  }
  return check::report();
}
