// What differentiable code refuses of lambdas returned by the functions
// that make them, each once (no other error may appear), at the return or
// the call, with the way out.
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 2>&1 | FileCheck %s --implicit-check-not=error:

// Which lambda a function returns must be known where it is compiled.
static auto slope(double w) {
  return [w](double t) { return w * t; };
}
static auto pick(double a, double b, bool first) {
  if (first)
    return slope(a);
  return slope(b);
}
[[ct::differentiable]] double chosen(double x) {
  // CHECK: lambda-factories-unsupported.cpp:[[@LINE+1]]:12: error: 'pick' returns a lambda from more than one return, or from inside a branch or loop; return one lambda as its last statement
  auto f = pick(x, 2 * x, x > 0);
  return f(x);
}

// A pointer captured by reference is a variable that moves: its place is
// not all of it.
static auto reader(const double *&p) {
  return [&p](int i) { return p[i]; };
}
[[ct::differentiable]] double throughPointer(const double *x) {
  const double *p = x;
  // CHECK: lambda-factories-unsupported.cpp:[[@LINE-4]]:10: error: this lambda is returned from the function that defines it, and it captures 'p' by reference, which differentiable code supports for numbers, arrays and structs of them only; capture it by copy
  auto r = reader(p);
  return r(0) * r(1);
}

// `*this` captured by copy is a copy of the object the closure would own.
struct Scale {
  double k;
  auto times() const {
    return [*this](double t) { return k * t; };
  }
};
[[ct::differentiable]] double ownedCopy(double x) {
  Scale s{x};
  // CHECK: lambda-factories-unsupported.cpp:[[@LINE-5]]:12: error: a lambda capturing '*this' cannot be returned from differentiable code; capture 'this'
  return s.times()(x);
}

// A lambda variable of the factory owning a copy of a vector: the copy is
// the factory's, freed at its return.
#include <vector>
static auto table(const double *x, int n) {
  std::vector<double> t(x, x + n);
  auto at = [t](int i) { return t[i]; };
  // CHECK: lambda-factories-unsupported.cpp:[[@LINE+1]]:10: error: this lambda owns a copy of 't', made where the lambda is defined, which is freed when this function returns; return the lambda expression itself
  return at;
}
[[ct::differentiable]] double fromTable(const double *x, int n) {
  auto at = table(x, n);
  return at(0) * at(1);
}
