// Entry points on functions Cotangent cannot differentiate: errors at the
// use, with the way out.
// REQUIRES: plugin
// The plugin itself is tested (its options, diagnostics, -fsyntax-only).
// UNSUPPORTED: sanitizer
// RUN: not %clangxx-ct -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

#include <cotangent/cotangent.h>

double external(double x);

struct Counts {
  int a, b;
};
[[ct::differentiable]] double fromCounts(const Counts &c, double x) {
  return c.a * x;
}

double use(double x) {
  double dx = 0;
  Counts c{1, 2}, dc{0, 0};
  // CHECK: entry-point-errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: 'external' has no visible body, so it cannot be differentiated; define it in this file, mark its declaration {{\[\[}}ct::differentiable{{\]\]}} if another file defines it, or give it a custom rule (CT_CUSTOM_GRADIENT, CT_CUSTOM_JVP)
  double a = ct::gradient<external>(x, &dx);
  // CHECK: entry-point-errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: parameter 'c' of 'fromCounts' points at data without floating-point values, so it has no derivative; exclude it with ct::wrt<...>
  double b = ct::gradient<fromCounts>(c, x, &dc, &dx);
  return a + b;
}
