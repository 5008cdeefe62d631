// A derivative stored into memory that the request keeps constant (a
// pointer parameter left out of ct::wrt) and read back would be lost: an
// error at the store, not a silent zero.
// REQUIRES: plugin
// RUN: not %clangxx-ct -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

#include <cotangent/cotangent.h>

[[ct::differentiable]] double throughScratch(double x, double *scratch) {
  // CHECK: constant-memory-error.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate: a value that carries a derivative is stored into memory that is constant here (a parameter not selected for differentiation); select it, or copy it into a local buffer first
  scratch[0] = x * x;
  return scratch[0];
}

double use(double x) {
  double dx = 0, scratch[1];
  return ct::gradient<throughScratch, ct::wrt<0>>(x, scratch, &dx);
}
