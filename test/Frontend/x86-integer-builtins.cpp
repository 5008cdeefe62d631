// x86's integer builtins are what the instructions compute, lane by lane
// (X86IntegerBuiltins.cpp): a shift by a count checks the count against
// the lane's width (zeros past it), a conversion to integers rounds (or
// truncates) and gives INT_MIN out of range, a movemask gathers the lanes'
// sign bits, and an extraction by a constant is the lane.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

#include <emmintrin.h>

// (Each intrinsic is a function of the header, lowered on its own.)
[[ct::differentiable]] long long shifted(long long x) {
  return _mm_cvtsi128_si64(_mm_slli_epi64(_mm_set1_epi64x(x), 52));
}

[[ct::differentiable]] int truncated(double x) {
  return _mm_cvtsi128_si32(_mm_cvttpd_epi32(_mm_set1_pd(x)));
}

[[ct::differentiable]] int negative(double x, double y) {
  return _mm_movemask_pd(_mm_set_pd(y, x));
}

[[ct::differentiable]] int third(int a, int b, int c, int d) {
  return _mm_extract_epi16(_mm_setr_epi16(a, b, c, d, 0, 0, 0, 0), 2);
}

// Lane extraction by a constant (`_mm_extract_epi16`, a macro): the
// lane, here the third 16-bit lane, bits 32 to 47 of the first 64-bit one.
// CHECK-LABEL: func.func @_Z5thirdiiii
// CHECK: %[[WORD:.*]] = memref.load %{{.*}}[%c0] : memref<2xi64>
// CHECK-NEXT: %[[SHIFTED:.*]] = arith.shrui %[[WORD]], %c32_i64 : i64
// CHECK-NEXT: %[[LANE:.*]] = arith.trunci %[[SHIFTED]] : i64 to i16
// CHECK-NEXT: %[[WIDE:.*]] = arith.extui %[[LANE]] : i16 to i32
// CHECK-NEXT: return %[[WIDE]] : i32

// CHECK-LABEL: func.func @_ZL14_mm_slli_epi64
// CHECK-SAME: %[[V:.*]]: memref<?xi64{{.*}}>{{.*}}, %[[COUNT:.*]]: i32,
// CHECK-DAG: %[[WIDTH:.*]] = arith.constant 64 : i64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[LANE:.*]] = memref.load %[[V]]
// CHECK-DAG: %[[C:.*]] = arith.extui %[[COUNT]] : i32 to i64
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[C]], %[[WIDTH]] : i64
// CHECK: %[[SAFE:.*]] = arith.select %[[IN]], %[[C]], %[[ZERO]] : i64
// CHECK: %[[SHL:.*]] = arith.shli %[[LANE]], %[[SAFE]] : i64
// CHECK: arith.select %[[IN]], %[[SHL]], %[[ZERO]] : i64

// CHECK-LABEL: func.func @_ZL16_mm_cvttpd_epi32
// CHECK-DAG: %[[MAX:.*]] = arith.constant 0x41E0000000000000 : f64
// CHECK-DAG: %[[MIN:.*]] = arith.constant 0xC1E0000000000000 : f64
// CHECK-DAG: %[[INDEFINITE:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[T:.*]] = math.trunc %{{.*}} : f64
// CHECK: %[[ABOVE:.*]] = arith.cmpf oge, %[[T]], %[[MIN]] : f64
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[T]], %[[MAX]] : f64
// CHECK: %[[IN:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[IN]], %[[T]], %{{.*}} : f64
// CHECK: %[[I:.*]] = arith.fptosi %[[SAFE]] : f64 to i32
// CHECK: arith.select %[[IN]], %[[I]], %[[INDEFINITE]] : i32

// CHECK-LABEL: func.func @_ZL15_mm_movemask_pd
// CHECK-DAG: %[[X:.*]] = ct.bit_cast %{{.*}} : f64 to i64
// CHECK-DAG: %[[Y:.*]] = ct.bit_cast %{{.*}} : f64 to i64
// CHECK-DAG: %[[XN:.*]] = arith.cmpi slt, %[[X]], %{{.*}} : i64
// CHECK-DAG: %[[YN:.*]] = arith.cmpi slt, %[[Y]], %{{.*}} : i64
// CHECK-DAG: %[[YBIT:.*]] = arith.extui %[[YN]] : i1 to i32
// CHECK-DAG: arith.shli %[[YBIT]], %{{.*}} : i32
// CHECK: return
