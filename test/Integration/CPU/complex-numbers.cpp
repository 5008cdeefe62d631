// std::complex<float/double> and _Complex values in differentiable code: a
// complex number is its real and imaginary parts (docs/Frontend.md), so
// arithmetic, abs, arg, norm, conj, polar, exp, log, pow, sqrt, sin, cos,
// tan, sinh, cosh, tanh are lowered on the parts and differentiated as real code.
// Real results through complex intermediates, complex parameters whose
// derivative is a std::complex (d/d re, d/d im), arrays of complex numbers
// written through; reverse and forward mode against central differences,
// at -O0 and -O2 (also with libc++, whose std::complex keeps two numbers
// and makes its _Complex value by __builtin_complex); sqrt's derivatives on
// the real axis against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <complex>

#include "check.h"

using cd = std::complex<double>;

/// A real result through complex intermediates.
[[ct::differentiable]] double throughComplex(double x, double y) {
  cd z(x, y);
  cd w = z * z + cd(1.0, 2.0) * x;
  w /= (z + 3.0);
  w -= std::conj(z) / cd(2.0, -1.0);
  cd e = std::exp(w) + std::log(z) + std::sqrt(z) + std::pow(z, 1.5) +
         std::pow(z, w * 0.1) + std::sin(z) * std::cos(z) + std::sinh(z) -
         std::cosh(z) + std::tan(z) + std::tanh(w) + std::polar(x, y);
  return std::abs(e) + std::arg(w) + e.real() * w.imag() + std::norm(z);
}

/// A complex parameter by reference and an array of them: the derivative
/// of each is a complex number (d/d re, d/d im).
[[ct::differentiable]] double potential(const cd &source, const cd *points,
                                        int n) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    cd d = points[i] - source;
    total += std::log(std::abs(d)) + (1.0 / d).real();
  }
  return total;
}

/// Complex memory written through: a discrete Fourier transform's energy
/// weighted by a phase.
[[ct::differentiable]] void spectrum(const double *x, int n, cd *out) {
  const double pi = 3.14159265358979323846;
  for (int k = 0; k < n; ++k) {
    cd sum = 0;
    for (int j = 0; j < n; ++j)
      sum += x[j] * std::exp(cd(0, -2 * pi * j * k / n));
    out[k] = sum * sum;
  }
}

/// float parts, and _Complex values as C writes them.
[[ct::differentiable]] float inFloat(float x) {
  std::complex<float> z(x, 2 * x);
  _Complex float c = z.real() + 3.0if;
  c *= c;
  return std::abs(z * z) + __real__ c;
}

static void checkThroughComplex() {
  double x = 0.7, y = 0.4, dx = 0, dy = 0;
  ct::gradient<throughComplex>(x, y, &dx, &dy);
  check::near("complex dx", dx,
              check::centralDifference(
                  [&](double t) { return throughComplex(t, y); }, x),
              1e-6);
  check::near("complex dy", dy,
              check::centralDifference(
                  [&](double t) { return throughComplex(x, t); }, y),
              1e-6);
  check::near("complex jvp", ct::jvp<throughComplex>(x, y, 1.0, 2.0).tangent,
              dx + 2 * dy, 1e-9);
}

static void checkParameters() {
  const int n = 3;
  cd source(0.2, -0.1), points[n] = {{1, 1}, {-0.5, 2}, {0.3, -1.2}};
  cd dsource = 0, dpoints[n] = {};
  ct::gradient<potential>(source, points, n, &dsource, dpoints);
  double h = 1e-6;
  auto at = [&](cd s) { return potential(s, points, n); };
  check::near("source d re", dsource.real(),
              (at(source + h) - at(source - h)) / (2 * h), 1e-6);
  check::near("source d im", dsource.imag(),
              (at(source + cd(0, h)) - at(source - cd(0, h))) / (2 * h), 1e-6);
  for (int i = 0; i < n; ++i) {
    cd saved = points[i];
    points[i] = saved + h;
    double plus = potential(source, points, n);
    points[i] = saved - h;
    double minus = potential(source, points, n);
    points[i] = saved;
    check::near("point d re", dpoints[i].real(), (plus - minus) / (2 * h),
                1e-6);
  }
}

static void checkSpectrum() {
  const int n = 4;
  double x[n] = {0.5, -1, 0.25, 2}, dx[n] = {};
  cd out[n], seed[n] = {{1, 0}, {0, 1}, {0.5, 0.5}, {-1, 0.25}}, dout[n];
  for (int k = 0; k < n; ++k)
    dout[k] = seed[k]; // (the pullback consumes its seed)
  ct::pullback<spectrum>(x, n, out, dx, dout);
  // d<seed, out>/dx (the seed's real pairing with out's parts).
  auto paired = [&] {
    cd o[n];
    spectrum(x, n, o);
    double s = 0;
    for (int k = 0; k < n; ++k)
      s += o[k].real() * seed[k].real() + o[k].imag() * seed[k].imag();
    return s;
  };
  for (int j = 0; j < n; ++j)
    check::near("spectrum", dx[j], check::differenceAt(x, j, paired), 1e-6);
}

static void checkFloat() {
  float x = 0.6f, dx = 0;
  ct::gradient<inFloat>(x, &dx);
  // |z^2| = 5 x^2, Re((x + 3i)^2) = x^2 - 9.
  check::near("float", dx, 10 * x + 2 * x, 1e-5);
}

/// sqrt where it is analytic on the real axis: d/dz sqrt z = 1 / (2 sqrt z)
/// (its parts' derivatives were NaN on the positive real axis, where
/// (|z| - x) / 2 is 0), and just above the negative real axis.
[[ct::differentiable]] double rootParts(double x, double y) {
  cd w = std::sqrt(cd(x, y));
  return w.real() + 0.7 * w.imag();
}

static void checkRootOnRealAxis() {
  for (double x : {4.0, 0.25}) {
    double dx = 0, dy = 0, slope = 0.5 / std::sqrt(x);
    ct::gradient<rootParts>(x, 0.0, &dx, &dy);
    check::near("sqrt on the real axis d x", dx, slope, 1e-14);
    check::near("sqrt on the real axis d y", dy, 0.7 * slope, 1e-14);
    check::near("sqrt on the real axis tangent",
                ct::jvp<rootParts>(x, 0.0, 0.0, 1.0).tangent, 0.7 * slope,
                1e-14);
  }
  // Just above the negative real axis (its cut): sqrt z near 2i,
  // derivative 1 / (2 sqrt z) near -i/4: d re = (0, 1/4), d im = (-1/4, 0).
  double dx = 0, dy = 0, y = 1e-9;
  ct::gradient<rootParts>(-4.0, y, &dx, &dy);
  check::near("sqrt above the negative axis d x", dx, -0.7 * 0.25, 1e-8);
  check::near("sqrt above the negative axis d y", dy, 0.25, 1e-8);
}

int main() {
  checkRootOnRealAxis();
  checkThroughComplex();
  checkParameters();
  checkSpectrum();
  checkFloat();
  return check::report();
}
