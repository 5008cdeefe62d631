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
// caller's memory or a global array; an object chosen at run time between
// the two kinds of accessors (also its Jacobian by lanes of pullbacks).
// Value, gradient against
// central differences, forward mode, Hessian-vector products and vector
// lanes (modes.h), at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

// An object chosen at run time between one whose accessors read the
// function's own array through a pointer field and one over its own
// storage, written through a reference and read through a pointer (vector
// lanes: the array's derivative, whose address the chosen object's
// derivative keeps, has lanes too).
[[ct::differentiable]] double chosenAccessors(const double *x, int n) {
  double local[3] = {x[0], x[1] * x[1], x[2]};
  Fixed b(x);
  View a(local, n);
  Field &f = x[0] > 0 ? static_cast<Field &>(a) : b;
  f.slot(0) *= x[3];
  return f.at(2) * f.data()[0];
}

// The same, into the caller's array: its Jacobian by lanes of pullbacks
// (three rows, seven columns).
[[ct::differentiable]] double chosenInto(double *o, double x, const double *c,
                                         int n) {
  double local[3] = {x, x * x, c[2]};
  Fixed b(c);
  View a(local, 3);
  Field &f = n <= 4 ? static_cast<Field &>(a) : b;
  f.slot(0) *= c[1];
  o[1] += f.at(2) * f.data()[0];
  return x * o[0];
}

/// ct::jacobian of chosenInto against central differences.
static void checkChosenJacobian(const char *name, int n) {
  const double in[7] = {0.3, -0.2, 0.5, 0.7, 0.1, -0.4, 0.9};
  auto outputs = [&](const double *v, double *out) {
    double o[2] = {v[0], v[1]}, c[4] = {v[3], v[4], v[5], v[6]};
    out[0] = chosenInto(o, v[2], c, n);
    out[1] = o[0];
    out[2] = o[1];
  };
  double o[2] = {in[0], in[1]}, c[4] = {in[3], in[4], in[5], in[6]};
  double J[3 * 7];
  ct::jacobian<chosenInto>(ct::extents{2, 4}, o, in[2], c, n, J);
  for (int i = 0; i < 7; ++i)
    for (int k = 0; k < 3; ++k) {
      double expected = check::centralDifference(
          [&](double t) {
            double v[7], out[3];
            std::copy(in, in + 7, v);
            v[i] += t;
            outputs(v, out);
            return out[k];
          },
          0.0);
      char label[96];
      std::snprintf(label, sizeof label, "%s: J[%d][%d]", name, k, i);
      check::near(label, J[k * 7 + i], expected, 1e-7);
    }
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
  check::checkModes<chosenAccessors>("chosen accessors", x, 4);
  checkChosenJacobian("chosen into, jacobian", 4);
  checkChosenJacobian("chosen into, jacobian, the other class", 5);
  // (Vector mode does not yet keep constant memory beside memory with
  // derivatives through addresses: diagnosed, docs/Memory.md.)
  check::checkModes<tables, false>("tables", x, 4);
  x[0] = -0.3;
  check::checkModes<pointers>("pointers, the other class", x, 4);
  check::checkModes<chosenAccessors>("chosen accessors, the other class", x,
                                     4);
  return check::report();
}
