// What differentiable code refuses of lambdas kept in objects, each once (no
// other error may appear), with the way out: a closure is known beside the
// place it is stored at, which must be known where the code is compiled.
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 2>&1 | FileCheck %s --implicit-check-not=error:

#include <vector>

template <class F> struct Holder {
  F f;
};
static auto slope(double k) {
  return [k](double t) { return k * t; };
}
using Slope = decltype(slope(0.0));

// A std::vector's elements are memory made at run time.
[[ct::differentiable]] double inVector(double x) {
  std::vector<Holder<Slope>> held;
  held.reserve(2);
  held.push_back(Holder<Slope>{slope(x)});
  // CHECK: lambdas-in-objects-unsupported.cpp:[[@LINE+1]]:10: error: a lambda with captures can be kept in an object at a place known where the function is compiled (a field of an object the function makes, an element of a std::tuple or of an array indexed by a constant), not in a std::vector, in memory the caller passes, or at an index chosen at run time; keep the lambda in a variable, or a named function's pointer in the container
  return held[0].f(x);
}

// An index chosen at run time.
[[ct::differentiable]] double atRunTimeIndex(double x, int i) {
  auto square = [x](double t) { return x * t * t; };
  decltype(square) both[2] = {square, square};
  // CHECK: lambdas-in-objects-unsupported.cpp:[[@LINE+1]]:10: error: a lambda with captures can be kept in an object at a place known
  return both[i](2.0);
}

// Which lambda a conditional gives the object is run-time data.
[[ct::differentiable]] double chosenOnPaths(double x) {
  // CHECK: lambdas-in-objects-unsupported.cpp:[[@LINE+1]]:69: error: this object is given a lambda on more than one path (a conditional choosing between objects holding lambdas), so which lambda it holds is known only at run time; call the lambdas in the branches instead
  Holder<Slope> h = x > 1 ? Holder<Slope>{slope(x)} : Holder<Slope>{slope(2 * x)};
  return h.f(3.0);
}

// A std::function holding a callable of the function is empty to library
// code (a std::vector of std::functions copies it with the library's
// constructor), and one chosen at run time among those the function holds
// so would call nothing.
#include <functional>

struct Layer {
  std::function<double(double)> activation;
  double weight;
};
[[ct::differentiable]] double givenToLibrary(double x) {
  Layer layer{[x](double t) { return x * t; }, 1.0};
  std::vector<std::function<double(double)>> all;
  // CHECK: lambdas-in-objects-unsupported.cpp:[[@LINE+1]]:3: error: a lambda with captures, or a std::function made from one or from a function of the differentiable function, is given to library code here, which cannot call it; call it in the function
  all.push_back(layer.activation);
  return x;
}
[[ct::differentiable]] double layerAtRunTime(double x, int i) {
  Layer layers[2] = {{[x](double t) { return x * t; }, 1.0},
                     {[x](double t) { return x + t; }, 2.0}};
  // CHECK: lambdas-in-objects-unsupported.cpp:[[@LINE+1]]:10: error: a lambda with captures can be kept in an object at a place known
  return layers[i].activation(x);
}
// A lambda without captures made into a std::function by the library (a
// std::vector's push_back constructs its element there).
[[ct::differentiable]] double madeByLibrary(double x) {
  std::vector<std::function<double(double)>> all;
  // CHECK: lambdas-in-objects-unsupported.cpp:[[@LINE+1]]:17: error: this lambda is given to library code (a std::function made inside the library, as a std::vector of them makes it, or std::visit), which would call it as compiled, without its derivative; call the lambda in the function, or keep named functions' pointers in the container
  all.push_back([](double t) { return t * t; });
  return all[0](x);
}
