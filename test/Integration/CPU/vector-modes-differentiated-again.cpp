// Vector modes differentiated again: ct::pullback and ct::jvp with
// ct::lanes, ct::jacobian, ct::hessian and ct::batch_jacobian called inside
// a function that is differentiated again, by ct::gradient (reverse mode
// over them) and ct::jvp (forward mode over them):
//  - a norm of four seeds' pullbacks through a loop over memory, against
//    the same norm of four one-lane pullbacks and finite differences;
//  - the squared Frobenius norm of a Jacobian (forward-mode driver, memory
//    outputs) and of an aggregate's Jacobian (reverse-mode driver, a struct
//    by value, a std::array output), against closed forms and finite
//    differences;
//  - the Laplacian (trace of a Hessian) and its gradient, a third
//    derivative, against closed forms;
//  - a batch of Jacobians;
//  - third and fourth derivatives of sin through ct::hessian, and through
//    lanes over ct::hvp.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <array>
#include <cmath>

constexpr int N = 5;

double model(double w, const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += std::exp(w * x[i]) * x[i];
  return r;
}

// Reverse vector mode inside reverse: 4 seeds through one pullback of a
// function writing memory.
void spread(double w, const double *x, double *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = std::sin(w * x[i]) + x[(i + 1) % n] * x[i];
}
double laneGradNorm(double w, const double *x, int n) {
  double out[N], seeds[N * 4], dw[4] = {}, dx[N * 4] = {};
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 4; ++k)
      seeds[i * 4 + k] = (i + k) % 3 == 0 ? 1.0 : 0.5 * k;
  ct::pullback<spread, ct::lanes<4>>(w, x, out, n, dw, dx, seeds);
  double r = 0;
  for (int k = 0; k < 4; ++k)
    r += dw[k] * dw[k] * (k + 1);
  for (int i = 0; i < n * 4; ++i)
    r += dx[i] * dx[i];
  return r;
}
double oneLaneGradNorm(double w, const double *x, int n) {
  double r = 0;
  for (int k = 0; k < 4; ++k) {
    double out[N], seeds[N], dw = 0, dx[N] = {};
    for (int i = 0; i < n; ++i)
      seeds[i] = (i + k) % 3 == 0 ? 1.0 : 0.5 * k;
    ct::pullback<spread>(w, x, out, n, &dw, dx, seeds);
    r += dw * dw * (k + 1);
    for (int i = 0; i < n; ++i)
      r += dx[i] * dx[i];
  }
  return r;
}

// Jacobian inside: sum of squares of its entries.
void spiral(const double (&p)[3], double *out) {
  for (int i = 0; i < 7; ++i)
    out[i] = std::cos(p[0] * i) * p[1] + p[2] * p[2] * i;
}
double jacobianNorm(const double (&p)[3]) {
  double out[7], J[7 * 10];
  ct::jacobian<spiral>(ct::extents{7}, p, out, J);
  double r = 0;
  for (double j : J)
    r += j * j;
  return r;
}
double jacobianNormClosed(const double (&p)[3]) {
  double r = 0;
  for (int i = 0; i < 7; ++i) {
    double a = -std::sin(p[0] * i) * i * p[1], b = std::cos(p[0] * i),
           c = 2 * p[2] * i;
    r += a * a + b * b + c * c;
  }
  return r;
}

// Hessian inside: the Laplacian (trace of the Hessian).
double energy(const double *q, int n) {
  double e = 0;
  for (int i = 0; i + 1 < n; ++i)
    e += std::exp(q[i] * q[i + 1]);
  return e;
}
double laplacian(const double *q, int n) {
  double H[N * N];
  ct::hessian<energy>(ct::extents{N}, q, n, H);
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += H[i * N + i];
  return t;
}
double laplacianClosed(const double *q, int n) {
  double t = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double e = std::exp(q[i] * q[i + 1]);
    t += e * (q[i + 1] * q[i + 1] + q[i] * q[i]);
  }
  return t;
}

// Batch Jacobian inside.
void example(const double (&u)[2], double scale, std::array<double, 3> &v) {
  v[0] = u[0] * u[1] * scale;
  v[1] = std::exp(u[0]) * scale;
  v[2] = u[1] * u[1];
}
double batchNorm(const double (&u)[3][2]) {
  std::array<double, 3> v[3];
  double J[3 * 3 * 6];
  double scales[3] = {2, 2, 2};
  ct::batch_jacobian<example>(3, u, scales, v, J);
  double r = 0;
  for (double j : J)
    r += j * j * j;
  return r;
}
double batchClosed(const double (&uu)[3][2]) {
  const double *u = &uu[0][0];
  double r = 0;
  for (int b = 0; b < 3; ++b) {
    double a = u[2 * b], c = u[2 * b + 1];
    double J[9] = {c * 2, a * 2, a * c, std::exp(a) * 2, 0, std::exp(a),
                   0,     2 * c, 0};
    for (double j : J)
      r += j * j * j;
  }
  return r;
}

/// A struct by value and a std::array output: 3 + 2 inputs (its initial
/// contents count), 1 + 2 outputs, so the driver runs reverse mode.
struct Pose {
  double x, y, angle;
};
double place(Pose pose, std::array<double, 2> &where) {
  double c = std::cos(pose.angle), s = std::sin(pose.angle);
  where[0] = pose.x + c - 2 * s;
  where[1] = pose.y * pose.x + s;
  return where[0] * where[1];
}
double placeNorm(const double (&q)[3]) {
  Pose pose{q[0], q[1], q[2]};
  std::array<double, 2> where{};
  double J[3 * 5];
  ct::jacobian<place>(pose, where, J);
  double r = 0;
  for (double j : J)
    r += j * j;
  return r;
}
/// The same from closed-form partials.
double placeNormClosed(const double (&q)[3]) {
  double x = q[0], y = q[1], a = q[2], c = std::cos(a), s = std::sin(a);
  double w0 = x + c - 2 * s, w1 = y * x + s;
  double dw0[3] = {1, 0, -s - 2 * c}, dw1[3] = {y, x, c};
  double r = 0;
  for (int i = 0; i < 3; ++i) {
    double dv = dw0[i] * w1 + w0 * dw1[i];
    r += dv * dv + dw0[i] * dw0[i] + dw1[i] * dw1[i];
  }
  return r;
}

