// Functions that build linked nodes recursively and return them: a balanced
// tree built by halving (`Node *build(x, lo, hi)`), a list built from its
// tail (`return new Link{v, makeList(x, i + 1, n)}`), a binary search tree
// grown by `root = insert(root, key, value)` in a loop (which returns the
// node it is given or a new one); each walked by a recursive function and
// freed recursively. Such a function is a call of its own that returns the
// node's address through a slot its caller passes (docs/Memory.md, item
// 14). Also a list built in a loop, walked by recursion, and a tree of
// pointers into the parameter (its Hessian-vector product keeps the
// direction in the nodes too) or into a parameter left out of ct::wrt
// (which takes part with a discarded scratch derivative). Value, gradient,
// forward mode and Hessian-vector products against central differences, at
// -O0 and -O2, and under AddressSanitizer (no leak of the nodes or their
// shadows, no use after free).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "modes.h"

namespace {

struct Node {
  double value;
  Node *left, *right;
};

Node *build(const double *x, int lo, int hi) {
  if (hi - lo == 1)
    return new Node{x[lo], nullptr, nullptr};
  int mid = (lo + hi) / 2;
  Node *a = build(x, lo, mid);
  Node *b = build(x, mid, hi);
  return new Node{a->value * b->value + std::sin(a->value), a, b};
}

double evaluate(const Node *n) {
  if (!n->left)
    return n->value;
  return n->value * evaluate(n->left) + evaluate(n->right);
}

void destroy(Node *n) {
  if (!n)
    return;
  destroy(n->left);
  destroy(n->right);
  delete n;
}

struct Link {
  double value;
  Link *next;
};

Link *makeList(const double *x, int i, int n) {
  if (i == n)
    return nullptr;
  return new Link{std::exp(-x[i] * x[i]), makeList(x, i + 1, n)};
}

double horner(const Link *p, double z) {
  return p ? p->value + z * horner(p->next, z) : 0.0;
}

struct Entry {
  double key, value;
  Entry *lower, *higher;
};

Entry *insert(Entry *t, double key, double value) {
  if (!t)
    return new Entry{key, value, nullptr, nullptr};
  if (key < t->key)
    t->lower = insert(t->lower, key, value);
  else
    t->higher = insert(t->higher, key, value);
  return t;
}

double weighted(const Entry *t, int depth) {
  if (!t)
    return 0;
  return (depth + 1) * t->value * t->key + weighted(t->lower, depth + 1) +
         weighted(t->higher, depth + 1);
}

void release(Entry *t) {
  if (!t)
    return;
  release(t->lower);
  release(t->higher);
  delete t;
}

// Nodes that keep pointers into the parameter itself, read by a recursive
// walk: the Hessian-vector product's direction, which has no derivative of
// its own, is kept in such nodes too (its shadow a zeroed scratch buffer).
struct Leaf {
  const double *source;
  double weight;
  Leaf *left, *right;
};

Leaf *pairUp(const double *x, int lo, int hi) {
  if (lo >= hi)
    return nullptr;
  int mid = (lo + hi) / 2;
  return new Leaf{x + mid, 1.0 + mid, pairUp(x, lo, mid),
                  pairUp(x, mid + 1, hi)};
}

double sumLeaves(const Leaf *t) {
  if (!t)
    return 0.0;
  return t->weight * *t->source * *t->source + sumLeaves(t->left) +
         sumLeaves(t->right) * std::cos(*t->source);
}

// Leaves weighed by x pointing into y, a parameter left out of ct::wrt.
Leaf *weighUp(const double *y, const double *x, int lo, int hi) {
  if (lo >= hi)
    return nullptr;
  int mid = (lo + hi) / 2;
  return new Leaf{y + mid, x[mid], weighUp(y, x, lo, mid),
                  weighUp(y, x, mid + 1, hi)};
}

void freeLeaves(Leaf *t) {
  if (!t)
    return;
  freeLeaves(t->left);
  freeLeaves(t->right);
  delete t;
}

} // namespace

// A tree of products built by halving, evaluated by recursion.
[[ct::differentiable]] double tree(const double *x, int n) {
  Node *root = build(x, 0, n);
  double s = evaluate(root) + root->value;
  destroy(root);
  return s;
}

// A list built from its tail by recursion, walked by a loop.
[[ct::differentiable]] double list(const double *x, int n) {
  Link *head = makeList(x, 0, n);
  double s = 0;
  for (const Link *p = head; p; p = p->next)
    s = 0.5 * s + p->value * x[0];
  while (head) {
    Link *next = head->next;
    delete head;
    head = next;
  }
  return s;
}

// A binary search tree keyed by x, grown one key at a time.
[[ct::differentiable]] double searchTree(const double *x, int n) {
  Entry *root = nullptr;
  for (int i = 0; i < n; ++i)
    root = insert(root, x[i], std::sin(x[i]) + i);
  double s = weighted(root, 0);
  release(root);
  return s;
}

// A list built in a loop, evaluated by recursion.
[[ct::differentiable]] double hornerList(const double *x, int n) {
  Link *head = nullptr;
  for (int i = n - 1; i >= 0; --i)
    head = new Link{std::exp(-x[i] * x[i]), head};
  double s = horner(head, 0.5) * x[0];
  while (head) {
    Link *next = head->next;
    delete head;
    head = next;
  }
  return s;
}

// A tree of pointers into x, walked by recursion.
[[ct::differentiable]] double leaves(const double *x, int n) {
  Leaf *t = pairUp(x, 0, n);
  double s = sumLeaves(t);
  freeLeaves(t);
  return s;
}

// The same walk over leaves pointing into y, differentiated with respect
// to x alone (y takes part with a discarded scratch derivative).
[[ct::differentiable]] double weighed(const double *x, const double *y,
                                      int n) {
  Leaf *t = weighUp(y, x, 0, n);
  double s = sumLeaves(t);
  freeLeaves(t);
  return s;
}

static void checkLeftOut(const double *point) {
  double x[5], y[5] = {0.3, -0.6, 1.2, 0.9, -0.2}, dx[5] = {};
  double t[5] = {1, -0.5, 0.25, 2, 0.75}, directional = 0;
  for (int i = 0; i < 5; ++i)
    x[i] = point[i];
  double value = ct::gradient<weighed, ct::wrt<0>>(x, y, 5, dx);
  check::near("weighed value", value, weighed(x, y, 5), 1e-14);
  for (int i = 0; i < 5; ++i) {
    double expected =
        check::differenceAt(x, i, [&] { return weighed(x, y, 5); });
    check::near("weighed d/dx", dx[i], expected, 1e-7);
    directional += expected * t[i];
  }
  check::near("weighed jvp",
              ct::jvp<weighed, ct::wrt<0>>(x, y, 5, t).tangent, directional,
              1e-7);
}

int main() {
  const double x[5] = {0.5, -1.25, 0.75, 1.5, -0.5};
  check::checkModes<tree, false>("tree", x, 5);
  check::checkModes<list, false>("list", x, 5);
  check::checkModes<searchTree, false>("search tree", x, 5);
  check::checkModes<hornerList, false>("horner list", x, 5);
  check::checkModes<leaves, false>("leaves", x, 5);
  checkLeftOut(x);
  // Closed form: the list's value is sum_i 0.5^(n-1-i) e^{-x_i^2} x_0.
  double expected = 0;
  for (int i = 0; i < 5; ++i)
    expected = 0.5 * expected + std::exp(-x[i] * x[i]) * x[0];
  check::near("list closed form", list(x, 5), expected, 1e-14);
  return check::report();
}
