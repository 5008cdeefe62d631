// Pointers to members: data members (`double Point::*coord = &Point::y`,
// chosen at run time, kept in arrays and struct fields, tested for null,
// read and written through `p.*m` and `q->*m`, members of anonymous unions
// and of bases) and member functions (`double (Model::*)(double) const`,
// chosen at run time, kept in locals, arrays and fields, passed to helpers,
// compared, called through `(m.*f)(x)` and `(p->*f)(x)`). Every mode
// against finite differences, at -O0 and -O2, and under AddressSanitizer.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address,undefined %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "modes.h"

#include <cmath>

struct Base {
  double w;
};

struct Point : Base {
  double x, y, z;
};

static double sumOf(const Point *pts, int n, double Point::*coord) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += pts[i].*coord;
  return s;
}

// Coordinates chosen by member pointers: summed, scaled through `->*`.
[[ct::differentiable]] double coordinates(const double *p, int n) {
  Point pts[2];
  for (int k = 0; k < 2; ++k) {
    pts[k].w = p[0];
    pts[k].x = p[0] * p[1];
    pts[k].y = p[1] + k;
    pts[k].z = p[2] * (k + 1);
  }
  double Point::*order[] = {&Point::z, &Point::x, &Point::y};
  double Point::*chosen = p[0] > 0 ? &Point::y : &Point::x;
  double Point::*none = nullptr;
  Point *q = &pts[1];
  q->*chosen *= p[2];
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += (i + 1) * sumOf(pts, 2, order[i]);
  if (!none && chosen != &Point::z)
    s += pts[0].*chosen * pts[1].w;
  return s + sumOf(pts, 2, &Point::w);
}

class Model {
public:
  explicit Model(double k) : k(k) {}
  double square(double x) const { return k * x * x; }
  double wave(double x) const { return std::sin(k * x); }
  double scaled(double x) const { return k * x; }

private:
  double k;
};

using Term = double (Model::*)(double) const;

struct Weighted {
  Term term;
  double weight;
};

static double apply(const Model &m, Term f, double x) { return (m.*f)(x); }

// Member functions chosen, kept and called.
[[ct::differentiable]] double terms(const double *p, int n) {
  Model m(p[0]);
  Term table[] = {&Model::square, &Model::wave, &Model::scaled};
  Weighted mix[] = {{&Model::wave, p[1]}, {&Model::square, 0.5}};
  Term pick = p[1] > 0 ? &Model::wave : &Model::scaled;
  const Model *pm = &m;
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += (pm->*table[i])(p[i]);
  for (const Weighted &w : mix)
    s += w.weight * apply(m, w.term, p[2]);
  if (pick == &Model::wave && pick != nullptr)
    s += (m.*pick)(p[1] * p[2]);
  return s;
}

int main() {
  const double p[] = {0.7, -1.3, 1.9}, q[] = {-0.4, 0.9, 1.1};
  check::checkModes<coordinates>("coordinates", p, 3);
  check::checkModes<coordinates>("coordinates, other choice", q, 3);
  check::checkModes<terms>("terms", p, 3);
  check::checkModes<terms>("terms, other choice", q, 3);
  return check::report();
}
