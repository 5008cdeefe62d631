// Pointer variables that the function assigns and tests for null: one that
// starts as nullptr and is given an array in a branch, the pointer to the
// largest element found so far (`!best || a[i] > *best`), one set to
// nullptr when a loop is done with it, helpers testing their pointer
// parameters (memory the function made, linked nodes' `next`), a pointer
// parameter re-seated to
// another array (`b = a; ++b;`), and linked nodes walked by
// `for (n = head; n; n = n->next)` and `while (m != nullptr)`, and a
// helper given `nullptr` for an optional scratch buffer that it tests and
// replaces with its own (the test saw memory of no elements, not null: a
// silent wrong derivative), and helpers lowered in place (given a struct
// holding a pointer) whose scratch parameter, null by default, is re-seated
// to their own vector or local array in a branch; a buffer read in a loop
// and written after it through a pointer variable that keeps its address
// (the reverse sweep read it again and saw the later value: a silent wrong
// derivative). Reverse, forward and vector mode against
// central differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

[[ct::differentiable]] double optionalTerm(const double *a, int n, int pick) {
  const double *p = nullptr;
  if (pick >= 0 && pick < n)
    p = a + pick;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(a[i]);
  if (p)
    s += *p * *p;
  if (p == nullptr)
    s *= 2;
  return s;
}

[[ct::differentiable]] double largestTimesSum(const double *a, int n) {
  const double *best = nullptr;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    if (!best || a[i] > *best)
      best = &a[i];
    sum += a[i];
  }
  return best != nullptr ? *best * sum : 0.0;
}

[[ct::differentiable]] double untilDone(const double *a, int n, int stop) {
  double local[4] = {a[0], a[1], a[2], a[3]};
  double *cursor = local;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += std::exp(0.1 * a[i]);
    if (cursor) {
      s += *cursor * a[i];
      ++cursor;
    }
    if (i == stop)
      cursor = nullptr;
  }
  return s;
}

[[ct::differentiable]] double reseated(double *a, double *b, int n) {
  b = a;
  ++b;
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += b[i] * a[i];
  return s;
}

struct Node {
  double w;
  const Node *next;
};

[[ct::differentiable]] double walk(const Node *head, double x) {
  double s = 0;
  for (const Node *n = head; n; n = n->next)
    s += n->w * std::sin(x * n->w);
  const Node *m = head;
  while (m != nullptr) {
    s += m->w * m->w * x;
    m = m->next;
  }
  return s;
}

/// Helpers testing their pointer parameters for null, lowered in place
/// with memory the function made (never null) or an address read from a
/// linked node (null at the end).
struct Link {
  double v;
  Link *next;
};
double valueOr(const Link *t, double otherwise) {
  return t ? t->v * 2 : otherwise;
}
double lastOr(const double *p, int n) { return p != nullptr ? p[n - 1] : 0.0; }

[[ct::differentiable]] double helperTests(const double *a, int n, int) {
  Link second{a[1], nullptr};
  Link *first = new Link{a[0], &second};
  double local[2] = {a[0], a[n - 1]};
  double s = valueOr(first, -1) + valueOr(first->next, -1) +
             valueOr(first->next->next, a[2]) + lastOr(local, 2);
  delete first;
  return s * s;
}

