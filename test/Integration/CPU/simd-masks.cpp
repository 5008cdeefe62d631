// Selections SIMD code writes with bit operations on a comparison's mask
// (`(m & a) | (~m & b)`, SSE2's `_mm_and_pd`/`_mm_andnot_pd`/`_mm_or_pd`
// as Eigen's `pselect` and `pblend` write them), x86's comparison builtins
// (`_mm_cmplt_pd` and the others, AVX's `_mm256_cmp_pd` with its
// immediate) and its minimum and maximum (`_mm_min_pd`, `_mm_max_pd`, the
// second operand unless the first is strictly smaller or larger): each
// lane is the select it computes, whose derivative is that of the lane it
// takes. Every mode against central differences, at -O0 and -O2. (The
// masks are recognized on values in registers, which the default strategy
// makes of every local.)
// REQUIRES: plugin, ad-optimizations
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "modes.h"

#include <immintrin.h>

typedef double v2d __attribute__((vector_size(16)));
typedef long long v2i __attribute__((vector_size(16)));

// The smaller of each pair of lanes, chosen with bit operations.
double maskedChoice(const double *x, int n) {
  v2d a = {x[0], x[1]}, b = {x[n - 1], x[0] * x[1]};
  v2i mask = a < b;
  v2d smaller = (v2d)(((v2i)a & mask) | ((v2i)b & ~mask));
  v2d larger = (v2d)((~mask & (v2i)a) | (mask & (v2i)b));
  return smaller[0] * larger[1] + smaller[1] * larger[0];
}

// Eigen's pselect and a ReLU written with SSE2's intrinsics.
static __m128d select(__m128d mask, __m128d a, __m128d b) {
  return _mm_or_pd(_mm_and_pd(mask, a), _mm_andnot_pd(mask, b));
}
double sse2(const double *x, int n) {
  __m128d a = _mm_set_pd(x[1], x[0]), b = _mm_set_pd(x[0], x[n - 1]);
  __m128d zero = _mm_setzero_pd();
  __m128d relu = select(_mm_cmpgt_pd(a, zero), a, zero);
  __m128d clipped = _mm_min_pd(_mm_max_pd(b, _mm_set1_pd(-0.5)),
                               _mm_set1_pd(0.95));
  __m128d leq = select(_mm_cmple_pd(a, b), _mm_mul_pd(a, b), _mm_sub_pd(a, b));
  __m128d sum = _mm_add_pd(_mm_add_pd(relu, clipped), leq);
  double lanes[2];
  _mm_storeu_pd(lanes, sum);
  return lanes[0] * lanes[1] + lanes[0];
}

// AVX's comparison by an immediate, in a function built for AVX (run only
// where the processor has it).
__attribute__((target("avx"))) double avx(const double *x, int n) {
  __m256d a = _mm256_set_pd(x[0], x[1], x[n - 1], 0.25);
  __m256d b = _mm256_set_pd(x[1], 0.5, x[0], x[0] * x[1]);
  __m256d gt = _mm256_cmp_pd(a, b, _CMP_GT_OQ);
  __m256d chosen = _mm256_blendv_pd(b, a, gt);
  __m256d lt = _mm256_cmp_pd(a, b, _CMP_LT_OS);
  __m256d masked = _mm256_and_pd(lt, _mm256_mul_pd(a, a));
  double lanes[4];
  _mm256_storeu_pd(lanes, _mm256_add_pd(chosen, masked));
  return lanes[0] * lanes[1] + lanes[2] * lanes[3];
}

int main() {
  const double points[][3] = {{0.4, 0.7, 1.1}, {0.9, -0.3, 0.2}};
  for (const double *point : points) {
    check::checkModes<maskedChoice>("masked choice", point, 3);
    check::checkModes<sse2>("sse2", point, 3);
    if (__builtin_cpu_supports("avx"))
      check::checkModes<avx>("avx", point, 3);
  }
  return check::report();
}