double sine(double x) { return std::sin(x); }
/// sin'' by a 1 x 1 Hessian.
double secondOfSine(double x) {
  double H[1];
  ct::hessian<sine>(x, H);
  return H[0];
}
/// sin'' by a Hessian-vector product, and 2 sin'' by lanes over it.
double hvpOfSine(double x) {
  double h = 0;
  ct::hvp<sine>(x, 1.0, &h);
  return h;
}
double laneSecondOfSine(double x) {
  double t[2] = {1, 2};
  return ct::jvp<hvpOfSine, ct::lanes<2>>(x, t).tangent[1];
}

int main() {
  double x[N] = {0.1, 0.2, -0.3, 0.4, 0.25}, w = 0.5;
  {
    double dw = 0, dx[N] = {}, dw1 = 0, dx1[N] = {};
    ct::gradient<laneGradNorm>(w, x, N, &dw, dx);
    ct::gradient<oneLaneGradNorm>(w, x, N, &dw1, dx1);
    check::near("pullback lanes value", laneGradNorm(w, x, N),
                oneLaneGradNorm(w, x, N), 1e-12);
    check::near("pullback lanes dw", dw, dw1, 1e-12);
    check::near("pullback lanes dw fd", dw,
                check::centralDifference(
                    [&](double t) { return oneLaneGradNorm(t, x, N); }, w),
                1e-6);
    for (int i = 0; i < N; ++i) {
      check::near("pullback lanes dx", dx[i], dx1[i], 1e-12);
      check::near(
          "pullback lanes dx fd", dx[i],
          check::differenceAt(x, i, [&] { return oneLaneGradNorm(w, x, N); }),
          1e-6);
    }
    double tx[N] = {0.3, -0.1, 0.2, 0.5, -0.4};
    auto d = ct::jvp<laneGradNorm>(w, x, N, 0.7, tx);
    double expect = 0.7 * dw1;
    for (int i = 0; i < N; ++i)
      expect += tx[i] * dx1[i];
    check::near("pullback lanes jvp", d.tangent, expect, 1e-12);
  }
  {
    double p[3] = {0.3, -0.7, 1.1}, dp[3] = {};
    ct::gradient<jacobianNorm>(p, dp);
    check::near("jacobian norm", jacobianNorm(p), jacobianNormClosed(p), 1e-12);
    for (int i = 0; i < 3; ++i)
      check::near(
          "jacobian norm grad", dp[i],
          check::differenceAt(p, i, [&] { return jacobianNormClosed(p); }),
          1e-6);
    double t[3] = {1, 0.5, -2};
    auto d = ct::jvp<jacobianNorm>(p, t);
    check::near("jacobian norm jvp", d.tangent, dp[0] + 0.5 * dp[1] - 2 * dp[2],
                1e-12);
  }
  {
    double q[N] = {0.1, 0.2, -0.3, 0.4, 0.25}, dq[N] = {};
    ct::gradient<laplacian>(q, N, dq);
    check::near("laplacian", laplacian(q, N), laplacianClosed(q, N), 1e-12);
    for (int i = 0; i < N; ++i)
      check::near(
          "laplacian grad", dq[i],
          check::differenceAt(q, i, [&] { return laplacianClosed(q, N); }),
          1e-6);
    double t[N] = {1, 0, 0, 0.5, 0};
    auto d = ct::jvp<laplacian>(q, N, t);
    check::near("laplacian jvp", d.tangent, dq[0] + 0.5 * dq[3], 1e-12);
  }
  {
    double u[3][2] = {{0.1, 0.2}, {-0.3, 0.4}, {0.25, 0.6}}, du[3][2] = {};
    ct::gradient<batchNorm>(u, &du[0][0]);
    check::near("batch", batchNorm(u), batchClosed(u), 1e-12);
    for (int i = 0; i < 6; ++i)
      check::near(
          "batch grad", (&du[0][0])[i],
          check::differenceAt(&u[0][0], i, [&] { return batchClosed(u); }),
          1e-6);
  }
  {
    double q[3] = {0.4, -1.3, 0.9}, dq[3] = {};
    ct::gradient<placeNorm>(q, dq);
    check::near("aggregate jacobian norm", placeNorm(q), placeNormClosed(q),
                1e-12);
    for (int i = 0; i < 3; ++i)
      check::near("aggregate jacobian norm grad", dq[i],
                  check::differenceAt(q, i, [&] { return placeNormClosed(q); }),
                  1e-6);
  }
  for (double t : {0.3, 1.9}) {
    check::near("sin'' by hessian", secondOfSine(t), -std::sin(t), 1e-12);
    double d3 = 0;
    ct::gradient<secondOfSine>(t, &d3);
    check::near("sin''' by gradient of hessian", d3, -std::cos(t), 1e-12);
    check::near("sin''' by jvp of hessian",
                ct::jvp<secondOfSine>(t, 1.0).tangent, -std::cos(t), 1e-12);
    double d4 = 0;
    ct::gradient<laneSecondOfSine>(t, &d4);
    check::near("sin'''' by gradient of lanes of hvp", d4, 2 * std::sin(t),
                1e-12);
  }
  return check::report();
}
