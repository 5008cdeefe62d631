// Pointers kept in memory the caller passes: an array of parameter blocks
// (`const double* const*`, as Ceres's dynamic cost functions take them),
// blocks written through `double**`, pointer fields of structs in a
// vector, and a struct reached through a pointer field that holds pointers
// itself. Each pointer is read from memory as an address (docs/Memory.md);
// the derivative objects hold the derivatives' addresses at the same
// places. Reverse and forward mode against central differences, at -O0 and
// -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "check.h"

namespace {
constexpr int kBlocks = 3, kBlockSize = 2;
}

static double blockEnergy(const double *x) {
  return x[0] * std::sin(x[1]) + 0.5 * x[1] * x[1];
}

// Blocks read in a loop, each passed to a helper and indexed through a
// pointer variable.
[[ct::differentiable]] double sumOfBlocks(const double *const *blocks, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const double *block = blocks[i];
    s += blockEnergy(block) * (1.0 + 0.1 * i);
    if (i > 0)
      s += std::cos(blocks[i - 1][1] - block[0]);
  }
  return s;
}

// Ceres's dynamic cost function shape: parameter blocks in, residuals out.
[[ct::differentiable]] void residuals(double const *const *parameters,
                                      double *out) {
  const double *pose = parameters[0];
  const double *point = parameters[1];
  out[0] = pose[0] + std::exp(0.3 * point[0]) - point[1] * pose[1];
  out[1] = (*parameters)[1] * point[0] + std::atan(parameters[2][0]);
}

