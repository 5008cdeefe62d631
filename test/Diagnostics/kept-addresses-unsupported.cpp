// Recursion through functions lowered in place (they take objects whose
// pointers designate memory known beside them) is refused at once, at each
// recursive call (two of them used to unfold exponentially), and nothing
// else is reported. (The addresses of such structs kept in memory work: a
// pointer variable to them assigned at run time, swapped or whose address
// is taken, arrays of pointers to them, and linked nodes' fields
// designating them make the struct keep its fields' addresses in its
// objects: test/Integration/CPU/moving-object-pointers.cpp.)
// RUN: not %cotangent-cc %s -- -std=c++20 2>&1 | FileCheck %s --implicit-check-not=error:

// A span's pointer designates memory known beside the object: such a
// function is lowered in place, so recursion over spans is refused (a
// tree's nodes, whose pointer fields keep addresses, recurse: they are
// calls).
struct Span {
  const double *p;
  int n;
};

double sumSpan(Span s) {
  if (s.n == 1)
    return s.p[0];
  int h = s.n / 2;
  // CHECK: kept-addresses-unsupported.cpp:[[@LINE+2]]:10: error: 'sumSpan' calls itself, and it is lowered in place (it passes lambdas or objects holding pointers, or returns pointers or references): such recursion is not supported; write it as a loop, or pass indices
  // CHECK: kept-addresses-unsupported.cpp:[[@LINE+1]]:34: error: 'sumSpan' calls itself
  return sumSpan(Span{s.p, h}) + sumSpan(Span{s.p + h, s.n - h});
}

[[ct::differentiable]] double spans(const double *x) {
  return sumSpan(Span{x, 4});
}
