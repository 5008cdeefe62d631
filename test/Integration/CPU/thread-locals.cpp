// Thread-local variables in differentiable functions, each thread's own as
// C++ makes them: a std::vector workspace kept by each thread between calls
// (made on the thread's first call, freed when the thread ends), an array
// of numbers the function rewrites, a scale each thread initializes on its
// first call from a helper, an object whose destructor runs when its thread
// ends, and a gain outside any function that each thread sets. Four worker
// threads differentiate the same functions at once, each with its own
// values, and the main thread's copies stay its own. Derivatives against
// closed forms and (main thread) every mode against differences. -O0, -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 -pthread %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 -pthread %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>

#include "check.h"
#include "modes.h"

using check::near;

constexpr int kThreads = 4;
constexpr int kRounds = 50;

// Which thread this is (0: main), and what it asks of the functions.
thread_local int threadIndex = 0;
thread_local double threadSeed = 1.0;
thread_local double gain = 1.5;

// sum_i x_i exp(x_i) through a workspace each thread keeps between calls.
[[ct::differentiable]] inline double scratchSum(const double *x, int n) {
  thread_local std::vector<double> w;
  w.resize(n);
  for (int i = 0; i < n; ++i)
    w[i] = std::exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * x[i];
  return gain * s;
}

// x_0^2 + x_1 x_2 + x_3, the terms kept in a per-thread array.
[[ct::differentiable]] inline double termwise(const double *x, int n) {
  thread_local double terms[3] = {};
  terms[0] = x[0] * x[0];
  terms[1] = x[1] * x[2];
  terms[2] = x[n - 1];
  return terms[0] + terms[1] + terms[2];
}

// Each thread's first call fixes its scale from its seed.
int scaleRuns[kThreads + 1];
inline double seedScale() {
  ++scaleRuns[threadIndex];
  return threadSeed;
}
[[ct::differentiable]] inline double seeded(const double *x, int n) {
  thread_local double scale = seedScale();
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return scale * s;
}

// g sum_i x_i^3, g = log(2 + the thread's index), destroyed at its end.
int probesDestroyed[kThreads + 1];
struct Probe {
  double gain;
  ~Probe() { ++probesDestroyed[threadIndex]; }
};
inline Probe probeForThread() { return {std::log(2.0 + threadIndex)}; }
[[ct::differentiable]] inline double probed(const double *x, int n) {
  thread_local const Probe p = probeForThread();
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p.gain * x[i] * x[i] * x[i];
  return s;
}

struct Results {
  double scratch[4], terms[4], seeded[4], probed[4];
};

// Each worker differentiates every function kRounds times, concurrently
// with the others, and keeps its last gradients.
void work(int k, const double *x, Results *out) {
  threadIndex = k;
  threadSeed = 1.0 + k;
  gain = 0.5 * (k + 1);
  for (int round = 0; round < kRounds; ++round) {
    ct::gradient<scratchSum>(x, 4, out->scratch);
    ct::gradient<termwise>(x, 4, out->terms);
    ct::gradient<seeded>(x, 4, out->seeded);
    ct::gradient<probed>(x, 4, out->probed);
    if (round + 1 < kRounds)
      *out = Results{};
  }
}

// The gradients thread k must find (gain and seed as work sets them).
void checkThread(int k, const double *x, const Results &r, double gainK,
                 double seedK) {
  char label[96];
  for (int i = 0; i < 4; ++i) {
    std::snprintf(label, sizeof label, "thread %d scratch d/dx%d", k, i);
    near(label, r.scratch[i], gainK * std::exp(x[i]) * (1 + x[i]), 1e-13);
    std::snprintf(label, sizeof label, "thread %d seeded d/dx%d", k, i);
    near(label, r.seeded[i], 2 * seedK * x[i], 1e-14);
    std::snprintf(label, sizeof label, "thread %d probed d/dx%d", k, i);
    near(label, r.probed[i], 3 * std::log(2.0 + k) * x[i] * x[i], 1e-14);
  }
  double terms[4] = {2 * x[0], x[2], x[1], 1};
  for (int i = 0; i < 4; ++i) {
    std::snprintf(label, sizeof label, "thread %d terms d/dx%d", k, i);
    near(label, r.terms[i], terms[i], 1e-15);
  }
}

int main() {
  const double x[4] = {0.3, -0.7, 1.1, 0.45};
  // The main thread first: every mode against differences.
  check::checkModes<scratchSum>("scratch", x, 4);
  check::checkModes<termwise>("terms", x, 4);
  check::checkModes<seeded>("seeded", x, 4);
  check::checkModes<probed>("probed", x, 4);
  Results mainResults;
  work(0, x, &mainResults);
  checkThread(0, x, mainResults, 0.5, 1.0);
  near("main thread: seed read once", scaleRuns[0], 1, 0);

  Results results[kThreads + 1];
  std::vector<std::thread> workers;
  for (int k = 1; k <= kThreads; ++k)
    workers.emplace_back(work, k, x, &results[k]);
  for (std::thread &worker : workers)
    worker.join();
  char label[64];
  for (int k = 1; k <= kThreads; ++k) {
    checkThread(k, x, results[k], 0.5 * (k + 1), 1.0 + k);
    std::snprintf(label, sizeof label, "thread %d: seed read once", k);
    near(label, scaleRuns[k], 1, 0);
    std::snprintf(label, sizeof label, "thread %d: probe destroyed", k);
    near(label, probesDestroyed[k], 1, 0);
  }
  // The main thread's copies are still its own.
  Results after;
  work(0, x, &after);
  checkThread(0, x, after, 0.5, 1.0);
  near("main thread: probe alive", probesDestroyed[0], 0, 0);
  return check::report();
}
