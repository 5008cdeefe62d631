//===- DetManual.cpp - Hand-written gradient of the determinant by minors -===//
//
// One recursion computes each minor's value and, given the product of signs
// and entries on the path to it (its weight in det A), adds
// weight * sign * minor to d det / d a[row][column]: about twice the
// primal's work, with no stored intermediates.
//
//===----------------------------------------------------------------------===//

#include "Det.h"

namespace bench::det {
namespace {

double minorWithGradient(const double *a, int n, int row, int removed,
                         double weight, double *grad) {
  if (row == n - 1) {
    int column = 0;
    while (removed & (1 << column))
      ++column;
    grad[row * n + column] += weight;
    return a[row * n + column];
  }
  double sum = 0, sign = 1;
  for (int column = 0; column < n; ++column) {
    if (removed & (1 << column))
      continue;
    const double entry = a[row * n + column];
    const double minor = minorWithGradient(
        a, n, row + 1, removed | (1 << column), weight * sign * entry, grad);
    grad[row * n + column] += weight * sign * minor;
    sum += sign * entry * minor;
    sign = -sign;
  }
  return sum;
}

} // namespace

double gradientManual(const Input &in, double *grad) {
  for (size_t i = 0; i < in.a.size(); ++i)
    grad[i] = 0;
  return minorWithGradient(in.a.data(), in.n, 0, 0, 1.0, grad);
}

} // namespace bench::det
