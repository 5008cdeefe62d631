// Checkpointed loops and checkpointed functions whose iterations build and
// read library objects of their own (a std::map or std::unordered_map
// table made from a list or filled, read, searched and destroyed in the
// iteration or in a helper it calls): rerunning them in the reverse sweep
// builds the tables again, so they are admitted (objects made outside the rerun code stay an error:
// Diagnostics/checkpoints-and-libraries.cpp). Each function has a twin
// without the checkpoint; value and gradient must agree with it and with
// central differences, in reverse mode, forward mode and an HVP. (Also: an
// unsigned counter's remainders indexing memory the loop changes.)
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

// A table made from a list and searched, in a checkpointed do/while.
#define FIND_LOOP_BODY                                                         \
  std::unordered_map<int, double> table{{0, -0.32}, {1, 0.72}, {2, 0.59}};    \
  auto found = table.find(1 + i % 2);                                          \
  s += (found != table.end() ? found->second : 1.0) * std::sin(s * c[i % 3]);  \
  ++i;

[[ct::differentiable]] double findLoop(double x, const double *c) {
  double s = x;
  int i = 0;
#pragma ct checkpoint
  do {
    FIND_LOOP_BODY
  } while (i < 5);
  return s;
}
[[ct::differentiable]] double findLoopPlain(double x, const double *c) {
  double s = x;
  int i = 0;
  do {
    FIND_LOOP_BODY
  } while (i < 5);
  return s;
}

// An unsigned counter's remainders index memory the loop changes (and
// the function changes after it): the checkpoint bounds them.
#define UNSIGNED_LOOP_BODY                                                     \
  u[i % 2u] += std::sin(u[(i + 1) % 2u] * x) * c[i % 3u];

[[ct::differentiable]] double unsignedLoop(double x, const double *c,
                                           double *u) {
#pragma ct checkpoint snapshots(2)
  for (unsigned i = 0; i < 6u; ++i) {
    UNSIGNED_LOOP_BODY
  }
  u[1] *= x;
  return u[0] * u[1];
}
[[ct::differentiable]] double unsignedLoopPlain(double x, const double *c,
                                                double *u) {
  for (unsigned i = 0; i < 6u; ++i) {
    UNSIGNED_LOOP_BODY
  }
  u[1] *= x;
  return u[0] * u[1];
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

void checkUnsignedLoop() {
  const double c[3] = {0.8, -0.4, 1.3}, x = 0.7;
  const double start[2] = {0.4, -0.9};
  double u[2] = {start[0], start[1]}, v[2] = {start[0], start[1]};
  double dc[3] = {}, dcPlain[3] = {}, du[2] = {}, dv[2] = {}, dx = 0,
         dxPlain = 0;
  double value = ct::gradient<unsignedLoop>(x, c, u, &dx, dc, du);
  double valuePlain = ct::gradient<unsignedLoopPlain>(x, c, v, &dxPlain,
                                                      dcPlain, dv);
  check::near("unsignedLoop value", value, valuePlain, 1e-12);
  check::near("unsignedLoop dx vs plain", dx, dxPlain, 1e-10);
  double fd = check::centralDifference(
      [&](double t) {
        double w[2] = {start[0], start[1]};
        return unsignedLoopPlain(t, c, w);
      },
      x);
  check::near("unsignedLoop dx vs differences", dx, fd, 1e-6);
  for (int k = 0; k < 2; ++k) {
    double w0[2] = {start[0], start[1]};
    double fdu = check::differenceAt(w0, k, [&] {
      double w[2] = {w0[0], w0[1]};
      return unsignedLoopPlain(x, c, w);
    });
    check::near("unsignedLoop du vs differences", du[k], fdu, 1e-6);
    check::near("unsignedLoop du vs plain", du[k], dv[k], 1e-10);
  }
}

int main() {
  const double c[3] = {0.8, -0.4, 1.3};
  checkScalar<helperLoop, helperLoopPlain>("helperLoop", 0.6, c);
  checkScalar<helperLoop, helperLoopPlain>("helperLoop at -1.1", -1.1, c);
  checkScalar<tableLoop, tableLoopPlain>("tableLoop", 0.9, c);
  checkScalar<tableLoop, tableLoopPlain>("tableLoop at -0.3", -0.3, c);
  checkScalar<findLoop, findLoopPlain>("findLoop", 0.4, c);
  checkUnsignedLoop();
  checkEvolve();
  return check::report();
}
