// `long double` (x86's 80-bit extended precision) in differentiable code:
// parameters, results, locals, literals (`1.5L`), <cmath> in long double
// (sinl, expl, logl, powl, sqrtl through std::; acoshl, erfl, expm1l and
// the other functions LLVM has no intrinsic for), loops whose values the
// reverse sweep reads from the tape (an 80-bit entry takes two slots),
// arrays and structs of long doubles (also beside a float, a double and an
// int), std::complex<long double>, and long double accumulators inside
// functions of doubles. Reverse and forward mode, Hessian-vector products
// and vector lanes (a lane of long doubles is 16 bytes in memory), against
// central differences computed in long double; at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <complex>
#include <cstdio>

#include "check.h"

[[ct::differentiable]] long double terms(long double x, long double y) {
  long double s = 0;
  for (int i = 0; i < 5; ++i)
    s += std::sin(x * i) * y + 1.5L * x * x / (i + 1);
  return s / (1 + y * y) + std::exp(x) * std::log(y) + std::pow(x, 3.0L) +
         std::sqrt(x * y);
}

// The <cmath> functions LLVM has no intrinsic for, in long double (the C
// library's acoshl, erfl, expm1l, ...), and some it has.
[[ct::differentiable]] long double special(long double x) {
  return std::acosh(1 + x * x) + std::asinh(x) + std::atanh(x / 2) +
         std::erf(x) + std::erfc(x / 3) + std::cbrt(2 + x) + std::expm1(x) +
         std::log1p(x * x) + std::tan(x) + std::atan(x) + std::asin(x / 2) +
         std::acos(x / 3) + std::sinh(x) + std::cosh(x) + std::tanh(x) +
         std::log10(2 + x) + std::log2(2 + x) + std::exp2(x) +
         std::atan2(x, 2.0L) + std::hypot(x, 1.5L);
}

// Their derivatives in closed form.
static long double specialDerivative(long double x) {
  const long double pi = 3.141592653589793238462643383279502884L;
  long double u = 1 + x * x;
  return 2 * x / std::sqrt(u * u - 1) + 1 / std::sqrt(u) +
         0.5L / (1 - x * x / 4) + 2 / std::sqrt(pi) * std::exp(-x * x) -
         2 / std::sqrt(pi) * std::exp(-x * x / 9) / 3 +
         1 / (3 * std::cbrt((2 + x) * (2 + x))) + std::exp(x) +
         2 * x / (1 + x * x) + 1 / (std::cos(x) * std::cos(x)) + 1 / u +
         0.5L / std::sqrt(1 - x * x / 4) - 1 / (3 * std::sqrt(1 - x * x / 9)) +
         std::cosh(x) + std::sinh(x) + 1 - std::tanh(x) * std::tanh(x) +
         1 / ((2 + x) * std::log(10.0L)) + 1 / ((2 + x) * std::log(2.0L)) +
         std::exp2(x) * std::log(2.0L) + 2 / (4 + x * x) +
         x / std::sqrt(x * x + 2.25L);
}

static void checkSpecial() {
  for (long double x : {0.6L, -0.35L}) {
    long double dx = 0;
    long double value = ct::gradient<special>(x, &dx);
    check::near("special value", static_cast<double>(value),
                static_cast<double>(special(x)), 1e-15);
    check::near("special gradient", static_cast<double>(dx),
                static_cast<double>(specialDerivative(x)), 1e-15);
    check::near("special jvp",
                static_cast<double>(ct::jvp<special>(x, 1.0L).tangent),
                static_cast<double>(specialDerivative(x)), 1e-15);
  }
}

struct Pair {
  long double sum, product;
};

[[ct::differentiable]] long double reduce(const long double *x, int n) {
  Pair p{0, 1};
  long double scratch[8];
  for (int i = 0; i < n; ++i) {
    scratch[i] = x[i] * x[i];
    p.sum += scratch[i];
    p.product *= std::cos(x[i]);
  }
  return p.sum * p.product + scratch[n - 1];
}

// A long double accumulator in a function of doubles.
[[ct::differentiable]] double norm(const double *x, int n) {
  long double acc = 0;
  for (int i = 0; i < n; ++i)
    acc += static_cast<long double>(x[i]) * x[i];
  return static_cast<double>(std::sqrt(acc));
}

struct Mixed {
  long double sum;
  float product;
  double scale;
  int count;
};

[[ct::differentiable]] double mixed(const double *x, int n) {
  Mixed m{0, 1, 0.5, 0};
  for (int i = 0; i < n; ++i) {
    m.sum += static_cast<long double>(x[i]) * x[i];
    m.product *= static_cast<float>(x[i]);
    ++m.count;
  }
  return static_cast<double>(m.sum) * m.scale * m.count + m.product;
}

[[ct::differentiable]] long double complexAbs(long double x, long double y) {
  std::complex<long double> z(x, y);
  return std::abs(z * z + z) + std::real(std::exp(z));
}

static long double difference(long double (*f)(long double)) {
  const long double h = 1e-6L;
  return (f(h) - f(-h)) / (2 * h);
}

static long double at[2] = {1.25L, 0.5L};

