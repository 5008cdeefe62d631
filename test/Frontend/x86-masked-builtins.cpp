// AVX-512's masked builtins are the operation, then a select of each lane
// by the mask's bit (X86MaskedBuiltins.cpp): a masked add selects between
// the sum and the passthrough operand, a comparison into a mask ors the
// lanes' comparisons shifted to their bits, a masked load with a mask
// known only at run time reads memory in an scf.if per lane (the lanes
// that are off may lie past the end of an array), and one with a mask
// known here reads the lanes that are on and nothing else.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -mavx512f | FileCheck %s

#include <immintrin.h>

[[ct::differentiable]] double masked(const double *x, int n) {
  __mmask8 rest = (__mmask8)((1u << n) - 1);
  __m512d v = _mm512_maskz_loadu_pd(rest, x);
  __m512d w = _mm512_mask_add_pd(v, rest, v, v);
  __mmask8 low = _mm512_cmp_pd_mask(w, v, _CMP_LT_OQ);
  __m512d t = _mm512_mask_loadu_pd(w, (__mmask8)0x03, x);
  double out[8];
  _mm512_storeu_pd(out, _mm512_mask_blend_pd(low, t, w));
  return out[0];
}

// CHECK-LABEL: func.func @_Z6maskedPKdi
// CHECK-SAME: (%[[X:.*]]: memref<?xf64{{.*}}>, %[[N:.*]]: i32)
// The zero-masked load with a run-time mask: lane 0 read where bit 0 is
// set, else the passthrough's (zero) lane.
// CHECK: %[[MASK:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK: %[[ZERO:.*]] = memref.load %{{.*}}[%c0]
// CHECK: %[[BIT0:.*]] = arith.andi %[[MASK]], %c1_i8 : i8
// CHECK: %[[ON0:.*]] = arith.cmpi ne, %[[BIT0]], %c0_i8 : i8
// CHECK: %[[LANE0:.*]] = scf.if %[[ON0]] -> (f64) {
// CHECK-NEXT: %[[READ:.*]] = memref.load %[[X]][%c0]
// CHECK-NEXT: scf.yield %[[READ]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ZERO]] : f64
// CHECK: call @_ZL18_mm512_mask_add_pdDv8_dhS_S_
// The comparison into a mask: lane i's comparison at bit i.
// CHECK: %[[C0:.*]] = arith.cmpf olt, %{{.*}}, %[[LANE0]] : f64
// CHECK-NEXT: %[[C1:.*]] = arith.cmpf olt
// CHECK: %[[B0:.*]] = arith.extui %[[C0]] : i1 to i8
// CHECK-NEXT: %[[B1:.*]] = arith.extui %[[C1]] : i1 to i8
// CHECK-NEXT: %[[S1:.*]] = arith.shli %[[B1]], %c1_i8 : i8
// CHECK-NEXT: arith.ori %[[B0]], %[[S1]] : i8
// The load with a mask known here (0x03): the first two lanes read, no
// branch, the others the passthrough's.
// CHECK-NOT: scf.if
// CHECK: memref.load %[[X]][%c0]
// CHECK-NEXT: memref.load %[[X]][%c1]
// CHECK-NOT: memref.load %[[X]]
// CHECK: call @_ZL20_mm512_mask_blend_pd

// The masked add: the sum's lane where the mask's bit is set, else the
// passthrough's.
// CHECK-LABEL: func.func @_ZL18_mm512_mask_add_pdDv8_dhS_S_
// CHECK-SAME: %[[M:[^:]*]]: i8
// CHECK: call @_ZL13_mm512_add_pdDv8_dS_
// CHECK: %[[A0:.*]] = arith.andi %[[M]], %c1_i8 : i8
// CHECK: %[[ONA:.*]] = arith.cmpi ne, %[[A0]], %c0_i8 : i8
// CHECK: arith.select %[[ONA]], %{{.*}}, %{{.*}} : f64
