// Linked structures the function builds: nodes made by `new` in a loop,
// linked through their `next` fields (prepended, or appended through a
// tail pointer; nodes that also point into the caller's array), walked
// by `for (p = head; p; p = p->next)` and `while (p)`, and freed one by
// one (also by a recursive helper, of a list that carries no derivative); a node's fields that designate other
// nodes keep their addresses (docs/Memory.md). Reverse and forward mode
// against closed forms and central differences, at -O0 and -O2 (and under
// AddressSanitizer in the sanitizer build: no leak, no use after free).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>

#include "check.h"

struct Node {
  double value;
  int index;
  Node *next;
};

/// sum_i sin(x_i^2), the nodes prepended, walked and freed.
[[ct::differentiable]] double prepended(const double *x, int n) {
  Node *head = nullptr;
  for (int i = 0; i < n; ++i)
    head = new Node{x[i] * x[i], i, head};
  double s = 0;
  for (const Node *p = head; p; p = p->next)
    s += std::sin(p->value);
  while (head) {
    Node *next = head->next;
    delete head;
    head = next;
  }
  return s;
}

/// sum_i x_i * x_{i+1} (the order the nodes were appended in), through a
/// tail pointer; each node's value is scaled in a second walk.
[[ct::differentiable]] double appended(const double *x, int n) {
  Node *head = new Node{x[0], 0, nullptr};
  Node *tail = head;
  for (int i = 1; i < n; ++i) {
    tail->next = new Node{x[i], i, nullptr};
    tail = tail->next;
  }
  for (Node *p = head; p != nullptr; p = p->next)
    p->value *= 2;
  double s = 0;
  for (const Node *p = head; p->next; p = p->next)
    s += p->value * p->next->value / 4;
  Node *p = head;
  while (p) {
    Node *next = p->next;
    delete p;
    p = next;
  }
  return s;
}

/// Nodes that also point into the caller's data: x[i] * x[i + 1] summed
/// down the list (the linked struct's data pointer keeps its address too).
struct Segment {
  const double *from;
  Segment *next;
};

[[ct::differentiable]] double segments(const double *x, int n) {
  Segment *head = nullptr;
  for (int i = n - 2; i >= 0; --i)
    head = new Segment{x + i, head};
  double s = 0;
  for (const Segment *p = head; p; p = p->next)
    s += p->from[0] * p->from[1];
  while (head) {
    Segment *next = head->next;
    delete head;
    head = next;
  }
  return s;
}

static void freeList(Node *p) {
  if (p) {
    freeList(p->next);
    delete p;
  }
}

/// A list of constants (no derivative) freed by a recursive helper, beside
/// a sum that has one: the helper's derivative deletes nodes that have no
/// shadow (it used to be given scratch shadows, which it freed as well).
[[ct::differentiable]] double constantList(const double *x, int n) {
  Node *head = nullptr;
  for (int i = 0; i < n; ++i)
    head = new Node{0.5 * i, i, head};
  double weights = 0;
  for (const Node *p = head; p; p = p->next)
    weights += p->value;
  freeList(head);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(x[i] * x[i]);
  // (The list's values decide a branch only: no derivative reads them.)
  return weights > 1e9 ? 0.0 : s;
}

double prependedClosed(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(x[i] * x[i]);
  return s;
}

double appendedClosed(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += x[i] * x[i + 1];
  return s;
}

template <double (*F)(const double *, int)>
void checkList(const char *name, double (*closed)(const double *, int)) {
  const int n = 4;
  double x[n] = {0.3, -0.8, 1.1, 0.45}, g[n] = {};
  char label[128];
  double value = ct::gradient<F>(x, n, g);
  std::snprintf(label, sizeof label, "%s value", name);
  check::near(label, value, closed(x, n), 1e-14);
  double t[n] = {0.5, -0.25, 1.0, 0.75}, directional = 0;
  for (int i = 0; i < n; ++i) {
    double fd = check::differenceAt(x, i, [&] { return closed(x, n); });
    std::snprintf(label, sizeof label, "%s reverse[%d]", name, i);
    check::near(label, g[i], fd, 1e-7);
    directional += t[i] * fd;
  }
  std::snprintf(label, sizeof label, "%s forward", name);
  check::near(label, ct::jvp<F>(x, n, t).tangent, directional, 1e-7);
}

int main() {
  checkList<prepended>("prepended", prependedClosed);
  checkList<appended>("appended", appendedClosed);
  checkList<segments>("segments", appendedClosed);
  checkList<constantList>("constant list", prependedClosed);
  return check::report();
}
