// A `throw` inside a `try` that catches it is a jump to the handler: the
// loop it leaves gets a second exit, and the handler runs on the thrown
// number; handlers nothing reaches are not lowered. A `throw` nothing
// catches is ct.abort with what was thrown, where it was thrown.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

// CHECK-LABEL: func.func @_Z7stoppeddi(
// CHECK-NOT: ct.abort
// CHECK: %[[LOOP:.*]]:5 = scf.while
// CHECK: arith.cmpf ogt
// CHECK: scf.condition
// CHECK: %[[EXIT:.*]] = arith.index_castui %[[LOOP]]#4
// CHECK: scf.index_switch %[[EXIT]] -> f64
// CHECK-NEXT: case 1 {
// CHECK-NEXT: %[[K:.*]] = arith.sitofp %[[LOOP]]#2 : i32 to f64
// CHECK-NEXT: arith.mulf %[[LOOP]]#1, %[[K]] : f64
// CHECK-NOT: ct.abort
// CHECK: return
[[ct::differentiable]] double stopped(double x, int n) {
  double s = 0;
  try {
    for (int i = 0; i < n; ++i) {
      s += x;
      if (s > 4)
        throw i;
    }
  } catch (int k) {
    return s * k;
  } catch (...) {
    return 0;
  }
  return s;
}

struct Overflow {};

// CHECK-LABEL: func.func @_Z8uncaughtd(
// CHECK: scf.if
// CHECK: arith.mulf %arg0, %cst
// CHECK: } else {
// CHECK: scf.if
// CHECK-NEXT: ct.abort "{{.*}}exceptions.cpp:[[@LINE+6]]: an exception of type 'Overflow' was thrown in a derivative, which does not unwind to a caller; aborting"
[[ct::differentiable]] double uncaught(double x) {
  try {
    if (x > 1)
      throw 1.5;
    if (x > 2)
      throw Overflow{};
  } catch (double) {
    return 2 * x;
  }
  return x;
}
