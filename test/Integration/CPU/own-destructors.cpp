// Classes with a destructor of their own whose parts have destructors too:
// destroying one runs its destructor's body, then destroys its members,
// last first, as C++ does. A model holding a class that owns memory and a
// std::vector (copied, assigned), raw owned memory beside a std::vector,
// a std::vector of layers whose (empty) destructor is user-provided, built
// by emplace_back and push_back, and a destructor whose body carries a
// derivative (it adds into the caller's memory through a pointer member,
// where the scope ends, in a loop too; its vector member grows). Reverse and forward mode against
// central differences and closed forms, at -O0 and -O2 (and under
// AddressSanitizer in the sanitizer build: no leak, no use after free).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "check.h"
#include "scalar-derivatives.h"

class Buffer {
public:
  explicit Buffer(int n) : n_(n), data_(new double[n]) {
    for (int i = 0; i < n; ++i)
      data_[i] = 0;
  }
  Buffer(const Buffer &other) : n_(other.n_), data_(new double[other.n_]) {
    for (int i = 0; i < n_; ++i)
      data_[i] = other.data_[i];
  }
  Buffer &operator=(const Buffer &other) {
    for (int i = 0; i < n_; ++i)
      data_[i] = other.data_[i];
    return *this;
  }
  ~Buffer() { delete[] data_; }
  double &operator[](int i) { return data_[i]; }
  const double &operator[](int i) const { return data_[i]; }

private:
  int n_;
  double *data_;
};

/// Its destructor resets a counter; its members (a Buffer, a vector) are
/// destroyed after it.
struct Model {
  Buffer weights;
  std::vector<double> scales;
  int uses = 0;
  explicit Model(int n) : weights(n), scales(n, 1.0) {}
  ~Model() { uses = -1; }
};

[[ct::differentiable]] double model(double x) {
  Model m(3);
  for (int i = 0; i < 3; ++i) {
    m.weights[i] = std::sin(x * (i + 1));
    m.scales[i] *= x;
  }
  Model copy = m;
  copy.weights[0] = x * x;
  Model other(3);
  other = copy;
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += other.weights[i] * m.scales[i];
  return s;
}
double modelClosedForm(double x) {
  return x * x * x + x * std::sin(2 * x) + x * std::sin(3 * x);
}

/// Raw memory it frees itself beside a vector it leaves to the vector's
/// destructor.
struct Mixed {
  double *raw;
  std::vector<double> v;
  explicit Mixed(int n) : raw(new double[n]), v(n) {}
  ~Mixed() { delete[] raw; }
};

[[ct::differentiable]] double mixed(double x) {
  double s = 0;
  for (int k = 1; k <= 3; ++k) {
    Mixed q(2);
    q.raw[0] = x;
    q.raw[1] = x * k;
    q.v[0] = q.raw[0] * q.raw[1];
    q.v[1] = std::exp(q.v[0]);
    s += q.v[1];
  }
  return s;
}
double mixedClosedForm(double x) {
  return std::exp(x * x) + std::exp(2 * x * x) + std::exp(3 * x * x);
}

/// A layer of a network: an empty destructor of its own, a vector member.
struct Layer {
  std::vector<double> w;
  double bias;
  Layer(int n, double b) : w(n, 0.5), bias(b) {}
  ~Layer() {}
};

[[ct::differentiable]] double network(double x) {
  std::vector<Layer> net;
  for (int l = 0; l < 3; ++l)
    net.emplace_back(2, x * l);
  net.push_back(Layer(2, std::cos(x)));
  double s = 0;
  for (const Layer &layer : net)
    for (double w : layer.w)
      s += w * layer.bias * layer.bias;
  return s;
}
double networkClosedForm(double x) {
  return 5 * x * x + std::cos(x) * std::cos(x);
}

/// Its destructor adds the square of what it holds into the caller's
/// memory: the result is made where each scope ends.
struct Accumulate {
  double *sink;
  double value;
  std::vector<double> history;
  Accumulate(double *sink, double value) : sink(sink), value(value) {}
  ~Accumulate() { *sink += value * value; }
};

[[ct::differentiable]] double accumulate(double x, double *total) {
  for (int k = 1; k <= 2; ++k) {
    Accumulate a(total, x * k);
    a.history.push_back(a.value);
    a.value = a.history[0] + x;
  }
  {
    Accumulate last(total, std::sin(x));
  }
  return *total;
}
double accumulateClosedForm(double x, double total) {
  return total + 4 * x * x + 9 * x * x + std::sin(x) * std::sin(x);
}

void checkAccumulate() {
  double x = 0.7, total = 0.25, dTotal = 0, dx = 0;
  double value = ct::gradient<accumulate>(x, &total, &dx, &dTotal);
  double start = 0.25;
  check::near("accumulate value", value, accumulateClosedForm(x, start),
              1e-13);
  check::near("accumulate total", total, accumulateClosedForm(x, start),
              1e-13);
  check::near("accumulate reverse", dx,
              check::centralDifference(
                  [&](double t) { return accumulateClosedForm(t, start); }, x),
              1e-7);
  // The total is read and added to: its own derivative is 1.
  check::near("accumulate reverse total", dTotal, 1.0, 1e-15);
  double t = 0.25, tangentTotal = 0;
  auto forward = ct::jvp<accumulate>(x, &t, 1.0, &tangentTotal);
  check::near("accumulate forward", forward.tangent, dx, 1e-12);
}

int main() {
  check::checkScalar<model>("model", modelClosedForm, 0.6);
  check::checkScalar<mixed>("mixed", mixedClosedForm, 0.4);
  check::checkScalar<network>("network", networkClosedForm, 0.8);
  checkAccumulate();
  return check::report();
}
