// [[ct::checkpoint]] from C++: calls of a checkpointed function record
// nothing of what it computes; the reverse sweep runs it again from what the
// forward sweep kept (the memory it changes, or reads and the caller changes
// afterwards). Each case has a twin whose callee is not checkpointed: same
// values, gradients and final memory to rounding; gradients also against
// central finite differences. The calls sit in a loop (the kept memory goes
// through the tape, per call), change in/out memory reached through a
// pointer and a view of it, read memory the caller overwrites later, return
// a value, and take an active scalar. A Hessian-vector product goes
// through a checkpointed call too.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>
#include <cstdio>

/// One nonlinear relaxation sweep over u[0..n), in place; returns a
/// measure of the change.
#define RELAX_BODY                                                            \
  double change = 0;                                                           \
  for (int i = 1; i < n - 1; ++i) {                                            \
    double next = u[i] + a * (u[i - 1] - 2 * u[i] + u[i + 1]) +               \
                  0.1 * std::sin(u[i]) * w[i];                                 \
    change += (next - u[i]) * (next - u[i]);                                   \
    u[i] = next;                                                               \
  }                                                                            \
  return change;

[[ct::checkpoint]] double relaxCheckpointed(double *u, const double *w, int n,
                                            double a) {
  RELAX_BODY
}
double relaxRecorded(double *u, const double *w, int n, double a) {
  RELAX_BODY
}

#define DRIVER_BODY(relax)                                                    \
  double total = 0;                                                            \
  for (int t = 0; t < steps; ++t)                                              \
    total += relax(u + 1, w, n - 1, a) * 0.5;                                  \
  /* w was only read by the calls; overwriting it now must not change    */   \
  /* what their reverse sweep sees.                                      */   \
  for (int i = 0; i < n; ++i)                                                  \
    w[i] = w[i] * u[i];                                                        \
  return total + u[n / 2] + w[1];

[[ct::differentiable]] double driverCheckpointed(double *u, double *w, int n,
                                                 int steps, double a) {
  DRIVER_BODY(relaxCheckpointed)
}
[[ct::differentiable]] double driverRecorded(double *u, double *w, int n,
                                             int steps, double a) {
  DRIVER_BODY(relaxRecorded)
}

/// A checkpointed function with local buffers only (nothing to keep but
/// its arguments), under a Hessian-vector product.
[[ct::checkpoint]] double energyCheckpointed(const double *x, int n) {
  double y[8];
  for (int i = 0; i < n; ++i)
    y[i] = std::exp(0.3 * x[i]) - x[(i + 1) % n];
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += y[i] * y[i] * x[i];
  return e;
}
[[ct::differentiable]] double energyTwice(const double *x, int n) {
  return energyCheckpointed(x, n) * energyCheckpointed(x, n) + x[0];
}

int main() {
  constexpr int n = 7;
  for (int steps : {0, 1, 4}) {
    double u[n], w[n], du[n] = {}, dw[n] = {}, da = 0;
    double ur[n], wr[n], dur[n] = {}, dwr[n] = {}, dar = 0;
    for (int i = 0; i < n; ++i) {
      u[i] = ur[i] = 0.2 + 0.1 * i;
      w[i] = wr[i] = 1.0 - 0.05 * i;
    }
    const double a = 0.2;
    double value =
        ct::gradient<driverCheckpointed>(u, w, n, steps, a, du, dw, &da);
    double recorded =
        ct::gradient<driverRecorded>(ur, wr, n, steps, a, dur, dwr, &dar);
    char label[80];
    std::snprintf(label, sizeof label, "steps=%d value", steps);
    check::near(label, value, recorded, 1e-13);
    double worst = std::fabs(da - dar), worstFinal = 0;
    for (int i = 0; i < n; ++i) {
      worst = std::fmax(worst, std::fmax(std::fabs(du[i] - dur[i]),
                                         std::fabs(dw[i] - dwr[i])));
      worstFinal = std::fmax(worstFinal, std::fmax(std::fabs(u[i] - ur[i]),
                                                   std::fabs(w[i] - wr[i])));
    }
    std::snprintf(label, sizeof label, "steps=%d gradient = recorded", steps);
    check::near(label, worst, 0, 1e-12);
    std::snprintf(label, sizeof label, "steps=%d final memory = recorded",
                  steps);
    check::near(label, worstFinal, 0, 1e-15);
    auto fresh = [&](double *uu, double *ww) {
      for (int i = 0; i < n; ++i) {
        uu[i] = 0.2 + 0.1 * i;
        ww[i] = 1.0 - 0.05 * i;
      }
    };
    for (int i : {1, 3, 5}) {
      double fdU = check::centralDifference(
          [&](double t) {
            double uu[n], ww[n];
            fresh(uu, ww);
            uu[i] = t;
            return driverRecorded(uu, ww, n, steps, a);
          },
          0.2 + 0.1 * i);
      std::snprintf(label, sizeof label, "steps=%d du[%d] vs FD", steps, i);
      check::near(label, du[i], fdU, 1e-6);
      double fdW = check::centralDifference(
          [&](double t) {
            double uu[n], ww[n];
            fresh(uu, ww);
            ww[i] = t;
            return driverRecorded(uu, ww, n, steps, a);
          },
          1.0 - 0.05 * i);
      std::snprintf(label, sizeof label, "steps=%d dw[%d] vs FD", steps, i);
      check::near(label, dw[i], fdW, 1e-6);
    }
    double fdA = check::centralDifference(
        [&](double t) {
          double uu[n], ww[n];
          fresh(uu, ww);
          return driverRecorded(uu, ww, n, steps, t);
        },
        a);
    std::snprintf(label, sizeof label, "steps=%d da vs FD", steps);
    check::near(label, da, fdA, 1e-6);
  }

  // Hessian-vector product through the checkpointed calls.
  constexpr int m = 5;
  double x[m] = {0.3, -0.4, 0.8, 0.1, 0.5}, v[m] = {1, -0.5, 0.25, 0.3, -1};
  double hv[m] = {};
  ct::hvp<energyTwice>(x, m, v, hv);
  const double h = 1e-5;
  double plus[m], minus[m], gp[m] = {}, gm[m] = {};
  for (int i = 0; i < m; ++i)
    plus[i] = x[i] + h * v[i], minus[i] = x[i] - h * v[i];
  ct::gradient<energyTwice>(plus, m, gp);
  ct::gradient<energyTwice>(minus, m, gm);
  for (int i = 0; i < m; ++i) {
    char label[48];
    std::snprintf(label, sizeof label, "hvp[%d] vs FD of gradients", i);
    check::near(label, hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  }
  double g[m] = {};
  ct::gradient<energyTwice>(x, m, g);
  for (int i = 0; i < m; ++i) {
    char label[48];
    std::snprintf(label, sizeof label, "energy dx[%d] vs FD", i);
    check::near(label, g[i],
                check::differenceAt(x, i, [&] { return energyTwice(x, m); }),
                1e-6);
  }
  return check::report();
}
