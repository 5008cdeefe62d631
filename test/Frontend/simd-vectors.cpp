// A SIMD vector is its lanes in memory, and its operations act lane by
// lane: once the lanes are promoted to values (as --emit=mlir shows the
// module), a product of vectors is one product per lane, and a sign bit
// flipped through a reinterpretation as integers is a negation of that
// lane (the other lane's exclusive or with 0 is no change at all).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

typedef double v2d __attribute__((vector_size(16)));
typedef long long v2i __attribute__((vector_size(16)));

// CHECK-LABEL: func.func @_Z7squaresdd(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64
// CHECK-NEXT: %[[XX:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[YY:.*]] = arith.mulf %[[Y]], %[[Y]] : f64
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[XX]], %[[YY]] : f64
// CHECK-NEXT: return %[[SUM]]
[[ct::differentiable]] double squares(double x, double y) {
  v2d a = {x, y};
  v2d c = a * a;
  return c[0] + c[1];
}

// CHECK-LABEL: func.func @_Z4flipdd(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %[[X]] : f64
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[NEG]], %[[Y]] : f64
// CHECK-NEXT: return %[[P]]
[[ct::differentiable]] double flip(double x, double y) {
  v2d a = {x, y};
  v2d n = (v2d)((v2i)a ^ (v2i){(long long)0x8000000000000000ull, 0});
  return n[0] * n[1];
}

// x86's builtins act lane by lane too: a comparison is each lane's mask
// (all ones where it holds), a minimum the instruction's select, and a
// select by the mask's bits is the select of the lanes.
// CHECK-LABEL: func.func @_Z7smallerdd(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64
// CHECK-DAG: %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[Y]] : f64
// CHECK-DAG: %[[MIN:.*]] = arith.select %[[LT]], %[[X]], %[[Y]] : f64
// CHECK-DAG: %[[GT:.*]] = arith.cmpf olt, %[[Y]], %[[X]] : f64
// CHECK-DAG: %[[PICK:.*]] = arith.select %[[GT]], %[[Y]], %[[X]] : f64
// CHECK: arith.mulf
[[ct::differentiable]] double smaller(double x, double y) {
  v2d a = {x, y}, b = {y, x};
  v2d least = __builtin_ia32_minpd(a, b);
  v2i mask = (v2i)__builtin_ia32_cmpltpd(b, a);
  v2d chosen = (v2d)((mask & (v2i)b) | (~mask & (v2i)a));
  return least[0] * chosen[0];
}

// Assembly computing a packet's minimum (Eigen's pmin for Clang) is the
// instruction's select, lane by lane; a swizzle through integer lanes
// (`_mm_shuffle_epi32` of a double packet's bits: each double's halves
// moved together) is the lanes themselves, swapped.
// CHECK-LABEL: func.func @_Z8swizzleddd(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64
// CHECK-DAG: %[[LT:.*]] = arith.cmpf olt, %[[Y]], %[[X]] : f64
// CHECK-DAG: %[[MIN:.*]] = arith.select %[[LT]], %[[Y]], %[[X]] : f64
// CHECK: %[[P:.*]] = arith.mulf %[[MIN]], %[[Y]] : f64
// CHECK: return %[[P]]
[[ct::differentiable]] double swizzled(double x, double y) {
  v2d a = {x, y}, b = {y, x};
  v2d least = b;
  asm("minpd %[a], %[res]" : [res] "+x"(least) : [a] "x"(a));
  typedef int v4i __attribute__((vector_size(16)));
  v2d swapped = (v2d)__builtin_ia32_pshufd((v4i)a, 0x4E);
  return least[0] * swapped[0];
}
