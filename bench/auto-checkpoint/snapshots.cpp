//===- snapshots.cpp - Snapshot counts of a checkpointed ODE --------------===//
//
// The ODE workload's RK4 integration (bench/workloads/Ode.h), its step
// loop checkpointed with the default snapshot count (the least S with
// S * S >= steps) and with more; prints one JSON object with the best of 5
// gradient times per count (bench/auto_checkpoint.py runs it).
//
//===----------------------------------------------------------------------===//

#include "Ode.h"

#include <cotangent/cotangent.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace bench::ode;

namespace {

void axpy(int n, const double *y, double scale, const double *k, double *z) {
  for (int i = 0; i < n; ++i)
    z[i] = y[i] + scale * k[i];
}

#define STATE                                                                  \
  double y[kMaxSize] = {};                                                     \
  double k1[kMaxSize], k2[kMaxSize], k3[kMaxSize], k4[kMaxSize];               \
  double stage[kMaxSize];                                                      \
  const double h = kFinalTime / steps;
#define STEP                                                                   \
  rate(n, x, y, k1);                                                           \
  axpy(n, y, h / 2, k1, stage);                                                \
  rate(n, x, stage, k2);                                                       \
  axpy(n, y, h / 2, k2, stage);                                                \
  rate(n, x, stage, k3);                                                       \
  axpy(n, y, h, k3, stage);                                                    \
  rate(n, x, stage, k4);                                                       \
  for (int i = 0; i < n; ++i)                                                  \
    y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);

[[ct::differentiable]] double byDefault(int n, int steps, const double *x) {
  STATE
#pragma ct checkpoint
  for (int s = 0; s < steps; ++s) {
    STEP
  }
  return y[n - 1];
}
[[ct::differentiable]] double with1000(int n, int steps, const double *x) {
  STATE
#pragma ct checkpoint snapshots(1000)
  for (int s = 0; s < steps; ++s) {
    STEP
  }
  return y[n - 1];
}
[[ct::differentiable]] double with3000(int n, int steps, const double *x) {
  STATE
#pragma ct checkpoint snapshots(3000)
  for (int s = 0; s < steps; ++s) {
    STEP
  }
  return y[n - 1];
}
[[ct::differentiable]] double with20000(int n, int steps, const double *x) {
  STATE
#pragma ct checkpoint snapshots(20000)
  for (int s = 0; s < steps; ++s) {
    STEP
  }
  return y[n - 1];
}

template <class F> double bestMs(F f) {
  double best = 1e300;
  for (int r = 0; r < 5; ++r) {
    auto start = std::chrono::steady_clock::now();
    f();
    std::chrono::duration<double, std::milli> took =
        std::chrono::steady_clock::now() - start;
    best = took.count() < best ? took.count() : best;
  }
  return best;
}

} // namespace

int main(int argc, char **argv) {
  const int n = 100, steps = argc > 1 ? std::atoi(argv[1]) : 100000;
  std::vector<double> x(n), g(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.5 + double(i) / n;
  auto time = [&](auto gradient) {
    return bestMs([&] {
      for (double &v : g)
        v = 0;
      gradient();
    });
  };
  double counts[4] = {
      time([&] { ct::gradient<byDefault>(n, steps, x.data(), g.data()); }),
      time([&] { ct::gradient<with1000>(n, steps, x.data(), g.data()); }),
      time([&] { ct::gradient<with3000>(n, steps, x.data(), g.data()); }),
      time([&] { ct::gradient<with20000>(n, steps, x.data(), g.data()); })};
  int s = 1;
  while (s * s < steps)
    ++s;
  std::printf("{\"steps\": %d, \"snapshots_ms\": {\"%d\": %.3f, \"1000\": "
              "%.3f, \"3000\": %.3f, \"20000\": %.3f}}\n",
              steps, s, counts[0], counts[1], counts[2], counts[3]);
  return 0;
}
