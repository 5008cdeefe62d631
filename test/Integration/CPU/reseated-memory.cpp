// Functions that change which memory the caller's objects designate.
// Forward mode: the tangent object follows its object (a std::unique_ptr
// given a new object, a class owning memory that allocates again, a
// pointer field given memory made by `new`). Reverse mode: pointers of the caller's
// objects moved among the caller's own memory (swapped with std::swap, by
// std::exchange, through a reference, a pointer to the field or a helper
// taking `double *&`, by assigning the whole object, advanced along their
// array) keep their derivatives: each array's derivative holds the seeds of
// its final contents and receives the cotangents of its initial contents.
// (Pointer fields assigned only inside the standard library's swap used to
// be read as fixed: the function then wrote the wrong array, primal and
// derivative both.) Memory that is not the caller's stored there is a
// reverse-mode error (Diagnostics/reseated-memory.cpp). Closed forms and
// central differences, -O0 and -O2.
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cstdio>
#include <memory>
#include <utility>

#include "check.h"

using check::near;

//===-- Forward mode: the tangent object follows ---------------------------===//

struct Pair {
  double a, b;
};

[[ct::differentiable]] void replaced(std::unique_ptr<Pair> &p, double x) {
  p = std::make_unique<Pair>(Pair{x * x, p->b * x});
}

struct Matrix {
  int n = 0;
  double *data = nullptr;
  explicit Matrix(int k) : n(k), data(new double[k]()) {}
  Matrix(const Matrix &) = delete;
  ~Matrix() { delete[] data; }
  void doubled() {
    double *next = new double[n];
    for (int i = 0; i < n; ++i)
      next[i] = 2 * data[i];
    delete[] data;
    data = next;
  }
};

[[ct::differentiable]] void scaled(Matrix &m, double x) {
  m.doubled();
  m.data[0] *= x;
  m.data[1] += x * m.data[0];
}

struct View {
  double *d;
};

[[ct::differentiable]] void pointedAtNew(View &v, double x) {
  v.d = new double[2]{v.d[0] * x, v.d[1] + x};
}

static void checkForward() {
  // replaced: final (x^2, b x); tangents along (tb, tx) = (1, 1).
  auto p = std::make_unique<Pair>(Pair{2, 3});
  auto tp = std::make_unique<Pair>(Pair{0, 1});
  ct::jvp<replaced>(p, 5.0, &tp, 1.0);
  near("replaced value", p->b, 15, 1e-12);
  near("replaced tangent a", tp->a, 10, 1e-12);
  near("replaced tangent b", tp->b, 5 + 3, 1e-12);

  // scaled: final (2 d0 x, 2 d1 + x 2 d0 x); tangents along (t0, t1, tx).
  Matrix m(2), tm(2);
  m.data[0] = 1.5, m.data[1] = -2, tm.data[0] = 0.5, tm.data[1] = 2;
  double d0 = 1.5, d1 = -2, x = 3, tx = -1;
  ct::jvp<scaled>(m, x, &tm, tx);
  double f0 = 2 * d0 * x;
  near("scaled value", m.data[1], 2 * d1 + x * f0, 1e-12);
  double t0 = 2 * 0.5 * x + 2 * d0 * tx;
  near("scaled tangent 0", tm.data[0], t0, 1e-12);
  near("scaled tangent 1", tm.data[1], 2 * 2 + tx * f0 + x * t0, 1e-12);

  // pointedAtNew: the tangent object designates the new memory's
  // tangents, made with C++'s operator new[] beside it.
  double a[2] = {2, 3}, ta[2] = {1, 0};
  View v{a}, tv{ta};
  ct::jvp<pointedAtNew>(v, 4.0, &tv, 1.0);
  near("new value", v.d[0], 8, 1e-12);
  near("new tangent 0", tv.d[0], 4 + 2, 1e-12);
  near("new tangent 1", tv.d[1], 1, 1e-12);
  delete[] v.d;
  delete[] tv.d;
}

//===-- Reverse mode: the caller's own memory moved among its objects -----===//

struct Slice {
  double *d;
};

static void assign(double *&to, double *from) { to = from; }

[[ct::differentiable]] void swapped(Slice &a, Slice &b, double x) {
  a.d[0] *= x;
  std::swap(a.d, b.d);
  a.d[1] += x * b.d[0];
}

[[ct::differentiable]] void exchanged(Slice &a, Slice &b, double x) {
  a.d[0] *= x;
  double *old = std::exchange(a.d, b.d);
  a.d[1] += x * old[0];
}

[[ct::differentiable]] void throughReference(Slice &a, Slice &b, double x) {
  a.d[0] *= x;
  double *&r = a.d;
  r = b.d;
  a.d[1] += x * b.d[0];
}

[[ct::differentiable]] void throughAddress(Slice &a, Slice &b, double x) {
  a.d[0] *= x;
  double **field = &a.d;
  *field = b.d;
  a.d[1] += x * x * b.d[0];
}

[[ct::differentiable]] void throughHelper(Slice &a, Slice &b, double x) {
  assign(a.d, b.d);
  a.d[0] *= x;
  b.d[1] += a.d[0];
}

[[ct::differentiable]] void wholeObject(Slice &a, Slice &b, double x) {
  a.d[1] *= x;
  a = b;
  a.d[0] += x * a.d[1];
}

[[ct::differentiable]] void advanced(Slice &a, Slice &b, double x) {
  a.d[0] *= x;
  a.d = a.d + 1;
  a.d[0] += x * b.d[1];
}

using Moves = void (*)(Slice &, Slice &, double);

// The sum of the seeds times the final contents of both arrays.
static double weighted(Moves f, const double *in, const double *w) {
  double p[2] = {in[0], in[1]}, q[2] = {in[2], in[3]};
  Slice a{p}, b{q};
  f(a, b, in[4]);
  return w[0] * p[0] + w[1] * p[1] + w[2] * q[0] + w[3] * q[1];
}

template <Moves F> static void checkMoves(const char *name) {
  double in[5] = {2, 3, 5, 7, 1.5}, w[4] = {1, 10, 100, 1000};
  double p[2] = {in[0], in[1]}, q[2] = {in[2], in[3]};
  double dp[2] = {w[0], w[1]}, dq[2] = {w[2], w[3]}, dx = 0;
  Slice a{p}, b{q}, da{dp}, db{dq};
  ct::pullback<F>(a, b, in[4], &da, &db, &dx);
  double got[5] = {dp[0], dp[1], dq[0], dq[1], dx};
  double reference[4] = {in[0], in[1], in[2], in[3]};
  Slice ra{reference}, rb{reference + 2};
  F(ra, rb, in[4]);
  char label[64];
  for (int i = 0; i < 4; ++i) {
    std::snprintf(label, sizeof label, "%s value %d", name, i);
    near(label, (i < 2 ? p : q)[i % 2], reference[i], 1e-12);
  }
  for (int i = 0; i < 5; ++i) {
    std::snprintf(label, sizeof label, "%s gradient %d", name, i);
    near(label, got[i],
         check::differenceAt(in, i, [&] { return weighted(F, in, w); }),
         1e-6);
  }
}

int main() {
  checkForward();
  checkMoves<swapped>("swapped");
  checkMoves<exchanged>("exchanged");
  checkMoves<throughReference>("throughReference");
  checkMoves<throughAddress>("throughAddress");
  checkMoves<throughHelper>("throughHelper");
  checkMoves<wholeObject>("wholeObject");
  checkMoves<advanced>("advanced");
  return check::report();
}