// Squares into a scratch buffer the caller may give; its own otherwise.
static double sumOfSquares(const double *a, int n, double *scratch = nullptr) {
  std::vector<double> own;
  if (scratch == nullptr) {
    own.resize(n);
    scratch = own.data();
  }
  for (int i = 0; i < n; ++i)
    scratch[i] = a[i] * a[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += scratch[i];
  return s;
}

[[ct::differentiable]] double optionalScratch(const double *a, int n, int) {
  return sumOfSquares(a, n) * a[0];
}

/// The same, lowered in place (a struct holding a pointer is passed), the
/// pointer parameter re-seated in a branch to the helper's own vector or
/// local array (as Eigen's blocked QR does).
struct Span {
  const double *data;
  int n;
};
static double weightedSquares(Span s, double *temp = nullptr) {
  std::vector<double> own;
  if (!temp) {
    own.resize(s.n);
    temp = own.data();
  }
  for (int i = 0; i < s.n; ++i)
    temp[i] = s.data[i] * s.data[i];
  double r = 0;
  for (int i = 0; i < s.n; ++i)
    r += temp[i] * (i + 1);
  return r;
}
static double weightedCubes(Span s, double *temp = nullptr) {
  double local[8];
  if (temp == nullptr)
    temp = local;
  for (int i = 0; i < s.n; ++i)
    temp[i] = s.data[i] * s.data[i] * s.data[i];
  double r = 0;
  for (int i = 0; i < s.n; ++i)
    r += temp[i] * (i + 1);
  return r;
}

[[ct::differentiable]] double inlinedScratch(const double *a, int n, int) {
  Span s{a, n};
  double given[8];
  return weightedSquares(s) + weightedSquares(s, given) * a[0] +
         weightedCubes(s) + weightedCubes(s, given) * a[1];
}

/// sum-like recurrence acc = v^2 acc + v a_i over v = buffer[0] = a[0],
/// the buffer overwritten after the loop through `alias`, which keeps its
/// address (it is tested for null).
[[ct::differentiable]] double writtenAfterThroughAlias(const double *a, int n,
                                                       int) {
  double *buffer = new double[1];
  double *alias = nullptr;
  if (n > 0)
    alias = buffer;
  double *trace = nullptr;
  if (n > 0)
    trace = new double[n];
  buffer[0] = a[0];
  double acc = 0;
  for (int i = 0; i < n; ++i) {
    double v = buffer[0];
    acc = v * v * acc + v * a[i];
    if (trace)
      trace[i] = acc;
  }
  if (alias)
    alias[0] = 5;
  delete[] trace;
  delete[] buffer;
  return acc;
}

/// Reverse, forward and two-lane vector mode of f(a, n, k) over a[0..n)
/// against central differences.
template <double (*F)(const double *, int, int), bool Lanes = true>
void checkArray(const char *name, int n, int k) {
  double a[6] = {0.7, -0.3, 1.2, 0.4, -0.9, 0.5};
  double grad[6] = {};
  char label[128];
  double value = ct::gradient<F, ct::wrt<0>>(a, n, k, grad);
  std::snprintf(label, sizeof label, "%s(k=%d) value", name, k);
  check::near(label, value, F(a, n, k), 1e-14);
  double tangent[6] = {0.3, -0.2, 0.5, 0.1, 0.7, -0.4}, directional = 0;
  for (int i = 0; i < n; ++i) {
    double fd = check::differenceAt(a, i, [&] { return F(a, n, k); });
    std::snprintf(label, sizeof label, "%s(k=%d) reverse[%d]", name, k, i);
    check::near(label, grad[i], fd, 1e-7);
    directional += tangent[i] * fd;
  }
  std::snprintf(label, sizeof label, "%s(k=%d) forward", name, k);
  check::near(label, ct::jvp<F, ct::wrt<0>>(a, n, k, tangent).tangent,
              directional, 1e-7);
  // (Vector mode does not take memory holding both addresses and
  // derivatives yet, as linked nodes do: docs/Memory.md.)
  if constexpr (Lanes) {
    double lanes[12] = {};
    for (int i = 0; i < n; ++i) {
      lanes[2 * i] = tangent[i];
      lanes[2 * i + 1] = i == 1 ? 1.0 : 0.0;
    }
    auto both = ct::jvp<F, ct::wrt<0>, ct::lanes<2>>(a, n, k, lanes);
    std::snprintf(label, sizeof label, "%s(k=%d) lanes", name, k);
    check::near(label, both.tangent[0], directional, 1e-7);
    check::near(label, both.tangent[1], grad[1], 1e-7);
  }
}

[[ct::differentiable]] double largestTimesSumOf(const double *a, int n,
                                                int) {
  return largestTimesSum(a, n);
}

int main() {
  checkArray<optionalScratch>("optionalScratch", 5, 0);
  checkArray<inlinedScratch>("inlinedScratch", 5, 0);
  checkArray<writtenAfterThroughAlias, /*Lanes=*/false>(
      "writtenAfterThroughAlias", 5, 0);
  checkArray<optionalTerm>("optionalTerm", 5, 2);
  checkArray<optionalTerm>("optionalTerm", 5, -1);
  checkArray<largestTimesSumOf>("largestTimesSum", 6, 0);
  checkArray<untilDone>("untilDone", 6, 1);
  checkArray<untilDone>("untilDone", 6, 3);
  checkArray<helperTests, /*Lanes=*/false>("helperTests", 5, 0);

  // b = a + 1: s = sum a[i+1] a[i]; ds/da[j] = a[j-1] + a[j+1].
  double a[4] = {1.5, -2, 0.5, 3}, b[4] = {}, da[4] = {}, db[4] = {};
  ct::gradient<reseated>(a, b, 4, da, db);
  for (int j = 0; j < 4; ++j) {
    double expected = (j > 0 ? a[j - 1] : 0) + (j < 3 ? a[j + 1] : 0);
    check::near("reseated reverse", da[j], expected, 1e-14);
    check::near("reseated parameter unused", db[j], 0, 0);
  }

  Node nodes[3] = {{1.0, &nodes[1]}, {-2.0, &nodes[2]}, {0.5, nullptr}};
  Node dnodes[3] = {{0, &dnodes[1]}, {0, &dnodes[2]}, {0, nullptr}};
  double x = 0.8, dx = 0;
  double value = ct::gradient<walk>(nodes, x, dnodes, &dx);
  check::near("walk value", value, walk(nodes, x), 1e-14);
  check::near("walk reverse x",
              dx, check::centralDifference([&](double t) { return walk(nodes, t); }, x),
              1e-7);
  for (int i = 0; i < 3; ++i) {
    double w = nodes[i].w;
    // d/dw of w sin(x w) + w^2 x.
    check::near("walk reverse w", dnodes[i].w,
                std::sin(x * w) + x * w * std::cos(x * w) + 2 * w * x, 1e-12);
  }
  Node tangents[3] = {{0.2, &tangents[1]}, {-0.1, &tangents[2]}, {0.3, nullptr}};
  double directional = 0.5 * dx;
  for (int i = 0; i < 3; ++i)
    directional += tangents[i].w * dnodes[i].w;
  check::near("walk forward",
              ct::jvp<walk>(nodes, x, tangents, 0.5).tangent, directional,
              1e-12);
  return check::report();
}
