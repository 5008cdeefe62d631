// Objects mixing `float` and `double` parts (docs/Memory.md, item 16): a
// struct of a float, a double and an int, as locals, arrays, copies,
// assignments, std::swap, by-value parameters and results (of helpers and
// of the differentiated function), parameters with shadows of their own
// type; a struct of floats and a float array inside a struct of doubles;
// std::vectors of them grown by push_back without reserve, resized with a
// fill value, copied and sorted (std::sort with a comparison); std::tuple<float, double, int> and
// std::pair<float, double>; memcpy and memmove of arrays of them (overlapping
// too) and of one; a struct of floats holding `long` counts, wider
// than its float slots, in a field and in a base (as Eigen's blocking
// objects for float matrices do).
// A float part is its own scalar inside the
// double slots, so its adjoint adds as a float even where the object is
// copied whole. Inputs are exact in float, so closed forms are exact too.
// Reverse and forward mode at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <algorithm>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

struct Sample {
  float weight;
  double value;
  int id;
};
struct Vec3f {
  float x, y, z;
};
struct Body {
  Vec3f offset;
  double mass;
  float scale[3];
};

// Copies, assignment and swaps move the three parts together: f = sum_i
// (i + 1) x_i^3, whatever the order.
[[ct::differentiable]] double shuffled(const double *x, int n) {
  Sample s[4];
  for (int i = 0; i < n; ++i) {
    s[i].weight = static_cast<float>(x[i]);
    s[i].value = x[i] * x[i];
    s[i].id = i;
  }
  Sample first = s[0];
  s[0] = s[n - 1];
  s[n - 1] = first;
  std::swap(s[1], s[2]);
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += s[i].weight * s[i].value * (s[i].id + 1);
  return e;
}

static Sample scaled(Sample s, double k) {
  s.weight *= 2;
  s.value *= k;
  return s;
}

// f = sum_i 2 w_i (k v_i)^2 + 2 w_i^2, through a helper taking and returning
// copies; w_i is read from the copy and from the original (so the copy's
// reverse adds to an adjoint already there).
[[ct::differentiable]] double weighted(const Sample *s, int n, double k) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    Sample t = scaled(s[i], k);
    e += t.weight * t.value * t.value + s[i].weight * t.weight;
  }
  return e;
}

// Grown without reserve, copied, sorted by value: f = sum_j x_j^2 (r_j + 1),
// r_j the rank of x_j.
[[ct::differentiable]] double ranked(const double *x, int n) {
  std::vector<Sample> v;
  for (int i = 0; i < n; ++i)
    v.push_back({static_cast<float>(x[i]), x[i], i});
  std::vector<Sample> w = v;
  std::sort(w.begin(), w.end(),
            [](const Sample &a, const Sample &b) { return a.value < b.value; });
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += w[i].weight * w[i].value * (i + 1);
  return e;
}

// Vectors resized with a fill value, copied into each new element (the
// fill's float adjoint gathers from every copy): f = 3 a b^2 + 2 a b.
[[ct::differentiable]] double filled(double a, double b) {
  Sample fill{static_cast<float>(a), b, 2};
  std::vector<Sample> v;
  v.resize(3, fill);
  std::vector<Sample> w(2);
  w.resize(4, fill);
  double e = 0;
  for (const Sample &s : v)
    e += s.weight * s.value * s.value;
  for (const Sample &s : w)
    e += s.weight * s.value;
  return e;
}

// f = scale * (x0 + x1 + x2): the counts written and read back whole.
struct Strided {
  long stride;
};
struct Counted : Strided {
  float scale;
  long count;
  float *data;
};
[[ct::differentiable]] double counted(const double *x, int n) {
  float values[4];
  for (int i = 0; i < 4; ++i)
    values[i] = static_cast<float>(x[i]);
  Counted c{{1}, 2.0f, n, values};
  c.count = c.count - 1;
  double total = 0;
  for (long i = 0; i < c.count; i += c.stride)
    total += c.scale * c.data[i];
  return total;
}

// f = sum_i m_i (ox_i^2 + oy_i s1_i) + s2_i, from copies of each body.
[[ct::differentiable]] double bodies(const Body *b, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    Body c = b[i];
    e += c.mass * (c.offset.x * c.offset.x + c.offset.y * c.scale[1]) +
         c.scale[2];
  }
  return e;
}

// f = 2 a^2 b + 3.
[[ct::differentiable]] double tuples(double a, double b) {
  std::tuple<float, double, int> t{static_cast<float>(a), b, 3};
  auto u = t;
  std::get<0>(u) *= 2;
  std::pair<float, double> p(std::get<0>(u), std::get<1>(t) * a);
  return p.first * p.second + std::get<2>(t);
}

// The struct by value (an active input with an adjoint of its type) and
// as the result (an output whose seed is a struct too).
[[ct::differentiable]] double byValue(Sample s, double k) {
  return s.weight * s.value * k + s.id;
}

