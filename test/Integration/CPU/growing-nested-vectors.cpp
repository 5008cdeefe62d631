// Vectors of vectors whose shape changes at run time, as numerical C++
// writes them: a history of rows built by push_back in a loop and read
// after it, rows grown and resized one by one (a triangle), rows inserted,
// erased and swapped, vectors nested three deep (parameters and locals), a struct
// held in a vector that holds a vector of vectors, a helper returning a
// vector of vectors by value, and in-place updates of the caller's rows.
// Reverse and forward mode (and a Hessian-vector product) against central
// differences and closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "check.h"

using Rows = std::vector<std::vector<double>>;
using Cube = std::vector<std::vector<std::vector<double>>>;

// Each step's state kept as a row of its own, made inside the loop and
// read after it (reverse mode keeps every row).
[[ct::differentiable]] double history(const double *x, int n, int steps) {
  Rows states;
  std::vector<double> state(x, x + n);
  for (int s = 0; s < steps; ++s) {
    std::vector<double> next(n);
    for (int i = 0; i < n; ++i)
      next[i] = std::sin(state[i]) + 0.5 * state[(i + 1) % n];
    states.push_back(next);
    state = next;
  }
  double sum = 0;
  for (std::size_t s = 0; s < states.size(); ++s)
    for (double v : states[s])
      sum += (s + 1) * v * v;
  return sum;
}

// Row r holds r + 1 values, grown one push_back at a time; a row resized
// with a value, the last row popped.
[[ct::differentiable]] double triangle(const double *x, int n) {
  Rows rows(n + 1);
  for (int r = 0; r < n; ++r)
    for (int i = 0; i <= r; ++i)
      rows[r].push_back(x[i] * x[r]);
  rows[n].resize(3, x[0]);
  rows.back().push_back(x[n - 1]);
  rows.emplace_back(2, x[1]);
  rows.pop_back();
  double sum = 0;
  for (const auto &row : rows) {
    double part = 0;
    for (double v : row)
      part += v;
    sum += std::exp(0.1 * part) * row.size();
  }
  return sum;
}

// Rows inserted at the front and erased from the middle, a copy's rows
// swapped (their addresses change places).
[[ct::differentiable]] double shuffled(const double *x, int n) {
  Rows rows;
  for (int i = 0; i < n; ++i)
    rows.insert(rows.begin(), std::vector<double>(i + 1, x[i]));
  rows.erase(rows.begin() + 1);
  Rows copy = rows;
  copy[0][0] *= 3;
  std::swap(copy[0], copy.back());
  copy[1].swap(copy[0]);
  double sum = 0;
  for (std::size_t r = 0; r < copy.size(); ++r) {
    for (std::size_t i = 0; i < copy[r].size(); ++i)
      sum += std::cos(copy[r][i] * (r + 1));
    for (std::size_t i = 0; i < rows[r].size(); ++i)
      sum += rows[r][i] * rows[r][i] * (i + 1);
  }
  return sum;
}

// Three deep: the caller's cube weights a local one built level by level.
[[ct::differentiable]] double cubes(const Cube &w, const double *x, int n) {
  Cube local(w.size());
  for (std::size_t a = 0; a < w.size(); ++a) {
    local[a].resize(w[a].size());
    for (std::size_t b = 0; b < w[a].size(); ++b)
      for (std::size_t c = 0; c < w[a][b].size(); ++c)
        local[a][b].push_back(w[a][b][c] * x[(a + b + c) % n]);
  }
  double sum = 0;
  for (const auto &plane : local)
    for (const auto &row : plane)
      for (double v : row)
        sum += std::tanh(v);
  return sum;
}

struct Layer {
  Rows weights;
  std::vector<double> bias;
};

static Rows outer(const std::vector<double> &a, const std::vector<double> &b) {
  Rows m(a.size(), std::vector<double>(b.size()));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j)
      m[i][j] = a[i] * b[j];
  return m;
}

// A differentiable function (exported: lowered on its own, not in place)
// returning a vector of vectors of a shape it chooses, and one calling it.
[[ct::differentiable]] Rows lowerTriangle(const std::vector<double> &a) {
  Rows rows;
  for (std::size_t i = 0; i < a.size(); ++i) {
    rows.emplace_back();
    for (std::size_t j = 0; j <= i; ++j)
      rows.back().push_back(a[i] * a[j]);
  }
  return rows;
}

[[ct::differentiable]] double triangleEnergy(const double *x, int n) {
  Rows rows = lowerTriangle(std::vector<double>(x, x + n));
  double s = 0;
  for (const std::vector<double> &row : rows)
    for (double v : row)
      s += std::sin(v) * static_cast<double>(row.size());
  return s;
}

