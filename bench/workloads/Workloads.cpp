//===- Workloads.cpp - Sizes and closures of the benchmark workloads ------===//

#include "Workloads.h"

#include "Ba.h"
#include "Det.h"
#include "Gmm.h"
#include "Lstm.h"
#include "Mlp.h"
#include "Neighbours.h"
#include "Ode.h"
#include "Stencil.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace bench {
namespace {

constexpr uint64_t kSeed = 20261122;
constexpr double kStep = 1e-6;

/// Central difference of objectiveAt(params) in coordinate i.
template <class Objective>
double centralDifference(Objective objectiveAt, std::vector<double> &params,
                         size_t i) {
  const double saved = params[i];
  const double step = kStep * std::max(1.0, std::fabs(saved));
  params[i] = saved + step;
  const double plus = objectiveAt(params.data());
  params[i] = saved - step;
  const double minus = objectiveAt(params.data());
  params[i] = saved;
  return (plus - minus) / (2 * step);
}

/// The closures every scalar workload shares; `input` owns the data.
template <class Input>
Workload scalarWorkload(std::string name, std::shared_ptr<Input> input,
                        std::vector<double> params,
                        double (*objective)(const Input &),
                        double (*objectiveAt)(const Input &, const double *),
                        double (*gradient)(const Input &, double *),
                        double (*manual)(const Input &, double *)) {
  Workload w;
  w.name = std::move(name);
  w.derivativeSize = input->parameterCount();
  w.primal = [input, objective] { objective(*input); };
  w.derivative = [input, gradient](double *out) { gradient(*input, out); };
  w.manual = [input, manual](double *out) { manual(*input, out); };
  w.differenceUnits = w.derivativeSize;
  auto shared = std::make_shared<std::vector<double>>(std::move(params));
  w.difference = [input, shared, objectiveAt](size_t i, double *out) {
    out[i] = centralDifference(
        [&](const double *p) { return objectiveAt(*input, p); }, *shared, i);
  };
  return w;
}

std::vector<double>
concatenate(std::initializer_list<const std::vector<double> *> parts) {
  std::vector<double> all;
  for (const std::vector<double> *part : parts)
    all.insert(all.end(), part->begin(), part->end());
  return all;
}

Workload makeGmm(int d, int k, int n) {
  auto in = std::make_shared<gmm::Input>(gmm::generate(d, k, n, kSeed));
  std::vector<double> params = concatenate({&in->alphas, &in->means, &in->icf});
  Workload w = scalarWorkload("gmm-d" + std::to_string(d) + "-k" +
                                  std::to_string(k) + "-n" + std::to_string(n),
                              in, params, gmm::objective, gmm::objectiveAt,
                              gmm::gradient, gmm::gradientManual);
  auto direction = std::make_shared<std::vector<double>>(params.size());
  for (size_t i = 0; i < params.size(); ++i)
    (*direction)[i] = std::sin(double(i) + 1);
  w.hessianVector = [in, direction](double *out) {
    gmm::hessianVector(*in, direction->data(), out);
  };
  // Four pullbacks (the seeds are arbitrary: the objective is scalar), in
  // one vector-mode sweep and one by one; the full Hessian at d <= 10.
  auto lanes = std::make_shared<std::vector<double>>(4 * params.size());
  static constexpr double seeds[4] = {1.0, -0.5, 2.0, 0.25};
  w.variants.push_back({"pullback-lanes4", [in, lanes] {
                          gmm::pullbacks(*in, seeds, lanes->data(), true);
                        }});
  w.variants.push_back({"pullback-x4", [in, lanes] {
                          gmm::pullbacks(*in, seeds, lanes->data(), false);
                        }});
  // The per-point loop as an OpenMP loop, on 1 and 2 threads.
  auto gradient = std::make_shared<std::vector<double>>(params.size());
  for (int threads : {1, 2}) {
    std::string on = "/threads:" + std::to_string(threads);
    w.variants.push_back({"parallel-primal" + on, [in, threads] {
                            gmm::setThreads(threads);
                            gmm::objectiveParallel(*in);
                          }});
    w.variants.push_back({"parallel-gradient" + on, [in, gradient, threads] {
                            gmm::setThreads(threads);
                            gmm::gradientParallel(*in, gradient->data());
                          }});
    w.variants.push_back({"parallel-jvp" + on, [in, direction, threads] {
                            gmm::setThreads(threads);
                            gmm::directionalParallel(*in, direction->data());
                          }});
  }
  if (d <= 10) {
    auto hessian =
        std::make_shared<std::vector<double>>(params.size() * params.size());
    w.variants.push_back(
        {"hessian", [in, hessian] { gmm::hessian(*in, hessian->data()); }});
  }
  w.hessianVectorDifference = [in, direction](double *out) {
    // (grad(p + h v) - grad(p - h v)) / 2h with the hand-written gradient.
    const double step = 1e-5;
    std::vector<double> plus(direction->size()), minus(direction->size());
    for (int sign : {1, -1}) {
      gmm::Input moved = *in;
      size_t at = 0;
      for (std::vector<double> *part :
           {&moved.alphas, &moved.means, &moved.icf})
        for (double &value : *part)
          value += sign * step * (*direction)[at++];
      gmm::gradientManual(moved, sign > 0 ? plus.data() : minus.data());
    }
    for (size_t i = 0; i < plus.size(); ++i)
      out[i] = (plus[i] - minus[i]) / (2 * step);
  };
  return w;
}

Workload makeLstm(int layers, int length, int width) {
  auto in = std::make_shared<lstm::Input>(
      lstm::generate(layers, length, width, kSeed));
  return scalarWorkload(
      "lstm-l" + std::to_string(layers) + "-c" + std::to_string(length), in,
      concatenate({&in->main, &in->extra}), lstm::objective, lstm::objectiveAt,
      lstm::gradient, lstm::gradientManual);
}

Workload makeOde(int n, int steps) {
  auto in = std::make_shared<ode::Input>(ode::generate(n, steps, kSeed));
  return scalarWorkload(
      "ode-n" + std::to_string(n) + "-s" + std::to_string(steps), in, in->x,
      ode::objective, ode::objectiveAt, ode::gradient, ode::gradientManual);
}

Workload makeOdeCheckpointed(int n, int steps) {
  auto in = std::make_shared<ode::Input>(ode::generate(n, steps, kSeed));
  return scalarWorkload("ode-checkpointed-n" + std::to_string(n) + "-s" +
                            std::to_string(steps),
                        in, in->x, ode::objective, ode::objectiveAt,
                        ode::gradientCheckpointed, ode::gradientManual);
}

Workload makeStencil(int n, int steps, bool checkpointed) {
  auto in =
      std::make_shared<stencil::Input>(stencil::generate(n, steps, kSeed));
  return scalarWorkload(
      std::string(checkpointed ? "stencil-checkpointed-n" : "stencil-n") +
          std::to_string(n) + "-s" + std::to_string(steps),
      in, in->u0, stencil::objective, stencil::objectiveAt,
      checkpointed ? stencil::gradientCheckpointed : stencil::gradient,
      stencil::gradientManual);
}

Workload makeGmmAsWritten(int d, int k, int n) {
  auto in = std::make_shared<gmm::Input>(gmm::generate(d, k, n, kSeed));
  return scalarWorkload("gmm-as-written-d" + std::to_string(d) + "-k" +
                            std::to_string(k) + "-n" + std::to_string(n),
                        in, concatenate({&in->alphas, &in->means, &in->icf}),
                        gmm::objectiveAsWritten, gmm::objectiveAsWrittenAt,
                        gmm::gradientAsWritten, gmm::gradientManual);
}

Workload makeLstmAsWritten(int layers, int length, int width) {
  auto in = std::make_shared<lstm::Input>(
      lstm::generate(layers, length, width, kSeed));
  return scalarWorkload("lstm-as-written-l" + std::to_string(layers) + "-c" +
                            std::to_string(length),
                        in, concatenate({&in->main, &in->extra}),
                        lstm::objectiveAsWritten, lstm::objectiveAsWrittenAt,
                        lstm::gradientAsWritten, lstm::gradientManual);
}

Workload makeOdeAsWritten(int n, int steps) {
  auto in = std::make_shared<ode::Input>(ode::generate(n, steps, kSeed));
  return scalarWorkload(
      "ode-as-written-n" + std::to_string(n) + "-s" + std::to_string(steps), in,
      in->x, ode::objectiveAsWritten, ode::objectiveAsWrittenAt,
      ode::gradientAsWritten, ode::gradientManual);
}

// The general memory model's workloads (docs/Memory.md), each also in the
// form the memref model takes, to measure what the general model costs.
Workload makeNeighbours(int n, int neighbours, bool reserved) {
  auto in = std::make_shared<neighbours::Input>(
      neighbours::generate(n, neighbours, kSeed));
  return scalarWorkload(
      std::string(reserved ? "neighbours-reserved-n" : "neighbours-n") +
          std::to_string(n),
      in, in->positions, neighbours::objective, neighbours::objectiveAt,
      reserved ? neighbours::gradientReserved : neighbours::gradient,
      neighbours::gradientManual);
}

/// The MLP's forms: activations reassigned (the general model), two fixed
/// buffers (the memref model), a vector of layers built in the loss.
enum class MlpForm { Reassigned, FixedBuffers, Layers };

Workload makeMlp(std::vector<int> widths, int samples, MlpForm form) {
  auto in = std::make_shared<mlp::Input>(
      mlp::generate(std::move(widths), samples, kSeed));
  std::string name = form == MlpForm::FixedBuffers ? "mlp-fixed-buffers"
                     : form == MlpForm::Layers     ? "mlp-layers"
                                                   : "mlp";
  for (int width : in->widths)
    name += "-" + std::to_string(width);
  return scalarWorkload(name, in, in->weights, mlp::objective, mlp::objectiveAt,
                        form == MlpForm::FixedBuffers
                            ? mlp::gradientFixedBuffers
                        : form == MlpForm::Layers ? mlp::gradientOfLayers
                                                  : mlp::gradient,
                        mlp::gradientManual);
}

Workload makeDet(int n) {
  auto in = std::make_shared<det::Input>(det::generate(n, kSeed));
  return scalarWorkload("det-n" + std::to_string(n), in, in->a, det::objective,
                        det::objectiveAt, det::gradient, det::gradientManual);
}

Workload makeBa(int n, int m, int p) {
  auto in = std::make_shared<ba::Input>(ba::generate(n, m, p, kSeed));
  auto residuals = std::make_shared<std::vector<double>>(in->residualCount());
  Workload w;
  w.name = "ba-n" + std::to_string(n) + "-m" + std::to_string(m) + "-p" +
           std::to_string(p);
  w.derivativeSize = in->jacobianSize();
  w.primal = [in, residuals] { ba::residuals(*in, residuals->data()); };
  w.derivative = [in](double *out) { ba::jacobian(*in, out); };
  w.manual = [in](double *out) { ba::jacobianManual(*in, out); };
  auto lanes =
      std::make_shared<std::vector<double>>(4 * size_t(p) * ba::kBlockColumns);
  static constexpr double seeds[2 * 4] = {1, 0, 0, 1, 1, 1, 0.5, -2};
  w.variants.push_back({"pullback-lanes4", [in, lanes] {
                          ba::pullbacks(*in, seeds, lanes->data(), true);
                        }});
  w.variants.push_back({"pullback-x4", [in, lanes] {
                          ba::pullbacks(*in, seeds, lanes->data(), false);
                        }});
  // Unit o < p: observation o's block; unit p: every weight's entry.
  w.differenceUnits = size_t(in->p) + 1;
  w.difference = [in](size_t unit, double *out) {
    using ba::kBlockColumns, ba::kCameraSize;
    double *weights = out + size_t(in->p) * 2 * kBlockColumns;
    if (unit == size_t(in->p)) {
      for (int o = 0; o < in->p; ++o) {
        const double w = in->weights[o], step = kStep * std::max(1.0, w);
        weights[o] =
            ((1 - (w + step) * (w + step)) - (1 - (w - step) * (w - step))) /
            (2 * step);
      }
      return;
    }
    const int o = int(unit);
    double block[kBlockColumns];
    std::copy_n(&in->cameras[size_t(in->observations[2 * o]) * kCameraSize],
                kCameraSize, block);
    std::copy_n(&in->points[size_t(in->observations[2 * o + 1]) * 3], 3,
                block + kCameraSize);
    block[kCameraSize + 3] = in->weights[o];
    for (int j = 0; j < kBlockColumns; ++j) {
      const double saved = block[j];
      const double step = kStep * std::max(1.0, std::fabs(saved));
      double plus[2], minus[2];
      block[j] = saved + step;
      ba::reprojectionAt(*in, o, block, plus);
      block[j] = saved - step;
      ba::reprojectionAt(*in, o, block, minus);
      block[j] = saved;
      for (int row = 0; row < 2; ++row)
        out[(2 * size_t(o) + row) * kBlockColumns + j] =
            (plus[row] - minus[row]) / (2 * step);
    }
  };
  return w;
}

} // namespace

