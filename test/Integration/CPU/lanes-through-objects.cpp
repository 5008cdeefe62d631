// Vector mode (forward and reverse lanes) through objects that keep a
// number with a derivative beside the address of their memory: structs
// holding a std::vector and a scale (a vector of them built by push_back),
// a class owning its memory beside a norm it computes (as Eigen's LLT
// keeps its matrix and its L1 norm), a struct of a pointer to local memory
// and a sum. Each against forward mode and the gradient (modes.h), at -O0
// and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "modes.h"

struct Layer {
  std::vector<double> weights;
  double scale;
};

[[ct::differentiable]] double layers(const double *x, int n) {
  std::vector<Layer> net;
  for (int k = 0; k < 3; ++k) {
    Layer layer;
    layer.scale = 0.5 * x[k % n] + 1;
    for (int i = 0; i < n; ++i)
      layer.weights.push_back(std::sin(x[i] + k));
    net.push_back(layer);
  }
  double sum = 0;
  for (const Layer &layer : net)
    for (double w : layer.weights)
      sum += layer.scale * w * w;
  return sum;
}

class Normed {
public:
  explicit Normed(int n) : n_(n), data_(new double[n]), norm_(0) {}
  Normed(const Normed &o) : n_(o.n_), data_(new double[o.n_]), norm_(o.norm_) {
    for (int i = 0; i < n_; ++i)
      data_[i] = o.data_[i];
  }
  ~Normed() { delete[] data_; }
  void set(const double *x) {
    norm_ = 0;
    for (int i = 0; i < n_; ++i) {
      data_[i] = x[i] * x[i] + 0.1 * i;
      norm_ += std::abs(data_[i]);
    }
  }
  double weighted() const {
    double s = 0;
    for (int i = 0; i < n_; ++i)
      s += data_[i] / norm_ * (i + 1);
    return s;
  }

private:
  int n_;
  double *data_;
  double norm_;
};

[[ct::differentiable]] double owning(const double *x, int n) {
  Normed a(n);
  a.set(x);
  Normed b = a;
  return a.weighted() * std::exp(0.1 * b.weighted());
}

struct View {
  double *data;
  double total;
};

[[ct::differentiable]] double viewed(const double *x, int n) {
  double local[8];
  View v{local, 0.0};
  for (int i = 0; i < n; ++i) {
    v.data[i] = std::cos(x[i]) * x[(i + 1) % n];
    v.total += v.data[i];
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v.data[i] * v.total;
  return s;
}

template <double (*F)(const double *, int)> void checkAll(const char *name) {
  const double point[4] = {0.3, -0.4, 0.6, 0.8};
  check::checkModes<F>(name, point, 4);
  // Two reverse lanes: the gradient seeded by 1 and by -2.
  double x[4] = {0.3, -0.4, 0.6, 0.8}, g[4] = {}, dx[8] = {};
  double seeds[2] = {1.0, -2.0};
  ct::gradient<F>(x, 4, g);
  ct::pullback<F, ct::lanes<2>>(x, 4, seeds, dx);
  for (int i = 0; i < 4; ++i) {
    check::near(name, dx[2 * i], g[i], 1e-12);
    check::near(name, dx[2 * i + 1], -2 * g[i], 1e-12);
  }
}

int main() {
  checkAll<layers>("layers");
  checkAll<owning>("owning");
  checkAll<viewed>("viewed");
  return check::report();
}
