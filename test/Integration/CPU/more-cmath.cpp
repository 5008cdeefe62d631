// <cmath> functions lowered to other ops, in double and float, reverse and
// forward mode, at -O0 and -O2, against closed forms: fma, copysign, fdim,
// fmod, remainder, trunc, rint/nearbyint, ldexp/scalbn, and constants the
// compiler evaluates (INFINITY, HUGE_VAL, std::numeric_limits).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "partials.h"

#include <cmath>
#include <limits>

template <class T> [[ct::differentiable]] T fused(T x, T y) {
  return std::fma(x, y, x * x);
}
template <class T> [[ct::differentiable]] T signs(T x, T y) {
  return std::copysign(x * x * x, y);
}
template <class T> [[ct::differentiable]] T positiveDifference(T x, T y) {
  return std::fdim(x * x, y);
}
template <class T> [[ct::differentiable]] T modulo(T x, T y) {
  return std::fmod(x, y);
}
template <class T> [[ct::differentiable]] T nearestRemainder(T x, T y) {
  return std::remainder(x, y);
}
template <class T> [[ct::differentiable]] T rounded(T x, T y) {
  return std::trunc(x) * y + std::rint(y) * x + std::nearbyint(x);
}
template <class T> [[ct::differentiable]] T scaled(T x, T y) {
  return std::ldexp(x, 3) + std::scalbn(y, -1);
}
template <class T> [[ct::differentiable]] T limits(T x, T y) {
  T lowest = std::numeric_limits<T>::infinity(), clip = HUGE_VAL;
  lowest = std::fmin(lowest, x);
  return lowest * y + (clip > 1 ? T(0) : x) +
         (-INFINITY < x ? std::numeric_limits<T>::epsilon() : T(0));
}

template <class T> void all(double tol) {
  partials<fused<T>, T>("fma", 1.5, -2.0, -2.0 + 3.0, 1.5, tol);
  // copysign(x^3, y) = -x^3 for y < 0: d/dx = -3x^2; d/dy = 0.
  partials<signs<T>, T>("copysign", 1.5, -2.0, -3 * 2.25, 0.0, tol);
  partials<positiveDifference<T>, T>("fdim above", 1.5, 1.0, 3.0, -1.0, tol);
  partials<positiveDifference<T>, T>("fdim below", 0.5, 1.0, 0.0, 0.0, tol);
  // fmod(7.5, 2) = 1.5 = 7.5 - 3 * 2: d/dy = -3 (trunc(x/y)).
  partials<modulo<T>, T>("fmod", 7.5, 2.0, 1.0, -3.0, tol);
  // remainder(7.5, 2) = 7.5 - 4 * 2 = -0.5 (3.75 rounds to 4): d/dy = -4.
  partials<nearestRemainder<T>, T>("remainder", 7.5, 2.0, 1.0, -4.0, tol);
  // trunc(2.7) y + rint(1.2) x + nearbyint(x): d/dx = rint(y) = 1,
  // d/dy = trunc(x) = 2.
  partials<rounded<T>, T>("trunc, rint", 2.7, 1.2, 1.0, 2.0, tol);
  partials<scaled<T>, T>("ldexp, scalbn", 2.7, 1.2, 8.0, 0.5, tol);
  partials<limits<T>, T>("limits", 2.7, 1.2, 1.2, 2.7, tol);
  check::near("fmod value", modulo<T>(7.5, 2.0), 1.5, tol);
  check::near("remainder value", nearestRemainder<T>(7.5, 2.0), -0.5, tol);
}

int main() {
  all<double>(1e-15);
  all<float>(1e-6);
  return check::report();
}
