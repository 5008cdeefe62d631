// Helpers that take a std::vector by address, as style guides ask of
// output parameters (`void fill(const double *x, int n,
// std::vector<double> *out)`): they clear, push_back, resize, index
// (`(*out)[i]`, `out->at(i)`), read (`out->size()`, `out->back()`,
// range-for over `*out`) and pass the pointer or `*out` on to other
// helpers, growing the caller's local vector; one that only reads takes a
// pointer to const; an optional output is tested for null and left out
// with `nullptr`. Vectors of numbers and of structs, helpers called in
// loops. Every mode against differences, a closed form for one of them;
// -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "check.h"
#include "modes.h"

using check::near;

struct Point {
  double x, y;
};

void append(std::vector<double> *v, double e) { v->push_back(e); }

void exponentials(const double *x, int n, std::vector<double> *out) {
  out->resize(n);
  for (int i = 0; i < n; ++i)
    (*out)[i] = std::exp(x[i]);
}

void appendSquare(std::vector<double> &v, double e) { v.push_back(e * e); }

// Passes the pointer on, and what it designates to a reference.
void appendBoth(std::vector<double> *out, double e) {
  appendSquare(*out, e);
  append(out, -e);
}

double total(const std::vector<double> *v) {
  double s = 0;
  for (double e : *v)
    s += e;
  return s + v->back() * static_cast<double>(v->size());
}

void pairs(const double *x, int n, std::vector<Point> *points) {
  points->clear();
  for (int i = 0; i + 1 < n; ++i)
    points->push_back({x[i], x[i + 1]});
}

// Records its terms where asked to.
double logTerms(const double *x, int n, std::vector<double> *terms) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double t = std::log(1 + x[i] * x[i]);
    if (terms)
      terms->push_back(t);
    s += t;
  }
  return s;
}

// Products of neighbours appended one call at a time, squares and
// negations appended through a pointer passed on, a vector of
// exponentials and of point pairs filled by helpers.
[[ct::differentiable]] double mixed(const double *x, int n) {
  std::vector<double> v;
  for (int k = 0; k < n; ++k)
    append(&v, x[k] * x[(k + 1) % n]);
  appendBoth(&v, x[0]);
  std::vector<double> e;
  exponentials(x, n, &e);
  std::vector<Point> points;
  pairs(x, n, &points);
  double s = total(&v) + total(&e);
  for (const Point &p : points)
    s += p.x * std::sin(p.y);
  return s + static_cast<double>(v.size());
}

// sum_i log(1 + x_i^2) twice, once recorded and once not; the recorded
// terms weighted by position.
[[ct::differentiable]] double optional(const double *x, int n) {
  std::vector<double> terms;
  double s = logTerms(x, n, &terms) + logTerms(x, n, nullptr);
  for (int i = 0; i < static_cast<int>(terms.size()); ++i)
    s += (i + 1) * terms.at(i);
  return s;
}

int main() {
  const double x[4] = {0.3, -0.5, 0.8, 1.1};
  check::checkModes<mixed>("mixed outputs", x, 4);
  check::checkModes<optional>("optional output", x, 4);
  // Closed form of optional: d/dx_i = (2 + i + 1) 2 x_i / (1 + x_i^2).
  double dx[4] = {};
  double point[4] = {x[0], x[1], x[2], x[3]};
  double value = ct::gradient<optional>(point, 4, dx);
  double closed = 0;
  for (int i = 0; i < 4; ++i) {
    double t = std::log(1 + x[i] * x[i]);
    closed += (2 + i + 1) * t;
    near("optional output: closed form", dx[i],
         (2 + i + 1) * 2 * x[i] / (1 + x[i] * x[i]), 1e-14);
  }
  near("optional output: value", value, closed, 1e-14);
  return check::report();
}
