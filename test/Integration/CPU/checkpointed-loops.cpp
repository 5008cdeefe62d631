// `#pragma ct checkpoint` from C++: each function below has a twin without
// the pragma; both must give the same value, the same gradient (to
// rounding: the same operations run, in another order of calls) and leave
// the same final contents in in/out memory, and the gradients must match
// central finite differences. The cases cover in/out memory reached through
// a C pointer (whose extent the compiler bounds from the indices), a view
// `u + 1` of it, local buffers, a std::vector, carried floats and integers,
// a nested checkpointed loop, memory the loop only reads but that is
// overwritten after it, a counted `while` loop, snapshot counts from 1 to
// the default, trip counts 0, 1, 2 and 23, and a Hessian-vector product of
// a function with a checkpointed loop; and loops whose trip count is known
// only when they end (a `for` with a `break`, a `while` that converges, a
// `do`/`while` indexing memory with its counter), reversed with the online
// schedule; a checkpointed loop in a branch, and one nested in a
// checkpointed `while`; a loop writing through a reference chosen at run
// time and at an index a branch chooses; a loop reading elements found by
// a search for a minimum (also with the plain strategy, where the search
// stays a loop).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O2 -fplugin-arg-cotangent-ad-optimizations=off %s -o %tp
// RUN: %tp | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

//===----------------------------------------------------------------------===//
// In/out memory through a pointer, a carried sum and a parameter
//===----------------------------------------------------------------------===//

#define PDE_STEP                                                              \
  for (int i = 1; i < n; ++i)                                                  \
    u[i] = u[i] + a * (u[i - 1] - u[i]) * u[i];                                \
  s += u[n - 1] * u[n - 1];

[[ct::differentiable]] double pdeTwoSnapshots(double *u, int n, int steps,
                                              double a) {
  double s = 0;
#pragma ct checkpoint snapshots(2)
  for (int t = 0; t < steps; ++t) {
    PDE_STEP
  }
  return s;
}
[[ct::differentiable]] double pdeOneSnapshot(double *u, int n, int steps,
                                             double a) {
  double s = 0;
#pragma ct checkpoint snapshots(1)
  for (int t = 0; t < steps; ++t) {
    PDE_STEP
  }
  return s;
}
[[ct::differentiable]] double pdeDefault(double *u, int n, int steps,
                                         double a) {
  double s = 0;
#pragma ct checkpoint
  for (int t = 0; t < steps; ++t) {
    PDE_STEP
  }
  return s;
}
[[ct::differentiable]] double pdeRecorded(double *u, int n, int steps,
                                          double a) {
  double s = 0;
  for (int t = 0; t < steps; ++t) {
    PDE_STEP
  }
  return s;
}

//===----------------------------------------------------------------------===//
// A view of the memory, memory read in the loop and overwritten after it
//===----------------------------------------------------------------------===//

#define SHIFTED_STEP                                                          \
  double *v = u + 1;                                                           \
  for (int i = 0; i + 1 < n; ++i)                                              \
    v[i] = std::sin(v[i]) * w[i] + 0.5 * u[i];                                 \
  s += v[0] * w[1];

[[ct::differentiable]] double shiftedCheckpointed(double *u, double *w, int n,
                                                  int steps) {
  double s = 0;
#pragma ct checkpoint snapshots(3)
  for (int t = 0; t < steps; ++t) {
    SHIFTED_STEP
  }
  // w was only read by the loop; its reverse sweep must still see the
  // values it read.
  for (int i = 0; i < n; ++i)
    w[i] = w[i] * w[i];
  return s + w[0];
}
[[ct::differentiable]] double shiftedRecorded(double *u, double *w, int n,
                                              int steps) {
  double s = 0;
  for (int t = 0; t < steps; ++t) {
    SHIFTED_STEP
  }
  for (int i = 0; i < n; ++i)
    w[i] = w[i] * w[i];
  return s + w[0];
}

//===----------------------------------------------------------------------===//
// Local buffers, carried integers, a nested checkpointed loop
//===----------------------------------------------------------------------===//

constexpr int kSize = 6;

#define INNER_STEP                                                            \
  for (int i = 0; i < kSize; ++i)                                              \
    k[i] = std::sin(y[i]) + x[i] * (i ? y[i - 1] : 1.0);                       \
  for (int i = 0; i < kSize; ++i)                                              \
    y[i] += 0.1 * k[i];
#define OUTER_TAIL                                                            \
  parity ^= 1;                                                                 \
  acc += parity ? y[kSize - 1] * y[0] : std::exp(-y[2]);

