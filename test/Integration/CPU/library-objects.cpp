// Library objects kept as the library compiled them: lookup tables in a
// std::map and a std::unordered_map (find, at, count, operator[],
// range-for with structured bindings), a table built inside the function
// from constants (constructed, filled and destroyed by the library's own
// code), a std::string parameter and a std::map keyed by strings, an
// iterator compared and advanced, a std::string made inside the function,
// a std::list walked by its iterators, an element of a std::vector of
// strings, a std::vector of strings built and edited, a std::deque of
// constants walked by its iterators, insert's (iterator, bool) pair bound by name, a std::set, a
// std::function, std::cout, <random>'s engines and distributions, and
// tables made from lists of values.
// Each gradient matches its closed form and central differences, in
// reverse, forward and second-order mode, at -O0 and -O2; the tables'
// memory is freed (ASan's leak check runs in the sanitizer build).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: chosen: 2.875
// CHECK-NOT: chosen:
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <deque>
#include <functional>
#include <iostream>
#include <list>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "check.h"

constexpr int N = 5;

// sum_k w_k x_k^2 over the table's entries below N, doubled when key 7 is
// present.
[[ct::differentiable]] double tableEnergy(const double *x,
                                          const std::map<int, double> &w) {
  double s = 0;
  for (const auto &[k, v] : w)
    if (k < N)
      s += v * x[k] * x[k];
  if (w.count(7))
    s *= 2;
  return s;
}

// sum_i w(i) sin(x_i), with w(i) = 1 for keys the table lacks.
[[ct::differentiable]] double lookedUp(const double *x, int n,
                                       const std::map<int, double> &w) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    auto it = w.find(i);
    double weight = it != w.end() ? it->second : 1.0;
    s += weight * std::sin(x[i]);
  }
  return s;
}

// sum_i h.at(i) x_i x_{i+1}, through an unordered_map.
[[ct::differentiable]] double hashed(const double *x, int n,
                                     const std::unordered_map<int, double> &h) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += h.at(i) * x[i] * x[i + 1];
  return s;
}

// A table the function builds from constants: weights 1 + i.
[[ct::differentiable]] double localTable(const double *x, int n) {
  std::unordered_map<int, double> table;
  for (int i = 0; i < n; ++i)
    table[i] = 1.0 + i;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += table.at(i) * x[i] * x[i] * x[i];
  return s;
}

// Names: a scale looked up by name, a bonus when the name is long, and a
// string the function makes and measures.
[[ct::differentiable]] double named(const double *x, const std::string &name,
                                    const std::map<std::string, double> &scale) {
  std::string tag = name + "-tag";
  double bonus = tag.size() > 7 ? x[0] : 0.0;
  return scale.at(name) * x[0] * x[1] + bonus;
}

// A std::list walked with its iterators, scaled by the length of an
// element of a std::vector of strings.
[[ct::differentiable]] double listed(const double *x, const std::list<double> &l,
                                     const std::vector<std::string> &names) {
  double s = 0;
  int i = 0;
  for (auto it = l.begin(); it != l.end(); ++it, ++i)
    s += *it * x[i] * x[i];
  return s * double(names[1].size());
}

// A table filled by insert, whose (iterator, inserted) pair is bound by
// name; a std::set of chosen indices; a std::function of weights; a line
// printed with std::cout (once per derivative call).
[[ct::differentiable]] double inserted(const double *x, int n) {
  std::map<int, double> table;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    auto [it, fresh] = table.insert({i % 2, 1.0 + i});
    s += (fresh ? 1.0 : 3.0) * it->second * x[i];
  }
  return s;
}

[[ct::differentiable]] double chosen(const double *x, const std::set<int> &picked,
                                     const std::function<double(int)> &w,
                                     int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    if (picked.count(i))
      s += w(i) * x[i] * x[i];
  std::cout << "chosen: " << s << "\n";
  return s;
}

// Tables made from lists of values inside the function (the lists passed
// to the library's constructors as C++ lays a std::initializer_list out).
[[ct::differentiable]] double fromLists(const double *x) {
  std::map<int, double> w{{0, 2.0}, {1, 3.0}};
  std::unordered_map<int, double> u = {{0, 5.0}};
  std::set<int> picked{1};
  std::map<std::string, double> named{{"a", 7.0}, {"bb", 11.0}};
  return w.at(0) * x[0] +
         w.at(1) * x[1] * (picked.count(1) ? u.at(0) : 1.0) +
         named.at("bb") * x[0] * x[2];
}

