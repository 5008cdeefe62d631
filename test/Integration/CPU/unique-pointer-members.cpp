// std::unique_ptr as C++ programs hold it: members of classes (made from
// `new`, std::make_unique and nullptr, reset, moved, released, swapped,
// tested with `if (p)`, freed when the object is destroyed), a class
// whose defaulted move gives its buffer away, local std::unique_ptrs that
// are reset and moved into members (a buffer grown by make-copy-move),
// vectors of layers owning their weights, objects made in every iteration
// of a loop, and a model holding std::unique_ptrs as a parameter (its
// derivative object's buffers receive the gradient). Reverse and forward
// mode against central differences and closed forms, at -O0 and -O2 (and
// under AddressSanitizer in the sanitizer build: no leak, no double free).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "check.h"

/// A field of values owning its buffer, grown by make-copy-move.
class Field {
public:
  explicit Field(int n) : n_(n), values_(std::make_unique<double[]>(n)) {}
  Field(Field &&) = default;
  Field &operator=(Field &&) = default;
  double &operator[](int i) { return values_[i]; }
  double operator[](int i) const { return values_[i]; }
  int size() const { return n_; }
  void grow(int n) {
    std::unique_ptr<double[]> bigger(new double[n]());
    for (int i = 0; i < n_; ++i)
      bigger[i] = values_[i];
    values_ = std::move(bigger);
    n_ = n;
  }
  void clear() {
    values_.reset();
    n_ = 0;
  }
  bool empty() const { return !values_; }

private:
  int n_;
  std::unique_ptr<double[]> values_;
};

struct Pair {
  std::unique_ptr<double> a, b;
  Pair() : a(new double(0)), b(std::make_unique<double>(0)) {}
};

[[ct::differentiable]] double fieldEnergy(const double *x, int n) {
  Field f(n);
  for (int i = 0; i < n; ++i)
    f[i] = std::sin(x[i]);
  double s = 0;
  for (int i = 0; i < f.size(); ++i)
    s += f[i] * x[i];
  f.grow(n + 2);
  f[n + 1] = x[0] * x[2];
  for (int i = 0; i < f.size(); ++i)
    s += f[i] * f[i];
  Field g(2);
  g[0] = x[1];
  g[1] = x[2];
  Field h = std::move(g);
  s += h[0] * h[1] + (g.empty() ? 1.0 : 0.0);
  h.clear();
  Pair p;
  *p.a = x[0] * x[1];
  *p.b = x[1];
  p.a.swap(p.b);
  s += *p.a * 3 + *p.b;
  std::unique_ptr<double> none = nullptr;
  if (none)
    s += 100;
  return s;
}

// Closed form of fieldEnergy for n = 3.
double fieldEnergyClosed(const double *x) {
  double s = 0, sq = 0;
  for (int i = 0; i < 3; ++i) {
    s += std::sin(x[i]) * x[i];
    sq += std::sin(x[i]) * std::sin(x[i]);
  }
  sq += x[0] * x[2] * x[0] * x[2];
  return s + sq + x[1] * x[2] + 1 + x[1] * 3 + x[0] * x[1];
}

[[ct::differentiable]] double resetting(const double *x, int n) {
  Pair p;
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    p.a.reset(new double(x[k % n] * (k + 1)));
    s += *p.a * *p.a;
  }
  p.b = std::make_unique<double>(x[0]);
  p.a = std::move(p.b);
  if (!p.b)
    s += *p.a;
  double *raw = p.a.release();
  s += *raw * 2;
  delete raw;
  if (p.a)
    s += 100;
  return s;
}

[[ct::differentiable]] double movedLocal(const double *x, int n) {
  std::unique_ptr<double[]> p(new double[n]);
  for (int i = 0; i < n; ++i)
    p[i] = x[i] * x[i];
  std::unique_ptr<double[]> q = std::move(p);
  if (p)
    return 0;
  double *raw = q.get();
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += raw[i] * x[(i + 1) % n];
  q.reset(new double[1]);
  q[0] = s;
  return q[0] * q[0];
}

/// A local std::unique_ptr per iteration, reset in some and moved into
/// another local.
[[ct::differentiable]] double perIteration(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; ++k) {
    auto buf = std::make_unique<double[]>(2);
    buf[0] = x[k];
    if (k % 2)
      buf.reset(new double[2]{});
    buf[1] = x[k] * x[k];
    std::unique_ptr<double[]> other = std::move(buf);
    s += std::sin(other[0] + other[1]);
  }
  return s;
}

