// Lambdas with captures kept in objects: a solver class template holding
// its function (`F f_`, given by its constructor), a struct made by a
// helper (`Integrator<F>{f, n}`), the object passed to helpers by reference
// and by value, copied into a std::pair, std::tuple's of lambdas (made by
// std::make_tuple, read by std::get), an array of lambdas indexed by
// constants, a holder of a holder, a lambda capturing `this` returned by a
// member function and stored, and mutable lambdas whose copies keep state
// of their own (passed by value, copied into an object, copied by name) as
// C++ copies them. Captures by reference (numbers, std::vectors, pointers)
// and by copy (numbers, std::vectors, pointers). Every mode against central
// differences and the function's own value (modes.h), at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

#include "modes.h"

template <class F> class Solver {
  F f_;
  double offset_;

public:
  Solver(F f, double offset) : f_(std::move(f)), offset_(offset) {}
  double eval(double t) const { return f_(t) + offset_; }
  double sum(int steps) const {
    double s = 0;
    for (int i = 0; i < steps; ++i)
      s += eval(0.25 * i);
    return s;
  }
};

template <class F> double twiceByReference(const Solver<F> &s, double t) {
  return 2 * s.eval(t);
}
template <class F> double byValue(Solver<F> s, double t) { return s.eval(t); }

double solverTemplate(const double *x, int n) {
  std::vector<double> v(x, x + n);
  const double *p = x + 1;
  double k = x[0];
  Solver byReference([&](double t) { return std::sin(k * t) + v[1] * t * p[1]; },
                     1.0);
  Solver byCopy([v, p](double t) { return v[0] * v[2] * t + p[2] * p[2]; },
                0.5);
  std::pair<int, decltype(byCopy)> pair{3, byCopy};
  return byReference.sum(n) + twiceByReference(byCopy, x[1]) +
         byValue(byReference, x[3]) + pair.second.eval(0.7) * pair.first;
}

template <class F> struct Integrator {
  F integrand;
  int intervals;
  double over(double a, double b) const {
    double h = (b - a) / intervals, s = 0;
    for (int i = 0; i < intervals; ++i)
      s += integrand(a + (i + 0.5) * h) * h;
    return s;
  }
};
template <class F> Integrator<F> midpoint(F f, int intervals) {
  return Integrator<F>{f, intervals};
}
template <class F> struct Twice {
  Integrator<F> inner;
  double over(double a, double b) const { return 2 * inner.over(a, b); }
};

double integrators(const double *x, int n) {
  double rate = x[0];
  auto decay = midpoint([&](double t) { return std::exp(-rate * t) * x[1]; },
                        8);
  Twice<decltype(decay.integrand)> twice{decay};
  return decay.over(0.0, x[2]) + twice.over(x[3], 1.0) + x[n - 1];
}

double tuples(const double *x, int n) {
  double k = x[0];
  std::vector<double> v(x, x + n);
  auto terms = std::make_tuple([k](double t) { return k * t; },
                               [&v](double t) { return v[2] * t * t; });
  auto a = [=](double t) { return std::cos(x[3] * t); };
  std::tuple<decltype(a), int> held{a, 2};
  return std::get<0>(terms)(x[1]) + std::get<1>(terms)(x[4]) +
         std::get<0>(held)(x[1]) * std::get<1>(held);
}

double arrays(const double *x, int) {
  auto square = [x](double t) { return x[0] * t * t; };
  decltype(square) both[2] = {square, square};
  return both[0](x[1]) + both[1](x[2]);
}

struct Spring {
  double stiffness, rest;
  auto energy() const {
    return Solver([this](double length) {
      double d = length - rest;
      return 0.5 * stiffness * d * d;
    }, 0.0);
  }
};

double capturedThis(const double *x, int) {
  Spring spring{x[0], x[1]};
  auto energy = spring.energy();
  return energy.eval(x[2]) + energy.eval(x[3]);
}

template <class F> struct Holder {
  F f;
};
template <class F> double callTwice(F f, double v) {
  f(v);
  return f(v);
}

double mutableCopies(const double *x, int) {
  auto sum = [s = 0.0](double v) mutable {
    s += v * v;
    return s;
  };
  double a = callTwice(sum, x[0]); // a copy: sum's state unchanged
  double b = sum(x[1]);
  Holder<decltype(sum)> held{sum}; // a copy of sum's state now
  Holder<decltype(sum)> again = held;
  double c = held.f(x[2]);
  double d = again.f(x[3]);
  auto named = sum;
  return a + 10 * b + 100 * c + 1000 * d + 10000 * named(x[0]) + sum(x[1]);
}

int main() {
  const double x[] = {0.7, -0.4, 1.3, 0.2, -0.9};
  check::checkModes<solverTemplate>("solver template", x, 5);
  check::checkModes<integrators>("integrators", x, 5);
  check::checkModes<tuples>("tuples", x, 5);
  check::checkModes<arrays>("arrays", x, 3);
  check::checkModes<capturedThis>("captured this", x, 4);
  check::checkModes<mutableCopies>("mutable copies", x, 4);
  return check::report();
}
