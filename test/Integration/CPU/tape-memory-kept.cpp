// A freed tape's heap block is kept for the next tape made at the same place
// (its site), so a derivative called again writes its tape into memory it
// already touched instead of fresh pages. The largest block the derivative
// code asks malloc/realloc for shows whether a call reused a kept block:
//   default (1 GiB kept at most): only each site's first call allocates;
//   COTANGENT_TAPE_CACHE_BYTES=0: every call allocates its tape;
//   a limit holding one tape but not two: two functions called in turn
//     evict each other's block, while one function called twice reuses it;
//   an empty value: the default.
// More than 32 sites: the least recently kept blocks are freed to make room.
// Gradients run in four threads at once (the cache is shared and locked)
// and must equal the single-threaded ones; every gradient matches central
// finite differences.
// REQUIRES: plugin
// RUN: %clangxx-ct -O2 -pthread -fplugin-arg-cotangent-auto-checkpoint=off %s -Wl,--wrap=malloc,--wrap=realloc -o %t2
// RUN: %t2 | FileCheck %s
// RUN: env COTANGENT_TAPE_CACHE_BYTES= %t2 | FileCheck %s
// RUN: env COTANGENT_TAPE_CACHE_BYTES=0 %t2 | FileCheck %s
// RUN: env COTANGENT_TAPE_CACHE_BYTES=6000000 %t2 | FileCheck %s
// RUN: %clangxx-ct -O0 -pthread -fplugin-arg-cotangent-auto-checkpoint=off %s -Wl,--wrap=malloc,--wrap=realloc -o %t0
// RUN: %t0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "largest-block.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>
#include <vector>

//===----------------------------------------------------------------------===//
// Functions with long recorded tapes (a few doubles per step)
//===----------------------------------------------------------------------===//

constexpr int kSize = 8;
constexpr int kSteps = 200000;     // tapes of a few MB
constexpr int kShortSteps = 20000; // a tenth of that

[[ct::differentiable]] double sineChain(const double *x, int n, int steps) {
  double s = 0;
  for (int t = 0; t < steps; ++t)
    s = std::sin(s + x[t % n]) * x[(t + 1) % n];
  return s;
}

[[ct::differentiable]] double cosineChain(const double *x, int n, int steps) {
  double s = 0;
  for (int t = 0; t < steps; ++t)
    s = std::cos(s * x[t % n]) * x[(t + 3) % n];
  return s;
}

/// Forty functions, each a site of its own.
template <int K>
[[ct::differentiable]] double shiftedChain(const double *x, int n, int steps) {
  double s = 0;
  for (int t = 0; t < steps; ++t)
    s = std::sin(s + x[(t + K) % n]) * x[(t + 1) % n];
  return s;
}
constexpr int kSites = 40;

using Objective = double (*)(const double *, int, int);
template <Objective F> struct Gradient {
  static void at(const double *x, int steps, double *g) {
    for (int i = 0; i < kSize; ++i)
      g[i] = 0;
    ct::gradient<F, ct::wrt<0>>(x, kSize, steps, g);
  }
};
using GradientFn = void (*)(const double *, int, double *);

