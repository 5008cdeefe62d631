// Pointer variables to structs that move between objects whose pointer or
// std::vector fields designate different memory: double buffers swapped
// by std::swap or by assignment (a time-stepping state in a struct of a
// pointer and a length, or of a std::vector), a window moved to another
// object inside a loop, a table of pointers to objects chosen by index, a
// pointer assigned in a branch and tested for null, one assigned through
// its address, and a linked list whose nodes designate such structs.
// Such a struct keeps its fields' addresses in its objects, so an address
// read back finds them. Every mode against differences, closed forms for
// two; -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <utility>
#include <vector>

#include "check.h"
#include "modes.h"

using check::near;

struct Field {
  double *u;
  int n;
};

// Three relaxation steps between two buffers, swapped after each.
[[ct::differentiable]] double relaxed(const double *x, int n) {
  double first[8], second[8];
  for (int i = 0; i < n; ++i)
    first[i] = x[i];
  Field a{first, n}, b{second, n};
  Field *current = &a, *next = &b;
  for (int step = 0; step < 3; ++step) {
    for (int i = 0; i < current->n; ++i)
      next->u[i] =
          0.5 * current->u[i] + 0.25 * std::sin(current->u[(i + 1) % n]);
    std::swap(current, next);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += current->u[i] * current->u[i];
  return s;
}

struct State {
  std::vector<double> q;
};

// The same with std::vector buffers, exchanged by assignment.
[[ct::differentiable]] double stepped(const double *x, int n) {
  State a{std::vector<double>(x, x + n)}, b{std::vector<double>(n)};
  State *current = &a, *next = &b;
  for (int step = 0; step < 4; ++step) {
    for (int i = 0; i < n; ++i)
      next->q[i] = current->q[i] * std::cos(current->q[(i + n - 1) % n]);
    State *done = current;
    current = next;
    next = done;
  }
  double s = 0;
  for (double v : current->q)
    s += v;
  return s;
}

struct Window {
  const double *data;
  int n;
};

// sum_i x_i^2 + sum_i w_i^2 with w = (1, 2, 3, 4) read through a window
// moved to the second object after the first pass.
[[ct::differentiable]] double windowed(const double *x, int n) {
  double w[4] = {1, 2, 3, 4};
  Window a{x, n}, b{w, 4};
  const Window *current = &a;
  double s = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < current->n; ++i)
      s += current->data[i] * current->data[i];
    current = &b;
  }
  return s;
}

// x_k weighted by the window chosen by index in a table of pointers.
[[ct::differentiable]] double tabled(const double *x, int n) {
  double w[4] = {0.5, 1.5, 2.5, 3.5};
  Window a{x, n}, b{w, 4};
  const Window *windows[2] = {&a, &b};
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += windows[k % 2]->data[k] * x[k];
  return s;
}

// A pointer assigned in a branch, tested for null, and one assigned
// through its address by a helper.
struct Scaled {
  const double *p;
  double w;
};
inline void choose(const Scaled **out, const Scaled *to) { *out = to; }
[[ct::differentiable]] double nullable(const double *x, int n) {
  Scaled a{x, 2.0}, b{x + 1, 3.0};
  const Scaled *c = nullptr;
  if (n > 1)
    c = &a;
  double s = 0;
  if (c)
    s += c->p[0] * c->w;
  const Scaled *d = &a;
  choose(&d, &b);
  return s + d->p[0] * d->p[0] * d->w;
}

// A list whose nodes designate data of their own (not linked): walked by
// its `next` fields, each node's leaf read through the address it keeps.
struct Leaf {
  const double *data;
  double w;
};
struct Node {
  const Leaf *leaf;
  const Node *next;
};
[[ct::differentiable]] double leaves(const double *x, int n) {
  Leaf a{x, 2.0}, b{x + 2, 3.0};
  Node second{&b, nullptr};
  Node first{&a, &second};
  double s = 0;
  for (const Node *node = &first; node; node = node->next)
    s += node->leaf->w * node->leaf->data[0] * node->leaf->data[1];
  return s;
}

int main() {
  const double x[4] = {0.3, -0.5, 0.8, 1.1};
  check::checkModes<relaxed>("double buffer", x, 4);
  check::checkModes<stepped>("vector buffers", x, 4);
  check::checkModes<windowed>("moving window", x, 4);
  check::checkModes<tabled>("table of pointers", x, 4);
  check::checkModes<nullable>("nullable", x, 4);
  check::checkModes<leaves>("nodes designating data", x, 4);
  // Closed forms: windowed's gradient is 2x; nullable's is (2, 6 x_1, 0,
  // 0).
  double p[4] = {x[0], x[1], x[2], x[3]}, dw[4] = {}, dn[4] = {};
  near("moving window: value", ct::gradient<windowed>(p, 4, dw),
       x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3] + 30, 1e-14);
  ct::gradient<nullable>(p, 4, dn);
  double closed[4] = {2, 6 * x[1], 0, 0};
  for (int i = 0; i < 4; ++i) {
    near("moving window: closed form", dw[i], 2 * x[i], 1e-15);
    near("nullable: closed form", dn[i], closed[i], 1e-15);
  }
  return check::report();
}
