// Calls of functions compiled elsewhere where no derivative flows through
// them: integers in and out, a number that depends on no active input, a
// random generator whose state is passed by pointer, a buffer the library
// fills, const pointers to inactive and to active data whose result only
// takes a branch, a bool result from a short argument, a struct of numbers
// by const reference, a const member function logging an active value.
// Each is called once per derivative call (counted by the library), also
// through a helper with a body in a loop reverse mode could rerun, and
// the derivatives match closed forms and finite differences, at -O0 and
// -O2, in reverse, forward and second-order mode.
// REQUIRES: plugin
// RUN: %clangxx-plain -O2 -c %S/Inputs/library-calls-lib.cpp -o %t.lib.o
// RUN: %clangxx-ct -O0 %s %t.lib.o -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s %t.lib.o -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "Inputs/library-calls-lib.h"
#include "check.h"

constexpr int N = 5;

[[ct::differentiable]] double model(const double *x, int n, double t) {
  int k = table_size(n);  // 2n + 1
  double c = scale_of(k); // n + 0.5
  unsigned state = 7;
  double noise = 1e-3 * static_cast<double>(next_random(&state) % 100u);
  double w[4];
  fill_weights(w, 4); // 0.25, 0.5, 0.75, 1
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i % 4] * x[i] * x[i];
  double m = mean_of(w, 4); // 0.625
  if (!is_enabled(static_cast<short>(n)) || mean_of(x, n) > 1e6)
    return 0;
  Config config{2.0, -0.5};
  double g = gain_of(config); // 1.5
  Logger{2.0}.record(s);
  return g * c * s * t + m * t * t + noise;
}

// A helper with a body calling the library inside a loop whose iterations
// reverse mode could run again instead of taping them: it must not, the
// library keeps state (here, a count).
double noise(int i) { return noise_at(i); }
[[ct::differentiable]] double noisy(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(x[i]) * x[i] * (1 + noise(i));
  return s;
}

int main() {
  double x[N] = {0.5, -1.0, 1.5, 0.25, -0.75};
  double t = 0.8;
  // Closed form: f = g c t sum_i w_i x_i^2 + m t^2 + noise.
  const double g = 1.5, c = N + 0.5, m = 0.625;
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += 0.25 * (i % 4 + 1) * x[i] * x[i];

  double dx[N] = {}, dt = 0;
  int before = scaleCalls, randomBefore = randomCalls, recordedBefore = recorded;
  double value = ct::gradient<model>(x, N, t, dx, &dt);
  check::near("scale_of called once by ct::gradient", scaleCalls - before, 1,
              0);
  check::near("next_random called once", randomCalls - randomBefore, 1, 0);
  check::near("record called once", recorded - recordedBefore, 1, 0);
  check::near("the logged value is the primal's", lastRecorded, 2.0 * s,
              1e-12);
  unsigned state = 7;
  double noise = 1e-3 * ((state * 1664525u + 1013904223u) % 100u);
  check::near("value", value, g * c * s * t + m * t * t + noise, 1e-12);
  for (int i = 0; i < N; ++i)
    check::near("d/dx_i", dx[i], g * c * t * 0.25 * (i % 4 + 1) * 2 * x[i],
                1e-12);
  check::near("d/dt", dt, g * c * s + 2 * m * t, 1e-12);
  check::near("d/dt by differences",
              dt,
              check::centralDifference(
                  [&](double u) { return model(x, N, u); }, t),
              1e-6);

  // Forward mode along x_0 and t.
  double tx[N] = {1, 0, 0, 0, 0};
  before = scaleCalls;
  ct::dual<double> forward = ct::jvp<model>(x, N, t, tx, 1.0);
  check::near("scale_of called once by ct::jvp", scaleCalls - before, 1, 0);
  check::near("jvp value", forward.value, value, 1e-12);
  check::near("jvp tangent", forward.tangent, dx[0] + dt, 1e-12);

  // Hessian-vector product along t: d2f/dt2 = 2m, d2f/dx_i dt = g c w_i 2 x_i.
  double vx[N] = {}, hx[N] = {}, ht = 0;
  before = scaleCalls;
  ct::hvp<model>(x, N, t, vx, 1.0, hx, &ht);
  check::near("scale_of called once by ct::hvp", scaleCalls - before, 1, 0);
  check::near("hvp t", ht, 2 * m, 1e-12);
  for (int i = 0; i < N; ++i)
    check::near("hvp x_i", hx[i], g * c * 0.25 * (i % 4 + 1) * 2 * x[i],
                1e-12);
  // noisy: the library is called n times per sweep, never again.
  double nx[N] = {};
  before = noiseCalls;
  ct::gradient<noisy>(x, N, nx);
  check::near("noise_at called n times by ct::gradient", noiseCalls - before,
              N, 0);
  for (int i = 0; i < N; ++i)
    check::near("d noisy/dx_i", nx[i],
                (std::cos(x[i]) * x[i] + std::sin(x[i])) * (1 + 1e-3 * i),
                1e-12);
  before = noiseCalls;
  ct::jvp<noisy>(x, N, tx);
  check::near("noise_at called n times by ct::jvp", noiseCalls - before, N,
              0);
  return check::report();
}
