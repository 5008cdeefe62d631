// Structs and classes holding std::vectors, returned by value from helpers
// (a matrix class whose product and transpose return new matrices, a
// polynomial whose derivative is a new polynomial): the memory of the
// result's vectors is the caller's, freed where the caller's scope ends,
// not where the helper returns (it was freed at the helper's return: a
// gradient read freed memory, and an assignment of such a result freed it
// twice). A helper returning such a struct from two `return`s (each
// makes the result's vector in its branch: the struct keeps its vectors in
// itself), and a member function filling a reserved vector inlined twice
// in one expression (the second inlining saw the first one's capacity and
// failed to compile). Reverse and forward mode and Hessian-vector products against
// central differences, at -O0 and -O2 (and under AddressSanitizer in the
// sanitizer build: no use after free, no leak).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "check-modes.h"

struct Pair {
  int scale;
  std::vector<double> values;
};

static Pair squaredTwice(const Pair &p) {
  Pair result{p.scale, std::vector<double>(2, 0.0)};
  for (int i = 0; i < 2; ++i)
    result.values[i] = p.scale * p.values[i] * p.values[i];
  return result;
}

// A result bound to a variable, one used as a temporary, and a result
// passed straight to the helper again.
[[ct::differentiable]] double pairs(const double *x, int n) {
  Pair p{2, std::vector<double>(x, x + 2)};
  Pair q = squaredTwice(p);
  double first = squaredTwice(q).values[0];
  Pair r = squaredTwice(squaredTwice(p));
  return q.values[0] + 3 * q.values[1] + first + r.values[1];
}

class Matrix {
public:
  Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols) {}
  double &operator()(int i, int j) { return data_[i * cols_ + j]; }
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
  Matrix operator*(const Matrix &other) const {
    Matrix product(rows_, other.cols_);
    for (int i = 0; i < rows_; ++i)
      for (int j = 0; j < other.cols_; ++j) {
        double sum = 0;
        for (int k = 0; k < cols_; ++k)
          sum += (*this)(i, k) * other(k, j);
        product(i, j) = sum;
      }
    return product;
  }
  Matrix transpose() const {
    Matrix t(cols_, rows_);
    for (int i = 0; i < rows_; ++i)
      for (int j = 0; j < cols_; ++j)
        t(j, i) = (*this)(i, j);
    return t;
  }
  double squaredNorm() const {
    double sum = 0;
    for (double v : data_)
      sum += v * v;
    return sum;
  }

private:
  int rows_, cols_;
  std::vector<double> data_;
};

// Products of new matrices, and a matrix assigned a product of itself.
[[ct::differentiable]] double matrices(const double *x, int n) {
  Matrix a(2, 3);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      a(i, j) = x[i * 3 + j];
  Matrix gram = a.transpose() * a;
  Matrix outer = a * a.transpose();
  outer = outer * outer;
  return gram.squaredNorm() + std::sqrt(outer.squaredNorm());
}

class Polynomial {
public:
  explicit Polynomial(std::vector<double> c) : c_(std::move(c)) {}
  Polynomial derivative() const {
    std::vector<double> d;
    for (size_t i = 1; i < c_.size(); ++i)
      d.push_back(i * c_[i]);
    return Polynomial(d);
  }
  double operator()(double t) const {
    double sum = 0;
    for (size_t i = c_.size(); i-- > 0;)
      sum = sum * t + c_[i];
    return sum;
  }

private:
  std::vector<double> c_;
};

// A polynomial's coefficients and those of its first two derivatives.
[[ct::differentiable]] double polynomials(const double *x, int n) {
  Polynomial p(std::vector<double>(x, x + n));
  Polynomial dp = p.derivative();
  return p(0.7) * dp(0.4) + p.derivative().derivative()(0.3);
}

// The branch taken decides which `return` makes the result.
static Pair swappedOrSquared(const Pair &p, bool swap) {
  if (swap) {
    Pair swapped{p.scale, std::vector<double>(2, 0.0)};
    swapped.values[0] = p.values[1] * p.values[1];
    swapped.values[1] = p.scale * p.values[0];
    return swapped;
  }
  Pair squared{p.scale, std::vector<double>(2, 0.0)};
  squared.values[0] = p.values[0] * p.values[0];
  squared.values[1] = p.values[1] * p.values[1];
  return squared;
}

[[ct::differentiable]] double twoReturns(const double *x, int n) {
  Pair p{3, std::vector<double>(x, x + 2)};
  Pair q = swappedOrSquared(p, x[0] > 0);
  return q.values[0] + 5 * q.values[1] * q.values[0];
}

struct Line {
  std::vector<double> coefficients;
  std::vector<double> predict(const std::vector<double> &at) const {
    std::vector<double> out;
    out.reserve(at.size());
    for (double t : at)
      out.push_back(coefficients[0] + coefficients[1] * t);
    return out;
  }
};

[[ct::differentiable]] double predictedTwice(const double *x, int n) {
  Line line{std::vector<double>(x, x + 2)};
  std::vector<double> at{0.1, 0.5, 0.9, 1.3};
  return line.predict(at)[1] * line.predict(at)[3];
}

int main() {
  double x[6] = {0.3, -0.7, 1.1, 0.4, 0.2, -0.5};
  const double v[6] = {0.5, -1.0, 0.25, 1.5, -0.75, 1.0};
  check::gradientAndTangents<pairs>("pairs", x, 2);
  check::hessianVectorProduct<pairs>("pairs hvp", x, v, 2);
  check::gradientAndTangents<matrices>("matrices", x, 6);
  check::hessianVectorProduct<matrices>("matrices hvp", x, v, 6);
  check::gradientAndTangents<polynomials>("polynomials", x, 4);
  check::hessianVectorProduct<polynomials>("polynomials hvp", x, v, 4);
  check::gradientAndTangents<twoReturns>("two returns, first", x, 2);
  double negative[2] = {-0.4, 0.8};
  check::gradientAndTangents<twoReturns>("two returns, second", negative, 2);
  check::hessianVectorProduct<twoReturns>("two returns hvp", x, v, 2);
  check::gradientAndTangents<predictedTwice>("predicted twice", x, 2);
  return check::report();
}
