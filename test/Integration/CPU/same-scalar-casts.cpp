// reinterpret_cast between pointers to objects made of the same scalars: a
// struct of doubles viewed as doubles, doubles viewed as std::array
// triples and as rows of a 2-D array. The same memory, so derivatives flow
// through either view; gradients against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <array>

struct Vec3 {
  double x, y, z;
};

/// sum_i (i + 1) flat[i]^2 over the points' coordinates.
double weightedSquares(const Vec3 *points, int n) {
  const double *flat = reinterpret_cast<const double *>(points);
  double s = 0;
  for (int i = 0; i < 3 * n; ++i)
    s += flat[i] * flat[i] * (i + 1);
  return s;
}

/// sum_i t0 t1 - t2 over triples of doubles.
double triples(const double *flat, int n) {
  auto *t = reinterpret_cast<const std::array<double, 3> *>(flat);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i][0] * t[i][1] - t[i][2];
  return s;
}

/// Writes through the other view: rows of two, scaled by their index.
void scaleRows(double *flat, int rows) {
  auto *r = reinterpret_cast<double(*)[2]>(flat);
  for (int i = 0; i < rows; ++i) {
    r[i][0] *= i + 1;
    r[i][1] *= r[i][0];
  }
}

int main() {
  Vec3 points[2] = {{0.5, -1, 2}, {3, 0.25, -0.5}};
  Vec3 dpoints[2] = {};
  ct::gradient<weightedSquares>(points, 2, dpoints);
  const double *flat = &points[0].x, *dflat = &dpoints[0].x;
  for (int i = 0; i < 6; ++i)
    check::near("struct viewed as doubles", dflat[i], 2 * (i + 1) * flat[i],
                1e-12);

  double values[6] = {1, 2, 3, -1, 0.5, 4}, dvalues[6] = {};
  ct::gradient<triples>(values, 2, dvalues);
  for (int i = 0; i < 2; ++i) {
    check::near("triples d0", dvalues[3 * i], values[3 * i + 1], 1e-12);
    check::near("triples d1", dvalues[3 * i + 1], values[3 * i], 1e-12);
    check::near("triples d2", dvalues[3 * i + 2], -1, 1e-12);
  }

  // out = (x0 (i+1), x1 x0 (i+1)) per row; pull back seeds of 1.
  double rows[4] = {0.5, 2, -1, 3}, drows[4] = {1, 1, 1, 1};
  double original[4] = {0.5, 2, -1, 3};
  ct::pullback<scaleRows>(rows, 2, drows);
  for (int i = 0; i < 2; ++i) {
    double k = i + 1, x0 = original[2 * i], x1 = original[2 * i + 1];
    check::near("rows value", rows[2 * i + 1], x1 * x0 * k, 1e-12);
    check::near("rows d0", drows[2 * i], k + x1 * k, 1e-12);
    check::near("rows d1", drows[2 * i + 1], x0 * k, 1e-12);
  }
  return check::report();
}
