// What differentiable code refuses of calls through function pointers,
// each once (no other error may appear), at the call, with the way out.
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 2>&1 | FileCheck %s --implicit-check-not=error:

// No function of the file has this type and its address taken: the call
// could reach none that differentiable code knows.
[[ct::differentiable]] double noTarget(double x, double (*g)(double, double)) {
  // CHECK: function-pointers-unsupported.cpp:[[@LINE+1]]:10: error: no function of this file of type 'double (double, double)' has its address taken, so this call through a function pointer cannot be differentiated; call the function by name, or take its address in this file
  return g(x, x);
}

// A target that returns a reference is lowered only where it is known.
double &larger(double &a, double &b) { return a < b ? b : a; }
double &(*choose)(double &, double &) = larger;
[[ct::differentiable]] double returnsPlace(double x, double y) {
  // CHECK: function-pointers-unsupported.cpp:[[@LINE+1]]:10: error: this call through a function pointer may call 'larger', which differentiable code calls only where it knows the function (it returns a pointer, a reference or an object owning memory, or is variadic); call it by name
  return choose(x, y);
}

// An address made from an integer designates no function the file knows.
double halve(double x) { return 0.5 * x; }
double (*kept)(double) = halve;
[[ct::differentiable]] double fromInteger(double x, long bits) {
  // CHECK: function-pointers-unsupported.cpp:[[@LINE+1]]:10: error: differentiable code follows a function pointer made from a function, or kept in a variable, field, element or parameter; this one is made otherwise (from an integer, or by a cast), so the functions it may call are not known; assign the function itself
  return reinterpret_cast<double (*)(double)>(bits)(x);
}

// A std::function is the lambda or function it is made from in the
// function; one the caller made is the library's, which a helper cannot
// call as a lambda.
#include <functional>
static double callIt(const std::function<double(double)> &g, double x) {
  return g(x);
}
[[ct::differentiable]] double givenFunction(double x,
                                            const std::function<double(double)> &g) {
  // CHECK: function-pointers-unsupported.cpp:[[@LINE+1]]:17: error: this std::function is not made from a lambda or a named function of the differentiable function; pass the lambda or the function itself
  return callIt(g, x);
}
[[ct::differentiable]] double reassigned(double x) {
  std::function<double(double)> h = [&](double t) { return x * t; };
  // CHECK: function-pointers-unsupported.cpp:[[@LINE+1]]:3: error: this std::function is the lambda or function it was made from, and cannot be changed; declare another std::function
  h = [](double t) { return t * t; };
  return h(x);
}