template <int... K>
std::vector<GradientFn> shiftedGradients(std::integer_sequence<int, K...>) {
  return {&Gradient<&shiftedChain<K>>::at...};
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// The limit the program runs under, as the generated code reads it.
long long keptLimit() {
  const char *text = std::getenv("COTANGENT_TAPE_CACHE_BYTES");
  if (!text || !*text)
    return 1ll << 30;
  return std::atoll(text);
}

double inputs[kSize];

/// One call, its largest block checked: `allocates` says whether the call
/// must ask for its tape (at least a double per step) or reuse a kept block.
/// Returns the block.
size_t checkCall(const char *what, GradientFn gradient, int steps,
                 bool allocates, double *g) {
  size_t tape = size_t(steps) * sizeof(double);
  size_t block = largestBlockOf([&] { gradient(inputs, steps, g); });
  char label[120];
  std::snprintf(label, sizeof label, "%s %s (largest block %zu)", what,
                allocates ? "allocates its tape" : "reuses a kept block",
                block);
  check::near(label, allocates ? block >= tape : block < tape / 4, 1, 0);
  return block;
}

void checkAgainstDifferences(const char *what, Objective f, int steps,
                             const double *g) {
  for (int i : {0, 3, kSize - 1}) {
    char label[80];
    std::snprintf(label, sizeof label, "%s d/dx[%d] vs FD", what, i);
    check::near(label, g[i],
                check::differenceAt(inputs, i,
                                    [&] { return f(inputs, kSize, steps); }),
                1e-5);
  }
}

void checkSameGradient(const char *what, const double *g, const double *h) {
  for (int i = 0; i < kSize; ++i) {
    char label[80];
    std::snprintf(label, sizeof label, "%s d/dx[%d]", what, i);
    check::near(label, g[i], h[i], 0);
  }
}

/// One function called three times, then two called in turn.
void checkReuse(long long limit) {
  auto sine = &Gradient<&sineChain>::at, cosine = &Gradient<&cosineChain>::at;
  double first[kSize], again[kSize], cos1[kSize], cos2[kSize];
  // The first call's largest block is the block its tape ends in.
  long long sineBlock = checkCall("sine, first call", sine, kSteps, true, first);
  const bool keepsOne = limit >= sineBlock;
  checkAgainstDifferences("sine", sineChain, kSteps, first);
  checkCall("sine, second call", sine, kSteps, !keepsOne, again);
  checkSameGradient("sine, second call", again, first);
  checkCall("sine, third call", sine, kSteps, !keepsOne, again);
  checkSameGradient("sine, third call", again, first);
  long long cosineBlock =
      checkCall("cosine, first call", cosine, kSteps, true, cos1);
  const bool keepsTwo = limit >= sineBlock + cosineBlock;
  std::printf("blocks: sine %lld, cosine %lld; limit %lld keeps %s\n",
              sineBlock, cosineBlock, limit,
              keepsTwo ? "both" : keepsOne ? "one" : "none");
  checkAgainstDifferences("cosine", cosineChain, kSteps, cos1);
  checkCall("sine after cosine", sine, kSteps, !keepsTwo, again);
  checkSameGradient("sine after cosine", again, first);
  checkCall("cosine after sine", cosine, kSteps, !keepsTwo, cos2);
  checkSameGradient("cosine after sine", cos2, cos1);
}

/// Forty sites, each called once: the 32 kept at most are the latest.
void checkManySites(long long limit) {
  std::vector<GradientFn> sites =
      shiftedGradients(std::make_integer_sequence<int, kSites>());
  std::vector<std::vector<double>> first(kSites, std::vector<double>(kSize));
  long long block = 0;
  for (int k = 0; k < kSites; ++k)
    block = largestBlockOf(
        [&] { sites[k](inputs, kShortSteps, first[k].data()); });
  const bool keeps = limit >= block;
  double g[kSize];
  checkCall("latest of 40 sites", sites[kSites - 1], kShortSteps, !keeps, g);
  checkSameGradient("latest of 40 sites", g, first[kSites - 1].data());
  checkCall("first of 40 sites", sites[0], kShortSteps, true, g);
  checkSameGradient("first of 40 sites", g, first[0].data());
  checkAgainstDifferences("site 0", shiftedChain<0>, kShortSteps, g);
}

/// Four threads, each alternating the two functions 20 times.
void checkThreads() {
  double sine[kSize], cosine[kSize];
  Gradient<&sineChain>::at(inputs, kShortSteps, sine);
  Gradient<&cosineChain>::at(inputs, kShortSteps, cosine);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w)
    workers.emplace_back([&, w] {
      double g[kSize];
      for (int round = 0; round < 20; ++round) {
        bool useSine = (round + w) % 2 == 0;
        (useSine ? Gradient<&sineChain>::at : Gradient<&cosineChain>::at)(
            inputs, kShortSteps, g);
        for (int i = 0; i < kSize; ++i)
          if (g[i] != (useSine ? sine : cosine)[i])
            ++mismatches;
      }
    });
  for (std::thread &worker : workers)
    worker.join();
  check::near("four threads: gradients equal to one thread's", mismatches, 0,
              0);
}

int main() {
  for (int i = 0; i < kSize; ++i)
    inputs[i] = 0.6 + 0.05 * i;
  const long long limit = keptLimit();
  checkReuse(limit);
  checkManySites(limit);
  checkThreads();
  return check::report();
}