static void checkTerms() {
  long double dx = 0, dy = 0;
  long double value = ct::gradient<terms>(at[0], at[1], &dx, &dy);
  check::near("terms value", static_cast<double>(value),
              static_cast<double>(terms(at[0], at[1])), 1e-15);
  long double fx = difference(
      [](long double h) { return terms(at[0] + h, at[1]); });
  long double fy = difference(
      [](long double h) { return terms(at[0], at[1] + h); });
  // Long double differences with h = 1e-6: error about 1e-12.
  check::near("terms d/dx", static_cast<double>(dx), static_cast<double>(fx),
              1e-9);
  check::near("terms d/dy", static_cast<double>(dy), static_cast<double>(fy),
              1e-9);
  auto tangent = ct::jvp<terms>(at[0], at[1], 1.0L, -2.0L);
  check::near("terms jvp", static_cast<double>(tangent.tangent),
              static_cast<double>(dx - 2 * dy), 1e-14);
  // The Hessian along (1, 0) against differences of the gradient.
  long double hx = 0, hy = 0;
  ct::hvp<terms>(at[0], at[1], 1.0L, 0.0L, &hx, &hy);
  auto gradientAt = [](long double x, long double *d) {
    long double gx = 0, gy = 0;
    ct::gradient<terms>(x, at[1], &gx, &gy);
    d[0] = gx;
    d[1] = gy;
  };
  long double plus[2], minus[2];
  gradientAt(at[0] + 1e-6L, plus);
  gradientAt(at[0] - 1e-6L, minus);
  check::near("terms hvp x", static_cast<double>(hx),
              static_cast<double>((plus[0] - minus[0]) / 2e-6L), 1e-8);
  check::near("terms hvp y", static_cast<double>(hy),
              static_cast<double>((plus[1] - minus[1]) / 2e-6L), 1e-8);
}

static void checkReduce() {
  long double x[4] = {0.3L, -0.4L, 0.6L, 0.8L}, dx[4] = {};
  ct::gradient<reduce>(x, 4, dx);
  for (int i = 0; i < 4; ++i) {
    long double saved = x[i];
    x[i] = saved + 1e-6L;
    long double up = reduce(x, 4);
    x[i] = saved - 1e-6L;
    long double down = reduce(x, 4);
    x[i] = saved;
    check::near("reduce gradient", static_cast<double>(dx[i]),
                static_cast<double>((up - down) / 2e-6L), 1e-9);
  }
  long double t[4] = {1, 0, 0, 0};
  check::near("reduce jvp",
              static_cast<double>(ct::jvp<reduce>(x, 4, t).tangent),
              static_cast<double>(dx[0]), 1e-14);
}

static void checkNorm() {
  double x[3] = {1, 2, 3}, dx[3] = {};
  ct::gradient<norm>(x, 3, dx);
  for (int i = 0; i < 3; ++i)
    check::near("norm gradient", dx[i], x[i] / std::sqrt(14.0), 1e-15);
}

static void checkLanes() {
  // Lane 0 along x, lane 1 along y: the two partial derivatives.
  long double seeds[4] = {1, 0, 0, 1};
  auto both = ct::jvp<terms, ct::lanes<2>>(at[0], at[1], seeds, seeds + 2);
  long double dx = 0, dy = 0;
  ct::gradient<terms>(at[0], at[1], &dx, &dy);
  check::near("terms lane 0", static_cast<double>(both.tangent[0]),
              static_cast<double>(dx), 1e-14);
  check::near("terms lane 1", static_cast<double>(both.tangent[1]),
              static_cast<double>(dy), 1e-14);
  long double weights[2] = {1, -2}, wx[2] = {}, wy[2] = {};
  ct::pullback<terms, ct::lanes<2>>(at[0], at[1], weights, wx, wy);
  check::near("terms reverse lanes", static_cast<double>(wx[1]),
              static_cast<double>(-2 * dx), 1e-14);
  check::near("terms reverse lanes", static_cast<double>(wy[0]),
              static_cast<double>(dy), 1e-14);
}

static void checkMixed() {
  double x[3] = {1, 2, 3}, dx[3] = {};
  ct::gradient<mixed>(x, 3, dx);
  // 1.5 (x0^2 + x1^2 + x2^2) + x0 x1 x2.
  check::near("mixed d/dx0", dx[0], 3 * x[0] + x[1] * x[2], 1e-6);
  check::near("mixed d/dx2", dx[2], 3 * x[2] + x[0] * x[1], 1e-6);
}

static void checkComplex() {
  long double dx = 0, dy = 0;
  ct::gradient<complexAbs>(0.5L, 0.25L, &dx, &dy);
  long double fx = difference(
      [](long double h) { return complexAbs(0.5L + h, 0.25L); });
  long double fy = difference(
      [](long double h) { return complexAbs(0.5L, 0.25L + h); });
  check::near("complex d/dx", static_cast<double>(dx), static_cast<double>(fx),
              1e-9);
  check::near("complex d/dy", static_cast<double>(dy), static_cast<double>(fy),
              1e-9);
}

int main() {
  checkSpecial();
  checkTerms();
  checkLanes();
  checkMixed();
  checkComplex();
  checkReduce();
  checkNorm();
  return check::report();
}
