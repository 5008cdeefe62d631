// x86's integer builtins in SIMD code that differentiates: a power of two
// built by shifting an exponent into a double's bits (`_mm_slli_epi64`), an
// arithmetic shift (`_mm_srai_epi32`), a shift past the lane's width (zero,
// as the instruction gives), conversions to integers (truncated,
// `_mm_cvttpd_epi32`) and to floats and back (`_mm_cvtpd_ps`: the
// derivative goes through the float), and a movemask choosing a branch.
// Gradients and forward mode against closed forms, with SSE2 and with AVX2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if avx2 %{ %clangxx-ct -O2 -mavx2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <immintrin.h>
#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

double f(const double *x) {
  __m128d v = _mm_loadu_pd(x);
  __m128i e = _mm_set_epi64x(3, 1);
  __m128d p = _mm_castsi128_pd(_mm_slli_epi64(_mm_add_epi64(e, _mm_set1_epi64x(1023)), 52)); // {2, 8}
  __m128d s = _mm_mul_pd(v, p);
  __m128d r = _mm_cvtps_pd(_mm_cvtpd_ps(v));          // through floats
  __m128i k = _mm_cvttpd_epi32(_mm_mul_pd(v, _mm_set1_pd(10.0)));   // trunc(10 x)
  __m128i h = _mm_srai_epi32(k, 1);                    // floor(k / 2)
  __m128d kd = _mm_cvtepi32_pd(h);
  int m = _mm_movemask_pd(_mm_sub_pd(v, _mm_set1_pd(0.5)));  // lanes below 0.5
  double out[2], rr[2], kk[2];
  _mm_storeu_pd(out, s); _mm_storeu_pd(rr, r); _mm_storeu_pd(kk, kd);
  double y = out[0] + out[1] + rr[0] * rr[1] + kk[0] * x[0] + kk[1] * x[1];
  if (m & 1) y *= 3;
  if (m & 2) y *= 5;
  __m128i big = _mm_srli_epi64(_mm_set1_epi64x(-1), 70);  // count past the width: 0
  if (_mm_cvtsi128_si64(big) != 0) y = 0;
  return y;
}
int main() {
  double points[][2] = {{0.3, 0.7}, {0.8, 0.25}, {1.37, 2.91}};
  for (auto &x : points) {
    double dx[2] = {};
    double y = ct::gradient<f>(x, dx);
    float f0 = (float)x[0], f1 = (float)x[1];
    double k0 = std::floor(std::trunc(x[0] * 10) / 2);
    double k1 = std::floor(std::trunc(x[1] * 10) / 2);
    double c = (x[0] < 0.5 ? 3 : 1) * (x[1] < 0.5 ? 5 : 1);
    double expected = c * (2 * x[0] + 8 * x[1] + (double)f0 * (double)f1 +
                           k0 * x[0] + k1 * x[1]);
    double d0 = c * (2 + (double)f1 + k0), d1 = c * (8 + (double)f0 + k1);
    check::near("value", y, expected, 1e-14);
    check::near("d/dx0", dx[0], d0, 1e-6); // (the float's rounding)
    check::near("d/dx1", dx[1], d1, 1e-6);
    double t[2] = {0.5, -1.5};
    check::near("jvp", ct::jvp<f>(x, t).tangent, 0.5 * d0 - 1.5 * d1, 1e-6);
  }
  return check::report();
}
