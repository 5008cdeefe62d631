// Eigen's array functions with its SIMD packets on, as a user builds them:
// the default flags (SSE2), AVX2 with FMA where the processor has them,
// and `-march=native` (AVX-512's masked packets where it has them). Eigen computes `exp`, `log`, `sin`, `pow`... of packets by
// polynomials behind rounding tricks; each call is the C library's function
// on each lane, differentiated by its rule (docs/Eigen.md). Every mode
// against central differences in double (modes.h), and float gradients
// against closed forms. (Eigen's packets' sign masks, `abs`, are recognized
// by the default strategy only.)
// REQUIRES: plugin, eigen, ad-optimizations
// RUN: %clangxx-ct -O0 %eigen %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %eigen %s -o %t2 && %t2 | FileCheck %s
// RUN: %if avx2 %{ %clangxx-ct -O2 -mavx2 -mfma %eigen %s -o %t3 && %t3 | FileCheck %s %}
// RUN: %clangxx-ct -O2 -march=native %eigen %s -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"
#include "modes.h"

// Every array function Eigen vectorizes, of positive numbers.
double arrayFunctions(const double *x, int n) {
  Eigen::Map<const Eigen::ArrayXd> a(x, n);
  return a.exp().sum() + a.log().sum() + a.sin().sum() + a.cos().sum() +
         a.tanh().sum() + a.sqrt().sum() + a.rsqrt().sum() + a.log1p().sum() +
         a.expm1().sum() + a.pow(2.5).sum() + a.log10().sum() +
         a.logistic().sum() + a.inverse().sum() + a.abs().sum() +
         (3.0 * a).floor().sum() + (3.0 * a).round().sum() +
         (3.0 * a).ceil().sum();
}

// A log-sum-exp of an affine map (a softmax's normalizer), vectorized over
// the rows.
double logSumExp(const double *x, int n) {
  Eigen::Map<const Eigen::VectorXd> v(x, n);
  Eigen::VectorXd z = 2.0 * v.array().sin().matrix() - v;
  double top = z.maxCoeff();
  return top + std::log((z.array() - top).exp().sum());
}

// A Gaussian likelihood of each coordinate's own scale: log, exp and
// squares of whole arrays, into locals.
double gaussianLikelihood(const double *x, int n) {
  Eigen::Map<const Eigen::ArrayXd> a(x, n);
  Eigen::ArrayXd scale = (0.5 * a).exp();
  Eigen::ArrayXd r = (a - 0.7) / scale;
  return (0.5 * r.square() + scale.log()).sum();
}

template <class T> T floatFunctions(const T *x, int n) {
  Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> a(x, n);
  return a.exp().sum() + a.log().sum() + a.sin().sum() + a.cos().sum() +
         a.tanh().sum() + a.sqrt().sum() + a.pow(T(1.5)).sum();
}

// The derivative of floatFunctions at one coordinate, in double.
static double floatDerivative(double x) {
  return std::exp(x) + 1 / x + std::cos(x) - std::sin(x) +
         (1 - std::tanh(x) * std::tanh(x)) + 0.5 / std::sqrt(x) +
         1.5 * std::sqrt(x);
}

int main() {
  // (n = 11: whole packets and a remainder at every packet width.)
  double point[11];
  for (int i = 0; i < 11; ++i)
    point[i] = 0.15 + 0.29 * i;
  // (The derivative computes each value by the C library, Eigen by its own
  // polynomials: they agree to a few units in the last place.)
  check::checkModes<arrayFunctions>("array functions", point, 11, 1e-12);
  check::checkModes<logSumExp>("log-sum-exp", point, 11, 1e-12);
  check::checkModes<gaussianLikelihood>("gaussian", point, 11, 1e-12);

  float x[11], dx[11] = {};
  for (int i = 0; i < 11; ++i)
    x[i] = float(point[i]);
  check::near("float value", ct::gradient<floatFunctions<float>>(x, 11, dx),
              floatFunctions<float>(x, 11), 1e-5);
  for (int i = 0; i < 11; ++i)
    check::near("float d/dx", dx[i], floatDerivative(x[i]), 1e-5);
  return check::report();
}
