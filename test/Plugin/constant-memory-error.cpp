// A derivative stored into memory that the request keeps constant (a
// pointer parameter left out of ct::wrt) and read back would be lost: an
// error at the store, not a silent zero. A store that nothing reads back
// (or whose value the compiler forwards to its read, including a loop's
// element read by a later loop at the same index) loses nothing and is
// accepted.
// REQUIRES: plugin
// The plugin itself is tested (its options, diagnostics, -fsyntax-only).
// UNSUPPORTED: sanitizer
// RUN: not %clangxx-ct -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

#include <cotangent/cotangent.h>

[[ct::differentiable]] double throughScratch(double x, double *scratch,
                                             int n) {
  for (int i = 0; i < n; ++i)
    // CHECK: constant-memory-error.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate: a value that carries a derivative is stored into memory that is constant here (a parameter not selected for differentiation); select it, or copy it into a local buffer first
    scratch[i] = x * i;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += scratch[n - 1 - i] * scratch[i];
  return s;
}

// Forwarded: the result is x * x without reading memory.
[[ct::differentiable]] double forwarded(double x, double *scratch) {
  scratch[0] = x * x;
  return scratch[0];
}

// Never read: a log of intermediate values.
[[ct::differentiable]] double logged(double x, double *log) {
  log[0] = x;
  return x * x;
}

double use(double x) {
  double dx = 0, scratch[4];
  return ct::gradient<throughScratch, ct::wrt<0>>(x, scratch, 4, &dx) +
         ct::gradient<forwarded, ct::wrt<0>>(x, scratch, &dx) +
         ct::gradient<logged, ct::wrt<0>>(x, scratch, &dx);
}
