// std::bit_cast between numbers of one width (its __builtin_bit_cast) is
// ct.bit_cast of the value read from its operand; canonicalization then
// turns a sign-bit trick into its floating-point operation.
// (--emit=mlir shows the module canonicalized.)
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

#include <cstdint>

// CHECK-LABEL: func.func @_Z7negatedd(
// CHECK-SAME: %[[X:.*]]: f64
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %[[X]] : f64
// CHECK-NEXT: return %[[NEG]]
[[ct::differentiable]] double negated(double x) {
  std::uint64_t bits = __builtin_bit_cast(std::uint64_t, x);
  return __builtin_bit_cast(double, bits ^ 0x8000000000000000ull);
}

// Other bit manipulations stay bits.
// CHECK-LABEL: func.func @_Z7halvingf(
// CHECK-SAME: %[[X:.*]]: f32
// CHECK: %[[BITS:.*]] = ct.bit_cast %[[X]] : f32 to i32
// CHECK: %[[HALF:.*]] = arith.shrsi %[[BITS]], %{{.*}} : i32
// CHECK: ct.bit_cast %[[HALF]] : i32 to f32
[[ct::differentiable]] float halving(float x) {
  return __builtin_bit_cast(float, __builtin_bit_cast(int, x) >> 1);
}
