// Arrays and structs of integers inside structs of floating-point numbers
// (a mesh's triangles `{int v[3]; double area;}`, a spring's
// `std::array<int, 2>` ends, an index pair in a struct, 64-bit indices
// among floats), laid out as C++ lays them out: read at indices known at
// run time, written, passed on as `const int*` and as arrays, copied with
// their struct, made inside the function. Reverse and forward mode at -O0
// and -O2 against closed forms and central differences; the integers carry
// no derivative. Vector mode and Hessian-vector products over them too.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <array>
#include <cmath>
#include <vector>

#include "check.h"

struct Triangle {
  int v[3];
  double weight;
};

struct IndexPair {
  int first, second;
};

struct Spring {
  double stiffness;
  std::array<int, 2> ends;
  IndexPair pair; // the same ends again, as a struct
  double rest;
};

struct Sparse {
  float scale;
  long ids[2];
  float values[2];
};

static double sumAt(const double *x, const int *ids, int n) {
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += x[ids[k]];
  return s;
}

// Σ weight · (Σ corners x)², the corners read at run-time indices, once
// directly and once through a helper given the array.
[[ct::differentiable]] double meshEnergy(const Triangle *tris, int n,
                                         const double *x) {
  double e = 0;
  for (int t = 0; t < n; ++t) {
    double s = 0;
    for (int k = 0; k < 3; ++k)
      s += x[tris[t].v[k]];
    e += tris[t].weight * s * sumAt(x, tris[t].v, 3);
  }
  return e;
}

// Springs of a std::vector: ½ k (|x_a - x_b| - rest)², ends read from the
// std::array and the struct in turn.
[[ct::differentiable]] double springEnergy(const std::vector<Spring> &springs,
                                           const std::vector<double> &x) {
  double e = 0;
  for (size_t i = 0; i < springs.size(); ++i) {
    const Spring &s = springs[i];
    int a = i % 2 ? s.ends[0] : s.pair.first;
    int b = i % 2 ? s.ends[1] : s.pair.second;
    double d = std::fabs(x[a] - x[b]) - s.rest;
    e += 0.5 * s.stiffness * d * d;
  }
  return e;
}

// Triangles made, edited and copied inside the function.
[[ct::differentiable]] double madeHere(const double *x, double w) {
  Triangle t{{0, 1, 2}, w};
  for (int k = 0; k < 3; ++k)
    t.v[k] = 2 - t.v[k]; // reversed: {2, 1, 0}
  Triangle copy = t;
  copy.v[1] = 0;          // {2, 0, 0}
  copy.weight = 2 * w;
  int *first = copy.v;
  first[2] = 1;           // {2, 0, 1}
  return t.weight * x[t.v[0]] * x[t.v[2]] +
         copy.weight * sumAt(x, copy.v, 3) * x[copy.v[1]];
}

// 64-bit indices among floats.
[[ct::differentiable]] float sparseDot(const Sparse &s, const float *x) {
  float d = 0;
  for (int k = 0; k < 2; ++k)
    d += s.values[k] * x[s.ids[k]];
  return s.scale * d;
}

static void checkMesh() {
  const Triangle tris[2] = {{{0, 1, 2}, 0.5}, {{3, 1, 0}, 2.0}};
  double x[4] = {0.3, -1.2, 0.7, 2.1};
  double dx[4] = {};
  Triangle dtris[2] = {};
  double e = ct::gradient<meshEnergy>(tris, 2, x, dtris, dx);
  double s0 = x[0] + x[1] + x[2], s1 = x[3] + x[1] + x[0];
  check::near("mesh value", e, 0.5 * s0 * s0 + 2.0 * s1 * s1, 1e-12);
  double expected[4] = {2 * 0.5 * s0 + 2 * 2.0 * s1,
                        2 * 0.5 * s0 + 2 * 2.0 * s1, 2 * 0.5 * s0,
                        2 * 2.0 * s1};
  for (int i = 0; i < 4; ++i)
    check::near("mesh d/dx", dx[i], expected[i], 1e-12);
  check::near("mesh d/dweight0", dtris[0].weight, s0 * s0, 1e-12);
  check::near("mesh d/dweight1", dtris[1].weight, s1 * s1, 1e-12);
  double tx[4] = {1, 0, 0, 0};
  Triangle ttris[2] = {};
  check::near("mesh jvp",
              ct::jvp<meshEnergy>(tris, 2, x, ttris, tx).tangent, expected[0],
              1e-12);
  // Two lanes along x0 and x3.
  double lanes[8] = {1, 0, 0, 0, 0, 0, 0, 1};
  ct::dual<double, 2> both =
      ct::jvp<meshEnergy, ct::wrt<2>, ct::lanes<2>>(tris, 2, x, lanes);
  check::near("mesh lane 0", both.tangent[0], expected[0], 1e-12);
  check::near("mesh lane 1", both.tangent[1], expected[3], 1e-12);
  // The Hessian's first column: 2 (0.5 [i in t0] + 2 [i in t1]).
  double v[4] = {1, 0, 0, 0}, hv[4] = {};
  Triangle vtris[2] = {}, hvtris[2] = {};
  ct::hvp<meshEnergy>(tris, 2, x, vtris, v, hvtris, hv);
  const double column[4] = {5, 5, 1, 4};
  for (int i = 0; i < 4; ++i)
    check::near("mesh hvp", hv[i], column[i], 1e-12);
}

