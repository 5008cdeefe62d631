// std::vector<std::vector<double>> the way numerical C++ writes matrices:
// parameters (const&, &, by value), rows passed to helpers, range-for over
// rows, locals made of n copies of a row or from a list of rows, ragged
// rows. Reverse and forward mode against closed forms and central
// differences; a derivative argument of another shape ends the program.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// RUN: not --crash %t2 shape 2>&1 | FileCheck %s --check-prefix=SHAPE
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed
// SHAPE: cotangent: the derivative argument of parameter 'A' of 'quadraticForm' is a std::vector of another shape than the parameter's

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

using Matrix = std::vector<std::vector<double>>;

static double dot(const std::vector<double> &a, const std::vector<double> &b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    sum += a[i] * b[i];
  return sum;
}

// x^T A x, row by row through a helper.
[[ct::differentiable]] double quadraticForm(const Matrix &A,
                                            const std::vector<double> &x) {
  double sum = 0;
  for (std::size_t i = 0; i < A.size(); ++i)
    sum += x[i] * dot(A[i], x);
  return sum;
}

// In place: v <- k v^2 for every element, rows of different lengths.
[[ct::differentiable]] void squareScaled(Matrix &A, double k) {
  for (auto &row : A)
    for (double &v : row)
      v *= k * v;
}

// A copy of its own: writes to it do not reach the caller.
[[ct::differentiable]] double byValue(Matrix A) {
  A[0][0] *= 3;
  return A[0][0] * A.back().back();
}

// Locals: n copies of a row, a list of rows, a copy; rows by value.
[[ct::differentiable]] double locals(const double *x, int n) {
  Matrix m(n, std::vector<double>(3, 1.0));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j)
      m[i][j] = x[i] * (j + 1);
  Matrix weights{{1.0, 2.0}, {0.5}};
  Matrix copy = m;
  double sum = 0;
  for (const auto &row : copy)
    sum += std::sin(dot(row, row));
  for (auto row : m) {
    row[0] *= 2; // the copy only
    sum += row[0] * static_cast<double>(row.size());
  }
  return sum + m.back()[2] * weights[0][1] + m.front().front() *
                                                  weights.back()[0];
}

static void testQuadraticForm() {
  Matrix A = {{1, 2}, {3, 4}}, dA = {{0, 0}, {0, 0}};
  std::vector<double> x = {0.5, -1}, dx = {0, 0};
  double value = ct::gradient<quadraticForm>(A, x, &dA, &dx);
  check::near("quadratic form value", value, 1.75, 1e-15);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j)
      check::near("quadratic form d/dA", dA[i][j], x[i] * x[j], 1e-15);
    // (A + A^T) x
    check::near("quadratic form d/dx", dx[i],
                (A[i][0] + A[0][i]) * x[0] + (A[i][1] + A[1][i]) * x[1],
                1e-15);
  }
  Matrix tA = {{1, 0}, {0, 0}};
  std::vector<double> tx = {0, 1};
  auto jvp = ct::jvp<quadraticForm>(A, x, &tA, &tx);
  check::near("quadratic form jvp", jvp.tangent, x[0] * x[0] + dx[1], 1e-15);
}

static void testInPlace() {
  Matrix A = {{1, 2, 3}, {4}}, dA = {{1, 1, 1}, {1}};
  double dk = 0;
  ct::pullback<squareScaled>(A, 2.0, &dA, &dk);
  const double before[4] = {1, 2, 3, 4};
  check::near("in place value", A[0][2], 18, 1e-15);
  check::near("in place value", A[1][0], 32, 1e-15);
  check::near("in place d/dA", dA[0][1], 4 * before[1], 1e-15);
  check::near("in place d/dA", dA[1][0], 4 * before[3], 1e-15);
  check::near("in place d/dk", dk, 1 + 4 + 9 + 16, 1e-15);
}

static void testByValue() {
  Matrix A = {{1, 2}, {3, 4}}, dA = {{0, 0}, {0, 0}};
  double value = ct::gradient<byValue>(A, &dA);
  check::near("by value", value, 12, 1e-15);
  check::near("by value unchanged", A[0][0], 1, 0);
  check::near("by value d/dA00", dA[0][0], 12, 1e-15);
  check::near("by value d/dA11", dA[1][1], 3, 1e-15);
  check::near("by value d/dA01", dA[0][1], 0, 0);
}

static void testLocals() {
  double x[3] = {0.5, -1, 2}, dx[3] = {};
  double value = ct::gradient<locals>(x, 3, dx);
  check::near("locals value", value, locals(x, 3), 1e-14);
  for (int i = 0; i < 3; ++i)
    check::near("locals d/dx", dx[i],
                check::differenceAt(x, i, [&] { return locals(x, 3); }), 1e-7);
}

int main(int argc, char **) {
  if (argc > 1) {
    // A derivative argument whose second row is shorter.
    Matrix A = {{1, 2}, {3, 4}}, bad = {{0, 0}, {0}};
    std::vector<double> x = {1, 1}, dx = {0, 0};
    ct::gradient<quadraticForm>(A, x, &bad, &dx);
    return 0;
  }
  testQuadraticForm();
  testInPlace();
  testByValue();
  testLocals();
  return check::report();
}
