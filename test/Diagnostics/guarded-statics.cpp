// Static locals whose initializer is not a constant are initialized on the
// first call under their guard (test/Integration/CPU/guarded-statics.cpp).
// What cannot be: an initializer that reads a value with a derivative (the
// variable would keep the first call's value, and the function holding it
// keeps its variables in place: an error at the declaration, in both
// modes), a std::vector so initialized, and an object whose destructor C++
// runs at exit. Each case is its own compile.
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=1 2>&1 | FileCheck %s --check-prefix=ACTIVE --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=2 2>&1 | FileCheck %s --check-prefix=FORWARD --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=3 2>&1 | FileCheck %s --check-prefix=VECTOR --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCASE=4 2>&1 | FileCheck %s --check-prefix=DESTRUCTOR --implicit-check-not=error:

#include <cotangent/cotangent.h>

#include <vector>

std::vector<double> table(int n);
struct Logged {
  double v;
  ~Logged();
};
Logged makeLogged();

#if CASE == 1 || CASE == 2
[[ct::differentiable]] inline double firstCall(double x) {
  // ACTIVE: guarded-statics.cpp:[[@LINE+2]]:3: error: 'first' is a variable outside the function, and a value that carries a derivative is written to it here, which would be lost to the code that reads it; differentiable code may write to such a variable only values that carry no derivative: pass it as a parameter instead (it cannot be given a copy of its own per call: the function initializes a static variable on its first call, under a guard other threads may wait on)
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
[[ct::differentiable]] inline double fromTable(const double *x, int n) {
  // VECTOR: guarded-statics.cpp:[[@LINE+1]]:3: error: 'weights' is a std::vector kept between calls and initialized when the function first runs (its initializer is not a constant); differentiable functions keep such vectors only when they start empty: declare it empty and fill it in the function, or pass it as a parameter
  static const std::vector<double> weights = table(n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += weights[i] * x[i];
  return s;
}
double use(const double *x, double *dx) {
  return ct::gradient<fromTable>(x, 3, dx);
}
#else
[[ct::differentiable]] inline double fromLogged(double x) {
  // DESTRUCTOR: guarded-statics.cpp:[[@LINE+1]]:3: error: 'logged' is a static variable initialized when the function first runs, of a class with a destructor (C++ runs it at exit); differentiable functions initialize such static variables only when destroying them does nothing: keep the object outside the function, or pass it as a parameter
  static Logged logged = makeLogged();
  return x * logged.v;
}
double use(double x, double *dx) { return ct::gradient<fromLogged>(x, dx); }
#endif
