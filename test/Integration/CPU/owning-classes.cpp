// A class that owns memory through its own constructors and destructor,
// written the way ADBench's LightMatrix is: `new[]` in the constructors, a
// deep copy, copy assignment and `resize` that free and allocate again
// (in branches), `delete[]` in the destructor, a default state with a null
// buffer tested by `if (data_)`. Its buffer's address is kept in the object
// (docs/Memory.md); locals are destroyed where their scope ends, in loops
// too, and a matrix returned by value is copied; a matrix parameter's
// gradient lands in the derivative matrix's buffer. Reverse and forward mode
// against central differences (vector mode and Hessian-vector products
// too), at -O0 and -O2 (and under AddressSanitizer
// in the sanitizer build: no leak, no use after free, in either sweep).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

class Matrix {
public:
  Matrix() : rows_(0), cols_(0), data_(nullptr) {}
  Matrix(int rows, int cols) : rows_(rows), cols_(cols) {
    data_ = new double[rows * cols];
  }
  Matrix(const Matrix &other) : rows_(other.rows_), cols_(other.cols_) {
    data_ = new double[rows_ * cols_];
    for (int i = 0; i < rows_ * cols_; ++i)
      data_[i] = other.data_[i];
  }
  ~Matrix() {
    if (data_)
      delete[] data_;
  }
  Matrix &operator=(const Matrix &other) {
    resize(other.rows_, other.cols_);
    for (int i = 0; i < rows_ * cols_; ++i)
      data_[i] = other.data_[i];
    return *this;
  }
  void resize(int rows, int cols) {
    if (rows * cols != rows_ * cols_) {
      if (data_)
        delete[] data_;
      data_ = new double[rows * cols];
    }
    rows_ = rows;
    cols_ = cols;
  }
  double &operator()(int i, int j) { return data_[j * rows_ + i]; }
  double operator()(int i, int j) const { return data_[j * rows_ + i]; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }

private:
  int rows_, cols_;
  double *data_;
};

static Matrix multiply(const Matrix &a, const Matrix &b) {
  Matrix c(a.rows(), b.cols());
  for (int i = 0; i < a.rows(); ++i)
    for (int j = 0; j < b.cols(); ++j) {
      double s = 0;
      for (int k = 0; k < a.cols(); ++k)
        s += a(i, k) * b(k, j);
      c(i, j) = s;
    }
  return c;
}

// Built, copied, assigned, resized (once to the same size, once not),
// multiplied; one matrix per loop iteration.
[[ct::differentiable]] double chain(const double *x, int n) {
  Matrix a(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a(i, j) = std::sin(x[i] + 0.3 * j) * x[j];
  Matrix b = a;
  Matrix product;
  product = multiply(a, b);
  double s = 0;
  for (int step = 0; step < 2; ++step) {
    Matrix t(n, 1);
    for (int i = 0; i < n; ++i)
      t(i, 0) = product(i, (i + step) % n) * x[i];
    s += t(step, 0) * t(n - 1, 0);
  }
  product.resize(n, n);
  b.resize(1, 1);
  b(0, 0) = std::exp(0.1 * product(0, n - 1));
  return s + b(0, 0);
}

// A helper called in a loop (differentiated on its own, its forward and
// reverse halves apart) builds and resizes a matrix.
static double smoothed(double x) {
  Matrix m(1, 2);
  m(0, 0) = x;
  m(0, 1) = x * x;
  if (std::cos(x) > 0.0) {
    m.resize(2, 2); // new, uninitialized memory
    m(0, 0) = x;
    for (int j = 0; j < 2; ++j)
      m(1, j) = std::sin(x + j);
  }
  return std::sin(m(0, 0) + m(m.rows() - 1, 1) * x);
}

[[ct::differentiable]] double helperInLoop(double x, double y) {
  double s = 0;
  for (int k = 0; k < 3; ++k)
    s += smoothed(x * (k + 1)) * y;
  return s;
}

void checkHelperInLoop() {
  for (double x : {0.5, 1.4}) {
    double dx = 0, dy = 0, y = 0.7;
    double value = ct::gradient<helperInLoop>(x, y, &dx, &dy);
    check::near("helperInLoop value", value, helperInLoop(x, y), 1e-12);
    check::near("helperInLoop d/dx", dx,
                check::centralDifference(
                    [&](double t) { return helperInLoop(t, y); }, x),
                1e-6);
    check::near("helperInLoop d/dy", dy, helperInLoop(x, 1.0), 1e-12);
    check::near("helperInLoop jvp", ct::jvp<helperInLoop>(x, y, 1.0, 0.0).tangent,
                dx, 1e-9);
  }
}

// A matrix parameter: its buffer is read through the address in the
// caller's object, and the derivative matrix's buffer receives the
// gradient.
[[ct::differentiable]] double frobenius(const Matrix &m) {
  double s = 0;
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.cols(); ++j)
      s += std::sin(m(i, j)) * m(i, j);
  return s;
}

