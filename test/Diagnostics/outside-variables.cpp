// Differentiable code reads variables outside the function and writes to
// them values that carry no derivative (see
// test/Integration/CPU/outside-variables.cpp), but writing a value that
// carries one is an error at the variable's use that names it, in both
// modes and through a helper: the derivative would be lost to the code
// that reads the variable later. Each case is its own compile (the first
// function that cannot be differentiated stops the derivatives).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=1 2>&1 | FileCheck %s --check-prefix=STORE --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=2 2>&1 | FileCheck %s --check-prefix=FORWARD --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=3 2>&1 | FileCheck %s --check-prefix=CALL --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=5 2>&1 | FileCheck %s --check-prefix=NESTED --implicit-check-not=error:
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=4 2>&1 | FileCheck %s --check-prefix=INACTIVE --implicit-check-not=error:

#include <cotangent/cotangent.h>

double last[2];
float total;
double history[3];
void put(double *p, double v) { p[1] = v; }

#if CASE == 1
// Nothing reads it here: the derivative would still be lost to the code
// that does.
[[ct::differentiable]] double remembered(double x) {
  // STORE: outside-variables.cpp:[[@LINE+1]]:3: error: 'last' is a variable outside the function, and a value that carries a derivative is written to it here, which would be lost to the code that reads it; differentiable code may write to such a variable only values that carry no derivative: pass it as a parameter instead
  last[1] = x;
  return 2 * x;
}
double run(double x, double *dx) { return ct::gradient<remembered>(x, dx); }
#elif CASE == 2
[[ct::differentiable]] double accumulated(double x) {
  // FORWARD: outside-variables.cpp:[[@LINE+1]]:3: error: 'total' is a variable outside the function
  total += static_cast<float>(x);
  return 3 * x;
}
double run(double x) { return ct::jvp<accumulated>(x, 1.0).tangent; }
#elif CASE == 3
[[ct::differentiable]] double throughHelper(double x) {
  // CALL: outside-variables.cpp:[[@LINE+1]]:7: error: 'history' is a variable outside the function
  put(history, x * x);
  return 3 * x + history[1];
}
double run(double x, double *dx) {
  return ct::gradient<throughHelper>(x, dx);
}
#elif CASE == 5
// A helper that is not inlined (recursive) stores a value that carries a
// derivative, although the call passes none on (its result is unused):
// the error is at the store, with a note at each call on the way that is
// still a call (storeThrough is inlined into readBack first).
int storeAfter(double v, int n) {
  if (n > 0)
    return storeAfter(v, n - 1);
  // NESTED: outside-variables.cpp:[[@LINE+1]]:3: error: 'history' is a variable outside the function, and a value that carries a derivative is written to it here
  history[0] = v;
  return 0;
}
int storeThrough(double v) {
  // NESTED: outside-variables.cpp:[[@LINE+1]]:10: note: called from here with values that carry a derivative
  return storeAfter(v, 3);
}
[[ct::differentiable]] double readBack(double x) {
  storeThrough(x * x);
  return history[0] * x;
}
double run(double x, double *dx) { return ct::gradient<readBack>(x, dx); }
#else
// The same function differentiated with respect to what it does not
// write: no derivative reaches the variable.
// INACTIVE: func.func private @_Z6scaleddd.pullback
// INACTIVE: memref.store %arg1
[[ct::differentiable]] double scaled(double x, double y) {
  last[0] = y;
  return x * y;
}
double run(double x, double y, double *dx) {
  return ct::gradient<scaled, ct::wrt<0>>(x, y, dx);
}
#endif
