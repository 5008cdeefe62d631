//===- BenchMain.cpp - Google Benchmark runs of the workloads -------------===//
//
// Per workload: the primal, Cotangent's derivative, the hand-written one, a
// sample of finite-difference units (report.py scales it to all of them)
// and, for GMM, the Hessian-vector product; then each workload's variants
// (vector-mode pullbacks, GMM's full Hessian). Counters carry what is not a
// time: the derivative's error against the hand-written one, and the peak
// heap memory each derivative allocates (its tape, or the hand-written
// one's stored intermediates).
//
//===----------------------------------------------------------------------===//

#include "HeapCounter.h"
#include "workloads/Workloads.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>

namespace {

/// Finite differences cost 2 primal runs per coordinate; time this many
/// units and let the report scale up.
constexpr size_t kDifferenceSample = 16;

void registerWorkload(const bench::Workload &w) {
  auto buffer = std::make_shared<std::vector<double>>(w.derivativeSize);
  std::vector<double> manual(w.derivativeSize), cotangent(w.derivativeSize);
  const long manualPeak =
      bench::peakHeapBytes([&] { w.manual(manual.data()); });
  const long cotangentPeak =
      bench::peakHeapBytes([&] { w.derivative(cotangent.data()); });
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
  for (const auto &[kind, run] : w.variants)
    add(kind, [&run](benchmark::State &state) {
      for (auto _ : state)
        run();
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
