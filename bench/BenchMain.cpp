//===- BenchMain.cpp - Google Benchmark runs of the workloads -------------===//
//
// Per workload: the primal, Cotangent's derivative, the hand-written one, a
// sample of finite-difference units (report.py scales it to all of them)
// and, for GMM, the Hessian-vector product. Counters carry what is not a
// time: the derivative's error against the hand-written one, and the peak
// memory each derivative adds to the process.
//
//===----------------------------------------------------------------------===//

#include "workloads/Workloads.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

namespace {

/// A /proc/self/status field, in bytes.
long statusBytes(const char *field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(field, 0) == 0)
      return std::stol(line.substr(std::strlen(field))) * 1024;
  return -1;
}

/// How far `run` raises the process's peak resident memory: the peak is
/// reset to the current size first (clear_refs 5), so this is what the run
/// allocates and touches at most at once. -1 where Linux does not tell.
long peakMemoryOf(const std::function<void()> &run) {
  {
    std::ofstream reset("/proc/self/clear_refs");
    reset << "5";
  }
  const long before = statusBytes("VmRSS:");
  run();
  const long peak = statusBytes("VmHWM:");
  return before < 0 || peak < 0 ? -1 : std::max(0L, peak - before);
}

/// Finite differences cost 2 primal runs per coordinate; time this many
/// units and let the report scale up.
constexpr size_t kDifferenceSample = 16;

void registerWorkload(const bench::Workload &w) {
  auto buffer = std::make_shared<std::vector<double>>(w.derivativeSize);
  std::vector<double> manual(w.derivativeSize), cotangent(w.derivativeSize);
  const long manualPeak = peakMemoryOf([&] { w.manual(manual.data()); });
  const long cotangentPeak =
      peakMemoryOf([&] { w.derivative(cotangent.data()); });
  const double error = bench::maxRelativeError(cotangent, manual);

  auto add = [&](const std::string &what, auto body) {
    return benchmark::RegisterBenchmark((w.name + "/" + what).c_str(), body)
        ->Unit(benchmark::kMillisecond);
  };
  add("primal", [&w](benchmark::State &state) {
    for (auto _ : state)
      w.primal();
  });
  add("cotangent", [&w, buffer, error, cotangentPeak](benchmark::State &state) {
    for (auto _ : state)
      w.derivative(buffer->data());
    state.counters["max_rel_error"] = error;
    state.counters["peak_bytes"] = double(cotangentPeak);
  });
  add("manual", [&w, buffer, manualPeak](benchmark::State &state) {
    for (auto _ : state)
      w.manual(buffer->data());
    state.counters["peak_bytes"] = double(manualPeak);
  });
  const size_t sample = std::min(kDifferenceSample, w.differenceUnits);
  add("finite-differences", [&w, buffer, sample](benchmark::State &state) {
    for (auto _ : state)
      for (size_t unit = 0; unit < sample; ++unit)
        w.difference(unit, buffer->data());
    state.counters["units_timed"] = double(sample);
    state.counters["units_total"] = double(w.differenceUnits);
  });
  if (w.hessianVector)
    add("hvp", [&w, buffer](benchmark::State &state) {
      for (auto _ : state)
        w.hessianVector(buffer->data());
    });
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  static const std::vector<bench::Workload> workloads =
      bench::makeWorkloads(bench::Scale::Full);
  for (const bench::Workload &w : workloads)
    registerWorkload(w);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
