// Static locals whose initializer is not a constant are initialized on the
// first call under their guard (test/Integration/CPU/guarded-statics.cpp).
// What cannot be: an initializer that reads a value with a derivative into
// a variable nothing changes after (it would keep the first call's value,
// and keeps its place: an error at the declaration, in both modes, also
// for a std::vector), and a std::vector of vectors (vectors outside the
// function hold numbers or structs of numbers). Each case is its own
// compile.
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=1 2>&1 | FileCheck %s --check-prefix=ACTIVE --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=2 2>&1 | FileCheck %s --check-prefix=FORWARD --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=3 2>&1 | FileCheck %s --check-prefix=VECTOR --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=4 2>&1 | FileCheck %s --check-prefix=ROWS --implicit-check-not=error:

#include <cotangent/cotangent.h>

#include <vector>


#if CASE == 1 || CASE == 2
[[ct::differentiable]] inline double firstCall(double x) {
  // ACTIVE: guarded-statics.cpp:[[@LINE+2]]:3: error: 'first' is a variable outside the function, and a value that carries a derivative is written to it here, which would be lost to the code that reads it; differentiable code may write to such a variable only values that carry no derivative: pass it as a parameter instead (it cannot be given a copy of its own per call: it is a static variable initialized on the function's first call, under a guard other threads may wait on)
  // FORWARD: guarded-statics.cpp:[[@LINE+1]]:3: error: 'first' is a variable outside the function
  static const double first = 2 * x;
  return x * first;
}
#if CASE == 1
double use(double x, double *dx) { return ct::gradient<firstCall>(x, dx); }
#else
double use(double x) { return ct::jvp<firstCall>(x, 1.0).tangent; }
#endif
#elif CASE == 3
[[ct::differentiable]] inline double fromInputs(const double *x, int n) {
  // VECTOR: guarded-statics.cpp:[[@LINE+1]]:3: error: 'firstInputs'
  static const std::vector<double> firstInputs(x, x + n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += firstInputs[i] * x[i];
  return s;
}
double use(const double *x, double *dx) {
  return ct::gradient<fromInputs>(x, 3, dx);
}
#else
inline std::vector<std::vector<double>> rows(int n) {
  return std::vector<std::vector<double>>(n, std::vector<double>(n, 1.0));
}
[[ct::differentiable]] inline double fromRows(const double *x, int n) {
  // ROWS: guarded-statics.cpp:[[@LINE+1]]:3: error: 'table' is a std::vector of 'std::vector<double>' outside the function; differentiable functions use vectors outside them only when their elements are numbers or structs of numbers: pass it as a parameter
  static const std::vector<std::vector<double>> table = rows(n);
  return table[0][0] * x[0];
}
double use(const double *x, double *dx) {
  return ct::gradient<fromRows>(x, 3, dx);
}
#endif