// Blocks written through the pointers: each block is scaled by the next
// block's first value, then summed.
[[ct::differentiable]] double scaleInPlace(double **blocks, int n) {
  for (int i = 0; i + 1 < n; ++i)
    for (int k = 0; k < kBlockSize; ++k)
      blocks[i][k] *= std::tanh(blocks[i + 1][0]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += blocks[i][0] * blocks[i][1];
  return s;
}

struct Span {
  const double *first;
  const double *second;
};
struct Outer {
  const Span *inner;
  double scale;
};

// Fields of objects chosen at run time, pointing into different arrays.
[[ct::differentiable]] double spansAt(const std::vector<Span> &spans, int i,
                                      int j) {
  return spans[i].first[0] * std::sin(spans[j].second[1]) +
         spans[j].first[1];
}

// A pointer field to an object that holds pointers in turn.
[[ct::differentiable]] double twoLevels(const Outer &outer) {
  return outer.scale * outer.inner->first[0] * outer.inner->second[1];
}

// Linked nodes: the next node's weight through each head's pointer.
struct Node {
  double w;
  const Node *next;
};
[[ct::differentiable]] double linked(const Node *const *heads, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += heads[i]->w * std::exp(heads[i]->next->w) + heads[i]->next->next->w;
  return s;
}

struct Blocks {
  double data[kBlocks][kBlockSize] = {{0.4, -1.1}, {1.3, 0.2}, {-0.7, 0.9}};
  double *pointers[kBlocks];
  Blocks() {
    for (int i = 0; i < kBlocks; ++i)
      pointers[i] = data[i];
  }
};

void checkSumOfBlocks() {
  Blocks x, d, t;
  for (auto &row : d.data)
    row[0] = row[1] = 0;
  double value = ct::gradient<sumOfBlocks>(x.pointers, kBlocks, d.pointers);
  check::near("sumOfBlocks value", value, sumOfBlocks(x.pointers, kBlocks),
              1e-12);
  double directional = 0;
  for (int i = 0; i < kBlocks; ++i)
    for (int k = 0; k < kBlockSize; ++k) {
      double expected = check::differenceAt(
          &x.data[i][k], 0, [&] { return sumOfBlocks(x.pointers, kBlocks); });
      check::near("sumOfBlocks gradient", d.data[i][k], expected, 1e-6);
      t.data[i][k] = 0.5 + i - k;
      directional += t.data[i][k] * d.data[i][k];
    }
  auto forward = ct::jvp<sumOfBlocks>(x.pointers, kBlocks, t.pointers);
  check::near("sumOfBlocks jvp value", forward.value, value, 1e-12);
  check::near("sumOfBlocks jvp", forward.tangent, directional, 1e-9);
}

void checkResiduals() {
  Blocks x;
  double out[2], seed[2] = {0.7, -1.3};
  Blocks d;
  for (auto &row : d.data)
    row[0] = row[1] = 0;
  double dout[2] = {seed[0], seed[1]}; // the output's adjoint: the seed
  ct::pullback<residuals>(x.pointers, out, d.pointers, dout);
  for (int i = 0; i < kBlocks; ++i)
    for (int k = 0; k < kBlockSize; ++k) {
      double expected = check::differenceAt(&x.data[i][k], 0, [&] {
        double r[2];
        residuals(x.pointers, r);
        return seed[0] * r[0] + seed[1] * r[1];
      });
      check::near("residuals pullback", d.data[i][k], expected, 1e-6);
    }
}

void checkScaleInPlace() {
  Blocks x, d;
  for (auto &row : d.data)
    row[0] = row[1] = 0;
  Blocks y; // the primal runs on a copy: it writes the blocks
  double value = ct::gradient<scaleInPlace>(y.pointers, kBlocks, d.pointers);
  Blocks z;
  check::near("scaleInPlace value", value, scaleInPlace(z.pointers, kBlocks),
              1e-12);
  for (int i = 0; i < kBlocks; ++i)
    for (int k = 0; k < kBlockSize; ++k) {
      double expected = check::differenceAt(&x.data[i][k], 0, [&] {
        Blocks copy = x;
        for (int j = 0; j < kBlocks; ++j)
          copy.pointers[j] = copy.data[j];
        return scaleInPlace(copy.pointers, kBlocks);
      });
      check::near("scaleInPlace gradient", d.data[i][k], expected, 1e-6);
    }
}

void checkSpans() {
  double a[2] = {0.4, -1.1}, b[2] = {1.3, 0.2}, c[2] = {-0.7, 0.9};
  double da[2] = {}, db[2] = {}, dc[2] = {};
  std::vector<Span> spans = {{a, b}, {c, a}};
  std::vector<Span> dspans = {{da, db}, {dc, da}};
  double value = ct::gradient<spansAt, ct::wrt<0>>(spans, 0, 1, &dspans);
  check::near("spansAt value", value, spansAt(spans, 0, 1), 1e-12);
  double *arrays[3] = {a, b, c}, *shadows[3] = {da, db, dc};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 2; ++k)
      check::near("spansAt gradient", shadows[i][k],
                  check::differenceAt(arrays[i], k,
                                      [&] { return spansAt(spans, 0, 1); }),
                  1e-6);

  Span inner{a, b}, dinner{da, db};
  Outer outer{&inner, 1.7}, douter{&dinner, 0};
  da[0] = db[1] = 0;
  double v2 = ct::gradient<twoLevels>(outer, &douter);
  check::near("twoLevels value", v2, 1.7 * a[0] * b[1], 1e-12);
  check::near("twoLevels d first", da[0], 1.7 * b[1], 1e-12);
  check::near("twoLevels d second", db[1], 1.7 * a[0], 1e-12);
  check::near("twoLevels d scale", douter.scale, a[0] * b[1], 1e-12);
}

void checkLinked() {
  // A ring of three nodes, and its derivative ring.
  Node ring[3], dring[3];
  for (int i = 0; i < 3; ++i) {
    ring[i] = {0.3 * i - 0.2, &ring[(i + 1) % 3]};
    dring[i] = {0, &dring[(i + 1) % 3]};
  }
  const Node *heads[2] = {&ring[0], &ring[2]};
  Node *dheads[2] = {&dring[0], &dring[2]};
  double value = ct::gradient<linked>(heads, 2, dheads);
  check::near("linked value", value, linked(heads, 2), 1e-12);
  for (int i = 0; i < 3; ++i)
    check::near("linked gradient", dring[i].w,
                check::differenceAt(&ring[i].w, 0,
                                    [&] { return linked(heads, 2); }),
                1e-6);
}

int main() {
  checkSumOfBlocks();
  checkLinked();
  checkSpans();
  checkResiduals();
  checkScaleInPlace();
  return check::report();
}
