// SSE3's and AVX's alternating sums (X86VectorBuiltins.cpp), which Eigen's
// quaternion and complex products use where the processor has SSE3
// (-march=native): the difference of the operands' even lanes, the sum of
// their odd lanes.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -msse3 -mavx | FileCheck %s

#include <immintrin.h>

[[ct::differentiable]] double alternating(const double *x) {
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  double out[2];
  _mm_storeu_pd(out, _mm_addsub_pd(a, b));
  return out[0] * out[1];
}

[[ct::differentiable]] float alternatingWide(const float *x) {
  __m256 a = _mm256_loadu_ps(x), b = _mm256_loadu_ps(x + 8);
  float out[8];
  _mm256_storeu_ps(out, _mm256_addsub_ps(a, b));
  return out[0] * out[3];
}

// CHECK-LABEL: func.func @_ZL13_mm_addsub_pdDv2_dS_
// CHECK-SAME: (%[[A:arg[0-9]]]: {{.*}}, %[[B:arg[0-9]]]: {{.*}}, %[[OUT:arg[0-9]]]: memref
// CHECK-DAG: %[[A0:.*]] = memref.load %[[A]][%c0]
// CHECK-DAG: %[[A1:.*]] = memref.load %[[A]][%c1]
// CHECK-DAG: %[[B0:.*]] = memref.load %[[B]][%c0]
// CHECK-DAG: %[[B1:.*]] = memref.load %[[B]][%c1]
// CHECK: %[[D0:.*]] = arith.subf %[[A0]], %[[B0]] : f64
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[A1]], %[[B1]] : f64
// CHECK-NEXT: memref.store %[[D0]], %[[OUT]][%c0]
// CHECK-NEXT: memref.store %[[S1]], %[[OUT]][%c1]

// CHECK-LABEL: func.func @_ZL16_mm256_addsub_psDv8_fS_
// CHECK-COUNT-16: memref.load
// CHECK-NEXT: arith.subf {{.*}} : f32
// CHECK-NEXT: arith.addf {{.*}} : f32
// CHECK-NEXT: arith.subf {{.*}} : f32
// CHECK-NEXT: arith.addf {{.*}} : f32
// CHECK-NEXT: arith.subf {{.*}} : f32
// CHECK-NEXT: arith.addf {{.*}} : f32
// CHECK-NEXT: arith.subf {{.*}} : f32
// CHECK-NEXT: arith.addf {{.*}} : f32
// CHECK-NOT: arith.
// CHECK: return
