// std::vectors owned by smart pointers: `std::make_unique<std::vector<T>>`
// (sized, empty, from a range), `std::unique_ptr<std::vector<T>>(new
// std::vector<T>(...))`, `std::make_shared<std::vector<T>>` shared by a copy
// of the pointer, unique_ptr fields of a struct. Each vector lives in the
// memory its owner owns as C++ lays it out (docs/Memory.md, item 8): `*v`,
// `v->push_back`, `v->resize`, `(*v)[i]`, `v->size()`, `v->back()`,
// range-`for`, iterators and std::sort, a reference bound to `*v`, `*v`
// passed to helpers that read it or grow it; `reset` and the last owner
// free its elements with it. Reverse and forward mode and Hessian-vector
// products against central differences, at -O0 and -O2 (and under
// AddressSanitizer in the sanitizer build: no leak).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "check-modes.h"

[[ct::differentiable]] double madeUnique(const double *x, int n) {
  auto v = std::make_unique<std::vector<double>>(n);
  for (int i = 0; i < n; ++i)
    (*v)[i] = x[i] * x[i];
  v->push_back(3 * x[0]);
  double s = 0;
  for (double e : *v)
    s += std::sin(e);
  return s + v->size() * v->back();
}

[[ct::differentiable]] double madeShared(const double *x, int n) {
  auto v = std::make_shared<std::vector<double>>();
  for (int i = 0; i < n; ++i)
    v->push_back(2 * x[i]);
  auto w = v;
  std::vector<double> &r = *w;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += r[i] * x[i] * x[i];
  return s;
}

[[ct::differentiable]] double fromNew(const double *x, int n) {
  std::unique_ptr<std::vector<double>> u(new std::vector<double>(x, x + n));
  u->resize(n + 2, 0.5);
  double s = 0;
  for (std::size_t i = 0; i < u->size(); ++i)
    s += (*u)[i] * (*u)[i] * (i + 1);
  u.reset();
  return s;
}

struct Model {
  std::unique_ptr<std::vector<double>> weights;
};

[[ct::differentiable]] double ownedField(const double *x, int n) {
  Model m{std::make_unique<std::vector<double>>(x, x + n)};
  double s = 0;
  for (double w : *m.weights)
    s += w * w * w;
  return s;
}

struct Point {
  double x, y;
};

static double squares(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}

static void fillCosines(std::vector<double> &v, const double *x, int n) {
  v.clear();
  for (int i = 0; i < n; ++i)
    v.push_back(std::cos(x[i]));
}

[[ct::differentiable]] double helpersAndSort(const double *x, int n) {
  auto v = std::make_unique<std::vector<double>>();
  fillCosines(*v, x, n);
  std::sort(v->begin(), v->end());
  auto points = std::make_shared<std::vector<Point>>(n);
  for (int i = 0; i < n; ++i)
    (*points)[i] = {x[i], x[(i + 1) % n]};
  double s = 0;
  for (const Point &p : *points)
    s += p.x * p.y;
  return squares(*v) + (*v)[0] * s;
}

template <auto F> void checkAllModes(const char *name, int n) {
  double x[5] = {0.3, -0.2, 0.5, 0.7, 0.1};
  const double v[5] = {0.2, -0.1, 0.3, 0.5, -0.4};
  check::gradientAndTangents<F>(name, x, n);
  check::hessianVectorProduct<F>(name, x, v, n);
}

int main() {
  checkAllModes<madeUnique>("make_unique", 5);
  checkAllModes<madeShared>("make_shared", 5);
  checkAllModes<fromNew>("unique_ptr from new", 5);
  checkAllModes<ownedField>("owned field", 5);
  checkAllModes<helpersAndSort>("helpers and sort", 5);
  return check::report();
}