void checkParameter() {
  Matrix m(2, 3), dm(2, 3);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      m(i, j) = 0.3 * i - 0.25 * j + 0.1;
      dm(i, j) = 0;
    }
  double value = ct::gradient<frobenius>(m, &dm);
  check::near("frobenius value", value, frobenius(m), 1e-12);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      check::near("frobenius gradient", dm(i, j),
                  std::cos(m(i, j)) * m(i, j) + std::sin(m(i, j)), 1e-12);
}

void checkChain() {
  constexpr int n = 3;
  double x[n] = {0.3, -0.8, 1.2}, dx[n] = {};
  double value = ct::gradient<chain>(x, n, dx);
  check::near("chain value", value, chain(x, n), 1e-12);
  double t[n] = {0.5, -1.0, 2.0}, directional = 0;
  for (int k = 0; k < n; ++k) {
    check::near("chain gradient", dx[k],
                check::differenceAt(x, k, [&] { return chain(x, n); }), 1e-6);
    directional += t[k] * dx[k];
  }
  auto forward = ct::jvp<chain>(x, n, t);
  check::near("chain jvp value", forward.value, value, 1e-12);
  check::near("chain jvp", forward.tangent, directional, 1e-9);
}

// Vector mode (two tangents through one sweep: the matrices' tangent
// buffers carry two lanes) and a Hessian-vector product, against the
// gradient and central differences of the gradient.
void checkLanesAndSecondOrder() {
  constexpr int n = 3;
  double x[n] = {0.3, -0.8, 1.2}, dx[n] = {};
  ct::gradient<chain>(x, n, dx);
  double t[n * 2] = {1, 0, 0, 1, 0, 0}; // lane 0: e0, lane 1: e1
  auto lanes = ct::jvp<chain, ct::lanes<2>>(x, n, t);
  check::near("chain lane 0", lanes.tangent[0], dx[0], 1e-9);
  check::near("chain lane 1", lanes.tangent[1], dx[1], 1e-9);
  double v[n] = {0.5, -1.0, 2.0}, hv[n] = {};
  ct::hvp<chain>(x, n, v, hv);
  for (int i = 0; i < n; ++i) {
    auto gradientAt = [&](double h) {
      double moved[n], g[n] = {};
      for (int j = 0; j < n; ++j)
        moved[j] = x[j] + h * v[j];
      ct::gradient<chain>(moved, n, g);
      return g[i];
    };
    check::near("chain hvp", hv[i], check::centralDifference(gradientAt, 0.0),
                1e-5);
  }
}

/// A class that owns memory whose members have default initializers (a
/// null buffer), as modern C++ writes them.
struct Scratch {
  int size = 0;
  double *values = nullptr;
  Scratch() {}
  explicit Scratch(int n) : size(n), values(new double[n]) {}
  ~Scratch() { delete[] values; }
};

[[ct::differentiable]] double defaultMembers(double x) {
  Scratch empty;
  Scratch two(2);
  two.values[0] = x * x;
  two.values[1] = std::sin(x);
  return two.values[0] * two.values[1] + (empty.values ? 1.0 : 0.0) +
         empty.size;
}

/// Memory chosen by a conditional whose arms have side effects: a buffer
/// allocated only when it has elements, and a pointer moved in one arm.
struct Sized {
  int n;
  double *d;
  explicit Sized(int m) : n(m), d(m > 0 ? new double[m] : nullptr) {}
  ~Sized() { delete[] d; }
  void resize(int m) {
    if (m != n) {
      delete[] d;
      d = m > 0 ? new double[m] : nullptr;
      n = m;
    }
  }
};

[[ct::differentiable]] double chosenWithEffects(const double *a, int i,
                                                double x) {
  const double *p = i > 0 ? a++ : a;
  Sized b(0), empty(0);
  b.resize(2);
  b.d[0] = x * p[0];
  b.d[1] = std::sin(x) * a[0];
  return b.d[0] + b.d[1] + (empty.d ? 1.0 : 0.0);
}

static void checkChosenWithEffects() {
  for (int i : {0, 1}) {
    double a[2] = {2, 3}, da[2] = {}, dx = 0, x = 0.5;
    ct::gradient<chosenWithEffects>(a, i, x, da, &dx);
    // p = a; a moves to a + 1 when i > 0.
    double moved = i > 0 ? a[1] : a[0];
    check::near("effects da0", da[0], i > 0 ? x : x + std::sin(x), 1e-12);
    check::near("effects da1", da[1], i > 0 ? std::sin(x) : 0, 1e-12);
    check::near("effects dx", dx, a[0] + std::cos(x) * moved, 1e-12);
    double t[2] = {1, 0};
    check::near("effects jvp", ct::jvp<chosenWithEffects>(a, i, x, t, 0.0).tangent,
                da[0], 1e-12);
  }
}

static void checkDefaultMembers() {
  double x = 0.8, dx = 0;
  ct::gradient<defaultMembers>(x, &dx);
  check::near("default members",
              dx, 2 * x * std::sin(x) + x * x * std::cos(x), 1e-12);
  check::near("default members jvp", ct::jvp<defaultMembers>(x, 1.0).tangent,
              dx, 1e-12);
}

int main() {
  checkDefaultMembers();
  checkChosenWithEffects();
  checkChain();
  checkLanesAndSecondOrder();
  checkHelperInLoop();
  checkParameter();
  return check::report();
}