[[ct::differentiable]] double nestedCheckpointed(const double *x, int steps,
                                                 int inner) {
  double y[kSize] = {}, k[kSize];
  int parity = 0;
  double acc = 0;
#pragma ct checkpoint snapshots(2)
  for (int s = 0; s < steps; ++s) {
#pragma ct checkpoint
    for (int r = 0; r < inner; ++r) {
      INNER_STEP
    }
    OUTER_TAIL
  }
  return acc + y[kSize - 1];
}
[[ct::differentiable]] double nestedRecorded(const double *x, int steps,
                                             int inner) {
  double y[kSize] = {}, k[kSize];
  int parity = 0;
  double acc = 0;
  for (int s = 0; s < steps; ++s) {
    for (int r = 0; r < inner; ++r) {
      INNER_STEP
    }
    OUTER_TAIL
  }
  return acc + y[kSize - 1];
}

//===----------------------------------------------------------------------===//
// A std::vector of state, a counted while loop
//===----------------------------------------------------------------------===//

#define VECTOR_STEP                                                           \
  for (int i = 0; i < n; ++i)                                                  \
    state[i] = std::cos(state[(i + 1) % n]) * x[i] + state[i] * 0.9;          \
  ++t;

[[ct::differentiable]] double vectorCheckpointed(const double *x, int n,
                                                 int steps) {
  std::vector<double> state(x, x + n);
  int t = 0;
#pragma ct checkpoint snapshots(4)
  while (t < steps) {
    VECTOR_STEP
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += state[i] * state[i];
  return sum;
}
[[ct::differentiable]] double vectorRecorded(const double *x, int n,
                                             int steps) {
  std::vector<double> state(x, x + n);
  int t = 0;
  while (t < steps) {
    VECTOR_STEP
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += state[i] * state[i];
  return sum;
}

//===----------------------------------------------------------------------===//
// Loops whose trip count is known only when they end
//===----------------------------------------------------------------------===//

#define EARLY_STEP                                                            \
  if (x[i] < 0)                                                                \
    break;                                                                     \
  s += std::sin(s) * x[i] + x[i] * x[i];

[[ct::differentiable]] double earlyCheckpointed(const double *x, int n) {
  double s = 0;
#pragma ct checkpoint snapshots(3)
  for (int i = 0; i < n; ++i) {
    EARLY_STEP
  }
  return s;
}
[[ct::differentiable]] double earlyRecorded(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    EARLY_STEP
  }
  return s;
}

#define CONVERGE_STEP                                                         \
  for (int j = 0; j < 4; ++j)                                                  \
    buf[j] = buf[j] * a + 0.01 * std::sin(buf[(j + 1) % 4]);                   \
  ++k;

[[ct::differentiable]] double convergeCheckpointed(double y, double a) {
  int k = 0;
  double buf[4] = {y, y * 0.5, 0.1, 0.2};
#pragma ct checkpoint snapshots(2)
  while (buf[0] > 1e-3 && k < 100) {
    CONVERGE_STEP
  }
  return buf[0] + buf[3] + k;
}
[[ct::differentiable]] double convergeDefault(double y, double a) {
  int k = 0;
  double buf[4] = {y, y * 0.5, 0.1, 0.2};
#pragma ct checkpoint
  while (buf[0] > 1e-3 && k < 100) {
    CONVERGE_STEP
  }
  return buf[0] + buf[3] + k;
}
[[ct::differentiable]] double convergeRecorded(double y, double a) {
  int k = 0;
  double buf[4] = {y, y * 0.5, 0.1, 0.2};
  while (buf[0] > 1e-3 && k < 100) {
    CONVERGE_STEP
  }
  return buf[0] + buf[3] + k;
}

/// A loop of unknown length over a view starting inside the memory (the
/// kept elements do not start at 0), which code after the loop overwrites.
#define SHIFTED_WHILE_STEP                                                    \
  v[1] = v[1] * 1.1 + std::sin(v[0]);                                          \
  v[0] += 0.1 * v[1];                                                          \
  s += v[0] * v[0];                                                            \
  ++k;

[[ct::differentiable]] double shiftedWhileCheckpointed(double *u) {
  double *v = u + 2;
  double s = 0;
  int k = 0;
#pragma ct checkpoint snapshots(2)
  while (k < 9 && s < 50) {
    SHIFTED_WHILE_STEP
  }
  u[2] = u[2] * 3;
  return s + u[3] + u[2];
}
[[ct::differentiable]] double shiftedWhileRecorded(double *u) {
  double *v = u + 2;
  double s = 0;
  int k = 0;
  while (k < 9 && s < 50) {
    SHIFTED_WHILE_STEP
  }
  u[2] = u[2] * 3;
  return s + u[3] + u[2];
}

// do/while loops with a carried counter indexing in/out memory (through a
// C pointer, whose touched elements the snapshots keep): by the counter and
// by its remainder (the fuzzer's seed 6103), the counter stepped on both
// sides of a `continue`.
#define DO_WHILE_STEP                                                         \
  o[(i + 1) % 2] = std::sin(x * o[i % 2]) + o[i + 2];                          \
  o[i + 2] *= std::cos(x + o[i + 2]);                                          \
  if (x > 0) {                                                                 \
    ++i;                                                                       \
    continue;                                                                  \
  }                                                                            \
  ++i;

[[ct::differentiable]] double doWhileCheckpointed(double x, double *o, int n) {
  int i = 0;
#pragma ct checkpoint snapshots(2)
  do {
    DO_WHILE_STEP
  } while (i + 2 < n);
  return o[0] * o[1] + o[n - 1];
}
[[ct::differentiable]] double doWhileRecorded(double x, double *o, int n) {
  int i = 0;
  do {
    DO_WHILE_STEP
  } while (i + 2 < n);
  return o[0] * o[1] + o[n - 1];
}

// A checkpointed loop in a branch (its snapshots are passed out of the
// forward branch to the reverse one), and a checkpointed loop nested in a
// checkpointed `while` (whose body is a branch of the iteration).
#define BRANCH_LOOP_BODY                                                       \
  u[t % 3] = std::sin(u[(t + 1) % 3]) * u[t % 3] + 0.1;                        \
  s += u[t % 3];

[[ct::differentiable]] double inBranchCheckpointed(double *u, int n) {
  double s = 0;
  if (u[0] > 0) {
#pragma ct checkpoint snapshots(2)
    for (int t = 0; t < n; ++t) {
      BRANCH_LOOP_BODY
    }
  }
  return s * u[1] + u[2];
}
[[ct::differentiable]] double inBranchRecorded(double *u, int n) {
  double s = 0;
  if (u[0] > 0) {
    for (int t = 0; t < n; ++t) {
      BRANCH_LOOP_BODY
    }
  }
  return s * u[1] + u[2];
}

#define INNER_LOOP_BODY                                                        \
  b = std::sin(a * b) + a;                                                     \
  ++k;

[[ct::differentiable]] double nestedInWhileCheckpointed(double a, double b,
                                                        int n) {
  int i = 0;
#pragma ct checkpoint snapshots(1)
  while (i < n && a > -100) {
    int k = 0;
#pragma ct checkpoint
    while (k < 3) {
      INNER_LOOP_BODY
    }
    a = a * 0.9 + std::cos(b);
    ++i;
  }
  return a * b;
}
[[ct::differentiable]] double nestedInWhileRecorded(double a, double b,
                                                    int n) {
  int i = 0;
  while (i < n && a > -100) {
    int k = 0;
    while (k < 3) {
      INNER_LOOP_BODY
    }
    a = a * 0.9 + std::cos(b);
    ++i;
  }
  return a * b;
}

/// A checkpointed loop that ends early and whose work reaches nothing the
/// result depends on (vectors swapped in it): nothing to reverse.
[[ct::differentiable]] double unusedLoop(double x, int n) {
  int i = 0;
#pragma ct checkpoint snapshots(1)
  for (; i < 7; ++i) {
    std::vector<double> a(3, std::tanh(x * n)), b(3, double(n));
    std::swap(a, b);
    if (i < 2)
      break;
  }
  return x * std::sin(x);
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

template <auto F> void checkPde(const char *name, int steps) {
  constexpr int n = 5;
  const double a = 0.15;
  double u[n], du[n] = {}, da = 0, ur[n], dur[n] = {}, dar = 0;
  for (int i = 0; i < n; ++i)
    u[i] = ur[i] = 0.4 + 0.1 * i;
  double value = ct::gradient<F>(u, n, steps, a, du, &da);
  double recorded =
      ct::gradient<pdeRecorded>(ur, n, steps, a, dur, &dar);
  char label[96];
  std::snprintf(label, sizeof label, "%s steps=%d value", name, steps);
  check::near(label, value, recorded, 1e-13);
  std::snprintf(label, sizeof label, "%s steps=%d da", name, steps);
  check::near(label, da, dar, 1e-12);
  double worst = 0, worstFinal = 0;
  for (int i = 0; i < n; ++i) {
    worst = std::fmax(worst, std::fabs(du[i] - dur[i]));
    worstFinal = std::fmax(worstFinal, std::fabs(u[i] - ur[i]));
  }
  std::snprintf(label, sizeof label, "%s steps=%d du = recorded", name, steps);
  check::near(label, worst, 0, 1e-12);
  std::snprintf(label, sizeof label, "%s steps=%d final u = recorded", name,
                steps);
  check::near(label, worstFinal, 0, 1e-15);
  // Finite differences of the value from fresh initial contents.
  double start[n];
  for (int i = 0; i < n; ++i)
    start[i] = 0.4 + 0.1 * i;
  for (int i : {0, n - 1}) {
    double fd = check::differenceAt(start, i, [&] {
      double copy[n];
      for (int j = 0; j < n; ++j)
        copy[j] = start[j];
      return pdeRecorded(copy, n, steps, a);
    });
    std::snprintf(label, sizeof label, "%s steps=%d du[%d] vs FD", name, steps,
                  i);
    check::near(label, du[i], fd, 1e-6);
  }
  double fdA = check::centralDifference(
      [&](double aa) {
        double copy[n];
        for (int j = 0; j < n; ++j)
          copy[j] = start[j];
        return pdeRecorded(copy, n, steps, aa);
      },
      a);
  std::snprintf(label, sizeof label, "%s steps=%d da vs FD", name, steps);
  check::near(label, da, fdA, 1e-6);
}

void checkShifted() {
  constexpr int n = 6, steps = 9;
  double u[n], w[n], du[n] = {}, dw[n] = {};
  double ur[n], wr[n], dur[n] = {}, dwr[n] = {};
  for (int i = 0; i < n; ++i) {
    u[i] = ur[i] = 0.3 + 0.05 * i;
    w[i] = wr[i] = 1.1 - 0.07 * i;
  }
  double value = ct::gradient<shiftedCheckpointed>(u, w, n, steps, du, dw);
  double recorded = ct::gradient<shiftedRecorded>(ur, wr, n, steps, dur, dwr);
  check::near("shifted value", value, recorded, 1e-13);
  double worst = 0;
  for (int i = 0; i < n; ++i)
    worst = std::fmax(worst, std::fmax(std::fabs(du[i] - dur[i]),
                                       std::fabs(dw[i] - dwr[i])));
  check::near("shifted gradient = recorded", worst, 0, 1e-12);
  double fd = check::centralDifference(
      [&](double t) {
        double uu[n], ww[n];
        for (int j = 0; j < n; ++j) {
          uu[j] = 0.3 + 0.05 * j;
          ww[j] = 1.1 - 0.07 * j;
        }
        ww[2] = t;
        return shiftedRecorded(uu, ww, n, steps);
      },
      1.1 - 0.07 * 2);
  check::near("shifted dw[2] vs FD", dw[2], fd, 1e-6);
}

void checkNested() {
  double x[kSize];
  for (int i = 0; i < kSize; ++i)
    x[i] = 0.3 + 0.05 * i;
  for (int steps : {0, 1, 2, 11}) {
    double g[kSize] = {}, gr[kSize] = {};
    double value = ct::gradient<nestedCheckpointed>(x, steps, 3, g);
    double recorded = ct::gradient<nestedRecorded>(x, steps, 3, gr);
    char label[64];
    std::snprintf(label, sizeof label, "nested steps=%d value", steps);
    check::near(label, value, recorded, 1e-13);
    double worst = 0;
    for (int i = 0; i < kSize; ++i)
      worst = std::fmax(worst, std::fabs(g[i] - gr[i]));
    std::snprintf(label, sizeof label, "nested steps=%d gradient", steps);
    check::near(label, worst, 0, 1e-12);
    std::snprintf(label, sizeof label, "nested steps=%d dx[1] vs FD", steps);
    check::near(label, g[1],
                check::differenceAt(x, 1,
                                    [&] { return nestedRecorded(x, steps, 3); }),
                1e-6);
  }
}

void checkVector() {
  constexpr int n = 4, steps = 23;
  double x[n] = {0.7, -0.2, 0.4, 1.3}, g[n] = {}, gr[n] = {};
  double value = ct::gradient<vectorCheckpointed>(x, n, steps, g);
  double recorded = ct::gradient<vectorRecorded>(x, n, steps, gr);
  check::near("vector value", value, recorded, 1e-13);
  for (int i = 0; i < n; ++i) {
    char label[48];
    std::snprintf(label, sizeof label, "vector dx[%d]", i);
    check::near(label, g[i], gr[i], 1e-12);
    std::snprintf(label, sizeof label, "vector dx[%d] vs FD", i);
    check::near(label, g[i],
                check::differenceAt(x, i,
                                    [&] { return vectorRecorded(x, n, steps); }),
                1e-6);
  }
}

void checkNestedHessianVector() {
  // Reverse mode over forward mode keeps both loops checkpointed (the
  // tangent iteration is rerun from snapshots too).
  double x[kSize], v[kSize], hv[kSize] = {};
  for (int i = 0; i < kSize; ++i)
    x[i] = 0.3 + 0.05 * i, v[i] = 0.2 * (i % 3) - 0.1;
  const int steps = 5;
  ct::hvp<nestedCheckpointed>(x, steps, 3, v, hv);
  const double h = 1e-5;
  double plus[kSize], minus[kSize], gp[kSize] = {}, gm[kSize] = {};
  for (int i = 0; i < kSize; ++i)
    plus[i] = x[i] + h * v[i], minus[i] = x[i] - h * v[i];
  ct::gradient<nestedRecorded>(plus, steps, 3, gp);
  ct::gradient<nestedRecorded>(minus, steps, 3, gm);
  for (int i = 0; i < kSize; ++i) {
    char label[48];
    std::snprintf(label, sizeof label, "nested hvp[%d] vs FD", i);
    check::near(label, hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  }
}

void checkHessianVector() {
  // Reverse mode over the forward-mode derivative of a function whose loop
  // is checkpointed, against the directional difference of gradients.
  constexpr int n = 4, steps = 7;
  double x[n] = {0.7, -0.2, 0.4, 1.3}, v[n] = {0.5, 0.1, -0.3, 0.2};
  double hv[n] = {};
  ct::hvp<vectorCheckpointed>(x, n, steps, v, hv);
  const double h = 1e-5;
  double plus[n], minus[n], gp[n] = {}, gm[n] = {};
  for (int i = 0; i < n; ++i)
    plus[i] = x[i] + h * v[i], minus[i] = x[i] - h * v[i];
  ct::gradient<vectorRecorded>(plus, n, steps, gp);
  ct::gradient<vectorRecorded>(minus, n, steps, gm);
  for (int i = 0; i < n; ++i) {
    char label[48];
    std::snprintf(label, sizeof label, "hvp[%d] vs FD of gradients", i);
    check::near(label, hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  }
}

void checkEarlyExit() {
  double x[12] = {0.5, 0.3, 0.2, 0.7, 0.1, 0.9, 0.4, 0.3, -1, 0.2, 0.3, 0.1};
  for (int n : {0, 1, 5, 8, 12}) {
    double g[12] = {}, gr[12] = {};
    double value = ct::gradient<earlyCheckpointed>(x, n, g);
    double recorded = ct::gradient<earlyRecorded>(x, n, gr);
    char label[64];
    std::snprintf(label, sizeof label, "early exit n=%d value", n);
    check::near(label, value, recorded, 1e-13);
    double worst = 0;
    for (int i = 0; i < 12; ++i)
      worst = std::fmax(worst, std::fabs(g[i] - gr[i]));
    std::snprintf(label, sizeof label, "early exit n=%d gradient", n);
    check::near(label, worst, 0, 1e-12);
    for (int i : {0, 4}) {
      std::snprintf(label, sizeof label, "early exit n=%d dx[%d] vs FD", n, i);
      check::near(label, g[i],
                  check::differenceAt(x, i,
                                      [&] { return earlyRecorded(x, n); }),
                  1e-6);
    }
  }
}

template <auto F> void checkConverge(const char *name) {
  // Around 70 iterations with 2 snapshots (or the default): the online
  // schedule thins its snapshots several times.
  for (double a : {0.9, 0.5}) {
    double dy = 0, da = 0, dyr = 0, dar = 0;
    double value = ct::gradient<F>(2.0, a, &dy, &da);
    double recorded = ct::gradient<convergeRecorded>(2.0, a, &dyr, &dar);
    char label[64];
    std::snprintf(label, sizeof label, "%s a=%g value", name, a);
    check::near(label, value, recorded, 1e-13);
    std::snprintf(label, sizeof label, "%s a=%g dy", name, a);
    check::near(label, dy, dyr, 1e-12);
    std::snprintf(label, sizeof label, "%s a=%g da", name, a);
    check::near(label, da, dar, 1e-12);
    std::snprintf(label, sizeof label, "%s a=%g da vs FD", name, a);
    check::near(label, da,
                check::centralDifference(
                    [&](double t) { return convergeRecorded(2.0, t); }, a),
                1e-6);
  }
}

void checkShiftedWhile() {
  double u[6] = {0.3, 0.2, 0.5, -0.4, 0.7, 0.1}, ur[6], du[6] = {},
         dur[6] = {};
  for (int i = 0; i < 6; ++i)
    ur[i] = u[i];
  double value = ct::gradient<shiftedWhileCheckpointed>(u, du);
  double recorded = ct::gradient<shiftedWhileRecorded>(ur, dur);
  check::near("shifted while value", value, recorded, 1e-13);
  double worst = 0, worstFinal = 0;
  for (int i = 0; i < 6; ++i) {
    worst = std::fmax(worst, std::fabs(du[i] - dur[i]));
    worstFinal = std::fmax(worstFinal, std::fabs(u[i] - ur[i]));
  }
  check::near("shifted while gradient", worst, 0, 1e-12);
  check::near("shifted while final u", worstFinal, 0, 1e-15);
  for (int i : {2, 3}) {
    double fd = check::centralDifference(
        [&](double t) {
          double w[6] = {0.3, 0.2, 0.5, -0.4, 0.7, 0.1};
          w[i] = t;
          return shiftedWhileRecorded(w);
        },
        i == 2 ? 0.5 : -0.4);
    char label[48];
    std::snprintf(label, sizeof label, "shifted while du[%d] vs FD", i);
    check::near(label, du[i], fd, 1e-6);
  }
}

void checkDoWhile() {
  // On the heap, exactly n elements: the snapshots touch none beyond them.
  constexpr int n = 7;
  auto initial = [](int k) { return 0.3 + 0.1 * k; };
  double *o = new double[n], *or_ = new double[n], *d = new double[n](),
         *dr = new double[n]();
  for (int k = 0; k < n; ++k)
    o[k] = or_[k] = initial(k);
  double x = 0.6, dx = 0, dxr = 0;
  double value =
      ct::gradient<doWhileCheckpointed, ct::wrt<0, 1>>(x, o, n, &dx, d);
  double recorded =
      ct::gradient<doWhileRecorded, ct::wrt<0, 1>>(x, or_, n, &dxr, dr);
  check::near("do/while value", value, recorded, 1e-13);
  check::near("do/while dx", dx, dxr, 1e-12);
  auto at = [&](double t, int k) {
    double w[n];
    for (int j = 0; j < n; ++j)
      w[j] = initial(j);
    if (k < 0)
      return doWhileRecorded(t, w, n);
    w[k] = t;
    return doWhileRecorded(x, w, n);
  };
  check::near("do/while dx vs FD", dx,
              check::centralDifference([&](double t) { return at(t, -1); }, x),
              1e-6);
  for (int k = 0; k < n; ++k) {
    char label[48];
    std::snprintf(label, sizeof label, "do/while do[%d]", k);
    check::near(label, d[k], dr[k], 1e-12);
    std::snprintf(label, sizeof label, "do/while final o[%d]", k);
    check::near(label, o[k], or_[k], 1e-15);
    std::snprintf(label, sizeof label, "do/while do[%d] vs FD", k);
    check::near(label, d[k],
                check::centralDifference([&](double t) { return at(t, k); },
                                         initial(k)),
                1e-6);
  }
  delete[] o;
  delete[] or_;
  delete[] d;
  delete[] dr;
}

void checkInBranch() {
  for (double first : {0.5, -0.5}) { // the branch taken, then not
    double u[3] = {first, 0.2, -0.3}, ur[3] = {first, 0.2, -0.3},
           du[3] = {}, dur[3] = {};
    double value = ct::gradient<inBranchCheckpointed>(u, 7, du);
    double recorded = ct::gradient<inBranchRecorded>(ur, 7, dur);
    check::near("in branch value", value, recorded, 1e-13);
    for (int i = 0; i < 3; ++i) {
      check::near("in branch du", du[i], dur[i], 1e-12);
      check::near("in branch final u", u[i], ur[i], 1e-15);
      check::near("in branch du vs FD", du[i],
                  check::centralDifference(
                      [&](double t) {
                        double w[3] = {first, 0.2, -0.3};
                        w[i] = t;
                        return inBranchRecorded(w, 7);
                      },
                      i == 0 ? first : (i == 1 ? 0.2 : -0.3)),
                  1e-6);
    }
  }
  double da = 0, db = 0, dar = 0, dbr = 0;
  double value = ct::gradient<nestedInWhileCheckpointed>(0.4, 0.7, 4, &da, &db);
  double recorded = ct::gradient<nestedInWhileRecorded>(0.4, 0.7, 4, &dar, &dbr);
  check::near("nested in while value", value, recorded, 1e-13);
  check::near("nested in while da", da, dar, 1e-12);
  check::near("nested in while db", db, dbr, 1e-12);
  check::near("nested in while db vs FD", db,
              check::centralDifference(
                  [](double t) { return nestedInWhileRecorded(0.4, t, 4); },
                  0.7),
              1e-6);
}

/// A checkpointed loop whose work reaches nothing the result depends on,
/// but which reads in/out memory and writes a local buffer it reads back
/// (a std::complex): reversed for the in/out memory, its body takes the
/// buffer with a scratch derivative; the complex's parts and the carried
/// sum add nothing to the gradient.
[[ct::differentiable]] double unusedLoopWithBuffer(double x, double *o,
                                                   double y) {
  int i = 0;
#pragma ct checkpoint snapshots(2)
  for (; i < 7; ++i) {
    std::complex<double> z(std::sqrt(1.5 + o[i % 2] * o[i % 2]),
                           std::exp(std::sin(y)));
    x += 0.25 * z.real();
  }
  std::complex<double> after(y, std::fabs(x * x));
  return o[0] * o[1] + std::real(after) * 0;
}

void checkUnusedLoopWithBuffer() {
  double o[2] = {0.6, -1.3}, dO[2] = {0, 0}, dx = 0, dy = 0;
  double value =
      ct::gradient<unusedLoopWithBuffer>(0.2, o, 0.9, &dx, dO, &dy);
  check::near("unused loop with buffer value", value, 0.6 * -1.3, 1e-15);
  check::near("unused loop with buffer dx", dx, 0.0, 0.0);
  check::near("unused loop with buffer dy", dy, 0.0, 0.0);
  check::near("unused loop with buffer do0", dO[0], -1.3, 1e-15);
  check::near("unused loop with buffer do1", dO[1], 0.6, 1e-15);
}

void checkUnusedLoop() {
  double dx = 0;
  ct::gradient<unusedLoop>(0.7, 3, &dx);
  check::near("unused loop dx", dx, std::sin(0.7) + 0.7 * std::cos(0.7),
              1e-14);
}

// The elements a checkpointed loop changes, reached through a reference
// chosen at run time (to a local array or to the caller's memory) and at an
// index a branch chooses: the snapshots keep every element either choice
// may reach (the hull of both).
#define CHOSEN_PLACES_STEP                                                     \
  double m[2] = {x * o[i % 3], x + o[3]};                                      \
  double &r = o[(i + 1) % 4] > 0 ? m[i % 2] : (o[3] = std::sin(o[3]) * x);     \
  r += std::cos(x * o[i % 3]);                                                 \
  int k;                                                                       \
  if (r > 0.5)                                                                 \
    k = (i + 2) % 3;                                                           \
  else                                                                         \
    k = 3;                                                                     \
  o[k] = o[k] * 0.5 + r * x;                                                   \
  s += r * o[k];                                                               \
  ++i;

[[ct::differentiable]] double chosenPlacesCheckpointed(double x, double *o,
                                                       int n) {
  double s = 0;
  int i = 0;
#pragma ct checkpoint snapshots(2)
  while (i < n) {
    CHOSEN_PLACES_STEP
  }
  return s + o[0] * o[3];
}
[[ct::differentiable]] double chosenPlacesRecorded(double x, double *o,
                                                   int n) {
  double s = 0;
  int i = 0;
  while (i < n) {
    CHOSEN_PLACES_STEP
  }
  return s + o[0] * o[3];
}

void checkChosenPlaces() {
  // On the heap, exactly 4 elements: the snapshots touch none beyond them.
  constexpr int size = 4, n = 9;
  const double initial[size] = {0.3, -0.6, 0.9, 0.4};
  double *o = new double[size], *or_ = new double[size],
         *d = new double[size](), *dr = new double[size]();
  for (int k = 0; k < size; ++k)
    o[k] = or_[k] = initial[k];
  double x = 0.7, dx = 0, dxr = 0;
  double value =
      ct::gradient<chosenPlacesCheckpointed, ct::wrt<0, 1>>(x, o, n, &dx, d);
  double recorded =
      ct::gradient<chosenPlacesRecorded, ct::wrt<0, 1>>(x, or_, n, &dxr, dr);
  check::near("chosen places value", value, recorded, 1e-13);
  check::near("chosen places dx", dx, dxr, 1e-12);
  auto at = [&](double t, int k) {
    double w[size];
    for (int j = 0; j < size; ++j)
      w[j] = initial[j];
    if (k < 0)
      return chosenPlacesRecorded(t, w, n);
    w[k] = t;
    return chosenPlacesRecorded(x, w, n);
  };
  check::near("chosen places dx vs FD", dx,
              check::centralDifference([&](double t) { return at(t, -1); }, x),
              1e-6);
  for (int k = 0; k < size; ++k) {
    char label[48];
    std::snprintf(label, sizeof label, "chosen places do[%d]", k);
    check::near(label, d[k], dr[k], 1e-12);
    std::snprintf(label, sizeof label, "chosen places final o[%d]", k);
    check::near(label, o[k], or_[k], 1e-15);
    std::snprintf(label, sizeof label, "chosen places do[%d] vs FD", k);
    check::near(label, d[k],
                check::centralDifference([&](double t) { return at(t, k); },
                                         initial[k]),
                1e-6);
  }
  // Forward mode along o[1]: the checkpoint changes nothing there.
  double w[size], t[size] = {0, 1, 0, 0};
  for (int j = 0; j < size; ++j)
    w[j] = initial[j];
  check::near("chosen places tangent",
              ct::jvp<chosenPlacesCheckpointed>(x, w, n, 0.0, t).tangent,
              check::centralDifference([&](double v) { return at(v, 1); },
                                       initial[1]),
              1e-6);
  delete[] o;
  delete[] or_;
  delete[] d;
  delete[] dr;
}

// Elements found by searching: the index of a minimum (written out, and
// std::min_element's pointer) over a C pointer's memory, inside a
// checkpointed loop: each is one of the indices the search visits.
#define SEARCHED_STEP                                                          \
  int best = 0;                                                                \
  for (int j = 1; j < 4; ++j)                                                  \
    if (c[j] * o[j % 3] < c[best] * o[best % 3])                               \
      best = j;                                                                \
  o[i % 3] = std::sin(o[(i + 1) % 3]) * x + c[best] * o[best % 3] +            \
             *std::min_element(c, c + 4);                                      \
  s += o[i % 3];

[[ct::differentiable]] double searchedCheckpointed(const double *c, double *o,
                                                   double x) {
  double s = 0;
#pragma ct checkpoint snapshots(2)
  for (int i = 0; i < 7; ++i) {
    SEARCHED_STEP
  }
  return s;
}
[[ct::differentiable]] double searchedRecorded(const double *c, double *o,
                                               double x) {
  double s = 0;
  for (int i = 0; i < 7; ++i) {
    SEARCHED_STEP
  }
  return s;
}

void checkSearched() {
  // On the heap, exactly their sizes: the snapshots touch nothing beyond.
  const double c0[4] = {0.8, -0.5, 1.2, -0.9}, o0[3] = {0.5, 0.25, 0.1};
  double *c = new double[4], *o = new double[3], *oRecorded = new double[3];
  std::copy(c0, c0 + 4, c);
  std::copy(o0, o0 + 3, o);
  std::copy(o0, o0 + 3, oRecorded);
  double dc[4] = {}, dcRecorded[4] = {}, dO[3] = {}, dORecorded[3] = {};
  double x = 0.7, dx = 0, dxRecorded = 0;
  double value = ct::gradient<searchedCheckpointed>(c, o, x, dc, dO, &dx);
  double recorded = ct::gradient<searchedRecorded>(c, oRecorded, x, dcRecorded,
                                                   dORecorded, &dxRecorded);
  check::near("searched value", value, recorded, 1e-13);
  check::near("searched dx", dx, dxRecorded, 1e-12);
  // Central differences, each input moved on fresh copies.
  auto at = [&](int k, double t) {
    double cc[4], oo[3], xx = x;
    std::copy(c0, c0 + 4, cc);
    std::copy(o0, o0 + 3, oo);
    if (k < 4)
      cc[k] = t;
    else if (k < 7)
      oo[k - 4] = t;
    else
      xx = t;
    return searchedRecorded(cc, oo, xx);
  };
  for (int k = 0; k < 8; ++k) {
    double start = k < 4 ? c0[k] : k < 7 ? o0[k - 4] : x;
    double got = k < 4 ? dc[k] : k < 7 ? dO[k - 4] : dx;
    double gotRecorded = k < 4 ? dcRecorded[k] : k < 7 ? dORecorded[k - 4]
                                                       : dxRecorded;
    char label[48];
    std::snprintf(label, sizeof label, "searched d[%d]", k);
    check::near(label, got, gotRecorded, 1e-12);
    std::snprintf(label, sizeof label, "searched d[%d] vs FD", k);
    check::near(label, got,
                check::centralDifference([&](double t) { return at(k, t); },
                                         start),
                1e-6);
  }
  for (int k = 0; k < 3; ++k)
    check::near("searched final o", o[k], oRecorded[k], 1e-15);
  delete[] c;
  delete[] o;
  delete[] oRecorded;
}

int main() {
  checkSearched();
  checkChosenPlaces();
  checkShiftedWhile();
  checkDoWhile();
  checkInBranch();
  checkUnusedLoop();
  checkUnusedLoopWithBuffer();
  checkEarlyExit();
  checkConverge<convergeCheckpointed>("converge");
  checkConverge<convergeDefault>("converge default");
  for (int steps : {0, 1, 2, 23}) {
    checkPde<pdeTwoSnapshots>("two snapshots", steps);
    checkPde<pdeOneSnapshot>("one snapshot", steps);
    checkPde<pdeDefault>("default snapshots", steps);
  }
  checkShifted();
  checkNested();
  checkVector();
  checkHessianVector();
  checkNestedHessianVector();
  return check::report();
}
