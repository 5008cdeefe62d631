// An active parameter that cannot influence the result: a warning at the
// entry point's use by default, an error or nothing on request.
// REQUIRES: plugin
// The plugin itself is tested (its options, diagnostics, -fsyntax-only).
// UNSUPPORTED: sanitizer
// RUN: %clangxx-ct -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not %clangxx-ct -fplugin-arg-cotangent-unconnected=error -c %s \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: %clangxx-ct -fplugin-arg-cotangent-unconnected=zero -c %s \
// RUN:   -o /dev/null 2>&1 | count 0
// RUN: not %clangxx-ct -fplugin-arg-cotangent-bogus=1 -c %s -o /dev/null \
// RUN:   2>&1 | FileCheck %s --check-prefix=BADARG

#include <cotangent/cotangent.h>

[[ct::differentiable]] double onlyX(double x, double y) { return x * x; }

double use(double x, double y) {
  double dx = 0, dy = 0;
  // WARN: unconnected.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: parameter 'y' of 'onlyX' does not influence its result; its derivative is zero
  // ERROR: unconnected.cpp:[[@LINE+1]]:{{[0-9]+}}: error: parameter 'y' of 'onlyX'
  return ct::gradient<onlyX>(x, y, &dx, &dy) + dx + dy;
  // No note in MLIR's terms follows the warning.
  // WARN-NOT: see current operation
  // WARN-NOT: ct.gradient
}
// BADARG: error: cotangent: unknown plugin argument 'bogus=1'