[[ct::differentiable]] Sample made(double a, double b) {
  Sample s{static_cast<float>(a * 2), a * b, 3};
  return s;
}

// memcpy and memmove of such objects copy each part in its own type:
// local = [s0, s0, s1] after the overlapping move, last = s1, so f =
// 3 w0 v0 + 4 w1 v1 for n = 3.
[[ct::differentiable]] double copiedBytes(const Sample *s, int n) {
  Sample local[5];
  std::memcpy(local, s, n * sizeof(Sample));
  std::memmove(local + 1, local, (n - 1) * sizeof(Sample));
  Sample last;
  std::memcpy(&last, &local[n - 1], sizeof last);
  double e = last.weight * last.value;
  for (int i = 0; i < n; ++i)
    e += (i + 1) * local[i].weight * local[i].value;
  return e;
}

static void checkCopiedBytes() {
  Sample s[3] = {{0.5f, 1.5, 7}, {-2.0f, 0.25, 8}, {1.25f, -1.0, 9}};
  Sample ds[3] = {};
  check::near("copiedBytes value", ct::gradient<copiedBytes>(s, 3, ds),
              3 * 0.5 * 1.5 + 4 * -2.0 * 0.25, 1e-12);
  check::near("copiedBytes d/dw0", ds[0].weight, 3 * 1.5, 1e-6);
  check::near("copiedBytes d/dv0", ds[0].value, 3 * 0.5, 1e-12);
  check::near("copiedBytes d/dw1", ds[1].weight, 4 * 0.25, 1e-6);
  check::near("copiedBytes d/dv1", ds[1].value, 4 * -2.0, 1e-12);
  check::near("copiedBytes d/dw2", ds[2].weight, 0, 0);
  check::near("copiedBytes d/dv2", ds[2].value, 0, 0);
  Sample ts[3] = {{1.0f, 0, 0}, {0, 1.0, 0}, {}};
  check::near("copiedBytes forward",
              ct::jvp<copiedBytes>(s, 3, ts).tangent, 3 * 1.5 + 4 * -2.0,
              1e-6);
}

static void checkEntryPoints() {
  Sample s{1.5f, 2.0, 4}, ds{};
  double dk = 0;
  check::near("byValue value", ct::gradient<byValue>(s, 0.5, &ds, &dk), 5.5,
              1e-12);
  check::near("byValue d/dweight", ds.weight, 1.0, 1e-7);
  check::near("byValue d/dvalue", ds.value, 0.75, 1e-12);
  check::near("byValue d/dk", dk, 3.0, 1e-12);
  double da = 0, db = 0;
  Sample seed{1.0f, 2.0, 0};
  Sample r = ct::pullback<made>(0.5, 3.0, seed, &da, &db);
  check::near("made weight", r.weight, 1.0, 0);
  check::near("made value", r.value, 1.5, 1e-12);
  check::near("made id", r.id, 3, 0);
  check::near("made d/da", da, 2 * 1.0 + 2 * 3.0, 1e-7);
  check::near("made d/db", db, 2 * 0.5, 1e-12);
  ct::dual<Sample> t = ct::jvp<made>(0.5, 3.0, 1.0, 0.0);
  check::near("made forward weight", t.tangent.weight, 2.0, 1e-7);
  check::near("made forward value", t.tangent.value, 3.0, 1e-12);
}

static void checkShuffled() {
  double x[4] = {0.5, -1.25, 2.0, 0.75}, dx[4] = {};
  double expected = 0;
  for (int i = 0; i < 4; ++i)
    expected += (i + 1) * x[i] * x[i] * x[i];
  check::near("shuffled value", ct::gradient<shuffled>(x, 4, dx), expected,
              1e-12);
  for (int i = 0; i < 4; ++i)
    check::near("shuffled reverse", dx[i], 3 * (i + 1) * x[i] * x[i], 1e-12);
  double t[4] = {0, 0, 1, 0};
  check::near("shuffled forward", ct::jvp<shuffled>(x, 4, t).tangent,
              3 * 3 * x[2] * x[2], 1e-12);
}

static void checkWeighted() {
  Sample s[3] = {{0.5f, 1.5, 7}, {-2.0f, 0.25, 8}, {1.25f, -1.0, 9}};
  Sample ds[3] = {};
  double k = 1.5, dk = 0;
  double expected = 0, dkExpected = 0;
  for (const Sample &e : s) {
    expected += 2 * e.weight * k * k * e.value * e.value +
                2 * e.weight * e.weight;
    dkExpected += 4 * e.weight * k * e.value * e.value;
  }
  check::near("weighted value", ct::gradient<weighted>(s, 3, k, ds, &dk),
              expected, 1e-12);
  check::near("weighted d/dk", dk, dkExpected, 1e-12);
  for (int i = 0; i < 3; ++i) {
    check::near("weighted d/dweight", ds[i].weight,
                2 * k * k * s[i].value * s[i].value + 4 * s[i].weight, 1e-6);
    check::near("weighted d/dvalue", ds[i].value,
                4 * s[i].weight * k * k * s[i].value, 1e-12);
    check::near("weighted id untouched", ds[i].id, 0, 0);
  }
  Sample ts[3] = {{1.0f, 0, 0}, {0, 1.0, 0}, {}};
  check::near("weighted forward",
              ct::jvp<weighted>(s, 3, k, ts, 0.0).tangent,
              2 * k * k * s[0].value * s[0].value + 4 * s[0].weight +
                  4 * s[1].weight * k * k * s[1].value,
              1e-6);
}

