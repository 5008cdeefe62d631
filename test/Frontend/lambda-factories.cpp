// Lambdas returned by the functions that make them: the factory's body is
// lowered where it is called, a capture by copy is a snapshot taken there
// (g keeps x), a capture by reference is the caller's place the factory's
// reference parameter designates, read when the closure is called (d sees
// c after `c = 2 * y`). Nothing of either closure is left: no call, no
// memory.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

static auto scaled(double w) {
  return [w](double t) { return w * t * t; };
}
static auto offsetBy(const double &c) {
  return [&c](double t) { return t - c; };
}

// CHECK-LABEL: func.func @_Z7factorydd(%arg0: f64, %arg1: f64) -> f64
// CHECK-NOT: call
// CHECK-NOT: memref
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f64
// CHECK: %[[C:.*]] = arith.mulf %arg1, %[[TWO]] : f64
// CHECK: %[[XY:.*]] = arith.mulf %arg0, %arg1 : f64
// CHECK: %[[G:.*]] = arith.mulf %[[XY]], %arg1 : f64
// CHECK: %[[D:.*]] = arith.subf %arg0, %[[C]] : f64
// CHECK: %[[SUM:.*]] = arith.addf %[[G]], %[[D]] : f64
// CHECK: return %[[SUM]] : f64
[[ct::differentiable]] double factory(double x, double y) {
  auto g = scaled(x);
  double c = y;
  auto d = offsetBy(c);
  c = 2 * y;
  return g(y) + d(x);
}
