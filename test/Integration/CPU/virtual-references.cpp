// Virtual functions that return references or pointers, and virtual
// functions taking objects whose pointer fields the caller knows: each
// call is dispatched in place (docs/Frontend.md: the class's table
// compared with each class's, each overrider's body lowered in its branch,
// the place it returns chosen among theirs). Accessors of an interface
// over the caller's memory (a pointer field) and over an object's own
// storage, read through a reference to the base; writable references
// through an array of base pointers (`f.slot(1) *= ...`); a pointer to
// the data chosen at run time; energies of springs whose positions a
// struct points to, summed over laws of two classes; layers holding
// std::vectors whose weights are changed through `double &weight(int)`,
// an overrider calling its base's version; a table of rows over the
// caller's memory or a global array. Value, gradient against
// central differences, forward mode, Hessian-vector products and vector
// lanes (modes.h), at -O0 and -O2.
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
struct Field {
  virtual ~Field() = default;
  virtual const double &at(int i) const = 0;
  virtual double &slot(int i) = 0;
  virtual const double *data() const = 0;
  virtual int size() const = 0;
};
// Over the caller's memory, through a pointer field.
struct View : Field {
  double *d;
  int n;
  View(double *d, int n) : d(d), n(n) {}
  const double &at(int i) const override { return d[i]; }
  double &slot(int i) override { return d[i]; }
  const double *data() const override { return d; }
  int size() const override { return n; }
};
// Over its own storage.
struct Fixed : Field {
  double v[4];
  explicit Fixed(const double *x) { for (int i = 0; i < 4; ++i) v[i] = x[i] * x[i]; }
  const double &at(int i) const override { return v[i]; }
  double &slot(int i) override { return v[i]; }
  const double *data() const override { return v; }
  int size() const override { return 4; }
};

static double energy(const Field &f) {
  double s = 0;
  for (int i = 0; i < f.size(); ++i)
    s += f.at(i) * std::sin(f.at((i + 1) % f.size()));
  return s;
}

[[ct::differentiable]] double viaReference(const double *x, int n) {
  double local[8];
  for (int i = 0; i < n; ++i) local[i] = x[i];
  View a(local, n);
  Fixed b(x);
  return energy(a) + energy(b);
}

[[ct::differentiable]] double writable(const double *x, int n) {
  double local[8];
  for (int i = 0; i < n; ++i) local[i] = x[i];
  View a(local, n);
  Fixed b(x);
  Field *fields[2] = {&a, &b};
  double s = 0;
  for (int k = 0; k < 2; ++k) {
    Field &f = *fields[k];
    f.slot(1) *= f.at(0) + 2.0;
    f.slot(0) = std::exp(f.at(2));
    s += f.at(0) * f.at(1);
  }
  return s;
}

[[ct::differentiable]] double pointers(const double *x, int n) {
  double local[8];
  for (int i = 0; i < n; ++i) local[i] = 3 * x[i];
  View a(local, n);
  Fixed b(x);
  const Field &f = x[0] > 0 ? static_cast<const Field &>(a) : b;
  const double *p = f.data();
  double s = 0;
  for (int i = 0; i < 4; ++i) s += p[i] * p[(i + 1) % 4];
  return s;
}

struct Springs { const double *pos; int n; double k; };
struct Law {
  virtual ~Law() = default;
  virtual double energy(const Springs &s) const = 0;
};
struct Hooke : Law {
  double energy(const Springs &s) const override {
    double e = 0;
    for (int i = 0; i + 1 < s.n; ++i) { double d = s.pos[i + 1] - s.pos[i] - 1; e += 0.5 * s.k * d * d; }
    return e;
  }
};
struct Quartic : Law {
  double c;
  explicit Quartic(double c) : c(c) {}
  double energy(const Springs &s) const override {
    double e = 0;
    for (int i = 0; i + 1 < s.n; ++i) { double d = s.pos[i + 1] - s.pos[i]; e += c * d * d * d * d; }
    return e;
  }
};
[[ct::differentiable]] double laws(const double *x, int n) {
  Hooke h; Quartic q(0.25);
  const Law *all[2] = {&h, &q};
  Springs s{x, n, 2.0};
  double e = 0;
  for (const Law *law : all) e += law->energy(s);
  return e;
}
struct Layer {
  virtual ~Layer() = default;
  virtual double &weight(int i) = 0;
  virtual int count() const = 0;
};
struct Dense : Layer {
  std::vector<double> w;
  explicit Dense(int n) : w(n, 0.5) {}
  double &weight(int i) override { return w[i]; }
  int count() const override { return static_cast<int>(w.size()); }
};
struct Scaled : Dense {
  explicit Scaled(int n) : Dense(n) {}
  double &weight(int i) override { return Dense::weight(n_(i)); }
  int n_(int i) const { return (i + 1) % count(); }
};
[[ct::differentiable]] double layers(const double *x, int n) {
  Dense d(n); Scaled s(n);
  Layer *ls[2] = {&d, &s};
  double out = 0;
  for (Layer *l : ls) {
    for (int i = 0; i < l->count(); ++i) l->weight(i) *= x[i];
    for (int i = 0; i < l->count(); ++i) out += std::sin(l->weight(i)) * x[(i + 1) % n];
  }
  return out;
}

double table[4] = {1, 2, 3, 4};
struct Table {
  virtual ~Table() = default;
  virtual const double &entry(int i) const = 0;
};
struct Rows : Table {
  const double *row;
  explicit Rows(const double *row) : row(row) {}
  const double &entry(int i) const override { return row[i]; }
};
// One slot: the place a Rows gives keeps its address in memory.
struct Globals : Table {
  const double &entry(int i) const override { return table[i]; }
};
static double entryOf(const Table &t, int i) { return t.entry(i); }

[[ct::differentiable]] double tables(const double *x, int n) {
  Rows r(x);
  Globals g;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += entryOf(r, i) * entryOf(g, i) * std::cos(entryOf(r, (i + 1) % n));
  return s;
}

int main() {
  double x[4] = {0.3, -0.7, 1.1, 0.4};
  check::checkModes<viaReference>("reference", x, 4);
  check::checkModes<writable>("writable", x, 4);
  check::checkModes<pointers>("pointers", x, 4);
  check::checkModes<laws>("laws", x, 4);
  check::checkModes<layers>("layers", x, 4);
  // (Vector mode does not yet keep constant memory beside memory with
  // derivatives through addresses: diagnosed, docs/Memory.md.)
  check::checkModes<tables, false>("tables", x, 4);
  x[0] = -0.3;
  check::checkModes<pointers>("pointers, the other class", x, 4);
  return check::report();
}
