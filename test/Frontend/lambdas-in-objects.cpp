// Lambdas with captures kept in objects: a closure has no memory of its
// own in the IR. Stored in a field (`Solver s{lambda, y}`) or copied with
// its object (`Solver copy = s`), it is recorded beside the object's place,
// and a call through the field (`f(t)` in a member function) lowers the
// lambda's body in place: no call, x (captured by copy) read from its
// snapshot, y (by reference) from its own place.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

template <class F> struct Solver {
  F f;
  double offset;
  double eval(double t) const { return f(t) + offset; }
};

// CHECK-LABEL: func.func @_Z4helddd(%arg0: f64, %arg1: f64) -> f64
// CHECK-NOT: call
// CHECK: %[[XT:.*]] = arith.mulf %arg0, %arg1 : f64
// CHECK: %[[E:.*]] = arith.addf %[[XT]], %arg1 : f64
// CHECK: %[[D:.*]] = arith.subf %arg0, %arg1 : f64
// CHECK: %[[R:.*]] = arith.mulf %[[E]], %[[D]] : f64
// CHECK: return %[[R]] : f64
[[ct::differentiable]] double held(double x, double y) {
  Solver s{[x](double t) { return x * t; }, y};
  Solver copy = s;
  Solver minus{[&y](double t) { return t - y; }, 0.0};
  return copy.eval(y) * minus.f(x);
}
