// Checkpointed loops and checkpointed functions whose iterations build and
// read library objects of their own (a std::map or std::unordered_map
// table made, filled, read and destroyed in the iteration or in a helper it
// calls): rerunning them in the reverse sweep builds the tables again, so
// they are admitted (objects made outside the rerun code stay an error:
// Diagnostics/checkpoints-and-libraries.cpp). Each function has a twin
// without the checkpoint; value and gradient must agree with it and with
// central differences, in reverse mode, forward mode and an HVP.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>
#include <map>
#include <unordered_map>

// A table of weights by key, built anew on every call.
double weighted(const double *p, double x, int n) {
  std::unordered_map<int, double> table;
  for (int k = 0; k < n; ++k)
    table[k] = 0.5 * k - 0.75;
  for (const auto &[key, weight] : table)
    x += weight * (key + 1) * std::sin(p[key % 2] * x);
  return x;
}

#define HELPER_LOOP_BODY r = 0.5 * std::sin(x * r) + weighted(c, r, 3);

[[ct::differentiable]] double helperLoop(double x, const double *c) {
  double r = x;
#pragma ct checkpoint snapshots(2)
  for (int i = 0; i < 5; ++i) {
    HELPER_LOOP_BODY
  }
  return r;
}
[[ct::differentiable]] double helperLoopPlain(double x, const double *c) {
  double r = x;
  for (int i = 0; i < 5; ++i) {
    HELPER_LOOP_BODY
  }
  return r;
}

// A std::map made in the loop's body itself, read by key and by iterators;
// the loop stops when the sum converges (a `while` checkpoint).
#define TABLE_LOOP_BODY                                                        \
  std::map<int, double> rates;                                                 \
  for (int k = 0; k < 4; ++k)                                                  \
    rates[k * k] = 1.0 / (k + 2);                                              \
  double step = 0;                                                             \
  for (auto it = rates.begin(); it != rates.end(); ++it)                       \
    step += it->second * std::cos(s * c[it->first % 3]);                       \
  s = 0.5 * s + step * rates[4];                                               \
  ++i;

[[ct::differentiable]] double tableLoop(double x, const double *c) {
  double s = x;
  int i = 0;
#pragma ct checkpoint
  while (i < 7 && std::fabs(s) < 100) {
    TABLE_LOOP_BODY
  }
  return s * s;
}
[[ct::differentiable]] double tableLoopPlain(double x, const double *c) {
  double s = x;
  int i = 0;
  while (i < 7 && std::fabs(s) < 100) {
    TABLE_LOOP_BODY
  }
  return s * s;
}

// A checkpointed function building its own table.
[[ct::checkpoint]] void relaxCheckpointed(double *u, int n) {
  std::map<int, double> damping;
  for (int k = 0; k < n; ++k)
    damping[k] = 1.0 / (1 + k);
  for (int k = 0; k + 1 < n; ++k)
    u[k] = std::sin(u[k]) * damping[k + 1] + u[k + 1] * 0.25;
}
void relaxPlain(double *u, int n) {
  std::map<int, double> damping;
  for (int k = 0; k < n; ++k)
    damping[k] = 1.0 / (1 + k);
  for (int k = 0; k + 1 < n; ++k)
    u[k] = std::sin(u[k]) * damping[k + 1] + u[k + 1] * 0.25;
}
[[ct::differentiable]] double evolve(double *u, int n) {
  for (int t = 0; t < 3; ++t)
    relaxCheckpointed(u, n);
  return u[0] * u[1] + u[n - 1];
}
[[ct::differentiable]] double evolvePlain(double *u, int n) {
  for (int t = 0; t < 3; ++t)
    relaxPlain(u, n);
  return u[0] * u[1] + u[n - 1];
}

template <auto F, auto Plain>
void checkScalar(const char *name, double x, const double *c) {
  double dx = 0, dxPlain = 0, dc[3] = {}, dcPlain[3] = {};
  double value = ct::gradient<F>(x, c, &dx, dc);
  double valuePlain = ct::gradient<Plain>(x, c, &dxPlain, dcPlain);
  double fd = check::centralDifference([&](double t) { return F(t, c); }, x);
  char label[96];
  std::snprintf(label, sizeof label, "%s value", name);
  check::near(label, value, valuePlain, 1e-12);
  std::snprintf(label, sizeof label, "%s gradient vs plain", name);
  check::near(label, dx, dxPlain, 1e-10);
  std::snprintf(label, sizeof label, "%s gradient vs differences", name);
  check::near(label, dx, fd, 1e-6);
  for (int i = 0; i < 3; ++i) {
    double shifted[3] = {c[0], c[1], c[2]};
    double fdc = check::differenceAt(shifted, i, [&] { return F(x, shifted); });
    std::snprintf(label, sizeof label, "%s gradient in c[%d]", name, i);
    check::near(label, dc[i], fdc, 1e-6);
    check::near(label, dc[i], dcPlain[i], 1e-10);
  }
  const double zero[3] = {};
  auto tangent = ct::jvp<F>(x, c, 1.0, zero);
  std::snprintf(label, sizeof label, "%s tangent", name);
  check::near(label, tangent.tangent, fd, 1e-6);
  // The HVP's x-part against differences of the gradient.
  double hv = 0, hc[3] = {};
  ct::hvp<F>(x, c, 1.0, zero, &hv, hc);
  double fdGradient = check::centralDifference(
      [&](double t) {
        double d = 0, unused[3] = {};
        ct::gradient<F>(t, c, &d, unused);
        return d;
      },
      x);
  std::snprintf(label, sizeof label, "%s hvp", name);
  check::near(label, hv, fdGradient, 1e-5);
}

void checkEvolve() {
  const int n = 4;
  double u0[n] = {0.3, -0.2, 0.7, 0.1};
  double u[n], du[n] = {}, v[n], dv[n] = {};
  for (int i = 0; i < n; ++i)
    u[i] = v[i] = u0[i];
  double value = ct::gradient<evolve>(u, n, du);
  double valuePlain = ct::gradient<evolvePlain>(v, n, dv);
  check::near("evolve value", value, valuePlain, 1e-12);
  for (int i = 0; i < n; ++i) {
    check::near("evolve final contents", u[i], v[i], 1e-12);
    double w[n];
    auto at = [&] {
      for (int j = 0; j < n; ++j)
        w[j] = u0[j];
      return evolvePlain(w, n);
    };
    double fd = check::differenceAt(u0, i, at);
    check::near("evolve gradient vs plain", du[i], dv[i], 1e-10);
    check::near("evolve gradient vs differences", du[i], fd, 1e-6);
  }
}

int main() {
  const double c[3] = {0.8, -0.4, 1.3};
  checkScalar<helperLoop, helperLoopPlain>("helperLoop", 0.6, c);
  checkScalar<helperLoop, helperLoopPlain>("helperLoop at -1.1", -1.1, c);
  checkScalar<tableLoop, tableLoopPlain>("tableLoop", 0.9, c);
  checkScalar<tableLoop, tableLoopPlain>("tableLoop at -0.3", -0.3, c);
  checkEvolve();
  return check::report();
}
