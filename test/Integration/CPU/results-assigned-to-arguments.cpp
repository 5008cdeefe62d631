// A variable assigned the result of a helper that reads it (`m = square(m)`,
// `v = smooth(smooth(v))`): C++ evaluates the call before the assignment
// runs, so the helper reads the old value. For a vector of vectors the
// assignment freed the old rows before the call read them (the value and
// every derivative came out wrong, silently). Vectors of numbers, vectors of
// vectors, a row of one, structs holding vectors and vectors of them, each
// assigned a helper's result computed from itself. Reverse and forward mode and Hessian-vector products against
// central differences, at -O0 and -O2 (and under AddressSanitizer in the
// sanitizer build: no use after free, no leak).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <vector>

#include "check-modes.h"

using Vec = std::vector<double>;
using Mat = std::vector<Vec>;

static Vec smooth(const Vec &v) {
  Vec r(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    r[i] = 0.5 * v[i] + 0.25 * v[(i + 1) % v.size()] * v[i];
  return r;
}

static Mat square(const Mat &m) {
  Mat r(m.size(), Vec(m.size(), 0.0));
  for (size_t i = 0; i < m.size(); ++i)
    for (size_t j = 0; j < m.size(); ++j)
      for (size_t k = 0; k < m.size(); ++k)
        r[i][j] += m[i][k] * m[k][j];
  return r;
}

[[ct::differentiable]] double matrixPowers(const double *x, int n) {
  Mat m(2, Vec(2));
  m[0][0] = x[0];
  m[0][1] = x[1];
  m[1][0] = x[2];
  m[1][1] = x[0] * x[1];
  m = square(m);
  m[1] = smooth(m[1]);
  m = square(square(m));
  double sum = 0;
  for (const Vec &row : m)
    for (double t : row)
      sum += t;
  return sum;
}

[[ct::differentiable]] double smoothed(const double *x, int n) {
  Vec v(x, x + n);
  v = smooth(v);
  v = smooth(smooth(v));
  double sum = 0;
  for (double t : v)
    sum += t * t;
  return sum;
}

struct Layer {
  Vec weights;
};

static Layer grow(const Layer &layer) {
  size_t n = layer.weights.size();
  Layer r{Vec(n)};
  for (size_t i = 0; i < n; ++i)
    r.weights[i] = layer.weights[i] * layer.weights[(i + 1) % n] + 0.1;
  return r;
}

[[ct::differentiable]] double layers(const double *x, int n) {
  Layer layer{Vec(x, x + n)};
  layer = grow(layer);
  layer.weights = smooth(layer.weights);
  std::vector<Layer> net{layer, layer};
  net[0] = grow(net[0]);
  net[1].weights = smooth(net[1].weights);
  double sum = 0;
  for (double t : layer.weights)
    sum += t * t;
  for (const Layer &k : net)
    for (double t : k.weights)
      sum += 3 * t;
  return sum;
}

int main() {
  double x[3] = {0.3, -0.7, 1.1};
  const double v[3] = {0.5, -1.0, 0.25};
  check::gradientAndTangents<matrixPowers>("matrix powers", x, 3);
  check::hessianVectorProduct<matrixPowers>("matrix powers hvp", x, v, 3);
  check::gradientAndTangents<smoothed>("smoothed", x, 3);
  check::hessianVectorProduct<smoothed>("smoothed hvp", x, v, 3);
  check::gradientAndTangents<layers>("layers", x, 3);
  check::hessianVectorProduct<layers>("layers hvp", x, v, 3);
  return check::report();
}
