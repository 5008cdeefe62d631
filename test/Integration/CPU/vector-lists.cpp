// Lists given to std::vectors kept in memory (a struct's vector field, a
// vector of structs holding vectors, a vector of vectors, a vector of
// strings, a vector of a class owning memory): `v = {a, b}`, `v.assign({a, b})` and `v.insert(pos, {a, b})`.
// The list's vector is made first, so a list of the vector's own elements
// (`rows = {rows[1], rows[0]}`) is read before they are replaced. Every
// mode against differences (check::checkModes) and closed forms, at -O0
// and -O2 (and under AddressSanitizer in the sanitizer build: the old
// elements and the list's own vector are freed).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <string>
#include <vector>

#include "Inputs/modes.h"

namespace {
struct Particle {
  std::vector<double> pos;
  double mass;
};
/// A class owning its numbers: copies are deep, the destructor frees.
class Buffer {
public:
  Buffer(int n, double v) : n_(n), data_(new double[n]) {
    for (int i = 0; i < n; ++i)
      data_[i] = v * (i + 1);
  }
  Buffer(const Buffer &o) : n_(o.n_), data_(new double[o.n_]) {
    for (int i = 0; i < n_; ++i)
      data_[i] = o.data_[i];
  }
  Buffer &operator=(const Buffer &o) {
    if (this != &o) {
      delete[] data_;
      n_ = o.n_;
      data_ = new double[n_];
      for (int i = 0; i < n_; ++i)
        data_[i] = o.data_[i];
    }
    return *this;
  }
  ~Buffer() { delete[] data_; }
  double sum() const {
    double s = 0;
    for (int i = 0; i < n_; ++i)
      s += data_[i] * data_[i];
    return s;
  }

private:
  int n_;
  double *data_;
};
} // namespace

// A struct's vector field given lists: assigned, assigned by `assign`,
// extended in the middle; the particles built in a loop.
[[ct::differentiable]] double particles(const double *x, int n) {
  std::vector<Particle> all;
  for (int i = 0; i < n; ++i) {
    Particle p;
    p.pos = {x[i], x[i] * x[i], 1.0};
    p.mass = 1.0 + i;
    all.push_back(p);
  }
  all[0].pos.assign({x[1], std::exp(x[0])});
  all[1].pos.insert(all[1].pos.begin() + 1, {x[2], 2 * x[3]});
  double e = 0;
  for (const Particle &p : all)
    for (std::size_t k = 0; k < p.pos.size(); ++k)
      e += p.mass * p.pos[k] * p.pos[k] * (k + 1);
  return e;
}

// Vectors of vectors and of structs holding vectors given lists, one of
// them of the vector's own elements, swapped.
[[ct::differentiable]] double nested(const double *x, int n) {
  std::vector<std::vector<double>> rows(2);
  rows = {{x[0], x[1]}, {x[2] * x[3]}};
  rows = {rows[1], rows[0]};
  rows.insert(rows.begin() + 1, {{x[3]}, {x[0], x[0] * x[1]}});
  std::vector<Particle> some;
  some = {Particle{{x[1]}, 2.0}, Particle{{x[2], x[3]}, 3.0}};
  some.insert(some.end(), {Particle{{x[0] * x[0]}, 0.5}});
  double e = 0;
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (double v : rows[r])
      e += (r + 1) * std::sin(v);
  for (const Particle &p : some)
    for (double v : p.pos)
      e += p.mass * v * v;
  return e;
}

// Strings given by lists weigh the numbers by their lengths.
[[ct::differentiable]] double named(const double *x, int n) {
  std::vector<std::string> names{"a"};
  names = {"hip", "knee"};
  names.insert(names.begin() + 1, {"ankle", "toe"});
  names.assign({names[2], names[0], "elbow"});
  double e = 0;
  for (std::size_t i = 0; i < names.size(); ++i)
    e += names[i].size() * x[i] * x[i];
  return e;
}

// Classes owning memory given by lists: inserted, assigned.
[[ct::differentiable]] double owners(const double *x, int n) {
  std::vector<Buffer> v;
  v.emplace_back(2, x[0]);
  v.insert(v.begin(), {Buffer(1, x[1]), Buffer(3, x[2])});
  double e = 0;
  for (const Buffer &b : v)
    e += b.sum();
  v = {v[2], Buffer(2, x[3])};
  for (std::size_t i = 0; i < v.size(); ++i)
    e += (i + 1) * v[i].sum();
  return e;
}

int main() {
  const double point[4] = {0.7, -0.4, 1.3, 0.25};
  const double x0 = point[0], x1 = point[1], x2 = point[2], x3 = point[3];
  // (Vector mode does not yet follow objects holding both addresses and
  // numbers that carry derivatives.)
  check::checkModes<particles, false>("particles", point, 4);
  check::checkModes<nested, false>("nested", point, 4);
  check::checkModes<named>("named", point, 4);
  check::checkModes<owners, false>("owners", point, 4);
  // Sums of squares: Buffer(1, x1) x1^2, Buffer(3, x2) 14 x2^2, Buffer(2,
  // x0) 5 x0^2; then {Buffer(2, x0), Buffer(2, x3)}.
  check::near("owners value", owners(point, 4),
              x1 * x1 + 14 * x2 * x2 + 5 * x0 * x0 + 5 * x0 * x0 +
                  2 * 5 * x3 * x3,
              1e-14);
  // Closed forms: rows = {x2 x3}, {x3}, {x0, x0 x1}, {x0, x1}.
  check::near("nested value", nested(point, 4),
              std::sin(x2 * x3) + 2 * std::sin(x3) +
                  3 * (std::sin(x0) + std::sin(x0 * x1)) +
                  4 * (std::sin(x0) + std::sin(x1)) + 2 * x1 * x1 +
                  3 * (x2 * x2 + x3 * x3) + 0.5 * x0 * x0 * x0 * x0,
              1e-14);
  // names = hip, ankle, toe, knee, then toe, hip, elbow.
  check::near("named value", named(point, 4),
              3 * x0 * x0 + 3 * x1 * x1 + 5 * x2 * x2, 1e-14);
  // Particle 0: {x1, e^x0}, mass 1; 1: {x1, x2, 2 x3, x1^2, 1}, mass 2.
  double p0 = x1 * x1 + 2 * std::exp(2 * x0);
  double p1 = 2 * (x1 * x1 + 2 * x2 * x2 + 3 * 4 * x3 * x3 +
                   4 * x1 * x1 * x1 * x1 + 5);
  double p2 = 3 * (x2 * x2 + 2 * x2 * x2 * x2 * x2 + 3);
  double p3 = 4 * (x3 * x3 + 2 * x3 * x3 * x3 * x3 + 3);
  check::near("particles value", particles(point, 4), p0 + p1 + p2 + p3,
              1e-13);
  return check::report();
}
