//===- ht-check.cpp - GradBench's hand tracking, as its authors wrote it --===//
//
// Built by scripts/check-gradbench.sh against a GradBench checkout (its
// sources are not part of this repository): the objectives of
// gradbench/evals/ht.hpp (LightMatrix, std::vector<LightMatrix<double>>
// resized in helpers, a model of vectors of matrices and bone names)
// differentiated by the Cotangent plugin, unchanged. Checks the pullback of
// both objectives (simple: theta; complicated: theta and us), a JVP and two
// vector lanes against central differences on a synthetic hand.
//
//===----------------------------------------------------------------------===//

#include "gradbench/evals/ht.hpp"

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

[[ct::differentiable]] void
simple(const double *theta, const ht::DataLightMatrix *data, double *err) {
  ht::objective(theta, data, err);
}

[[ct::differentiable]] void complicated(const double *theta, const double *us,
                                        const ht::DataLightMatrix *data,
                                        double *err) {
  ht::objective(theta, us, data, err);
}

/// A hand of `bones` bones in a binary tree, `vertices` vertices and
/// `points` correspondences, from smooth closed forms.
static void makeHand(ht::DataLightMatrix &data, int bones, int vertices,
                     int points) {
  ht::ModelLightMatrix &model = data.model;
  for (int b = 0; b < bones; ++b) {
    model.bone_names.push_back("bone" + std::to_string(b));
    model.parents.push_back(b == 0 ? -1 : (b - 1) / 2);
  }
  model.base_relatives.resize(bones);
  model.inverse_base_absolutes.resize(bones);
  for (int b = 0; b < bones; ++b) {
    model.base_relatives[b].resize(4, 4);
    model.inverse_base_absolutes[b].resize(4, 4);
    for (int i = 0; i < 16; ++i) {
      model.base_relatives[b].data_[i] = (i % 5 == 0) + 0.1 * std::sin(b + i);
      model.inverse_base_absolutes[b].data_[i] =
          (i % 5 == 0) + 0.1 * std::cos(b * i);
    }
  }
  model.base_positions.resize(4, vertices);
  model.weights.resize(bones, vertices);
  for (int v = 0; v < vertices; ++v) {
    for (int i = 0; i < 3; ++i)
      model.base_positions(i, v) = std::sin(3 * v + i);
    model.base_positions(3, v) = 1;
    for (int b = 0; b < bones; ++b)
      model.weights(b, v) = 1.0 / bones + 0.01 * std::cos(v + b);
  }
  for (int t = 0; t + 2 < vertices; ++t)
    model.triangles.push_back(Triangle{{t, t + 1, t + 2}});
  model.is_mirrored = false;
  for (int c = 0; c < points; ++c)
    data.correspondences.push_back((7 * c) % (vertices - 2));
  data.points.resize(3, points);
  for (int c = 0; c < points; ++c)
    for (int i = 0; i < 3; ++i)
      data.points(i, c) = std::cos(c + i);
}

static int failures = 0, checks = 0;

static void near(const char *what, int k, double actual, double expected) {
  ++checks;
  if (std::fabs(actual - expected) > 1e-6 * (1 + std::fabs(expected))) {
    ++failures;
    std::printf("FAIL %s %d: %.12g, expected %.12g\n", what, k, actual,
                expected);
  }
}

int main() {
  ht::DataLightMatrix data;
  const int points = 12, n = 26, m = 3 * points;
  makeHand(data, 22, 30, points);
  std::vector<double> theta(n), us(2 * points), seed(m), err(m);
  for (int i = 0; i < n; ++i)
    theta[i] = 0.1 * std::sin(i + 1);
  for (int i = 0; i < 2 * points; ++i)
    us[i] = 0.3 + 0.1 * std::sin(i);
  for (int i = 0; i < m; ++i)
    seed[i] = std::cos(0.7 * i);
  // <seed, err(theta + h e_k)> by central differences.
  auto seeded = [&](std::vector<double> t, std::vector<double> u, int k,
                    bool withUs) {
    const double h = 1e-6;
    std::vector<double> &moved = k < n ? t : u;
    int at = k < n ? k : k - n;
    double base = moved[at], total = 0;
    for (double sign : {1.0, -1.0}) {
      moved[at] = base + sign * h;
      std::vector<double> e(m);
      if (withUs)
        complicated(t.data(), u.data(), &data, e.data());
      else
        simple(t.data(), &data, e.data());
      for (int i = 0; i < m; ++i)
        total += sign * seed[i] * e[i];
    }
    return total / (2 * h);
  };

  std::vector<double> dtheta(n), dus(2 * points), s = seed;
  ct::pullback<simple, ct::wrt<0, 2>>(theta.data(), &data, err.data(),
                                      dtheta.data(), s.data());
  for (int k = 0; k < n; ++k)
    near("simple", k, dtheta[k], seeded(theta, us, k, false));

  s = seed;
  std::fill(dtheta.begin(), dtheta.end(), 0.0);
  ct::pullback<complicated, ct::wrt<0, 1, 3>>(theta.data(), us.data(), &data,
                                              err.data(), dtheta.data(),
                                              dus.data(), s.data());
  for (int k = 0; k < n + 2 * points; ++k)
    near("complicated", k, k < n ? dtheta[k] : dus[k - n],
         seeded(theta, us, k, true));

  // A JVP along v, and the same v in lane 1 of two (lane 0: e_0).
  std::vector<double> v(n), tangent(m), v2(2 * n), tangents(2 * m);
  for (int k = 0; k < n; ++k) {
    v[k] = std::sin(3.0 * k + 1);
    v2[2 * k] = k == 0;
    v2[2 * k + 1] = v[k];
  }
  ct::jvp<simple, ct::wrt<0, 2>>(theta.data(), &data, err.data(), v.data(),
                                 tangent.data());
  ct::jvp<simple, ct::wrt<0, 2>, ct::lanes<2>>(theta.data(), &data, err.data(),
                                               v2.data(), tangents.data());
  std::vector<double> plus = theta, minus = theta, ep(m), em(m);
  for (int k = 0; k < n; ++k) {
    plus[k] += 1e-6 * v[k];
    minus[k] -= 1e-6 * v[k];
  }
  simple(plus.data(), &data, ep.data());
  simple(minus.data(), &data, em.data());
  for (int i = 0; i < m; ++i) {
    near("jvp", i, tangent[i], (ep[i] - em[i]) / 2e-6);
    near("lane 1", i, tangents[2 * i + 1], tangent[i]);
  }
  std::printf("hand tracking: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