static void checkSprings() {
  std::vector<Spring> springs = {{1.5, {0, 1}, {0, 1}, 0.4},
                                 {2.0, {1, 2}, {1, 2}, 0.3},
                                 {0.7, {2, 0}, {2, 0}, 1.0}};
  std::vector<double> x = {0.1, 0.9, 1.6};
  std::vector<double> dx(3, 0.0);
  std::vector<Spring> ds(3, Spring{});
  double e = ct::gradient<springEnergy>(springs, x, &ds, &dx);
  auto energy = [&] { return springEnergy(springs, x); };
  check::near("springs value", e, energy(), 1e-12);
  for (int i = 0; i < 3; ++i)
    check::near("springs d/dx", dx[i], check::differenceAt(x.data(), i, energy),
                1e-7);
  for (int i = 0; i < 3; ++i) {
    check::near("springs d/dstiffness", ds[i].stiffness,
                check::differenceAt(&springs[i].stiffness, 0, energy), 1e-7);
    check::near("springs d/drest", ds[i].rest,
                check::differenceAt(&springs[i].rest, 0, energy), 1e-7);
  }
  std::vector<double> tx = {0, 1, 0};
  std::vector<Spring> ts(3, Spring{});
  check::near("springs jvp", ct::jvp<springEnergy>(springs, x, &ts, &tx).tangent,
              dx[1], 1e-12);
}

static void checkMadeHere() {
  double x[3] = {0.5, -0.8, 1.3};
  double dx[3] = {}, dw = 0, w = 0.6;
  double v = ct::gradient<madeHere>(x, w, dx, &dw);
  // t = {2, 1, 0}, w; copy = {2, 0, 1}, 2w.
  double s = x[2] + x[0] + x[1];
  check::near("made value", v, w * x[2] * x[0] + 2 * w * s * x[0], 1e-12);
  check::near("made d/dw", dw, x[2] * x[0] + 2 * s * x[0], 1e-12);
  check::near("made d/dx0", dx[0], w * x[2] + 2 * w * (x[0] + s), 1e-12);
  check::near("made d/dx1", dx[1], 2 * w * x[0], 1e-12);
  check::near("made d/dx2", dx[2], w * x[0] + 2 * w * x[0], 1e-12);
  double tx[3] = {0, 0, 1};
  check::near("made jvp", ct::jvp<madeHere>(x, w, tx, 0.0).tangent, dx[2],
              1e-12);
}

static void checkSparse() {
  Sparse s{2.0f, {3, 1}, {0.5f, -1.5f}};
  float x[4] = {1, 2, 3, 4};
  Sparse ds{};
  float dx[4] = {};
  float v = ct::gradient<sparseDot>(s, x, &ds, dx);
  check::near("sparse value", v, 2.0 * (0.5 * 4 - 1.5 * 2), 1e-6);
  check::near("sparse d/dscale", ds.scale, 0.5 * 4 - 1.5 * 2, 1e-6);
  check::near("sparse d/dvalue0", ds.values[0], 2.0 * 4, 1e-6);
  check::near("sparse d/dvalue1", ds.values[1], 2.0 * 2, 1e-6);
  check::near("sparse d/dx3", dx[3], 2.0 * 0.5, 1e-6);
  check::near("sparse d/dx1", dx[1], 2.0 * -1.5, 1e-6);
  check::near("sparse d/dx0", dx[0], 0.0, 1e-6);
}

int main() {
  checkMesh();
  checkSprings();
  checkMadeHere();
  checkSparse();
  return check::report();
}
