// Custom rules with internal linkage (`static`, an unnamed namespace) run
// as compiled: the plugin links the derivatives into the unit's own module
// and points their references at the unit's local functions (which the
// linker would never resolve). Here the rules count their calls, so they
// cannot be lowered. (cotangent-cc --emit=obj puts the derivatives in an
// object file of their own, which cannot call them:
// test/Diagnostics/static-rules-own-object.cpp.)
// REQUIRES: plugin
// UNSUPPORTED: sanitizer
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

int pullbackCalls = 0, jvpCalls = 0;

static double cube(double x) { return x * x * x; }
namespace {
void cubePullback(double x, double dret, double *dx) {
  ++pullbackCalls;
  *dx += 3 * x * x * dret;
}
} // namespace
static ct::dual<double> cubeJvp(double x, double tx) {
  ++jvpCalls;
  return {cube(x), 3 * x * x * tx};
}
CT_CUSTOM_GRADIENT(cube, cubePullback);
CT_CUSTOM_JVP(cube, cubeJvp);

[[ct::differentiable]] double sumOfCubes(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += cube(x[i]);
  return s;
}

int main() {
  using check::near;
  double x[3] = {0.5, -1.0, 2.0}, dx[3] = {};
  ct::gradient<sumOfCubes>(x, 3, dx);
  for (int i = 0; i < 3; ++i)
    near("static pullback", dx[i], 3 * x[i] * x[i], 1e-14);
  near("static pullback: calls", pullbackCalls, 3, 0);
  double t[3] = {1, 2, -1};
  near("static jvp", ct::jvp<sumOfCubes>(x, 3, t).tangent,
       3 * (0.25 * 1 + 1 * 2 + 4 * -1), 1e-14);
  near("static jvp: calls", jvpCalls, 3, 0);
  return check::report();
}
