// Unions whose members are views of the same numbers. An integer member
// beside a float of its width reads and writes the float's bits through
// ct.bit_cast (never arith.bitcast, which the engine would take for bits
// without a derivative), so the sign trick becomes the negation it computes;
// members that are all doubles are the same slots (p.y is slot 1 of the
// object, as p.v[1] is).
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include -Wno-gnu-anonymous-struct -Wno-nested-anon-types | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include -Wno-gnu-anonymous-struct -Wno-nested-anon-types | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <cstdint>

union Bits {
  float f;
  std::uint32_t u;
};

// CHECK-LABEL: func.func @_Z7negatedf(
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %arg0 : f32
// CHECK-NEXT: return %[[NEG]] : f32
[[ct::differentiable]] float negated(float x) {
  Bits b;
  b.f = x;
  b.u ^= 0x80000000u;
  return b.f;
}

// CHECK-LABEL: func.func @_Z8exponentf(
// CHECK-NOT: arith.bitcast
// CHECK: %[[BITS:.*]] = ct.bit_cast %arg0 : f32 to i32
// CHECK: arith.shrui %[[BITS]]
[[ct::differentiable]] double exponent(float x) {
  Bits b;
  b.f = x;
  int e = int((b.u >> 23) & 0xff) - 127;
  return x * e;
}

struct Vec3 {
  union {
    struct {
      double x, y, z;
    };
    double v[3];
  };
};

// CHECK-LABEL: func.func @_Z3sumRK4Vec3(
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.for
// CHECK: memref.load %arg0[%{{.*}}] : memref<?xf64
// CHECK: memref.load %arg0[%[[C1]]] : memref<?xf64
[[ct::differentiable]] double sum(const Vec3 &p) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += p.v[i];
  return s + p.y;
}
