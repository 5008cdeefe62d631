// Constant data a differentiable function reads without receiving it:
// constexpr and const arrays (1-D and 2-D, int and floating) and structs
// at namespace scope, in namespaces, static const locals, static constexpr
// data members, tables of structs mixing integers (single fields, arrays,
// bools) with floating-point fields, laid out as C++ lays them out. Reverse
// and forward mode, -O0 and -O2, against closed forms (the tables
// themselves have no derivative); static locals the compiler cannot fold
// (`0.5 * std::log(2 * M_PI)`) that keep their value, evaluated where
// declared.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

constexpr double weights[4] = {0.5, 1.5, -2.0, 3.0};
static const double offsets[2][2] = {{1, 2}, {3, 4}};
struct Coefficients {
  double a, b;
};
constexpr Coefficients coefficients{2.0, -1.0};
namespace tables {
const int order[3] = {2, 0, 1};
constexpr float partial[3] = {0.25f}; // the rest is zero
} // namespace tables
struct Model {
  static constexpr double gain[2] = {3.0, -0.5};
};

// A mesh's edges: their ends, a flag and a weight in one struct.
struct Edge {
  int ends[2];
  bool on;
  double weight;
  short tag;
};
constexpr Edge edges[3] = {{{0, 1}, true, 0.5, 7},
                           {{1, 2}, false, 4.0, 8},
                           {{2, 0}, true, -1.5, 9}};

[[ct::differentiable]] double edgeEnergy(const double *x) {
  double e = 0;
  for (const Edge &edge : edges) {
    if (!edge.on)
      continue;
    double d = x[edge.ends[0]] - x[edge.ends[1]];
    e += edge.weight * d * d * edge.tag;
  }
  return e;
}

[[ct::differentiable]] double weighted(const double *x, int n) {
  static const double scale[3] = {1.0, 10.0, 100.0};
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += weights[i] * x[i] * x[i] + offsets[i % 2][1] * x[i];
  return s * scale[tables::order[0]] + coefficients.a * x[0] +
         coefficients.b + Model::gain[1] * x[1];
}

// Statics the compiler cannot fold (library math on constants) that keep
// their value (`const`, or only read), evaluated where they are declared:
// in the function, in a helper, built from one another, an array of them,
// a float one.
static double logNormalizer() {
  static double logRoot2Pi = 0.5 * std::log(2 * M_PI); // only read
  return logRoot2Pi;
}

[[ct::differentiable]] double gaussianLogDensity(const double *x, int n) {
  static const double invRoot2 = 1 / std::sqrt(2.0);
  static const double scales[2] = {std::exp(0.5), invRoot2 * 2};
  static const float half = std::sqrt(0.25f);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double z = x[i] * scales[i % 2] * invRoot2;
    s -= z * z + logNormalizer() + half;
  }
  return s;
}

[[ct::differentiable]] float lookup(float x, int k) {
  return tables::partial[k] * x * x + x;
}

static void checkRecomputedStatics() {
  double x[3] = {0.5, -1.5, 2.0}, dx[3] = {};
  double scales[2] = {std::exp(0.5), 2 / std::sqrt(2.0)};
  double expected = 0;
  for (int i = 0; i < 3; ++i) {
    double c = scales[i % 2] * scales[i % 2] / 2;
    expected -= c * x[i] * x[i] + 0.5 * std::log(2 * M_PI) + 0.5;
  }
  check::near("statics value", ct::gradient<gaussianLogDensity>(x, 3, dx),
              expected, 1e-12);
  for (int i = 0; i < 3; ++i)
    check::near("statics gradient", dx[i],
                -scales[i % 2] * scales[i % 2] * x[i], 1e-12);
  double t[3] = {0, 1, 0};
  check::near("statics jvp", ct::jvp<gaussianLogDensity>(x, 3, t).tangent,
              dx[1], 1e-12);
}

int main() {
  checkRecomputedStatics();
  const double x[4] = {1, 2, 3, 4};
  double dx[4] = {};
  double v = ct::gradient<weighted>(x, 4, dx);
  // s = 0.5 + 6 - 18 + 48 + (2 + 8 + 6 + 16) = 68.5; 100 s + 2 - 1 - 1.
  check::near("value", v, 6850.0 + 2.0 - 1.0 - 1.0, 1e-12);
  // d/dx_i = 100 (2 w_i x_i + offsets[i % 2][1]) + (2 at i = 0) + (-0.5
  // at i = 1).
  const double expected[4] = {302.0, 999.5, -1000.0, 2800.0};
  for (int i = 0; i < 4; ++i)
    check::near("gradient", dx[i], expected[i], 1e-12);
  const double t[4] = {1, 0, 1, 0};
  check::near("jvp", ct::jvp<weighted>(x, 4, t).tangent, 302.0 - 1000.0,
              1e-12);
  float df = 0;
  ct::gradient<lookup>(2.0f, 0, &df);
  check::near("float table", df, 2 * 0.25 * 2 + 1, 1e-6);
  df = 0;
  ct::gradient<lookup>(2.0f, 2, &df);
  check::near("float table filler", df, 1.0, 1e-6);
  const double y[3] = {0.5, 2.0, -1.0};
  double dy[3] = {};
  double e = ct::gradient<edgeEnergy>(y, dy);
  double d0 = y[0] - y[1], d2 = y[2] - y[0];
  check::near("edge table", e, 0.5 * 7 * d0 * d0 - 1.5 * 9 * d2 * d2, 1e-12);
  check::near("edge table d/dy0", dy[0],
              2 * 0.5 * 7 * d0 + 2 * 1.5 * 9 * d2, 1e-12);
  check::near("edge table d/dy1", dy[1], -2 * 0.5 * 7 * d0, 1e-12);
  check::near("edge table d/dy2", dy[2], -2 * 1.5 * 9 * d2, 1e-12);
  const double ty[3] = {0, 0, 1};
  check::near("edge table jvp", ct::jvp<edgeEnergy>(y, ty).tangent, dy[2],
              1e-12);
  return check::report();
}
