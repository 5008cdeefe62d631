// Loops without `#pragma ct checkpoint` whose recorded tape would be long
// are checkpointed on the compiler's own choice, made when the loop starts
// from its trip count (COTANGENT_CHECKPOINT_TAPE_BYTES overrides the
// runtime's limit). Every gradient must match central finite differences
// whichever way it was taken; the largest block the derivative code asks
// malloc/realloc for (the tape grows by doubling) shows which: a recorded
// loop's tape holds at least a double per element per step, snapshots of a
// checkpointed one far less. These runs keep no tape memory between calls
// (COTANGENT_TAPE_CACHE_BYTES=0: every call allocates its tape, and the
// default limit is the last-level cache; with memory kept, the default is
// half of it, which the runtime's unit tests check):
//   default limit: 100,000 steps of 16 elements (about 40 MB of tape) are
//     checkpointed, 200 steps recorded;
//   limit 0: the 200 steps are checkpointed too;
//   no limit: both recorded.
// A map writing a 20,000-element output is recorded under every limit:
// sqrt(trips) snapshots of that output would outweigh its tape. A Hessian-
// vector product, a vector-mode pullback, and gradients at -O0 and with the
// plain strategy run too.
// REQUIRES: plugin
// RUN: %clangxx-ct -O2 %s -Wl,--wrap=malloc,--wrap=realloc -o %t2
// RUN: env COTANGENT_TAPE_CACHE_BYTES=0 %t2 | FileCheck %s
// RUN: env COTANGENT_TAPE_CACHE_BYTES=0 COTANGENT_CHECKPOINT_TAPE_BYTES=0 %t2 | FileCheck %s
// RUN: env COTANGENT_TAPE_CACHE_BYTES=0 COTANGENT_CHECKPOINT_TAPE_BYTES=1000000000000 %t2 | FileCheck %s
// RUN: %clangxx-ct -O0 %s -Wl,--wrap=malloc,--wrap=realloc -o %t0
// RUN: env COTANGENT_TAPE_CACHE_BYTES=0 COTANGENT_CHECKPOINT_TAPE_BYTES=0 %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 -fplugin-arg-cotangent-ad-optimizations=off %s -Wl,--wrap=malloc,--wrap=realloc -o %tp
// RUN: env COTANGENT_TAPE_CACHE_BYTES=0 COTANGENT_CHECKPOINT_TAPE_BYTES=0 %tp | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "largest-block.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

//===----------------------------------------------------------------------===//
// The functions (no pragma anywhere)
//===----------------------------------------------------------------------===//

constexpr int kSize = 16;

#define HEAT_BODY                                                              \
  double u[kSize];                                                             \
  for (int i = 0; i < kSize; ++i)                                              \
    u[i] = u0[i];                                                              \
  double s = 0;                                                                \
  for (int t = 0; t < steps; ++t) {                                            \
    for (int i = 1; i < kSize; ++i)                                            \
      u[i] = u[i] + a * (u[i - 1] - u[i]) * u[i];                              \
    s += u[kSize - 1] * u[kSize - 1];                                          \
  }                                                                            \
  return s;

/// A nonlinear explicit scheme on a local array, carrying a sum.
[[ct::differentiable]] double heat(const double *u0, int steps, double a) {
  HEAT_BODY
}
/// The same, for a Hessian-vector product (forward mode over it; never
/// checkpointed on the compiler's own choice).
[[ct::differentiable]] double heatForHvp(const double *u0, int steps,
                                         double a) {
  HEAT_BODY
}

/// In-place steps on a caller's C pointer (the elements touched bounded
/// from the indices) and a std::vector of the previous state.
[[ct::differentiable]] double inPlace(double *u, int n, int steps) {
  std::vector<double> previous(n);
  double s = 0;
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < n; ++i)
      previous[i] = u[i];
    for (int i = 1; i < n - 1; ++i)
      u[i] = previous[i] + 0.01 * std::sin(previous[i - 1] * previous[i + 1]);
    s += u[n / 2] * previous[n / 2];
  }
  return s;
}

/// A map whose output is as large as its tape.
[[ct::differentiable]] double map(const double *x, double *y, int n,
                                  double w) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = w * std::exp(0.001 * x[i]);
    s += y[i] * y[i];
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

enum class Limit { Default, Zero, None };

Limit readLimit() {
  const char *text = std::getenv("COTANGENT_CHECKPOINT_TAPE_BYTES");
  if (!text)
    return Limit::Default;
  return std::strcmp(text, "0") == 0 ? Limit::Zero : Limit::None;
}

