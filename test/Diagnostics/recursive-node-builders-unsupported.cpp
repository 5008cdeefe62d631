// What differentiation refuses of functions that build linked nodes by
// recursion and return them (Integration/CPU/recursive-node-builders.cpp
// has what works): vector mode, whose lanes would have to reach the
// caller's views of the node through the slot it comes back in (and of a
// recursive walk reading the addresses of nodes built in a loop, whose
// lanes the caller's classes of the nodes decide); builders calling each
// other rather than themselves (lowered in place). Each refused at its
// construct, with the way out, never a wrong number. (A Hessian-vector
// product, or a derivative with respect to another parameter, where the
// nodes keep pointers into a parameter read by a recursive walk, works: the
// direction, or the parameter left out, takes part with a scratch
// derivative; Integration/CPU/recursive-node-builders.cpp.)
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -DLANES -I%cotangent-include 2>&1 | FileCheck %s --check-prefix=LANES --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -DMUTUAL -I%cotangent-include 2>&1 | FileCheck %s --check-prefix=MUTUAL --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -DWALK -I%cotangent-include 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not=error:
#include <cotangent/cotangent.h>

struct Link {
  double value;
  Link *next;
};

static Link *makeList(const double *x, int i, int n) {
  if (i == n)
    return nullptr;
  // LANES: recursive-node-builders-unsupported.cpp:[[@LINE+1]]:3: error: vector mode (ct::lanes) cannot differentiate this construct yet: the address of memory with derivatives is kept in memory this function's caller gives (a node a recursive function builds and returns); use one lane (ct::pullback or ct::jvp without ct::lanes)
  return new Link{x[i] * x[i], makeList(x, i + 1, n)};
}

[[ct::differentiable]] double list(const double *x, int n) {
  Link *head = makeList(x, 0, n);
  double s = head->value * head->next->value;
  while (head) {
    Link *next = head->next;
    delete head;
    head = next;
  }
  return s;
}

#ifdef LANES
double lanes(const double *x, const double *seeds) {
  return ct::jvp<list, ct::lanes<2>>(x, 5, seeds).tangent[0];
}
#elif defined(MUTUAL)
struct Pair {
  double value;
  Pair *left, *right;
};
static Pair *oddLevel(const double *x, int lo, int hi);
static Pair *evenLevel(const double *x, int lo, int hi) {
  if (hi - lo <= 1)
    return new Pair{x[lo], nullptr, nullptr};
  int mid = (lo + hi) / 2;
  return new Pair{x[mid], oddLevel(x, lo, mid), oddLevel(x, mid, hi)};
}
static Pair *oddLevel(const double *x, int lo, int hi) {
  if (hi - lo <= 1)
    return new Pair{x[lo] * x[lo], nullptr, nullptr};
  int mid = (lo + hi) / 2;
  // MUTUAL: recursive-node-builders-unsupported.cpp:[[@LINE+1]]:27: error: 'evenLevel' calls itself, and it is lowered in place (it passes lambdas or objects holding pointers, or returns pointers or references): such recursion is not supported; write it as a loop, or pass indices
  return new Pair{x[mid], evenLevel(x, lo, mid), evenLevel(x, mid, hi)};
}
static void release(Pair *t) {
  if (!t)
    return;
  release(t->left);
  release(t->right);
  // MUTUAL: recursive-node-builders-unsupported.cpp:[[@LINE+1]]:3: error: 'delete' of memory that this function did not allocate with 'new' cannot be differentiated
  delete t;
}
[[ct::differentiable]] double levels(const double *x, int n) {
  Pair *root = evenLevel(x, 0, n);
  double s = root->value;
  release(root);
  return s;
}
#elif defined(WALK)
static double horner(const Link *p, double z) {
  // WALK: recursive-node-builders-unsupported.cpp:[[@LINE+1]]:29: error: vector mode (ct::lanes) cannot differentiate this construct yet: a function that is not inlined reads addresses kept in memory it is given (a recursive walk over linked nodes); use one lane (ct::pullback or ct::jvp without ct::lanes)
  return p ? p->value + z * horner(p->next, z) : 0.0;
}

[[ct::differentiable]] double walked(const double *x, int n) {
  Link *head = nullptr;
  for (int i = n - 1; i >= 0; --i)
    head = new Link{x[i] * x[i], head};
  double s = horner(head, 0.5);
  while (head) {
    Link *next = head->next;
    delete head;
    head = next;
  }
  return s;
}

double walkedLanes(const double *x, const double *seeds) {
  return ct::jvp<walked, ct::lanes<2>>(x, 5, seeds).tangent[0];
}
#endif
