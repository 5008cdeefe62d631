// Pointers and integers whose address is taken: pointer variables swapped
// by std::swap, through `double**` and `double*&` parameters, moved by
// std::move; a class owning memory written with the copy-and-swap idiom
// (its pointer and integer fields swapped by std::swap); integer fields
// of a struct of doubles bound to `int&` and `int*`. A pointer variable
// whose address is taken keeps its address in a slot of its own, which the
// code given it reads and writes; an integer field among doubles is
// addressed through a view of its own type. Reverse and forward mode at
// -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <utility>

#include "check.h"

static void swapThrough(double **a, double **b) {
  double *t = *a;
  *a = *b;
  *b = t;
}

static void swapReferences(double *&a, double *&b) {
  double *t = std::move(a);
  a = b;
  b = t;
}

// After the three swaps, a designates y and b designates x.
[[ct::differentiable]] double swappedPointers(double *x, double *y) {
  double *a = x;
  double *b = y;
  std::swap(a, b);            // a = y, b = x
  double first = a[0] * b[1]; // y0 x1
  swapThrough(&a, &b);        // a = x, b = y
  swapReferences(a, b);       // a = y, b = x
  double *moved = std::move(b);
  return first + 3 * a[1] + moved[0] * moved[0]; // + 3 y1 + x0^2
}

// Parameters swapped, and re-seated through a reference variable.
[[ct::differentiable]] double swappedParameters(double *x, double *y) {
  std::swap(x, y);     // x designates y's memory
  double first = x[0]; // y0
  double *&r = y;
  r = x + 1;           // y designates y1
  return first * y[0] + 2 * r[0];
}

// A matrix owning its buffer, assigned by copy-and-swap.
class Matrix {
public:
  Matrix(int rows, int cols)
      : rows_(rows), cols_(cols), data_(new double[rows * cols]()) {}
  Matrix(const Matrix &other)
      : rows_(other.rows_), cols_(other.cols_),
        data_(new double[other.rows_ * other.cols_]) {
    for (int i = 0; i < rows_ * cols_; ++i)
      data_[i] = other.data_[i];
  }
  Matrix &operator=(Matrix other) {
    std::swap(rows_, other.rows_);
    std::swap(cols_, other.cols_);
    std::swap(data_, other.data_);
    return *this;
  }
  ~Matrix() { delete[] data_; }
  double &operator()(int i, int j) { return data_[i * cols_ + j]; }
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }

private:
  int rows_, cols_;
  double *data_;
};

static Matrix product(const Matrix &a, const Matrix &b) {
  Matrix c(a.rows(), b.cols());
  for (int i = 0; i < a.rows(); ++i)
    for (int j = 0; j < b.cols(); ++j)
      for (int k = 0; k < a.cols(); ++k)
        c(i, j) += a(i, k) * b(k, j);
  return c;
}

// trace(A^3) of the 2x2 matrix A = [x0 x1; x2 x3]; its gradient is
// 3 (A^2)^T.
[[ct::differentiable]] double traceOfCube(const double *x) {
  Matrix a(2, 2);
  for (int i = 0; i < 4; ++i)
    a(i / 2, i % 2) = x[i];
  Matrix p = product(a, a);
  p = product(p, a);
  return p(0, 0) + p(1, 1);
}

struct Sample {
  double w;
  int index;
  int count;
};

static void bump(int &n) { ++n; }
static void setTo(int *n, int v) { *n = v; }

// The integers of a struct of doubles through references and pointers.
[[ct::differentiable]] double integerFields(const double *x, double w) {
  Sample s{w, 0, 1};
  bump(s.index);           // 1
  std::swap(s.index, s.count); // index 1, count 1
  setTo(&s.count, 3);
  int &i = s.index;
  i += 1;                  // index 2
  return s.w * x[s.index] * s.count; // 3 w x2
}

static void checkSwappedPointers() {
  double x[2] = {1.5, -0.5}, y[2] = {2.0, 0.75};
  double dx[2] = {}, dy[2] = {};
  double v = ct::gradient<swappedPointers>(x, y, dx, dy);
  check::near("swapped value", v, y[0] * x[1] + 3 * y[1] + x[0] * x[0], 1e-12);
  check::near("swapped d/dx0", dx[0], 2 * x[0], 1e-12);
  check::near("swapped d/dx1", dx[1], y[0], 1e-12);
  check::near("swapped d/dy0", dy[0], x[1], 1e-12);
  check::near("swapped d/dy1", dy[1], 3.0, 1e-12);
  double tx[2] = {0, 1}, ty[2] = {1, 0};
  check::near("swapped jvp",
              ct::jvp<swappedPointers>(x, y, tx, ty).tangent, y[0] + x[1],
              1e-12);
}

static void checkSwappedParameters() {
  double x[2] = {1.5, -0.5}, y[2] = {2.0, 0.75};
  double dx[2] = {}, dy[2] = {};
  double v = ct::gradient<swappedParameters>(x, y, dx, dy);
  check::near("parameters value", v, y[0] * y[1] + 2 * y[1], 1e-12);
  check::near("parameters d/dy0", dy[0], y[1], 1e-12);
  check::near("parameters d/dy1", dy[1], y[0] + 2, 1e-12);
  check::near("parameters d/dx0", dx[0], 0.0, 1e-12);
  double tx[2] = {1, 1}, ty[2] = {1, 0};
  check::near("parameters jvp",
              ct::jvp<swappedParameters>(x, y, tx, ty).tangent, y[1], 1e-12);
}

static void checkTraceOfCube() {
  const double x[4] = {1, 2, 3, 4};
  double dx[4] = {};
  double v = ct::gradient<traceOfCube>(x, dx);
  // A^2 = [7 10; 15 22], A^3 = [37 54; 81 118].
  check::near("trace value", v, 155.0, 1e-12);
  const double expected[4] = {21, 45, 30, 66};
  for (int i = 0; i < 4; ++i)
    check::near("trace gradient", dx[i], expected[i], 1e-12);
  const double t[4] = {0, 1, 0, 0};
  check::near("trace jvp", ct::jvp<traceOfCube>(x, t).tangent, expected[1],
              1e-12);
}

static void checkIntegerFields() {
  const double x[3] = {0.5, 1.0, -2.0};
  double dx[3] = {}, dw = 0;
  double v = ct::gradient<integerFields>(x, 0.25, dx, &dw);
  check::near("integers value", v, 3 * 0.25 * x[2], 1e-12);
  check::near("integers d/dw", dw, 3 * x[2], 1e-12);
  check::near("integers d/dx2", dx[2], 3 * 0.25, 1e-12);
  check::near("integers d/dx1", dx[1], 0.0, 1e-12);
  const double t[3] = {0, 0, 0};
  check::near("integers jvp", ct::jvp<integerFields>(x, 0.25, t, 1.0).tangent,
              3 * x[2], 1e-12);
}

int main() {
  checkSwappedPointers();
  checkSwappedParameters();
  checkTraceOfCube();
  checkIntegerFields();
  return check::report();
}
