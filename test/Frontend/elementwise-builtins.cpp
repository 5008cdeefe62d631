// Clang's elementwise builtins are the <cmath> function of their name, on
// a scalar (as x86's `_mm_sqrt_ss` calls them, declared variadic) and on
// each lane of a SIMD vector.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

typedef double v2d __attribute__((vector_size(16)));

// CHECK-LABEL: func.func @_Z7scalarsdd(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64
// CHECK-DAG: math.sqrt %[[X]] : f64
// CHECK-DAG: math.exp %[[X]] : f64
// CHECK-DAG: math.powf %[[X]], %[[Y]] : f64
// CHECK: return
[[ct::differentiable]] double scalars(double x, double y) {
  return __builtin_elementwise_sqrt(x) + __builtin_elementwise_exp(x) +
         __builtin_elementwise_pow(x, y);
}

// CHECK-LABEL: func.func @_Z5lanesdd(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64
// CHECK-DAG: math.sin %[[X]] : f64
// CHECK-DAG: math.sin %[[Y]] : f64
// CHECK: return
[[ct::differentiable]] double lanes(double x, double y) {
  v2d s = __builtin_elementwise_sin((v2d){x, y});
  return s[0] * s[1];
}
