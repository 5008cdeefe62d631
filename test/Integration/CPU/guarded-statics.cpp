// Static locals whose initializer is not a constant, initialized when
// control first passes their declaration, as C++ does: a table of weights
// a helper computes (`static const std::array<double, 4> w = weights();`),
// a scale from the first call's argument, a struct of numbers from a
// helper, and one in a helper the function calls. The primal and every
// derivative share the variable and its guard: whichever runs first
// initializes it, once (the helpers count their runs), and later calls of
// any mode see the first call's value. Derivatives against central
// differences and closed forms; every mode (gradient, jvp, hvp, lanes).
// Objects with destructors too: a std::vector table made by a helper, a
// std::vector workspace the function rewrites on every call with values
// that carry derivatives (each derivative call works on a copy of its
// own), a struct whose destructor counts, an array of them; whichever call
// initializes one registers its destructor, which C++ runs once at exit
// (checked by a handler registered before them, which runs after them).
// -O0 and -O2. (The functions are inline: their statics have external
// linkage, which derivatives in an object of their own reach too.)
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed
// CHECK-NEXT: at exit: the calibration destroyed 3 time(s)

#include <cotangent/cotangent.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"
#include "modes.h"

using check::near;

int weightRuns = 0;

std::array<double, 4> weights() {
  ++weightRuns;
  std::array<double, 4> w{};
  for (int i = 0; i < 4; ++i)
    w[i] = std::exp(-0.5 * i);
  return w;
}

// sum_i w_i sin(x_i) x_{i+1}, with w from the table made once.
[[ct::differentiable]] inline double weighted(const double *x, int n) {
  static const std::array<double, 4> w = weights();
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += w[i % 4] * std::sin(x[i]) * x[i + 1];
  return s;
}

// The first call's n fixes the scale for good; the counter changes on
// every call of any mode.
int scaledCalls = 0;
[[ct::differentiable]] inline double scaled(const double *x, int n) {
  static double scale = std::sqrt(static_cast<double>(n));
  static int calls = 0;
  ++calls;
  scaledCalls = calls;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s / scale;
}

struct Affine {
  double gain, offset;
};
int affineRuns = 0;
Affine calibrate(double gain) {
  ++affineRuns;
  return {gain, std::log(gain)};
}

// A helper holding the static, called twice: one initialization.
inline double apply(double v) {
  static const Affine a = calibrate(3.0);
  return a.gain * v + a.offset;
}

[[ct::differentiable]] double affine(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += apply(x[i]) * apply(x[i] * x[i]);
  return s;
}

int tableRuns = 0;
std::vector<double> tabulate(int n) {
  ++tableRuns;
  std::vector<double> t(n);
  for (int i = 0; i < n; ++i)
    t[i] = 1.0 / (1 + i * i);
  return t;
}

