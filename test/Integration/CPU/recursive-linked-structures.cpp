// Recursion over linked structures: functions that call themselves on a
// node's children or successor (`eval(n->l)`, `horner(p->next, z)`), also
// mutually, also writing through the nodes they visit, also freeing them
// (`destroy(n->l); destroy(n->r); delete n;`), over nodes made by `new` in
// helpers or in a loop, and over nodes on the stack; trees and lists whose
// nodes own their children through std::unique_ptr (destroyed by their
// destructor calling itself). Such functions take
// objects whose pointer fields keep addresses, so they are calls of their
// own rather than lowered in place (docs/Memory.md, item 4). Every mode
// but vector mode (linked nodes with derivatives are a documented limit of
// ct::lanes) against central differences and differences of gradients,
// plus closed forms, at -O0 and -O2 (and under AddressSanitizer in the
// sanitizer build: no leak, no use after free).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <memory>

#include "modes.h"

namespace {

struct Node {
  double value;
  Node *left, *right;
  int op; // 0 leaf, 1 sum, 2 product, 3 sin(left) * right
};

double eval(const Node *n) {
  if (n->op == 0)
    return n->value;
  double a = eval(n->left), b = eval(n->right);
  if (n->op == 1)
    return a + b;
  return n->op == 2 ? a * b : std::sin(a) * b;
}

int count(const Node *n) { return n ? 1 + count(n->left) + count(n->right) : 0; }

void scale(Node *n, double s) {
  if (!n)
    return;
  n->value *= s;
  scale(n->left, s);
  scale(n->right, s);
}

void destroy(Node *n) {
  if (!n)
    return;
  destroy(n->left);
  destroy(n->right);
  delete n;
}

Node *leaf(double v) { return new Node{v, nullptr, nullptr, 0}; }
Node *join(int op, Node *l, Node *r) { return new Node{0, l, r, op}; }

} // namespace

/// ((x0 s + x1 s) * sin(x2 s) * x0 s) * count, s = x1: a tree made by
/// helpers, scaled and evaluated recursively, then destroyed recursively.
[[ct::differentiable]] double expression(const double *x, int) {
  Node *t = join(2, join(1, leaf(x[0]), leaf(x[1])),
                 join(3, leaf(x[2]), leaf(x[0])));
  scale(t, x[1]);
  double v = eval(t) * count(t);
  destroy(t);
  return v;
}

namespace {

struct Branch {
  double v;
  Branch *left, *right;
};

double total(const Branch *t) {
  if (!t)
    return 0;
  return t->v * t->v + total(t->left) + total(t->right);
}

} // namespace

/// x0^2 + (x1 x2)^2 + x2^2: a tree of nodes on the stack.
[[ct::differentiable]] double onTheStack(const double *x, int) {
  Branch a{x[1] * x[2], nullptr, nullptr}, b{x[2], nullptr, nullptr};
  Branch root{x[0], &a, &b};
  return total(&root);
}

namespace {

struct Cell {
  double coefficient;
  Cell *next;
};

double horner(const Cell *p, double z) {
  return p ? p->coefficient + z * horner(p->next, z) : 0.0;
}

void release(Cell *p) {
  if (p) {
    release(p->next);
    delete p;
  }
}

} // namespace

/// sum_i x_{n-1-i} z^i at z = x0: a list prepended in a loop, read by a
/// recursion that takes an active number too, freed recursively.
[[ct::differentiable]] double polynomial(const double *x, int n) {
  Cell *head = nullptr;
  for (int i = 0; i < n; ++i)
    head = new Cell{x[i], head};
  double s = horner(head, x[0]);
  release(head);
  return s;
}

namespace {

double product(const Node *n);
double sum(const Node *n) {
  return n->op == 0 ? n->value : product(n->left) + product(n->right);
}
double product(const Node *n) {
  return n->op == 0 ? n->value : sum(n->left) * sum(n->right);
}

/// A complete tree of `depth` levels over x (leaves x[i % n]), by a loop.
Node *complete(const double *x, int n, int depth) {
  int leaves = 1 << depth;
  Node *level[16];
  for (int i = 0; i < leaves; ++i)
    level[i] = leaf(x[i % n] + 0.1 * i);
  for (int width = leaves / 2; width >= 1; width /= 2)
    for (int i = 0; i < width; ++i)
      level[i] = join(1, level[2 * i], level[2 * i + 1]);
  return level[0];
}

double weighted(const Node *n, double w) {
  if (n->op == 0)
    return w * n->value * n->value;
  return w * std::cos(weighted(n->left, w * 0.5)) +
         weighted(n->right, w * 0.5);
}

} // namespace

