// What differentiable code refuses of SIMD vectors, each at its place: bit
// operations between two values that carry derivatives (no derivative goes
// through bits: one error where the lanes compute the same; a comparison's mask
// selecting lanes is a select, Integration/CPU/simd-masks.cpp), and x86's
// builtins that are not lowered yet (AVX-512's masked forms among them), a
// gather whose byte scale is not whole lanes; Clang's elementwise builtins
// of scalars that are not lowered yet.
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DBUILTIN -mavx512f 2>&1 | FileCheck %s --check-prefix=BUILTIN --implicit-check-not=error:
#include <cotangent/cotangent.h>

typedef double v2d __attribute__((vector_size(16)));
typedef long long v2i __attribute__((vector_size(16)));

#ifndef BUILTIN
[[ct::differentiable]] double chosen(double x, double y) {
  v2d a = {x, y}, b = {y, x};
  // CHECK: simd-vectors-unsupported.cpp:[[@LINE+1]]:20: error: cannot differentiate a floating-point value made from the bits of one that carries a derivative (read as an integer)
  v2d mixed = (v2d)((v2i)a & (v2i)b);
  return mixed[0] * mixed[1];
}
double chosenGradient(double x, double y) {
  double dx = 0, dy = 0;
  ct::gradient<chosen>(x, y, &dx, &dy);
  return dx + dy;
}
#else
[[ct::differentiable]] double reciprocal(double x) {
  typedef float v4f __attribute__((vector_size(16)));
  v4f a = {float(x), 1.0f, 2.0f, 3.0f};
  // BUILTIN: simd-vectors-unsupported.cpp:[[@LINE+1]]:11: error: the SIMD builtin '__builtin_ia32_rcpps' cannot be differentiated yet; build the library's scalar code instead (Eigen: define EIGEN_DONT_VECTORIZE)
  v4f r = __builtin_ia32_rcpps(a);
  return r[0] * x;
}
double reciprocalGradient(double x) {
  double dx = 0;
  ct::gradient<reciprocal>(x, &dx);
  return dx;
}

[[ct::differentiable]] double converted(double x) {
  typedef double v8d __attribute__((vector_size(64)));
  typedef int v8i __attribute__((vector_size(32)));
  v8d a = {x, x, x, x, x, x, x, x};
  v8i zero = {};
  // BUILTIN: simd-vectors-unsupported.cpp:[[@LINE+1]]:16: error: the SIMD builtin '__builtin_ia32_cvtpd2dq512_mask' cannot be differentiated yet; build the library's scalar code instead (Eigen: define EIGEN_DONT_VECTORIZE)
  v8i k = (v8i)__builtin_ia32_cvtpd2dq512_mask(a, zero, 3, 4);
  return x * k[0];
}
double convertedGradient(double x) {
  double dx = 0;
  ct::gradient<converted>(x, &dx);
  return dx;
}

[[ct::differentiable]] double gathered(const double *x) {
  typedef double v8d __attribute__((vector_size(64)));
  typedef int v8i __attribute__((vector_size(32)));
  v8i index = {0, 1, 2, 3, 4, 5, 6, 7};
  // BUILTIN: simd-vectors-unsupported.cpp:[[@LINE+1]]:49: error: these indices of a gather or scatter count parts of its lanes (its scale is not a whole number of lanes); it cannot be differentiated
  v8d g = __builtin_ia32_gathersiv8df(v8d{}, x, index, 255, 4);
  return g[0];
}
double gatheredGradient(const double *x, double *dx) {
  return ct::gradient<gathered>(x, dx);
}

[[ct::differentiable]] double bits(double x, unsigned n) {
  // BUILTIN: simd-vectors-unsupported.cpp:[[@LINE+1]]:14: error: the builtin '__builtin_elementwise_popcount' cannot be differentiated yet
  return x * __builtin_elementwise_popcount(n);
}
double bitsGradient(double x) {
  double dx = 0;
  ct::gradient<bits>(x, 5u, &dx);
  return dx;
}
#endif
