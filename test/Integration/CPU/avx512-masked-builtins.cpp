// AVX-512's masked builtins in code that differentiates, as SIMD code
// writes them with <immintrin.h>: a loop's tail read by a masked load
// whose mask is known only at run time (the lanes past the end are never
// read) and added by a masked add, comparisons into a mask choosing lanes
// by a blend, a test of the mask (`kortestz`) choosing a branch, masked
// stores, gathers and scatters with a stride (a float gather's indices
// counting pairs of floats), parts taken out and put in
// (`extractf64x4`, `insertf64x4`), permutations by an index vector and by
// an immediate, shuffles, roundings (`roundscale`: no derivative),
// minima, square roots, the masked forms of fused multiply-adds.
// Every mode (value, gradient against central differences, forward mode,
// Hessian-vector products, two lanes) at -O0 and -O2, where the processor
// has AVX-512.
// REQUIRES: plugin, avx512
// RUN: %clangxx-ct -O0 -mavx512f -mavx512dq -mavx512vl %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 -mavx512f -mavx512dq -mavx512vl %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <immintrin.h>
#include <cotangent/cotangent.h>

#include "modes.h"

/// Σ x_i² over whole packets, then 3 x_i for the tail (n - 8 lanes).
double tail(const double *x, int n) {
  __m512d acc = _mm512_setzero_pd();
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    __m512d v = _mm512_loadu_pd(x + i);
    acc = _mm512_fmadd_pd(v, v, acc);
  }
  __mmask8 rest = (__mmask8)((1u << (n - i)) - 1);
  __m512d t = _mm512_maskz_loadu_pd(rest, x + i);
  acc = _mm512_mask_add_pd(acc, rest, acc,
                           _mm512_mul_pd(t, _mm512_set1_pd(3.0)));
  __m256d sum = _mm256_add_pd(_mm512_extractf64x4_pd(acc, 0),
                              _mm512_extractf64x4_pd(acc, 1));
  double lanes[4];
  _mm256_storeu_pd(lanes, sum);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

/// Lanes below 0.5 doubled, the others squared; halved when none is below.
double blends(const double *x, int) {
  __m512d v = _mm512_loadu_pd(x);
  __mmask8 low = _mm512_cmp_pd_mask(v, _mm512_set1_pd(0.5), _CMP_LT_OQ);
  __m512d r = _mm512_mask_blend_pd(low, _mm512_mul_pd(v, v),
                                   _mm512_add_pd(v, v));
  double out[8] = {};
  _mm512_mask_storeu_pd(out, (__mmask8)0x5f, r); // (lanes 5 and 7 kept 0)
  double y = 0;
  for (int k = 0; k < 8; ++k)
    y += (k + 1) * out[k];
  if (_mm512_kortestz(low, low))
    y *= 0.5;
  return y;
}

/// Gathers and scatters with a stride of 2, a masked gather.
double strided(const double *x, int) {
  __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
  __m512d a = _mm512_i32gather_pd(even, x, 8);
  __m512d b = _mm512_mask_i32gather_pd(_mm512_set1_pd(1.0), (__mmask8)0x0f,
                                       even, x + 1, 8);
  double out[16] = {};
  _mm512_i32scatter_pd(out, even, _mm512_mul_pd(a, b), 8);
  _mm512_mask_i32scatter_pd(out + 1, (__mmask8)0xf0, even, a, 8);
  double y = 0;
  for (int k = 0; k < 16; ++k)
    y += out[k] * (1 + 0.1 * k);
  return y * _mm256_extract_epi32(even, 3); // (6)
}

/// Floats gathered with a scale of 8 bytes (every second float), twice:
/// Σ f[2k]² / 4.
float everySecond(const float *f) {
  __m512 g = _mm512_i32gather_ps(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 0,
                                                   1, 2, 3, 4, 5, 6, 7),
                                 f, 8);
  float h[16];
  _mm512_storeu_ps(h, g);
  float y = 0;
  for (int k = 0; k < 8; ++k)
    y += h[k] * h[k + 8] * 0.25f;
  return y;
}

/// Permutations, shuffles, parts, roundings, minima, square roots.
double permutations(const double *x, int) {
  __m512d v = _mm512_loadu_pd(x);
  __m512d w = _mm512_loadu_pd(x + 8);
  __m512d reversed =
      _mm512_permutexvar_pd(_mm512_setr_epi64(7, 6, 5, 4, 3, 2, 1, 0), v);
  __m512d shuffled = _mm512_shuffle_pd(v, w, 0x6a);
  __m512d swapped = _mm512_permute_pd(w, 0x55);
  __m512d joined =
      _mm512_insertf64x4(v, _mm512_extractf64x4_pd(w, 1), 0);
  __m512d floors = _mm512_roundscale_pd(_mm512_mul_pd(w, _mm512_set1_pd(4.0)),
                                        _MM_FROUND_TO_NEG_INF);
  __m512d least = _mm512_min_pd(v, w);
  __m512d roots = _mm512_sqrt_pd(_mm512_add_pd(_mm512_mul_pd(w, w),
                                               _mm512_set1_pd(1.0)));
  __m512d fused = _mm512_mask_fmadd_pd(v, (__mmask8)0x33, w, reversed);
  __m512d all = _mm512_add_pd(
      _mm512_add_pd(_mm512_mul_pd(reversed, shuffled), swapped),
      _mm512_add_pd(_mm512_mul_pd(joined, floors),
                    _mm512_add_pd(_mm512_mul_pd(least, roots), fused)));
  double out[8];
  _mm512_storeu_pd(out, all);
  double y = 0;
  for (int k = 0; k < 8; ++k)
    y += out[k] * (0.5 + 0.125 * k);
  return y;
}

int main() {
  double points[16];
  for (int k = 0; k < 16; ++k)
    points[k] = 0.31 + 0.173 * k - 0.021 * k * k;
  check::checkModes<tail>("tail 11", points, 11);
  check::checkModes<tail>("tail 5", points, 5);
  check::checkModes<blends>("blends", points, 8);
  double high[8];
  for (int k = 0; k < 8; ++k)
    high[k] = 0.7 + 0.1 * k;
  check::checkModes<blends>("blends, none low", high, 8);
  check::checkModes<strided>("strided", points, 16);
  check::checkModes<permutations>("permutations", points, 16);
  float f[16], df[16] = {};
  for (int k = 0; k < 16; ++k)
    f[k] = 0.5f + 0.25f * k;
  ct::gradient<everySecond>(f, df);
  for (int k = 0; k < 16; ++k)
    check::near("float gather", df[k], k % 2 ? 0.0 : 0.5 * f[k], 1e-6);
  return check::report();
}