void checkHeat(int steps, bool checkpointed) {
  double u0[kSize], g[kSize] = {};
  for (int i = 0; i < kSize; ++i)
    u0[i] = 0.5 + 0.02 * i;
  const double a = 1e-5;
  double da = 0;
  size_t block = largestBlockOf(
      [&] { ct::gradient<heat, ct::wrt<0, 2>>(u0, steps, a, g, &da); });
  char label[80];
  // A recorded tape holds at least one double per element per step.
  size_t tape = size_t(steps) * kSize * sizeof(double);
  std::snprintf(label, sizeof label, "heat %d steps %s (largest block %zu)",
                steps, checkpointed ? "checkpointed" : "recorded", block);
  check::near(label, checkpointed ? block < tape / 4 : block >= tape, 1, 0);
  // The sum of 100,000 terms carries rounding errors near 1e-9: a wider
  // step keeps them out of the differences.
  for (int i : {0, 1, kSize / 2, kSize - 1}) {
    std::snprintf(label, sizeof label, "heat %d steps du0[%d] vs FD", steps,
                  i);
    double saved = u0[i];
    double fd = check::centralDifference(
        [&](double t) {
          u0[i] = t;
          double value = heat(u0, steps, a);
          u0[i] = saved;
          return value;
        },
        saved, 1e-4);
    check::near(label, g[i], fd, 1e-4);
  }
  // heatForHvp, which forward mode also differentiates, is never
  // checkpointed: the same gradient, recorded, to rounding.
  double recorded[kSize] = {};
  ct::gradient<heatForHvp, ct::wrt<0>>(u0, steps, a, recorded);
  for (int i = 0; i < kSize; ++i) {
    std::snprintf(label, sizeof label, "heat %d steps du0[%d] vs recorded",
                  steps, i);
    check::near(label, g[i], recorded[i], 1e-12);
  }
  std::snprintf(label, sizeof label, "heat %d steps da vs FD", steps);
  check::near(label, da,
              check::centralDifference(
                  [&](double t) { return heat(u0, steps, t); }, a, 1e-9),
              1e-5);
}

void checkInPlace(int steps) {
  constexpr int n = 12;
  double u[n], g[n] = {}, start[n];
  for (int i = 0; i < n; ++i)
    start[i] = std::cos(0.3 * i);
  std::memcpy(u, start, sizeof u);
  ct::gradient<inPlace>(u, n, steps, g);
  double after[n];
  std::memcpy(after, u, sizeof u);
  std::memcpy(u, start, sizeof u);
  double reference = inPlace(u, n, steps);
  char label[80];
  for (int i = 0; i < n; ++i) {
    std::snprintf(label, sizeof label, "in place: final u[%d]", i);
    check::near(label, after[i], u[i], 1e-15);
  }
  (void)reference;
  for (int i : {0, 1, n / 2, n - 1}) {
    std::snprintf(label, sizeof label, "in place %d steps du[%d] vs FD", steps,
                  i);
    double fd = check::differenceAt(start, i, [&] {
      std::memcpy(u, start, sizeof u);
      return inPlace(u, n, steps);
    });
    check::near(label, g[i], fd, 1e-6);
  }
}

void checkMap() {
  constexpr int n = 20000;
  std::vector<double> x(n), y(n), dx(n), dy(n);
  for (int i = 0; i < n; ++i)
    x[i] = std::sin(0.01 * i);
  double w = 0.7, dw = 0;
  size_t block = largestBlockOf([&] {
    ct::gradient<map, ct::wrt<0, 1, 3>>(x.data(), y.data(), n, w, dx.data(),
                                        dy.data(), &dw);
  });
  char label[80];
  std::snprintf(label, sizeof label, "map recorded (largest block %zu)",
                block);
  check::near(label, block >= n * sizeof(double) && block < (8u << 20), 1, 0);
  for (int i : {0, 7, n / 2, n - 1}) {
    std::snprintf(label, sizeof label, "map dx[%d] vs FD", i);
    check::near(label, dx[i], check::differenceAt(x.data(), i, [&] {
                  return map(x.data(), y.data(), n, w);
                }),
                1e-6);
  }
  check::near("map dw vs FD", dw,
              check::centralDifference(
                  [&](double t) { return map(x.data(), y.data(), n, t); }, w),
              1e-6);
}

void checkLanes(int steps) {
  // Two seeds at once through the same loop (vector mode), against the
  // recorded gradient.
  double u0[kSize], du[2 * kSize] = {}, g[kSize] = {};
  for (int i = 0; i < kSize; ++i)
    u0[i] = 0.4 + 0.03 * i;
  const double a = 1e-4, seeds[2] = {1, -3};
  double da[2] = {};
  ct::pullback<heat, ct::lanes<2>>(u0, steps, a, seeds, du, da);
  ct::gradient<heatForHvp, ct::wrt<0>>(u0, steps, a, g);
  for (int i = 0; i < kSize; ++i)
    for (int k = 0; k < 2; ++k) {
      char label[64];
      std::snprintf(label, sizeof label, "lanes %d steps du0[%d] lane %d",
                    steps, i, k);
      check::near(label, du[2 * i + k], seeds[k] * g[i], 1e-12);
    }
}

void checkHessianVector() {
  constexpr int steps = 300;
  double u0[kSize], v[kSize], hv[kSize] = {};
  for (int i = 0; i < kSize; ++i)
    u0[i] = 0.5 + 0.02 * i, v[i] = 0.1 * (i % 4) - 0.15;
  const double a = 0.01;
  ct::hvp<heatForHvp, ct::wrt<0>>(u0, steps, a, v, hv);
  const double h = 1e-5;
  double plus[kSize], minus[kSize], gp[kSize] = {}, gm[kSize] = {};
  for (int i = 0; i < kSize; ++i)
    plus[i] = u0[i] + h * v[i], minus[i] = u0[i] - h * v[i];
  ct::gradient<heat, ct::wrt<0>>(plus, steps, a, gp);
  ct::gradient<heat, ct::wrt<0>>(minus, steps, a, gm);
  for (int i = 0; i < kSize; ++i) {
    char label[48];
    std::snprintf(label, sizeof label, "hvp[%d] vs FD of gradients", i);
    check::near(label, hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  }
}

int main() {
  Limit limit = readLimit();
  checkHeat(100000, limit != Limit::None);
  checkHeat(200, limit == Limit::Zero);
  checkInPlace(limit == Limit::Default ? 3 : 400);
  checkMap();
  checkLanes(3000);
  checkHessianVector();
  return check::report();
}
