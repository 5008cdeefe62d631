// Lambdas returned by the functions that make them (factories): captures
// by copy (snapshots taken in the factory), by reference (the caller's
// places the factory's reference parameters designate), lambdas capturing
// lambdas (a composition), a member function returning a lambda that
// captures `this`, two closures of one factory alive together, a factory
// called inside a loop, a closure called where it is made
// (`scaled(w)(t)`), factory results given to std::sort and
// std::transform, and closures owning copies of vectors. Reverse and
// forward mode and Hessian-vector products against central differences,
// at -O0 and -O2, with libstdc++ and libc++.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "Inputs/check-modes.h"

static auto scaledSquare(double w) {
  return [w](double t) { return w * t * t; };
}

// Two closures of one factory: each keeps its own snapshot.
[[ct::differentiable]] double twoScales(const double *x, int n) {
  auto g = scaledSquare(x[0]);
  auto h = scaledSquare(std::sin(x[1]));
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += g(x[i]) - h(x[i]);
  return s;
}

// A closure capturing the factory's reference parameter: the caller's place,
// read when the closure is called (after the caller changed it).
static auto distanceTo(const double &centre) {
  return [&centre](double t) { return (t - centre) * (t - centre); };
}
[[ct::differentiable]] double movingCentre(const double *x, int n) {
  double c = x[0];
  auto d = distanceTo(c);
  double s = d(x[1]);
  c = x[2] * x[3];
  for (int i = 0; i < n; ++i)
    s += d(x[i]) * 0.5;
  return s;
}

// Lambdas capturing lambdas: f(f(t)), and a composition of two factories.
template <class F> static auto twice(F f) {
  return [f](double t) { return f(f(t)); };
}
template <class F, class G> static auto compose(F f, G g) {
  return [=](double t) { return f(g(t)); };
}
[[ct::differentiable]] double composed(const double *x, int n) {
  auto h = twice([](double t) { return std::sin(t) + 0.5 * t; });
  auto k = compose(scaledSquare(x[1]), h);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += h(x[i]) * x[i] + k(x[i]);
  return s;
}

// A member function returning a lambda that captures `this`.
struct Spring {
  double stiffness, rest;
  auto energy() const {
    return [this](double length) {
      double stretch = length - rest;
      return 0.5 * stiffness * stretch * stretch;
    };
  }
};
[[ct::differentiable]] double springs(const double *x, int n) {
  Spring spring{x[0] * x[0] + 1, x[1]};
  auto e = spring.energy();
  double s = 0;
  for (int i = 2; i < n; ++i)
    s += e(x[i]);
  return s + spring.energy()(x[0]);
}

// A factory called in a loop, its closure called where it is made, and a
// generic lambda returned.
static auto weighted(double w) {
  return [w](auto a, auto b) { return a + w * b; };
}
[[ct::differentiable]] double inLoop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    auto step = scaledSquare(x[(i + 1) % n]);
    s += step(x[i]) + scaledSquare(0.25)(x[i]);
    s = weighted(0.5)(s, std::cos(x[i]));
  }
  return s;
}

// Factory results given to the standard algorithms: a comparison capturing
// the caller's value by reference, and a transformation by copy.
static auto byDistanceTo(const double &c) {
  return [&c](double a, double b) {
    return std::fabs(a - c) < std::fabs(b - c);
  };
}
[[ct::differentiable]] double sortedByDistance(const double *x, int n) {
  std::vector<double> v(x + 1, x + n);
  std::sort(v.begin(), v.end(), byDistanceTo(x[0]));
  std::vector<double> w(v.size());
  std::transform(v.begin(), v.end(), w.begin(), scaledSquare(x[0]));
  double s = 0;
  for (size_t i = 0; i < w.size(); ++i)
    s += (i + 1.0) * w[i];
  return s;
}

// A closure owning a copy of a vector the factory made: the copy lives as
// long as the caller's closure (two of them here), and is freed once.
static auto tableOf(const double *x, int n) {
  std::vector<double> t(x, x + n);
  return [t](int i) { return std::sin(t[i]) * t[i]; };
}
[[ct::differentiable]] double ownedTables(const double *x, int n) {
  auto a = tableOf(x, n);
  auto b = tableOf(x + 1, n - 1);
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += a(i) * b(i);
  return s;
}

int main() {
  double x[5] = {0.3, -1.2, 0.7, 2.1, -0.4};
  double v[5] = {0.5, -0.25, 1.0, 0.75, -1.5};
  check::gradientAndTangents<twoScales>("twoScales", x, 5);
  check::gradientAndTangents<movingCentre>("movingCentre", x, 5);
  check::gradientAndTangents<composed>("composed", x, 5);
  check::gradientAndTangents<springs>("springs", x, 5);
  check::gradientAndTangents<inLoop>("inLoop", x, 5);
  check::gradientAndTangents<sortedByDistance>("sortedByDistance", x, 5);
  check::gradientAndTangents<ownedTables>("ownedTables", x, 5);
  check::hessianVectorProduct<ownedTables>("ownedTables", x, v, 5);
  check::hessianVectorProduct<composed>("composed", x, v, 5);
  check::hessianVectorProduct<springs>("springs", x, v, 5);
  check::hessianVectorProduct<movingCentre>("movingCentre", x, v, 5);
  return check::report();
}
