//===- main.cpp - Times the pose-graph edge's Jacobian four ways ----------===//
//
// Run by bench/pose_graph.py:
//   pose-graph check              the number of edges and the largest
//                                 relative differences of each Jacobian
//                                 from the hand-written one, and of the
//                                 hand-written one from central
//                                 differences, as JSON
//   pose-graph <kind> <passes>    the median time of one edge in
//                                 nanoseconds over <passes> passes over all
//                                 edges; kind: primal, pullback, jvp,
//                                 ceres, manual
//
//===----------------------------------------------------------------------===//

#include "PoseGraphError.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace bench::posegraph;

namespace {
constexpr int kEdges = 2000;

Eigen::Quaterniond randomRotation(std::mt19937_64 &random) {
  std::normal_distribution<double> normal;
  Eigen::Quaterniond q(normal(random), normal(random), normal(random),
                       normal(random));
  return q.normalized();
}

/// A random graph's edges: poses near each other, measurements near the
/// truth, square roots of information upper triangular.
struct Graph {
  std::vector<PoseGraphError> errors;
  std::vector<Edge> edges;
  explicit Graph(int count) {
    std::mt19937_64 random(20261207);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform(0.5, 2.0);
    for (int e = 0; e < count; ++e) {
      Edge edge;
      Eigen::Quaterniond qA = randomRotation(random),
                         qB = randomRotation(random);
      for (int i = 0; i < 3; ++i) {
        edge.parameters[i] = normal(random);
        edge.parameters[7 + i] = edge.parameters[i] + 0.3 * normal(random);
      }
      std::copy_n(qA.coeffs().data(), 4, edge.parameters + 3);
      std::copy_n(qB.coeffs().data(), 4, edge.parameters + 10);
      Pose3d measured;
      measured.p = Eigen::Vector3d::Random();
      measured.q = randomRotation(random);
      Eigen::Matrix<double, 6, 6> s = Eigen::Matrix<double, 6, 6>::Zero();
      for (int i = 0; i < 6; ++i) {
        s(i, i) = uniform(random);
        for (int j = i + 1; j < 6; ++j)
          s(i, j) = 0.1 * normal(random);
      }
      errors.emplace_back(measured, s);
      edges.push_back(edge);
    }
  }
};

using Evaluator = void (*)(const Graph &, int, EdgeJacobian &);

Evaluator evaluatorFor(const char *kind) {
  if (!std::strcmp(kind, "primal"))
    return [](const Graph &g, int e, EdgeJacobian &out) {
      evaluatePrimal(g.errors[e], g.edges[e], out.residuals);
    };
  if (!std::strcmp(kind, "pullback"))
    return [](const Graph &g, int e, EdgeJacobian &out) {
      jacobianByPullback(g.errors[e], g.edges[e], out);
    };
  if (!std::strcmp(kind, "jvp"))
    return [](const Graph &g, int e, EdgeJacobian &out) {
      jacobianByJvp(g.errors[e], g.edges[e], out);
    };
  if (!std::strcmp(kind, "ceres"))
    return [](const Graph &g, int e, EdgeJacobian &out) {
      jacobianByCeres(e, g.edges[e], out);
    };
  if (!std::strcmp(kind, "manual"))
    return [](const Graph &g, int e, EdgeJacobian &out) {
      jacobianByHand(g.errors[e], g.edges[e], out);
    };
  return nullptr;
}

double relativeDifference(double value, double reference) {
  return std::fabs(value - reference) / std::max(1.0, std::fabs(reference));
}

/// The largest difference of an evaluator's residuals and Jacobian from
/// the hand-written ones over all edges.
double worstAgainstManual(const Graph &graph, Evaluator evaluate) {
  double worst = 0;
  for (int e = 0; e < int(graph.edges.size()); ++e) {
    EdgeJacobian got, expected;
    evaluate(graph, e, got);
    jacobianByHand(graph.errors[e], graph.edges[e], expected);
    for (int r = 0; r < 6; ++r)
      worst = std::max(
          worst, relativeDifference(got.residuals[r], expected.residuals[r]));
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 6 * PoseGraphError::kBlockSizes[b]; ++i)
        worst = std::max(
            worst, relativeDifference(got.blocks[b][i], expected.blocks[b][i]));
  }
  return worst;
}

/// The hand-written Jacobian against central differences of the functor.
double worstManualAgainstDifferences(const Graph &graph) {
  const double h = 1e-6;
  double worst = 0;
  for (int e = 0; e < 200; ++e) {
    EdgeJacobian manual;
    jacobianByHand(graph.errors[e], graph.edges[e], manual);
    for (int b = 0, column = 0; b < 4; ++b)
      for (int j = 0; j < PoseGraphError::kBlockSizes[b]; ++j, ++column) {
        Edge plus = graph.edges[e], minus = graph.edges[e];
        plus.parameters[column] += h;
        minus.parameters[column] -= h;
        double up[6], down[6];
        evaluatePrimal(graph.errors[e], plus, up);
        evaluatePrimal(graph.errors[e], minus, down);
        int size = PoseGraphError::kBlockSizes[b];
        for (int r = 0; r < 6; ++r)
          worst =
              std::max(worst, relativeDifference(manual.blocks[b][r * size + j],
                                                 (up[r] - down[r]) / (2 * h)));
      }
  }
  return worst;
}

int check(const Graph &graph) {
  bool ceres = prepareCeres(graph.errors.data(), int(graph.edges.size()));
  std::printf("{\"edges\": %d, \"max_rel_diff\": {"
              "\"manual_vs_differences\": %.3e, \"pullback_vs_manual\": "
              "%.3e, \"jvp_vs_manual\": %.3e",
              int(graph.edges.size()), worstManualAgainstDifferences(graph),
              worstAgainstManual(graph, evaluatorFor("pullback")),
              worstAgainstManual(graph, evaluatorFor("jvp")));
  if (ceres)
    std::printf(", \"ceres_vs_manual\": %.3e",
                worstAgainstManual(graph, evaluatorFor("ceres")));
  std::printf("}}\n");
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  Graph graph(kEdges);
  if (!std::strcmp(argv[1], "check"))
    return check(graph);
  Evaluator evaluate = evaluatorFor(argv[1]);
  if (!evaluate ||
      (!std::strcmp(argv[1], "ceres") &&
       !prepareCeres(graph.errors.data(), int(graph.edges.size()))))
    return 2;
  int passes = argc > 2 ? std::atoi(argv[2]) : 21;
  std::vector<EdgeJacobian> out(graph.edges.size());
  std::vector<double> times;
  for (int pass = 0; pass < passes; ++pass) {
    auto start = std::chrono::steady_clock::now();
    for (int e = 0; e < int(graph.edges.size()); ++e)
      evaluate(graph, e, out[e]);
    std::chrono::duration<double, std::nano> spent =
        std::chrono::steady_clock::now() - start;
    times.push_back(spent.count() / double(graph.edges.size()));
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2,
                   times.end());
  std::printf("%.2f\n", times[times.size() / 2]);
  return 0;
}