// A network of layers holding matrices as vectors of vectors, built by
// push_back from a helper's result.
[[ct::differentiable]] double network(const double *x, int n) {
  std::vector<double> input(x, x + n);
  std::vector<Layer> layers;
  for (int l = 0; l < 2; ++l) {
    Layer layer;
    layer.weights = outer(input, input);
    layer.bias.assign(n, 0.1 * (l + 1));
    layers.push_back(layer);
  }
  std::vector<double> a = input;
  for (const Layer &layer : layers) {
    std::vector<double> out(n);
    for (int i = 0; i < n; ++i) {
      double z = layer.bias[i];
      for (int j = 0; j < n; ++j)
        z += layer.weights[i][j] * a[j];
      out[i] = std::tanh(z);
    }
    a = out;
  }
  double sum = 0;
  for (double v : a)
    sum += v;
  return sum;
}

// The caller's rows scaled in place, the longest grown by one.
[[ct::differentiable]] void scaleRows(Rows &m, double k) {
  for (auto &row : m)
    for (double &v : row)
      v *= k * v;
}

template <auto F, typename... Rest>
static void checkPointer(const char *name, std::vector<double> x,
                         Rest... rest) {
  int n = static_cast<int>(x.size());
  std::vector<double> dx(n, 0.0);
  double value = ct::gradient<F, ct::wrt<0>>(x.data(), n, rest..., dx.data());
  check::near((std::string(name) + " value").c_str(), value,
              F(x.data(), n, rest...), 1e-13);
  for (int i = 0; i < n; ++i) {
    double fd = check::differenceAt(x.data(), i,
                                    [&] { return F(x.data(), n, rest...); });
    check::near((std::string(name) + " gradient").c_str(), dx[i], fd, 1e-6);
    std::vector<double> t(n, 0.0);
    t[i] = 1;
    auto jvp = ct::jvp<F, ct::wrt<0>>(x.data(), n, rest..., t.data());
    check::near((std::string(name) + " jvp").c_str(), jvp.tangent, fd, 1e-6);
  }
}

static void testCubes() {
  Cube w = {{{0.5, -1.0}, {2.0}}, {{0.25, 0.5, 0.75}}};
  Cube dw = {{{0, 0}, {0}}, {{0, 0, 0}}};
  std::vector<double> x = {0.3, -0.7, 1.1}, dx(3, 0.0);
  double value = ct::gradient<cubes>(w, x.data(), 3, &dw, dx.data());
  check::near("cube value", value, cubes(w, x.data(), 3), 1e-13);
  for (std::size_t a = 0; a < w.size(); ++a)
    for (std::size_t b = 0; b < w[a].size(); ++b)
      for (std::size_t c = 0; c < w[a][b].size(); ++c) {
        double xi = x[(a + b + c) % 3];
        double t = std::tanh(w[a][b][c] * xi);
        check::near("cube d/dw", dw[a][b][c], (1 - t * t) * xi, 1e-13);
      }
  for (int i = 0; i < 3; ++i)
    check::near("cube d/dx", dx[i],
                check::differenceAt(x.data(), i,
                                    [&] { return cubes(w, x.data(), 3); }),
                1e-6);
}

static void testInPlace() {
  Rows m = {{1, 2, 3}, {4}}, dm = {{1, 1, 1}, {1}};
  double dk = 0;
  ct::pullback<scaleRows>(m, 2.0, &dm, &dk);
  check::near("in place value", m[0][2], 18, 1e-15);
  check::near("in place d/dm", dm[1][0], 4 * 4, 1e-15);
  check::near("in place d/dk", dk, 1 + 4 + 9 + 16, 1e-15);
  Rows t = {{1, 0, 0}, {0}}, m2 = {{1, 2, 3}, {4}};
  auto jvp = ct::jvp<scaleRows>(m2, 2.0, &t, 0.5);
  (void)jvp;
  // d(k v^2) = 2 k v dv + v^2 dk: element (0,0): 4 + 0.5, (1,0): 8.
  check::near("in place tangent", t[0][0], 4.5, 1e-15);
  check::near("in place tangent", t[1][0], 8, 1e-15);
}

static void testHvp() {
  std::vector<double> x = {0.4, -0.3, 0.8}, v = {1, 0.5, -2}, hv(3, 0.0);
  ct::hvp<history, ct::wrt<0>>(x.data(), 3, 2, v.data(), hv.data());
  for (int i = 0; i < 3; ++i) {
    // (H v)_i by central differences of the gradient along v.
    auto gradientAlong = [&](double s) {
      std::vector<double> y = x, g(3, 0.0);
      for (int k = 0; k < 3; ++k)
        y[k] += s * v[k];
      ct::gradient<history, ct::wrt<0>>(y.data(), 3, 2, g.data());
      return g[i];
    };
    check::near("history hvp", hv[i], check::centralDifference(gradientAlong, 0.0), 1e-5);
  }
}

int main() {
  checkPointer<history>("history", {0.4, -0.3, 0.8}, 3);
  checkPointer<triangle>("triangle", {0.4, -0.3, 0.8, 0.2});
  checkPointer<shuffled>("shuffled", {0.4, -0.3, 0.8, 0.2});
  checkPointer<network>("network", {0.4, -0.3, 0.8});
  checkPointer<triangleEnergy>("exported result", {0.4, -0.3, 0.8, 0.2});
  testCubes();
  testInPlace();
  testHvp();
  return check::report();
}
