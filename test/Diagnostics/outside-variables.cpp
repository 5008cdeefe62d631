// Differentiable code writes values that carry derivatives into
// floating-point variables outside the function through a copy of its own
// per call (test/Integration/CPU/outside-variable-copies.cpp), unless the
// code holding the variable calls code compiled elsewhere, which may read
// or change it by name, or reaches it through a custom rule: then writing
// such a value is an error at the variable's use that names it and says
// why, in both modes and through a helper (the derivative would be lost to
// the code that reads the variable later). Each case is its own compile
// (the first function that cannot be differentiated stops the
// derivatives).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=1 2>&1 | FileCheck %s --check-prefix=STORE --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=2 2>&1 | FileCheck %s --check-prefix=FORWARD --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=3 2>&1 | FileCheck %s --check-prefix=CALL --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=5 2>&1 | FileCheck %s --check-prefix=NESTED --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=6 2>&1 | FileCheck %s --check-prefix=VECTOR --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=7 2>&1 | FileCheck %s --check-prefix=ROWS --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=8 2>&1 | FileCheck %s --check-prefix=THREAD --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=9 2>&1 | FileCheck %s --check-prefix=ESCAPES --implicit-check-not=error:
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=4 2>&1 | FileCheck %s --check-prefix=INACTIVE --implicit-check-not=error:

#include <cotangent/cotangent.h>

#include <vector>

double last[2];
float total;
double history[3];
void put(double *p, double v) { p[1] = v; }
double uniform(); // compiled elsewhere

#if CASE == 1
// The library function may read the variable by name: it keeps its place.
[[ct::differentiable]] double remembered(double x) {
  // STORE: outside-variables.cpp:[[@LINE+1]]:3: error: 'last' is a variable outside the function, and a value that carries a derivative is written to it here, which would be lost to the code that reads it; differentiable code may write to such a variable only values that carry no derivative: pass it as a parameter instead (it cannot be given a copy of its own per call: it calls 'uniform', which runs as Clang compiled it (a library function, or one bound to a derivative rule) and may read or change it by name)
  last[1] = x;
  return 2 * x + uniform();
}
double run(double x, double *dx) { return ct::gradient<remembered>(x, dx); }
#elif CASE == 2
// A custom rule would read the variable itself, not the caller's copy.
double scaleTotal(double x) {
  total += static_cast<float>(x);
  return 3 * x;
}
void scaleTotalPullback(double x, double dret, double *dx) { *dx += 3 * dret; }
CT_CUSTOM_GRADIENT(scaleTotal, scaleTotalPullback);
[[ct::differentiable]] double accumulated(double x) {
  // FORWARD: outside-variables.cpp:[[@LINE+1]]:3: error: 'total' is a variable outside the function, and a value that carries a derivative is written to it here, which would be lost to the code that reads it; differentiable code may write to such a variable only values that carry no derivative: pass it as a parameter instead (it cannot be given a copy of its own per call: it calls 'scaleTotal', which runs as Clang compiled it (a library function, or one bound to a derivative rule) and may read or change it by name)
  total += static_cast<float>(x);
  return scaleTotal(x) + total;
}
double run(double x) { return ct::jvp<accumulated>(x, 1.0).tangent; }
#elif CASE == 3
[[ct::differentiable]] double throughHelper(double x) {
  // CALL: outside-variables.cpp:[[@LINE+1]]:7: error: 'history' is a variable outside the function
  put(history, x * x);
  return 3 * x + history[1] * uniform();
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
  if (n == 2)
    uniform();
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
#elif CASE == 6
// A std::vector outside the function, likewise: kept in place, its
// elements written with derivatives.
std::vector<double> kept;
[[ct::differentiable]] double keptVector(const double *x, int n) {
  // VECTOR: outside-variables.cpp:[[@LINE+1]]:3: error: 'kept' is a variable outside the function, and a value that carries a derivative is written to it here, which would be lost to the code that reads it; differentiable code may write to such a variable only values that carry no derivative: pass it as a parameter instead (it cannot be given a copy of its own per call: it calls 'uniform', which runs as Clang compiled it (a library function, or one bound to a derivative rule) and may read or change it by name)
  kept.assign(x, x + n);
  return uniform() + kept[0] * kept[1];
}
double run(const double *x, double *dx) {
  return ct::gradient<keptVector>(x, 2, dx);
}
#elif CASE == 7
// Vectors outside the function hold numbers or structs of them.
std::vector<std::vector<double>> rows;
[[ct::differentiable]] double vectorOfRows(const double *x, int n) {
  // ROWS: outside-variables.cpp:[[@LINE+1]]:3: error: 'rows' is a std::vector of 'std::vector<double>' outside the function; differentiable functions use vectors outside them only when their elements are numbers or structs of numbers: pass it as a parameter
  rows.resize(1);
  return x[0];
}
double run(const double *x, double *dx) {
  return ct::gradient<vectorOfRows>(x, 2, dx);
}
#elif CASE == 8
// Every thread has its own, destroyed when the thread ends (C++ reaches
// it through a function of the file's).
thread_local std::vector<double> perThread;
[[ct::differentiable]] double threadLocal(const double *x, int n) {
  // THREAD: outside-variables.cpp:[[@LINE+1]]:3: error: 'perThread' is a thread-local variable destroyed when each thread ends; differentiable functions use thread-local variables outside functions only when this file defines them with a constant and nothing to destroy: pass it as a parameter, or make it a 'thread_local' variable of the function
  perThread.assign(x, x + n);
  // THREAD: outside-variables.cpp:[[@LINE+1]]:10: error: 'perThread' is a thread-local variable
  return perThread[0];
}
double run(const double *x, double *dx) {
  return ct::gradient<threadLocal>(x, 2, dx);
}
#elif CASE == 9
// A copy's address stored in the caller's object would outlive the call
// (the caller would read freed memory): the variable keeps its place.
struct View {
  double *d;
};
double table[2];
[[ct::differentiable]] void pointedAtTable(View &v, double x) {
  // ESCAPES: outside-variables.cpp:[[@LINE+1]]:3: error: 'table' is a variable outside the function, and a value that carries a derivative is written to it here, which would be lost to the code that reads it; differentiable code may write to such a variable only values that carry no derivative: pass it as a parameter instead (it cannot be given a copy of its own per call: 'pointedAtTable' stores its address in memory of the caller's, which would keep the address of a copy past the call)
  table[0] = v.d[0] * x;
  v.d = table;
}
void run(View &v, View *tv, double x) { ct::jvp<pointedAtTable>(v, x, tv, 1.0); }
#else
// Without such calls the variable gets a copy of its own, copied back
// without derivative when the call ends (the copy folded away here).
// INACTIVE: func.func private @_Z6scaleddd.pullback
// INACTIVE: %[[Y:.*]] = ct.stop_gradient %arg1
// INACTIVE: memref.store %[[Y]]
[[ct::differentiable]] double scaled(double x, double y) {
  last[0] = y;
  return x * y;
}
double run(double x, double y, double *dx) {
  return ct::gradient<scaled, ct::wrt<0>>(x, y, dx);
}
#endif