// sum_i t_i cos(x_i), the table a std::vector made on the first call.
[[ct::differentiable]] inline double tabled(const double *x, int n) {
  static const std::vector<double> t = tabulate(n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * std::cos(x[i]);
  return s;
}

// sum_i (x_i x_{i+1})^2 through a workspace kept between calls, sized by
// the first call and rewritten by every call.
[[ct::differentiable]] inline double workspace(const double *x, int n) {
  static std::vector<double> w(n);
  w.resize(n);
  for (int i = 0; i < n; ++i)
    w[i] = x[i] * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * w[i];
  return s;
}

int calibrationDestroyed = 0;
struct Calibration {
  double gain;
  ~Calibration() { ++calibrationDestroyed; }
};
inline Calibration calibrationFor(int n) { return {std::log(1.0 + n)}; }

// g sum_i x_i^3, g = log(1 + n) of the first call.
[[ct::differentiable]] inline double calibrated(const double *x, int n) {
  static const Calibration c = calibrationFor(n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += c.gain * x[i] * x[i] * x[i];
  return s;
}

// g0 x_0^2 + g1 x_1^2 from an array of them made on the first call.
[[ct::differentiable]] inline double calibratedPair(const double *x, int n) {
  static const Calibration pair[2] = {calibrationFor(n), calibrationFor(2 * n)};
  return pair[0].gain * x[0] * x[0] + pair[1].gain * x[1] * x[1];
}

void reportAtExit() {
  std::printf("at exit: the calibration destroyed %d time(s)\n",
              calibrationDestroyed);
}

void checkDestructedStatics(const double *x) {
  // The gradient runs first: it makes the table, once.
  double dt[4] = {};
  double value = ct::gradient<tabled>(x, 4, dt);
  double closed = 0;
  for (int i = 0; i < 4; ++i) {
    double t = 1.0 / (1 + i * i);
    closed += t * std::cos(x[i]);
    near("vector table: closed form", dt[i], -t * std::sin(x[i]), 1e-15);
  }
  near("vector table: value", value, closed, 1e-15);
  check::checkModes<tabled>("vector table", x, 4);
  near("vector table: made once", tableRuns, 1, 0);

  double dw[4] = {};
  ct::gradient<workspace>(x, 4, dw);
  for (int k = 0; k < 4; ++k) {
    int next = (k + 1) % 4, before = (k + 3) % 4;
    double wk = x[k] * x[next], wb = x[before] * x[k];
    near("workspace: closed form", dw[k], 2 * wk * x[next] + 2 * wb * x[before],
         1e-14);
  }
  check::checkModes<workspace>("workspace", x, 4);
  // (The primal sees the last call's contents, as C++ keeps them.)
  near("workspace: primal after derivatives", workspace(x, 4),
       ct::gradient<workspace>(x, 4, dw), 1e-15);

  const double first[4] = {1, 0, 0, 0};
  double g = std::log(5.0);
  near("destructor: jvp first", ct::jvp<calibrated>(x, 4, first).tangent,
       3 * g * x[0] * x[0], 1e-14);
  check::checkModes<calibrated>("destructor", x, 4);
  double dp[4] = {};
  ct::gradient<calibratedPair>(x, 4, dp);
  near("array of them: closed form", dp[0], 2 * g * x[0], 1e-14);
  near("array of them: closed form", dp[1], 2 * std::log(9.0) * x[1], 1e-14);
  check::checkModes<calibratedPair>("array of them", x, 4);
  near("destructor: not yet run", calibrationDestroyed, 0, 0);
}

int main() {
  std::atexit(reportAtExit);
  double x[4] = {0.3, -1.1, 0.8, 1.7};
  checkDestructedStatics(x);

  // The gradient runs first: it initializes the table.
  check::checkModes<weighted>("table", x, 4);
  near("table: made once", weightRuns, 1, 0);
  double dx[4] = {};
  ct::gradient<weighted>(x, 4, dx);
  for (int i = 0; i < 4; ++i) {
    double w = std::exp(-0.5 * i), before = std::exp(-0.5 * (i - 1));
    double closed = (i + 1 < 4 ? w * std::cos(x[i]) * x[i + 1] : 0) +
                    (i > 0 ? before * std::sin(x[i - 1]) : 0);
    near("table: closed form", dx[i], closed, 1e-14);
  }
  near("table: still made once", weightRuns, 1, 0);

  // The primal runs first with n = 4: scale is 2 from then on, also for
  // the derivatives with n = 3.
  scaled(x, 4);
  double ds[3] = {};
  double value = ct::gradient<scaled>(x, 3, ds);
  near("first call's scale: value", value,
       (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) / 2, 1e-15);
  for (int i = 0; i < 3; ++i)
    near("first call's scale: gradient", ds[i], x[i], 1e-15);
  const double first[3] = {1, 0, 0};
  near("first call's scale: jvp", ct::jvp<scaled>(x, 3, first).tangent, x[0],
       1e-15);
  near("counter: every call counted", scaledCalls, 3, 0);
  check::checkModes<scaled>("first call's scale", x, 3);

  check::checkModes<affine>("struct in a helper", x, 4);
  near("struct in a helper: made once", affineRuns, 1, 0);
  double da[4] = {};
  ct::gradient<affine>(x, 4, da);
  for (int i = 0; i < 4; ++i) {
    double l = std::log(3.0), u = 3 * x[i] + l, v = 3 * x[i] * x[i] + l;
    near("struct in a helper: closed form", da[i], 3 * v + u * 6 * x[i],
         1e-13);
  }
  return check::report();
}