struct Layer {
  std::unique_ptr<double[]> weights;
  int width;
  explicit Layer(int width) : weights(new double[width]()), width(width) {}
};

[[ct::differentiable]] double network(const double *x, int n) {
  std::vector<Layer> layers;
  for (int l = 0; l < 3; ++l) {
    layers.emplace_back(n);
    for (int i = 0; i < n; ++i)
      layers.back().weights[i] = x[i] * (l + 1);
  }
  double s = 0;
  for (const Layer &layer : layers)
    for (int i = 0; i < layer.width; ++i)
      s += std::sin(layer.weights[i]);
  return s;
}

[[ct::differentiable]] double perStep(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < 4; ++k) {
    Layer scratch(n);
    for (int i = 0; i < n; ++i)
      scratch.weights[i] = x[i] * x[(i + k) % n];
    for (int i = 0; i < n; ++i)
      s += scratch.weights[i] * scratch.weights[i];
  }
  return s;
}

struct Model {
  int n;
  std::unique_ptr<double[]> w;
  std::unique_ptr<double> bias;
};

[[ct::differentiable]] double predict(const Model &m, const double *x) {
  double s = *m.bias;
  for (int i = 0; i < m.n; ++i)
    s += m.w[i] * x[i];
  return std::tanh(s);
}

/// Reverse and forward mode of f(x, 3) against central differences.
template <double (*F)(const double *, int)>
void checkArray(const char *name) {
  double x[3] = {0.3, -0.7, 1.1}, g[3] = {};
  char label[128];
  double value = ct::gradient<F>(x, 3, g);
  std::snprintf(label, sizeof label, "%s value", name);
  check::near(label, value, F(x, 3), 1e-14);
  double t[3] = {0.4, -0.2, 0.9}, directional = 0;
  for (int i = 0; i < 3; ++i) {
    double fd = check::differenceAt(x, i, [&] { return F(x, 3); });
    std::snprintf(label, sizeof label, "%s reverse[%d]", name, i);
    check::near(label, g[i], fd, 1e-7);
    directional += t[i] * fd;
  }
  std::snprintf(label, sizeof label, "%s forward", name);
  check::near(label, ct::jvp<F>(x, 3, t).tangent, directional, 1e-7);
}

int main() {
  checkArray<fieldEnergy>("fieldEnergy");
  double x[3] = {0.3, -0.7, 1.1};
  check::near("fieldEnergy closed form", fieldEnergy(x, 3),
              fieldEnergyClosed(x), 1e-14);
  double closed[3] = {}, g[3] = {};
  ct::gradient<fieldEnergy>(x, 3, g);
  for (int i = 0; i < 3; ++i)
    closed[i] = check::differenceAt(x, i, [&] { return fieldEnergyClosed(x); });
  for (int i = 0; i < 3; ++i)
    check::near("fieldEnergy against its closed form", g[i], closed[i], 1e-7);
  checkArray<resetting>("resetting");
  checkArray<movedLocal>("movedLocal");
  checkArray<perIteration>("perIteration");
  checkArray<network>("network");
  checkArray<perStep>("perStep");

  Model m{3, std::make_unique<double[]>(3), std::make_unique<double>(0.1)};
  Model dm{3, std::make_unique<double[]>(3), std::make_unique<double>(0)};
  for (int i = 0; i < 3; ++i)
    m.w[i] = 0.2 * (i + 1);
  double in[3] = {0.5, -0.3, 0.8}, din[3] = {};
  ct::gradient<predict>(m, in, &dm, din);
  double s = 0.1 + 0.2 * 0.5 - 0.4 * 0.3 + 0.6 * 0.8;
  double slope = 1 - std::tanh(s) * std::tanh(s);
  for (int i = 0; i < 3; ++i) {
    check::near("model weight gradient", dm.w[i], slope * in[i], 1e-14);
    check::near("model input gradient", din[i], slope * m.w[i], 1e-14);
  }
  check::near("model bias gradient", *dm.bias, slope, 1e-14);
  Model tm{3, std::make_unique<double[]>(3), std::make_unique<double>(1.0)};
  double tin[3] = {1, 0, 0};
  check::near("model forward",
              ct::jvp<predict>(m, in, &tm, tin).tangent, slope * (1 + m.w[0]),
              1e-14);
  return check::report();
}