/// Mutual recursion alternating sums and products over a complete tree.
[[ct::differentiable]] double alternating(const double *x, int n) {
  Node *t = complete(x, n, 3);
  double v = sum(t);
  destroy(t);
  return v;
}

/// A recursion whose weight halves with the depth.
[[ct::differentiable]] double byDepth(const double *x, int n) {
  Node *t = complete(x, n, 2);
  double v = weighted(t, x[n - 1]);
  destroy(t);
  return v;
}

namespace {

struct Owner {
  double value;
  int op; // 0 leaf, 1 sum, 2 product
  std::unique_ptr<Owner> left, right;
};

double evalOwned(const Owner *n) {
  if (n->op == 0)
    return n->value;
  double a = evalOwned(n->left.get()), b = evalOwned(n->right.get());
  return n->op == 1 ? a + b : a * b;
}

std::unique_ptr<Owner> owned(double v) {
  auto n = std::make_unique<Owner>();
  n->value = v;
  return n;
}

std::unique_ptr<Owner> owned(int op, std::unique_ptr<Owner> l,
                             std::unique_ptr<Owner> r) {
  auto n = std::make_unique<Owner>();
  n->op = op;
  n->left = std::move(l);
  n->right = std::move(r);
  return n;
}

} // namespace

/// (sin x0 + x1) * x2 * x0: a tree whose nodes own their children, freed by
/// the root's destructor; one subtree replaced (the old one destroyed).
[[ct::differentiable]] double ownedTree(const double *x, int) {
  auto t = owned(2, owned(1, owned(std::sin(x[0])), owned(x[1])),
                 owned(2, owned(x[1]), owned(x[0])));
  t->right = owned(2, owned(x[2]), owned(x[0]));
  return evalOwned(t.get());
}

namespace {

struct Link {
  double value;
  std::unique_ptr<Link> next;
};

double decaying(const Link *p, double w) {
  return p ? w * p->value * p->value + decaying(p->next.get(), w * 0.5) : 0.0;
}

} // namespace

/// A list owning its successors, prepended in a loop, walked by recursion
/// and by a loop.
[[ct::differentiable]] double ownedList(const double *x, int n) {
  std::unique_ptr<Link> head;
  for (int i = 0; i < n; ++i) {
    auto cell = std::make_unique<Link>();
    cell->value = std::sin(x[i]);
    cell->next = std::move(head);
    head = std::move(cell);
  }
  double t = 0;
  for (const Link *p = head.get(); p; p = p->next.get())
    t += p->value;
  return decaying(head.get(), 1.0) * t;
}

int main() {
  double x[4] = {0.3, -0.7, 1.1, 0.4};
  check::checkModes<expression, false>("expression", x, 3);
  check::checkModes<onTheStack, false>("on the stack", x, 3);
  check::checkModes<polynomial, false>("polynomial", x, 4);
  check::checkModes<alternating, false>("alternating", x, 4);
  check::checkModes<byDepth, false>("by depth", x, 3);
  check::checkModes<ownedTree, false>("owned tree", x, 3);
  check::checkModes<ownedList, false>("owned list", x, 4);

  // Closed forms.
  double s = x[1];
  check::near("expression closed form", expression(x, 3),
              (x[0] * s + x[1] * s) * std::sin(x[2] * s) * x[0] * s * 7,
              1e-14);
  double g[4] = {};
  ct::gradient<onTheStack>(x, 3, g);
  check::near("on the stack d/dx0", g[0], 2 * x[0], 1e-14);
  check::near("on the stack d/dx1", g[1], 2 * x[1] * x[2] * x[2], 1e-14);
  check::near("on the stack d/dx2", g[2], 2 * x[1] * x[1] * x[2] + 2 * x[2],
              1e-14);
  double z = x[0], dz[4] = {};
  double p = ct::gradient<polynomial>(x, 4, dz);
  check::near("polynomial value", p,
              x[3] + x[2] * z + x[1] * z * z + x[0] * z * z * z, 1e-14);
  check::near("polynomial d/dx3", dz[3], 1, 1e-14);
  check::near("polynomial d/dx1", dz[1], z * z, 1e-14);
  check::near("polynomial d/dx0", dz[0],
              z * z * z + x[2] + 2 * x[1] * z + 3 * x[0] * z * z, 1e-14);
  check::near("owned tree closed form", ownedTree(x, 3),
              (std::sin(x[0]) + x[1]) * x[2] * x[0], 1e-14);
  return check::report();
}
