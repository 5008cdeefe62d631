//===- dual.h - Forward-mode dual numbers for reference derivatives -------===//
//
// A value and one directional derivative, for tests whose reference is the
// same templated code evaluated on duals (independent of Cotangent).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_TEST_DUAL_H
#define COTANGENT_TEST_DUAL_H

#include <cmath>

struct Dual {
  double v = 0, d = 0;
  Dual() = default;
  Dual(double value, double derivative = 0) : v(value), d(derivative) {}
};
inline Dual operator+(Dual a, Dual b) { return {a.v + b.v, a.d + b.d}; }
inline Dual operator-(Dual a, Dual b) { return {a.v - b.v, a.d - b.d}; }
inline Dual operator-(Dual a) { return {-a.v, -a.d}; }
inline Dual operator*(Dual a, Dual b) {
  return {a.v * b.v, a.d * b.v + a.v * b.d};
}
inline Dual operator/(Dual a, Dual b) {
  return {a.v / b.v, (a.d * b.v - a.v * b.d) / (b.v * b.v)};
}
inline Dual &operator+=(Dual &a, Dual b) { return a = a + b; }
inline Dual &operator*=(Dual &a, Dual b) { return a = a * b; }
inline bool operator<(Dual a, Dual b) { return a.v < b.v; }
inline bool operator>(Dual a, Dual b) { return a.v > b.v; }
inline Dual exp(Dual a) { return {std::exp(a.v), std::exp(a.v) * a.d}; }
inline Dual log(Dual a) { return {std::log(a.v), a.d / a.v}; }
inline Dual sqrt(Dual a) {
  return {std::sqrt(a.v), a.d / (2 * std::sqrt(a.v))};
}
inline Dual sin(Dual a) { return {std::sin(a.v), std::cos(a.v) * a.d}; }
inline Dual cos(Dual a) { return {std::cos(a.v), -std::sin(a.v) * a.d}; }
inline Dual tanh(Dual a) {
  double t = std::tanh(a.v);
  return {t, (1 - t * t) * a.d};
}

#endif // COTANGENT_TEST_DUAL_H
