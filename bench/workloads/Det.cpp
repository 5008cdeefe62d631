//===- Det.cpp - Determinant by minors and its Cotangent gradient ---------===//
//
// Compiled with the Cotangent plugin. The minor is described by the first
// row it keeps and a bit mask of the columns already removed.
//
//===----------------------------------------------------------------------===//

#include "Det.h"
#include "Random.h"

#include <cotangent/cotangent.h>

namespace bench::det {
namespace {

double minorDeterminant(const double *a, int n, int row, int removed) {
  if (row == n - 1) {
    int column = 0;
    while (removed & (1 << column))
      ++column;
    return a[row * n + column];
  }
  double sum = 0, sign = 1;
  for (int column = 0; column < n; ++column) {
    if (removed & (1 << column))
      continue;
    sum += sign * a[row * n + column] *
           minorDeterminant(a, n, row + 1, removed | (1 << column));
    sign = -sign;
  }
  return sum;
}

[[ct::differentiable]] double determinant(const double *a, int n) {
  return minorDeterminant(a, n, 0, 0);
}

} // namespace

Input generate(int n, uint64_t seed) {
  Random random(seed);
  Input in;
  in.n = n;
  in.a = random.uniformVector(size_t(n) * n, -1, 1);
  return in;
}

double objectiveAt(const Input &in, const double *a) {
  return determinant(a, in.n);
}

double objective(const Input &in) { return objectiveAt(in, in.a.data()); }

double gradient(const Input &in, double *grad) {
  for (size_t i = 0; i < in.a.size(); ++i)
    grad[i] = 0;
  return ct::gradient<determinant>(in.a.data(), in.n, grad);
}

} // namespace bench::det
