// `realloc` of memory whose address is read back from memory: C's growable
// array (a struct of a data pointer, a length and a capacity, pushed to by a
// helper that doubles the capacity with realloc), a struct of such arrays,
// a pointer variable given both an allocation and a realloc'd block, a
// buffer shrunk, one grown from nullptr kept in a field, and one of structs.
// The old block's size is the allocator's (ct.allocation_size). Value,
// gradient against central differences, forward mode, Hessian-vector
// products and lanes (modes.h), at -O0 and -O2, and under AddressSanitizer
// (no leak of primal or shadow blocks).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address,undefined %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdlib>

#include "check.h"
#include "modes.h"

struct Array {
  double *data;
  int size, capacity;
};

static void push(Array *a, double v) {
  if (a->size == a->capacity) {
    a->capacity = a->capacity ? 2 * a->capacity : 1;
    a->data = static_cast<double *>(
        std::realloc(a->data, a->capacity * sizeof(double)));
  }
  a->data[a->size++] = v;
}

/// Squares pushed one by one (the array grows 1, 2, 4, 8), then read.
[[ct::differentiable]] double pushed(const double *x, int n) {
  Array a{nullptr, 0, 0};
  for (int i = 0; i < n; ++i)
    push(&a, x[i] * x[i]);
  double s = 0;
  for (int i = 0; i < a.size; ++i)
    s += std::sin(a.data[i]) * (i + 1);
  std::free(a.data);
  return s;
}

struct Samples {
  Array values, weights;
};

/// Two growable arrays in one struct, each grown in a branch.
[[ct::differentiable]] double twoArrays(const double *x, int n) {
  Samples s{{nullptr, 0, 0}, {nullptr, 0, 0}};
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < n; ++i) {
      if (x[i] > 0 || round == 1)
        push(&s.values, std::exp(0.3 * x[i]));
      push(&s.weights, x[i] + round);
    }
  double total = 0;
  for (int i = 0; i < s.values.size; ++i)
    total += s.values.data[i] * s.weights.data[i % s.weights.size];
  std::free(s.values.data);
  std::free(s.weights.data);
  return total;
}

/// A pointer variable given a fresh block in one branch and the grown
/// block in the other, then shrunk by realloc.
[[ct::differentiable]] double reseatedThenShrunk(const double *x, int n) {
  double *p = static_cast<double *>(std::malloc(2 * sizeof(double)));
  p[0] = x[0];
  p[1] = x[1];
  if (x[0] > 0) {
    std::free(p);
    p = static_cast<double *>(std::malloc(n * sizeof(double)));
    for (int i = 0; i < n; ++i)
      p[i] = x[i] * x[0];
  } else {
    p = static_cast<double *>(std::realloc(p, n * sizeof(double)));
    for (int i = 2; i < n; ++i)
      p[i] = x[i] * x[i];
  }
  p = static_cast<double *>(std::realloc(p, 3 * sizeof(double)));
  double r = p[0] * p[1] + std::cos(p[2]);
  std::free(p);
  return r;
}

struct Point {
  double x, y;
};

struct Cloud {
  Point *points;
  int count;
};

/// Structs grown by one at a time through a pointer to the holder.
static void addPoint(Cloud *c, Point p) {
  c->points = static_cast<Point *>(
      std::realloc(c->points, (c->count + 1) * sizeof(Point)));
  c->points[c->count++] = p;
}

[[ct::differentiable]] double cloud(const double *x, int n) {
  Cloud c{nullptr, 0};
  for (int i = 0; i + 1 < n; ++i)
    addPoint(&c, Point{x[i], x[i + 1] * x[i]});
  double area = 0;
  for (int i = 0; i + 1 < c.count; ++i)
    area += c.points[i].x * c.points[i + 1].y -
            c.points[i + 1].x * c.points[i].y;
  std::free(c.points);
  return area;
}

int main() {
  const double point[7] = {0.4, -0.3, 0.9, 0.25, -0.6, 0.7, 0.15};
  check::checkModes<pushed>("pushed", point, 7);
  check::checkModes<twoArrays>("two arrays", point, 7);
  check::checkModes<reseatedThenShrunk>("reseated", point, 7);
  const double negative[7] = {-0.4, -0.3, 0.9, 0.25, -0.6, 0.7, 0.15};
  check::checkModes<reseatedThenShrunk>("grown", negative, 7);
  check::checkModes<cloud>("structs", point, 7);
  return check::report();
}
