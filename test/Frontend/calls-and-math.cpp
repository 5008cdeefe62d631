// Calls: functions with visible bodies (lowered too), function templates
// (Clang's instantiations), recursion, differentiable functions defined in
// another translation unit (declared), and <cmath> in its std:: and ::
// spellings and float overloads.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null
#include <cmath>

static double helper(double x) { return x * 3; }

template <typename T> T cube(T x) { return x * x * x; }

#include "Inputs/elsewhere.h"

// CHECK-LABEL: func.func @_Z5callsdf
// CHECK-DAG: call @_ZL6helperd(%arg0)
// CHECK-DAG: call @_Z4cubeIdET_S0_(%arg0)
// CHECK-DAG: call @_Z4cubeIfET_S0_(%arg1)
// CHECK-DAG: call @__ct_primal._Z9elsewhered(%arg0)
[[ct::differentiable]] double calls(double x, float y) {
  return helper(x) + cube(x) + cube(y) + elsewhere(x);
}

// CHECK-LABEL: func.func @_Z4factdi
// CHECK: call @_Z4factdi
[[ct::differentiable]] double fact(double x, int n) {
  return n == 0 ? 1.0 : x * fact(x, n - 1);
}

// CHECK-LABEL: func.func @_Z4mathdd
// CHECK-DAG: math.sin %arg0 : f64
// CHECK-DAG: math.exp %arg0 : f64
// CHECK-DAG: math.log %arg1 : f64
// CHECK-DAG: math.powf %arg0, %arg1 : f64
// CHECK-DAG: ct.hypot %arg0, %arg1 : f64
// CHECK-DAG: math.atan2 %arg0, %arg1 : f64
// CHECK-DAG: math.tanh
// CHECK-DAG: math.absf
// CHECK-DAG: arith.maxnumf
// CHECK-DAG: ct.lgamma %arg0 : f64
[[ct::differentiable]] double math(double x, double y) {
  return std::sin(x) + exp(x) + std::log(y) + std::pow(x, y) +
         std::hypot(x, y) + atan2(x, y) + std::tanh(x) + std::fabs(y) +
         std::fmax(x, y) + std::lgamma(x);
}

// The float overloads stay in f32.
// CHECK-LABEL: func.func @_Z9mathfloatf
// CHECK-DAG: math.cos %arg0 : f32
// CHECK-DAG: math.exp %arg0 : f32
// CHECK-DAG: math.erf %arg0 : f32
[[ct::differentiable]] float mathfloat(float x) {
  return std::cos(x) + expf(x) + std::erf(x);
}

// Functions the math dialect spells another way, and constants the
// compiler evaluates (ldexp by a constant folds to a product).
// CHECK-LABEL: func.func @_Z9rewrittendd
// CHECK-DAG: math.fma %arg0, %arg1, %arg0 : f64
// CHECK-DAG: math.copysign %arg0, %arg1 : f64
// CHECK-DAG: arith.cmpf ugt, %arg0, %arg1 : f64
// CHECK-DAG: arith.remf %arg0, %arg1 : f64
// CHECK-DAG: math.roundeven
// CHECK-DAG: math.trunc %arg0 : f64
// CHECK-DAG: arith.mulf %arg0, %{{.*}} : f64
// CHECK-DAG: arith.constant 0x7FF0000000000000 : f64
// CHECK-NOT: call
[[ct::differentiable]] double rewritten(double x, double y) {
  return std::fma(x, y, x) + std::copysign(x, y) + std::fdim(x, y) +
         std::fmod(x, y) + std::remainder(x, y) + std::trunc(x) +
         std::ldexp(x, 2) + HUGE_VAL;
}

// Functions called from differentiable code are lowered with their bodies;
// the declaration-only differentiable one is bound to the derivatives its
// own translation unit exports (CrossTranslationUnit.cpp).
// CHECK-LABEL: func.func @_ZL6helperd
// CHECK: arith.mulf
// CHECK-LABEL: func.func @_Z4cubeIdET_S0_
// CHECK-LABEL: func.func @_Z4cubeIfET_S0_(%arg0: f32) -> f32
// CHECK-DAG: func.func private @__ct_primal._Z9elsewhered(f64) -> f64
// CHECK-DAG: func.func private @__ct_pullback._Z9elsewhered(f64, f64) -> f64
// CHECK-DAG: func.func private @__ct_jvp._Z9elsewhered(f64, f64) -> (f64, f64)
// CHECK-DAG: ct.custom_gradient @__ct_primal._Z9elsewhered pullback @__ct_pullback._Z9elsewhered
// CHECK-DAG: ct.custom_jvp @__ct_primal._Z9elsewhered jvp @__ct_jvp._Z9elsewhered

// Constant data from outside the function: a private constant memref.global
// per variable, its scalars laid out as in memory.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s --check-prefix=GLOBALS
// GLOBALS-DAG: memref.global "private" constant @__ct_constant.table.{{[0-9]+}} : memref<4xf64> = dense<[5.000000e-01, 1.500000e+00, 0.000000e+00, 0.000000e+00]>
// GLOBALS-DAG: memref.global "private" constant @__ct_constant.grid.{{[0-9]+}} : memref<4xi32> = dense<[1, 2, 3, 4]>
// GLOBALS-LABEL: func.func @_Z6tableddi
// GLOBALS-DAG: memref.get_global @__ct_constant.table.{{[0-9]+}} : memref<4xf64>
// GLOBALS-DAG: memref.get_global @__ct_constant.grid.{{[0-9]+}} : memref<4xi32>
constexpr double table[4] = {0.5, 1.5};
[[ct::differentiable]] double tabled(double x, int i) {
  static const int grid[2][2] = {{1, 2}, {3, 4}};
  return table[i] * x + grid[i % 2][1];
}
