// A complex number is its two parts in memory (ComplexNumbers.cpp), which
// the clean-up keeps in registers: a product is the textbook formula on the
// parts, cabs a hypot, cexp exp(re) (cos im, sin im), __real__ the first
// part.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

// CHECK-LABEL: func.func @_Z7productdd(
// x + y * 1.0i: a real times (0, 1), added to (x, 0).
// CHECK: %[[RE:.*]] = arith.addf %arg0,
// CHECK: %[[IM:.*]] = arith.addf
// z *= z: (a a - b b, a b + b a).
// CHECK: %[[AA:.*]] = arith.mulf %[[RE]], %[[RE]]
// CHECK: %[[BB:.*]] = arith.mulf %[[IM]], %[[IM]]
// CHECK: %[[PRE:.*]] = arith.subf %[[AA]], %[[BB]]
// CHECK: %[[AB:.*]] = arith.mulf %[[RE]], %[[IM]]
// CHECK: %[[PIM:.*]] = arith.addf %[[AB]], %[[AB]]
// cexp: exp(re) sin(im) is its imaginary part.
// CHECK: %[[EXP:.*]] = math.exp %[[PRE]]
// CHECK: %[[SIN:.*]] = math.sin %[[PIM]]
// CHECK: %[[EIM:.*]] = arith.mulf %[[EXP]], %[[SIN]]
// cabs: hypot of the parts.
// CHECK: %[[ABS:.*]] = ct.hypot %[[PRE]], %[[PIM]]
// CHECK: %[[SUM:.*]] = arith.addf %[[PRE]], %[[ABS]]
// CHECK: arith.addf %[[SUM]], %[[EIM]]
[[ct::differentiable]] double product(double x, double y) {
  _Complex double z = x + y * 1.0i;
  z *= z;
  _Complex double e = __builtin_cexp(z);
  return __real__ z + __builtin_cabs(z) + __imag__ e;
}

// casinh: the C library's value (a call of the double function with the
// parts, which see no derivative), differentiated as the expression
// log(z + sqrt(z^2 + 1)) (ct.pass_through); csqrt is Kahan's form, t =
// sqrt((|x| + |z|) / 2) chosen by the sign of the real part.
// CHECK-LABEL: func.func @_Z7inversedd(
// z^2 + 1, then its root: t, and the choice by the real part's sign.
// CHECK: %[[MOD:.*]] = ct.hypot %[[W:[^,]*]], %{{.*}} : f64
// CHECK-NEXT: %[[ABSW:.*]] = math.absf %[[W]]
// CHECK: arith.addf %[[ABSW]], %[[MOD]]
// CHECK: %[[T:.*]] = math.sqrt
// CHECK: %[[RIGHT:.*]] = arith.cmpf oge, %[[W]],
// CHECK: arith.select %[[RIGHT]], %[[T]],
// The expression's imaginary part: arg(z + sqrt(z^2 + 1)).
// CHECK: %[[ARG:.*]] = math.atan2
// CHECK: %[[X:.*]] = ct.stop_gradient
// CHECK: %[[Y:.*]] = ct.stop_gradient
// CHECK: %[[LIB:.*]]:2 = call @casinh(%[[X]], %[[Y]]) : (f64, f64) -> (f64, f64)
// CHECK: %[[IM:.*]] = ct.pass_through %[[LIB]]#1, %[[ARG]] : f64
// CHECK: return %[[IM]]
[[ct::differentiable]] double inverse(double x, double y) {
  _Complex double z = x + y * 1.0i;
  return __imag__ __builtin_casinh(z);
}

// __builtin_complex(re, im) (libc++'s std::complex makes its _Complex value
// so): its operands are the parts.
// CHECK-LABEL: func.func @_Z5builtdd(
// CHECK: %[[IM:.*]] = arith.mulf %arg1, %{{.*}} : f64
// CHECK: %[[SUM:.*]] = arith.addf %arg0, %[[IM]] : f64
// CHECK: return %[[SUM]]
[[ct::differentiable]] double built(double x, double y) {
  _Complex double z = __builtin_complex(x, y * 2);
  return __real__ z + __imag__ z;
}

// The library function, declared once at the module's end.
// CHECK: func.func private @casinh(f64, f64) -> (f64, f64)
