// Recursion through functions lowered in place (they take objects whose
// pointers designate memory known beside them) is refused at once, at each
// recursive call (two of them used to unfold exponentially), and nothing
// else is reported. (The addresses of such structs kept in memory work: a
// pointer variable to them assigned at run time, swapped or whose address
// is taken, arrays of pointers to them, and linked nodes' fields
// designating them make the struct keep its fields' addresses in its
// objects: test/Integration/CPU/moving-object-pointers.cpp.)
// RUN: not %cotangent-cc %s -- -std=c++20 2>&1 | FileCheck %s --implicit-check-not=error:

// A span's pointer designates memory known beside the object. A recursive
// function given spans by value or as constants is a call, the memory passed
// beside them (Integration/CPU/recursion-over-spans.cpp); one given a span it
// may re-seat (a non-const reference: the caller's field moves with the
// callee's) is lowered in place, so its recursion is refused (a tree's
// nodes, whose pointer fields keep addresses, recurse: they are calls).
struct Span {
  const double *p;
  int n;
};

double consume(Span &s) {
  if (s.n == 0)
    return 0;
  double v = s.p[0];
  ++s.p;
  --s.n;
  // CHECK: kept-addresses-unsupported.cpp:[[@LINE+1]]:18: error: 'consume' calls itself, and it is lowered in place (it passes lambdas or objects holding pointers, or returns pointers or references): such recursion is not supported; write it as a loop, or pass indices
  return v * v + consume(s);
}

[[ct::differentiable]] double spans(const double *x) {
  Span s{x, 4};
  return consume(s);
}
