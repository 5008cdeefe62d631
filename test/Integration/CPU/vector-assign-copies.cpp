// `v.assign(n, value)` on std::vectors whose elements own memory: rows of a
// matrix (`W.assign(n, std::vector<double>(n))`, an MLP's weights), objects
// of a class with its own copy constructor and destructor, and copies of an
// element of the vector itself (the value is copied aside first, then the
// old elements are destroyed, then the copies made, then the value copied
// aside destroyed). Gradients against central differences, forward mode
// against the gradient, at -O0 and -O2 (and under AddressSanitizer in the
// sanitizer build: nothing leaks, nothing is freed twice).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

class Buffer {
public:
  Buffer(int n, double fill) : n_(n), data_(new double[n]) {
    for (int i = 0; i < n; ++i)
      data_[i] = fill;
  }
  Buffer(const Buffer &other) : n_(other.n_), data_(new double[other.n_]) {
    for (int i = 0; i < n_; ++i)
      data_[i] = other.data_[i];
  }
  Buffer &operator=(const Buffer &other) {
    if (this != &other) {
      delete[] data_;
      n_ = other.n_;
      data_ = new double[n_];
      for (int i = 0; i < n_; ++i)
        data_[i] = other.data_[i];
    }
    return *this;
  }
  ~Buffer() { delete[] data_; }
  double &operator[](int i) { return data_[i]; }
  double operator[](int i) const { return data_[i]; }
  int size() const { return n_; }

private:
  int n_;
  double *data_;
};

struct Layer {
  std::vector<std::vector<double>> weights;
  std::vector<double> bias;
};

// Two layers whose weight rows are made by assign, then filled.
[[ct::differentiable]] double assignedRows(const double *x, int n) {
  std::vector<Layer> net(2);
  for (Layer &layer : net) {
    layer.weights.assign(n, std::vector<double>(n, 0.5));
    layer.bias.assign(n, 0.1);
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      net[0].weights[i][j] += x[(i + j) % n] * 0.3;
  std::vector<double> a(x, x + n);
  for (const Layer &layer : net) {
    std::vector<double> next(layer.bias);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j)
        next[i] += layer.weights[i][j] * a[j];
      next[i] = std::tanh(next[i]);
    }
    a = next;
  }
  double s = 0;
  for (double v : a)
    s += v * v;
  return s;
}

// Objects of a class that owns memory, assigned copies of a local and then
// copies of one of the vector's own elements.
[[ct::differentiable]] double assignedBuffers(const double *x, int n) {
  std::vector<Buffer> v;
  Buffer seed(n, 1.0);
  for (int i = 0; i < n; ++i)
    seed[i] = x[i] * x[i];
  v.assign(3, seed);
  for (int k = 0; k < 3; ++k)
    v[k][k % n] *= x[k % n] + k;
  double s = 0;
  for (const Buffer &b : v)
    for (int i = 0; i < b.size(); ++i)
      s += b[i] * (i + 1);
  v.assign(2, v[1]);
  for (const Buffer &b : v)
    for (int i = 0; i < b.size(); ++i)
      s += std::sin(b[i]);
  return s + v.size();
}

template <double (*F)(const double *, int)> void checkAll(const char *name) {
  char label[128];
  double x[4] = {0.4, -0.7, 1.1, 0.3}, dx[4] = {};
  double t[4] = {0.5, -1.0, 0.25, 2.0};
  double value = ct::gradient<F>(x, 4, dx);
  std::snprintf(label, sizeof label, "%s value", name);
  check::near(label, value, F(x, 4), 1e-14);
  double directional = 0;
  for (int i = 0; i < 4; ++i) {
    std::snprintf(label, sizeof label, "%s d/dx%d", name, i);
    check::near(label, dx[i],
                check::differenceAt(x, i, [&] { return F(x, 4); }), 1e-7);
    directional += dx[i] * t[i];
  }
  std::snprintf(label, sizeof label, "%s jvp", name);
  check::near(label, ct::jvp<F>(x, 4, t).tangent, directional, 1e-12);
}

int main() {
  checkAll<assignedRows>("assigned rows");
  checkAll<assignedBuffers>("assigned buffers");
  return check::report();
}
