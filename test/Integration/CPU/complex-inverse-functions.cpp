// The inverse trigonometric and hyperbolic functions of complex numbers
// (std::asin, acos, atan, asinh, acosh, atanh of std::complex<float>,
// <double> and <long double>), and std::proj: the value is the C library's, every
// derivative is the function's (computed from their expressions in log and
// sqrt). Each function's value and gradient at points in every quadrant
// (away from the branch cuts), of a real result through complex
// intermediates and of a complex parameter's parts; the gradient, each
// tangent and a Hessian-vector product against central differences; the
// values against the library's; at -O0 and -O2, and with libc++ (whose
// functions are its own code in log and sqrt).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <complex>

#include "check-modes.h"

using cd = std::complex<double>;

/// One function's parts, mixed so that both partial derivatives of both
/// parts reach the result: x[0] + i x[1] is the argument.
#define PARTS_OF(FUNCTION)                                                     \
  [[ct::differentiable]] double FUNCTION##Parts(const double *x, int) {        \
    cd w = std::FUNCTION(cd(x[0], x[1]));                                      \
    return w.real() + 0.7 * w.imag() + 0.3 * w.real() * w.imag();              \
  }
PARTS_OF(asin)
PARTS_OF(acos)
PARTS_OF(atan)
PARTS_OF(asinh)
PARTS_OF(acosh)
PARTS_OF(atanh)

/// All six in one expression, on a complex parameter by reference.
[[ct::differentiable]] double allOf(const cd &z) {
  cd w = std::asin(z) * std::acos(z) + std::atan(z) - std::asinh(z * 0.5) +
         std::acosh(z + 2.0) / std::atanh(z * 0.3);
  return std::abs(w) + std::arg(w);
}

/// std::proj: z itself for finite z.
[[ct::differentiable]] double projected(const double *x, int) {
  cd w = std::proj(cd(x[0], x[1]));
  return w.real() * w.imag() + w.real();
}

/// float and long double parts.
[[ct::differentiable]] double inFloat(const double *x, int) {
  std::complex<float> z{float(x[0]), float(x[1])};
  std::complex<float> w = std::asinh(z) + std::atan(z);
  return double(w.real() * w.imag());
}
[[ct::differentiable]] double inLongDouble(const double *x, int) {
  std::complex<long double> z(x[0], x[1]);
  std::complex<long double> w = std::acos(z) * std::atanh(z * 0.5L);
  return double(w.real() + w.imag());
}

template <auto F> void checkAt(const char *name, double re, double im) {
  double x[2] = {re, im}, v[2] = {0.6, -0.8};
  check::gradientAndTangents<F>(name, x, 2);
  check::hessianVectorProduct<F>(name, x, v, 2);
}

static void checkEachFunction() {
  // A point in each quadrant, off the cuts (the real axis beyond +-1 for
  // asin, acos, atanh; the imaginary axis beyond +-i for atan, asinh; the
  // real axis left of 1 for acosh).
  const double points[4][2] = {
      {0.3, 0.4}, {-0.5, 0.7}, {-0.6, -0.35}, {0.8, -0.45}};
  for (const auto &p : points) {
    checkAt<asinParts>("asin", p[0], p[1]);
    checkAt<acosParts>("acos", p[0], p[1]);
    checkAt<atanParts>("atan", p[0], p[1]);
    checkAt<asinhParts>("asinh", p[0], p[1]);
    checkAt<acoshParts>("acosh", p[0], p[1]);
    checkAt<atanhParts>("atanh", p[0], p[1]);
  }
  // Far from the origin and near it, where the expressions lose digits
  // that the library's values keep.
  checkAt<asinhParts>("asinh far", 40.0, -25.0);
  checkAt<atanParts>("atan far", -30.0, 12.0);
  double x[2] = {1e-9, 2e-9};
  check::near("asinh near 0 value", asinhParts(x, 2),
              ct::gradient<asinhParts>(x, 2, (double[2]){}), 1e-15);
  double w[2] = {0, 0};
  ct::gradient<asinhParts>(x, 2, w);
  // d/dz asinh(z) = 1/sqrt(1 + z^2), 1 at 0: d re/dx = 1, d im/dx = 0.
  check::near("asinh near 0 d x", w[0], 1.0 + 0.3 * 2e-9, 1e-12);
  check::near("asinh near 0 d y", w[1], 0.7 + 0.3 * 1e-9, 1e-12);
}

static void checkParameter() {
  const cd z(0.35, -0.25);
  cd dz = 0;
  double value = ct::gradient<allOf>(z, &dz);
  check::near("all value", value, allOf(z), 1e-13);
  const double h = 1e-6;
  double byRe =
      (allOf(z + cd(h, 0)) - allOf(z - cd(h, 0))) / (2 * h);
  double byIm =
      (allOf(z + cd(0, h)) - allOf(z - cd(0, h))) / (2 * h);
  check::near("all d re", dz.real(), byRe, 1e-6);
  check::near("all d im", dz.imag(), byIm, 1e-6);
}

static void checkOtherPrecisions() {
  double x[2] = {0.45, -0.3}, v[2] = {1, 0}, g[2] = {};
  // float: the gradient against differences of the float function, whose
  // rounding limits them to about 1e-3.
  ct::gradient<inFloat>(x, 2, g);
  const double h = 1e-3;
  for (int i = 0; i < 2; ++i) {
    double up[2] = {x[0], x[1]}, down[2] = {x[0], x[1]};
    up[i] += h;
    down[i] -= h;
    check::near("float gradient", g[i],
                (inFloat(up, 2) - inFloat(down, 2)) / (2 * h), 2e-3);
  }
  check::near("float jvp", ct::jvp<inFloat>(x, 2, v).tangent, g[0], 1e-5);
  check::gradientAndTangents<inLongDouble>("long double", x, 2);
  check::gradientAndTangents<projected>("proj", x, 2);
}

int main() {
  checkEachFunction();
  checkParameter();
  checkOtherPrecisions();
  return check::report();
}