// Noise from <random> with a fixed seed: the engine and distributions run
// as the standard library compiled the parts differentiable code cannot
// express (std::generate_canonical computes in long double).
[[ct::differentiable]] double noisy(const double *x, int n, unsigned seed) {
  std::mt19937 generator(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (1 + 0.1 * normal(generator) + 0.1 * uniform(generator)) * x[i] *
         x[i];
  return s;
}

// A std::vector of strings built and edited inside the function (each
// element made, copied, moved and destroyed by the library's code):
// push_back, emplace_back, insert of one string and of ranges (also
// reversed), resize, assignment of an element, erase, copies, assign, clear;
// the lengths weigh the numbers.
[[ct::differentiable]] double names(const double *x,
                                    const std::vector<std::string> &given) {
  std::vector<std::string> made;
  std::string a = "ab";
  made.push_back(a);
  made.emplace_back("xyz");
  made.insert(made.begin(), a + "c");
  made.resize(5);
  made[3] = "hello";
  made.erase(made.begin() + 1);
  std::vector<std::string> copy = made;
  copy.insert(copy.end(), given.begin(), given.end());
  copy.insert(copy.begin(), given.rbegin(), given.rend());
  std::vector<std::string> reversed(given.rbegin(), given.rend());
  double s = 0;
  for (const std::string &name : made)
    s += name.size() * x[0];
  for (std::size_t i = 0; i < copy.size(); ++i)
    s += copy[i].size() * x[1] * (copy[i] == "hip" ? 2.0 : 1.0);
  copy.assign(2, "q");
  s += reversed[0].size() * x[0] * x[2] + copy[1].size() * x[2];
  made.clear();
  return s;
}

// A std::deque of constants grown at both ends and walked by its
// iterators (the place, its block's bounds and the table of blocks: the
// library's code steps them), by index and by std::accumulate.
[[ct::differentiable]] double queued(const double *x) {
  std::deque<double> d{0.5, 1.5};
  d.push_front(2.0);
  d.push_back(4.0);
  double s = 0;
  for (double v : d)
    s += v * x[0];
  for (auto it = d.begin(); it != d.end(); ++it)
    s += *it * x[1] * x[1];
  return s + d[1] * x[0] * x[1] + d.front() +
         std::accumulate(d.begin(), d.end(), 0.0) * x[2];
}

int main() {
  double x[N] = {0.5, -1.0, 1.5, 0.25, -0.75};
  {
    // The elements 2, 0.5, 1.5, 4 sum to 8.
    double dx[N] = {};
    ct::gradient<queued>(x, dx);
    check::near("d queued/dx_0", dx[0], 8 + 0.5 * x[1], 1e-12);
    check::near("d queued/dx_1", dx[1], 16 * x[1] + 0.5 * x[0], 1e-12);
    check::near("d queued/dx_2", dx[2], 8, 1e-12);
    check::near("queued value", queued(x),
                8 * x[0] + 8 * x[1] * x[1] + 0.5 * x[0] * x[1] + 2 + 8 * x[2],
                1e-12);
  }
  {
    // made: abc, ab, "", hello, xyz less ab: lengths 3 + 0 + 5 + 3 = 11;
    // copy: elbows, hip, abc, "", hello, xyz, hip, elbows: 6 + 3 * 2 + 3 +
    // 0 + 5 + 3 + 3 * 2 + 6 = 35; reversed[0] = elbows.
    std::vector<std::string> given{"hip", "elbows"};
    double dx[N] = {};
    ct::gradient<names, ct::wrt<0>>(x, given, dx);
    check::near("d names/dx_0", dx[0], 11 + 6 * x[2], 1e-12);
    check::near("d names/dx_1", dx[1], 35, 1e-12);
    check::near("d names/dx_2", dx[2], 6 * x[0] + 1, 1e-12);
    check::near("names value", names(x, given),
                11 * x[0] + 35 * x[1] + 6 * x[0] * x[2] + x[2], 1e-12);
  }
  std::map<int, double> w{{0, 2.0}, {2, 3.0}, {4, -0.5}};
  std::map<int, double> w7 = w;
  w7[7] = 1.0;

  for (const std::map<int, double> *table : {&w, &w7}) {
    double factor = table == &w7 ? 2 : 1;
    double dx[N] = {};
    double value = ct::gradient<tableEnergy, ct::wrt<0>>(x, *table, dx);
    double expected = 0;
    for (auto [k, v] : w)
      expected += v * x[k] * x[k];
    check::near("tableEnergy", value, factor * expected, 1e-12);
    for (int i = 0; i < N; ++i) {
      double wi = w.count(i) ? w.at(i) : 0.0;
      check::near("d tableEnergy/dx_i", dx[i], factor * 2 * wi * x[i], 1e-12);
      check::near("d tableEnergy/dx_i by differences", dx[i],
                  check::differenceAt(x, i, [&] {
                    return tableEnergy(x, *table);
                  }),
                  1e-6);
    }
    double t[N] = {0, 0, 1, 0, 0};
    check::near("tableEnergy jvp",
                ct::jvp<tableEnergy, ct::wrt<0>>(x, *table, t).tangent, dx[2],
                1e-12);
  }

  {
    double dx[N] = {};
    ct::gradient<lookedUp, ct::wrt<0>>(x, N, w, dx);
    for (int i = 0; i < N; ++i) {
      double wi = w.count(i) ? w.at(i) : 1.0;
      check::near("d lookedUp/dx_i", dx[i], wi * std::cos(x[i]), 1e-12);
    }
    // Second order: d2/dx_i2 = -w_i sin(x_i).
    double v[N] = {0, 1, 0, 0, 0}, hv[N] = {};
    ct::hvp<lookedUp, ct::wrt<0>>(x, N, w, v, hv);
    check::near("lookedUp hvp", hv[1], -std::sin(x[1]), 1e-12);
  }

  {
    std::unordered_map<int, double> h{{0, 1.5}, {1, -2.0}, {2, 0.5}, {3, 4.0}};
    double dx[N] = {};
    ct::gradient<hashed, ct::wrt<0>>(x, N, h, dx);
    for (int i = 0; i < N; ++i) {
      double expected = (i + 1 < N ? h.at(i) * x[i + 1] : 0.0) +
                        (i > 0 ? h.at(i - 1) * x[i - 1] : 0.0);
      check::near("d hashed/dx_i", dx[i], expected, 1e-12);
    }
  }

  {
    double dx[N] = {};
    double value = ct::gradient<localTable, ct::wrt<0>>(x, N, dx);
    check::near("localTable", value, localTable(x, N), 1e-12);
    for (int i = 0; i < N; ++i)
      check::near("d localTable/dx_i", dx[i], 3 * (1.0 + i) * x[i] * x[i],
                  1e-12);
    double t[N] = {1, 1, 1, 1, 1};
    double expected = 0;
    for (int i = 0; i < N; ++i)
      expected += dx[i];
    check::near("localTable jvp",
                ct::jvp<localTable, ct::wrt<0>>(x, N, t).tangent, expected,
                1e-12);
  }

  {
    std::map<std::string, double> scale{{"arm", 3.0}, {"shoulder", -2.0}};
    for (std::string name : {"arm", "shoulder"}) {
      double dx[2] = {};
      double y[2] = {x[0], x[1]};
      ct::gradient<named, ct::wrt<0>>(y, name, scale, dx);
      double bonus = name.size() + 4 > 7 ? 1.0 : 0.0;
      check::near("d named/dx_0", dx[0], scale.at(name) * y[1] + bonus, 1e-12);
      check::near("d named/dx_1", dx[1], scale.at(name) * y[0], 1e-12);
      check::near("d named/dx_0 by differences", dx[0],
                  check::differenceAt(y, 0, [&] {
                    return named(y, name, scale);
                  }),
                  1e-6);
    }
  }
  {
    std::list<double> l{1.0, -2.0, 0.5};
    std::vector<std::string> names{"hip", "elbow"};
    double dx[N] = {};
    ct::gradient<listed, ct::wrt<0>>(x, l, names, dx);
    int i = 0;
    for (double li : l) {
      check::near("d listed/dx_i", dx[i], 2 * li * x[i] * 5, 1e-12);
      ++i;
    }
    check::near("d listed/dx_4", dx[4], 0.0, 0.0);
  }
  {
    double dx[N] = {};
    ct::gradient<inserted, ct::wrt<0>>(x, N, dx);
    // Keys 0 and 1 keep their first values 1 and 2; later inserts count 3x.
    double expected[N] = {1, 2, 3 * 1, 3 * 2, 3 * 1};
    for (int i = 0; i < N; ++i)
      check::near("d inserted/dx_i", dx[i], expected[i], 1e-12);
  }

  {
    std::set<int> picked{0, 3, 4};
    std::function<double(int)> w = [](int i) { return 0.5 + i; };
    double dx[N] = {};
    ct::gradient<chosen, ct::wrt<0>>(x, picked, w, N, dx);
    for (int i = 0; i < N; ++i)
      check::near("d chosen/dx_i", dx[i],
                  picked.count(i) ? 2 * (0.5 + i) * x[i] : 0.0, 1e-12);
  }
  {
    double dx[N] = {};
    ct::gradient<fromLists>(x, dx);
    check::near("d fromLists/dx_0", dx[0], 2.0 + 11.0 * x[2], 1e-12);
    check::near("d fromLists/dx_1", dx[1], 3.0 * 5.0, 1e-12);
    check::near("d fromLists/dx_2", dx[2], 11.0 * x[0], 1e-12);
  }

  {
    double dx[N] = {};
    ct::gradient<noisy, ct::wrt<0>>(x, N, 42u, dx);
    for (int i = 0; i < N; ++i)
      check::near("d noisy/dx_i by differences", dx[i],
                  check::differenceAt(x, i, [&] { return noisy(x, N, 42u); }),
                  1e-6);
    double t[N] = {0, 0, 0, 1, 0};
    check::near("noisy jvp", ct::jvp<noisy, ct::wrt<0>>(x, N, 42u, t).tangent,
                dx[3], 1e-12);
  }
  return check::report();
}
