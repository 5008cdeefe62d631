// <cmath> functions beyond one math operation, in double and float,
// reverse and forward mode, at -O0 and -O2, against closed forms: the
// inverse hyperbolic functions; frexp, modf and remquo, which also return
// a part through a pointer, and GNU's sincos, which returns both so; logb and nextafter, computed by the C library;
// ldexp and scalbln by exponents beyond 2^1023's (a subnormal scaled up);
// lround, lrint and ilogb, whose integer results carry no derivative; an
// overload of the program's own that shares a C library name (its body);
// C++17's three-argument std::hypot (the library's body, not hypot(x, y)).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "partials.h"

#include <cmath>

template <class T> [[ct::differentiable]] T inverseHyperbolic(T x, T y) {
  return std::asinh(x) * y + std::acosh(y + 1) + std::atanh(x / 4);
}
template <class T> [[ct::differentiable]] T mantissa(T x, T y) {
  int e;
  T m = std::frexp(x * 3, &e);
  return m * y + T(e) * x;
}
template <class T> [[ct::differentiable]] T fraction(T x, T y) {
  T whole;
  T part = std::modf(x * y, &whole);
  return part * part + whole * x;
}
template <class T> [[ct::differentiable]] T quotientBits(T x, T y) {
  int q;
  T r = std::remquo(x, y, &q);
  return r + T(q) * x;
}
template <class T> [[ct::differentiable]] T bothTrigonometric(T x, T y) {
  T s, c;
  if constexpr (sizeof(T) == sizeof(float))
    sincosf(x * y, &s, &c);
  else
    sincos(x * y, &s, &c);
  return s * c + c * x;
}
template <class T> [[ct::differentiable]] T libraryComputed(T x, T y) {
  return std::logb(x) * y + std::nextafter(x * y, T(100)) * x;
}
template <class T> [[ct::differentiable]] T integerResults(T x, T y) {
  return T(std::lround(x)) * y + T(std::lrint(y)) * x + T(std::ilogb(x)) * x;
}
// A subnormal scaled by 2^n with n beyond the largest exponent.
template <class T> constexpr T kTiny = T(1e-310);
template <> constexpr float kTiny<float> = 1e-40f;
template <class T> constexpr int kUp = 1060;
template <> constexpr int kUp<float> = 150;
template <class T> [[ct::differentiable]] T farScaled(T x, T y) {
  return std::ldexp(x * kTiny<T>, kUp<T>) * y + std::scalbln(y, 2L);
}

// The program's own overload of a C library name: its body is what runs.
double frexp(double x, double y) { return x * y * y; }
[[ct::differentiable]] double ownOverload(double x, double y) {
  return frexp(x, y);
}

// sqrt(x^2 + y^2 + 4): d/dx = x / r, d/dy = y / r.
template <class T> [[ct::differentiable]] T hypot3(T x, T y) {
  return std::hypot(x, y, T(2));
}

template <class T> void all(double tol) {
  // asinh' = 1/sqrt(x^2 + 1), acosh' = 1/sqrt(x^2 - 1), atanh' = 1/(1 - x^2).
  double x = 1.5, y = 1.2;
  partials<inverseHyperbolic<T>, T>(
      "asinh, acosh, atanh", T(x), T(y),
      y / std::sqrt(x * x + 1) + 0.25 / (1 - x * x / 16),
      std::asinh(x) + 1 / std::sqrt((y + 1) * (y + 1) - 1), tol);
  // frexp(8.1) = 0.50625 2^4: m = 3x / 16, e = 4.
  partials<mantissa<T>, T>("frexp", T(2.7), T(1.2), 3.0 / 16 * 1.2 + 4,
                           0.50625, tol);
  // modf(3.24) = 0.24 + 3: d/dx = 2 (0.24) y + 3, d/dy = 2 (0.24) x.
  partials<fraction<T>, T>("modf", T(2.7), T(1.2), 2 * 0.24 * 1.2 + 3,
                           2 * 0.24 * 2.7, 1e3 * tol);
  // remquo(7.5, 2): 7.5 - 4 * 2, q = 4.
  partials<quotientBits<T>, T>("remquo", T(7.5), T(2.0), 1 + 4, -4.0, tol);
  // sin(u) cos(u) + cos(u) x with u = x y: d/du = cos 2u - x sin u.
  double u = 0.7 * 1.2, du = std::cos(2 * u) - 0.7 * std::sin(u);
  partials<bothTrigonometric<T>, T>("sincos", T(0.7), T(1.2),
                                    du * 1.2 + std::cos(u), du * 0.7, tol);
  // logb(2.7) = 1; nextafter(x y, 100) moves x y by one ulp: x^2 y.
  partials<libraryComputed<T>, T>("logb, nextafter", T(2.7), T(1.2),
                                  2 * 2.7 * 1.2, 1.0 + 2.7 * 2.7,
                                  tol);
  partials<hypot3<T>, T>("hypot(x, y, 2)", T(1), T(2), 1.0 / 3, 2.0 / 3, tol);
  check::near("hypot(x, y, 2) value", hypot3<T>(T(1), T(2)), 3, tol);
  partials<integerResults<T>, T>("lround, lrint, ilogb", T(2.7), T(1.2),
                                 1.0 + 1.0, 3.0, tol);
  // (Reverse mode along x passes 2^n itself, beyond the largest finite
  // number: what it gives there is infinity, as the derivative of ldexp
  // with respect to its argument is.)
  double scale = std::ldexp(double(kTiny<T>), kUp<T>);
  T gx = 0, gy = 0;
  T value = ct::gradient<farScaled<T>>(T(2.7), T(1.2), &gx, &gy);
  check::near("ldexp beyond 2^1023 value", value, scale * 2.7 * 1.2 + 4.8,
              tol * scale);
  check::near("ldexp beyond 2^1023 d/dy", gy, scale * 2.7 + 4, tol * scale);
  check::near("ldexp beyond 2^1023 jvp x",
              ct::jvp<farScaled<T>>(T(2.7), T(1.2), T(1), T(0)).tangent,
              scale * 1.2, tol * scale);
  check::near("modf value", fraction<T>(T(-2.5), T(1)), 0.25 + 5, tol);
  check::near("remquo value", quotientBits<T>(T(7.5), T(2)), -0.5 + 30, tol);
}

int main() {
  partials<ownOverload, double>("own frexp(x, y)", 1.5, 2.0, 4.0, 6.0, 1e-12);
  all<double>(1e-12);
  all<float>(1e-5);
  return check::report();
}