static void checkRanked() {
  double x[5] = {0.5, -1.25, 2.0, 0.75, -0.5}, dx[5] = {};
  int rank[5] = {2, 0, 4, 3, 1};
  double expected = 0;
  for (int j = 0; j < 5; ++j)
    expected += x[j] * x[j] * (rank[j] + 1);
  check::near("ranked value", ct::gradient<ranked>(x, 5, dx), expected, 1e-12);
  for (int j = 0; j < 5; ++j)
    check::near("ranked reverse", dx[j], 2 * x[j] * (rank[j] + 1), 1e-12);
  double t[5] = {0, 0, 0, 1, 0};
  check::near("ranked forward", ct::jvp<ranked>(x, 5, t).tangent,
              2 * x[3] * (rank[3] + 1), 1e-12);
}

static void checkBodies() {
  Body b[2] = {{{0.5f, -1.5f, 3.0f}, 2.0, {0.25f, 1.5f, -0.75f}},
               {{-1.0f, 0.75f, 2.0f}, 0.5, {1.0f, -2.0f, 4.0f}}};
  Body db[2] = {};
  double expected = 0;
  for (const Body &c : b)
    expected += c.mass * (c.offset.x * c.offset.x + c.offset.y * c.scale[1]) +
                c.scale[2];
  check::near("bodies value", ct::gradient<bodies>(b, 2, db), expected, 1e-12);
  for (int i = 0; i < 2; ++i) {
    const Body &c = b[i];
    check::near("bodies d/dmass", db[i].mass,
                c.offset.x * c.offset.x + c.offset.y * c.scale[1], 1e-12);
    check::near("bodies d/dx", db[i].offset.x, 2 * c.mass * c.offset.x, 1e-6);
    check::near("bodies d/dy", db[i].offset.y, c.mass * c.scale[1], 1e-6);
    check::near("bodies d/dz", db[i].offset.z, 0, 0);
    check::near("bodies d/dscale1", db[i].scale[1], c.mass * c.offset.y, 1e-6);
    check::near("bodies d/dscale2", db[i].scale[2], 1, 1e-6);
    check::near("bodies d/dscale0", db[i].scale[0], 0, 0);
  }
  Body tb[2] = {{{0, 0, 0}, 1.0, {0, 0, 0}}, {{0, 0, 0}, 0, {0, 1.0f, 0}}};
  check::near("bodies forward", ct::jvp<bodies>(b, 2, tb).tangent,
              b[0].offset.x * b[0].offset.x + b[0].offset.y * b[0].scale[1] +
                  b[1].mass * b[1].offset.y,
              1e-12);
}

static void checkFilled() {
  double a = 0.5, b = 1.5, da = 0, db = 0;
  check::near("filled value", ct::gradient<filled>(a, b, &da, &db),
              3 * a * b * b + 2 * a * b, 1e-12);
  check::near("filled d/da", da, 3 * b * b + 2 * b, 1e-7);
  check::near("filled d/db", db, 6 * a * b + 2 * a, 1e-12);
  check::near("filled forward", ct::jvp<filled>(a, b, 1.0, 0.0).tangent,
              3 * b * b + 2 * b, 1e-7);
}

static void checkCounted() {
  double x[4] = {0.5, 1.25, -0.75, 2.0}, dx[4] = {}, t[4] = {1, 1, 1, 1};
  check::near("counted value", ct::gradient<counted>(x, 4, dx), 2.0, 1e-12);
  for (int i = 0; i < 4; ++i)
    check::near("counted gradient", dx[i], i < 3 ? 2.0 : 0.0, 1e-12);
  check::near("counted forward", ct::jvp<counted>(x, 4, t).tangent, 6.0,
              1e-12);
}

static void checkTuples() {
  double a = 0.75, b = 1.5, da = 0, db = 0;
  check::near("tuples value", ct::gradient<tuples>(a, b, &da, &db),
              2 * a * a * b + 3, 1e-12);
  check::near("tuples d/da", da, 4 * a * b, 1e-12);
  check::near("tuples d/db", db, 2 * a * a, 1e-12);
  check::near("tuples forward", ct::jvp<tuples>(a, b, 1.0, 0.0).tangent,
              4 * a * b, 1e-12);
}

int main() {
  checkShuffled();
  checkWeighted();
  checkRanked();
  checkBodies();
  checkTuples();
  checkEntryPoints();
  checkFilled();
  checkCounted();
  checkCopiedBytes();
  return check::report();
}