std::vector<Workload> makeWorkloads(Scale scale) {
  std::vector<Workload> workloads;
  if (scale == Scale::Test) {
    workloads.push_back(makeGmm(3, 4, 5));
    workloads.push_back(makeGmmAsWritten(3, 4, 5));
    workloads.push_back(makeBa(3, 5, 8));
    workloads.push_back(makeLstm(2, 6, 4));
    workloads.push_back(makeLstmAsWritten(2, 6, 4));
    workloads.push_back(makeOde(5, 10));
    workloads.push_back(makeOdeAsWritten(5, 10));
    workloads.push_back(makeDet(4));
    workloads.push_back(makeOdeCheckpointed(5, 10));
    workloads.push_back(makeStencil(8, 5, false));
    workloads.push_back(makeStencil(8, 5, true));
    workloads.push_back(makeNeighbours(30, 6, false));
    workloads.push_back(makeNeighbours(30, 6, true));
    workloads.push_back(makeMlp({3, 5, 4, 2}, 3, MlpForm::Reassigned));
    workloads.push_back(makeMlp({3, 5, 4, 2}, 3, MlpForm::FixedBuffers));
    workloads.push_back(makeMlp({3, 5, 4, 2}, 3, MlpForm::Layers));
    return workloads;
  }
  workloads.push_back(makeGmm(10, 25, 1000));
  workloads.push_back(makeGmm(64, 100, 1000));
  workloads.push_back(makeGmmAsWritten(10, 25, 1000));
  workloads.push_back(makeGmmAsWritten(64, 100, 1000));
  workloads.push_back(makeBa(49, 7776, 31843));
  workloads.push_back(makeLstm(2, 1024, 14));
  workloads.push_back(makeLstmAsWritten(2, 1024, 14));
  workloads.push_back(makeOde(100, 1000));
  workloads.push_back(makeOdeAsWritten(100, 1000));
  workloads.push_back(makeDet(8));
  // Long time stepping, recorded and checkpointed (#pragma ct checkpoint).
  workloads.push_back(makeOde(100, 100000));
  workloads.push_back(makeOdeCheckpointed(100, 100000));
  workloads.push_back(makeStencil(256, 1000, false));
  workloads.push_back(makeStencil(256, 1000, true));
  workloads.push_back(makeNeighbours(2000, 30, false));
  workloads.push_back(makeNeighbours(2000, 30, true));
  workloads.push_back(makeMlp({64, 128, 128, 10}, 256, MlpForm::Reassigned));
  workloads.push_back(makeMlp({64, 128, 128, 10}, 256, MlpForm::FixedBuffers));
  workloads.push_back(makeMlp({64, 128, 128, 10}, 256, MlpForm::Layers));
  return workloads;
}

double maxRelativeError(const std::vector<double> &actual,
                        const std::vector<double> &expected, double floor) {
  // A NaN or an infinity on either side is an error of its own: std::max
  // would drop a NaN and let an all-NaN derivative pass.
  const double infinite = std::numeric_limits<double>::infinity();
  if (actual.size() != expected.size())
    return infinite;
  double largest = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!std::isfinite(actual[i]) || !std::isfinite(expected[i]))
      return infinite;
    largest = std::max(largest, std::fabs(expected[i]));
  }
  double worst = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const double scale = std::max(std::fabs(expected[i]), floor * largest);
    const double difference = std::fabs(actual[i] - expected[i]);
    if (scale == 0) {
      // Expected exactly zero everywhere: any difference is wrong.
      if (difference != 0)
        return infinite;
      continue;
    }
    worst = std::max(worst, difference / scale);
  }
  return worst;
}

} // namespace bench
