// Library objects kept as the library compiled them (std::string,
// std::map, std::unordered_map, std::set) as fields of the program's
// structs, beside the numbers that carry derivatives: locals made by
// aggregate initialization and by default construction, copied, assigned,
// swapped and moved; a struct holding a std::vector of such structs and a
// std::map from names to positions; std::vectors of them grown by
// push_back and emplace_back past their capacity (short strings live
// inside their object, so each element moves by its move constructor),
// with insert and erase in the middle; helpers taking them by reference
// and returning them by value; arrays of them; the caller's structs
// holding names, read with the derivative object receiving the
// derivatives. Every mode against differences (check::checkModes) at -O0
// and -O2 (and under AddressSanitizer in the sanitizer build: no string is
// freed twice or leaked).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "check.h"
#include "modes.h"

struct Param {
  std::string name;
  double w;
  int id;
};

// sum of w_i^2 over named copies, plus the last copy's name length.
double locals(const double *x, int n) {
  Param p{"alpha", x[0] * x[1], 1};
  Param q = p;
  q.w *= x[2];
  Param r;
  r = q;
  r.name += "-beta";
  std::swap(p, r);
  Param moved = std::move(q);
  return p.w * r.w + moved.w * std::sin(x[3]) + 0.1 * p.name.size() * x[0];
}

struct Table {
  std::map<int, double> scale;
  std::unordered_map<int, double> offset;
  std::set<int> skipped;
  double bias;
};

// sum_i scale(i mod 3) x_i bias + offset(i mod 2), skipping index 2.
double tables(const double *x, int n) {
  Table t;
  t.scale[0] = 2.0;
  t.scale[1] = 3.0;
  t.scale[2] = -1.0;
  t.offset = {{0, 0.5}, {1, -0.25}};
  t.skipped.insert(2);
  t.bias = x[0] * x[0];
  Table copy = t;
  copy.bias += x[1];
  double s = 0;
  for (int i = 0; i < n; ++i)
    if (!copy.skipped.count(i))
      s += copy.scale.at(i % 3) * x[i] * copy.bias + t.offset[i % 2] * x[i];
  return s;
}

struct Model {
  std::vector<Param> params;
  std::map<std::string, int> index;
  double scale;
};

static double weighted(const Param &p, double scale) {
  return static_cast<double>(p.name.size()) * p.w * scale;
}

static Param named(const std::string &base, int i, double w) {
  return Param{base + std::to_string(i), w, i};
}

// Names short and long (past the short-string buffer), grown past the
// vector's capacity one element at a time.
double models(const double *x, int n) {
  Model m;
  m.scale = x[0];
  for (int i = 0; i < n; ++i) {
    Param p = named(i % 2 ? "p" : "a-name-longer-than-sixteen-chars", i,
                    x[i] * x[i]);
    m.index[p.name] = i;
    m.params.push_back(p);
  }
  m.params.emplace_back(Param{"extra", x[1], n});
  m.index["extra"] = n;
  double s = 0;
  for (const Param &p : m.params)
    s += weighted(p, m.scale) +
         p.w * m.params[static_cast<size_t>(m.index.at(p.name))].w;
  Model copy = m;
  copy.params[0].w += x[2];
  return s + copy.params[0].w * copy.scale * m.params.back().w;
}

// insert and erase in the middle move the elements after them.
double edits(const double *x, int n) {
  std::vector<Param> ps;
  for (int i = 0; i < n; ++i)
    ps.push_back(Param{std::string(static_cast<size_t>(3 + 7 * i), 'c'),
                       x[i], i});
  ps.insert(ps.begin() + 1, Param{"inserted", x[0] * x[1], -1});
  ps.erase(ps.begin() + 2);
  ps.insert(ps.begin(), ps.back());
  double s = 0;
  for (size_t i = 0; i < ps.size(); ++i)
    s += (static_cast<double>(i) + 1) * ps[i].w * ps[i].w +
         0.01 * ps[i].name.size() * ps[i].w;
  return s;
}

struct Labelled {
  double v[3];
  std::string label;
  float f;
};

double arrays(const double *x, int n) {
  Labelled a[2] = {{{x[0], x[1], x[2]}, "first", 1.5f},
                   {{x[3], x[0], x[1]}, "second", 0.5f}};
  Labelled b = a[1];
  b.label += "!";
  a[1] = a[0];
  a[0] = b;
  return a[0].v[0] * a[1].v[1] * a[1].v[2] +
         static_cast<double>(a[0].label.size()) * a[0].f * x[3];
}

struct Spring {
  std::string name;
  double k, rest;
};

// sum_i k_i (x_{i+1} - x_i - rest_i)^2 / 2 over the caller's springs.
[[ct::differentiable]] double springEnergy(const double *x,
                                           const Spring *springs, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    double d = x[i + 1] - x[i] - springs[i].rest;
    e += 0.5 * springs[i].k * d * d * (springs[i].name.empty() ? 0 : 1);
  }
  return e;
}

static void checkSprings() {
  double x[4] = {0.1, 0.9, 2.2, 2.8}, dx[4] = {};
  Spring springs[3] = {{"left", 1.5, 0.7}, {"", 2.0, 1.1}, {"right", 0.5, 0.4}};
  Spring dsprings[3] = {{"l", 0, 0}, {"m", 0, 0}, {"r", 0, 0}};
  double value = ct::gradient<springEnergy>(x, springs, 3, dx, dsprings);
  check::near("springs value", value, springEnergy(x, springs, 3), 1e-14);
  for (int i = 0; i < 4; ++i)
    check::near("springs d/dx",
                dx[i], check::differenceAt(x, i, [&] {
                  return springEnergy(x, springs, 3);
                }),
                1e-7);
  // The central difference in one number of spring i (copies keep names).
  auto differenceIn = [&](int i, double Spring::*number) {
    return check::centralDifference(
        [&](double value) {
          Spring moved[3] = {springs[0], springs[1], springs[2]};
          moved[i].*number = value;
          return springEnergy(x, moved, 3);
        },
        springs[i].*number);
  };
  for (int i = 0; i < 3; ++i) {
    check::near("springs d/dk", dsprings[i].k, differenceIn(i, &Spring::k),
                1e-7);
    check::near("springs d/drest", dsprings[i].rest,
                differenceIn(i, &Spring::rest), 1e-7);
  }
  check::near("springs names kept", springs[2].name == "right", 1, 0);
  check::near("derivative names kept", dsprings[1].name == "m", 1, 0);
}

int main() {
  const double point[4] = {0.7, -0.4, 1.3, 0.25};
  check::checkModes<locals>("locals", point, 4);
  check::checkModes<tables>("tables", point, 4);
  check::checkModes<models, false>("models", point, 4);
  check::checkModes<edits>("edits", point, 4);
  check::checkModes<arrays, false>("arrays", point, 4);
  checkSprings();
  return check::report();
}
