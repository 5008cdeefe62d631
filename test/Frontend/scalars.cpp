// Scalar expressions: arithmetic in float, double and integers, conversions,
// compound assignment, increments, the conditional operator, && and ||.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt --verify-diagnostics > /dev/null

// CHECK-LABEL: func.func @_Z5arithdd(%arg0: f64, %arg1: f64) -> f64
// CHECK-DAG: arith.addf %arg0, %arg1
// CHECK-DAG: arith.subf %arg0, %arg1
// CHECK-DAG: arith.mulf
// CHECK-DAG: arith.divf
// CHECK-DAG: arith.negf
[[ct::differentiable]] double arith(double x, double y) {
  return -((x + y) * (x - y)) / y;
}

// x + n is float in C++ (n converts to float), then the sum widens.
// CHECK-LABEL: func.func @_Z11conversionsfi(%arg0: f32, %arg1: i32) -> f64
// CHECK: %[[X2:.*]] = arith.mulf %arg0, %{{.*}} : f32
// CHECK: %[[I:.*]] = arith.fptosi %[[X2]] : f32 to i32
// CHECK: %[[K:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK: %[[N:.*]] = arith.sitofp %arg1 : i32 to f32
// CHECK: %[[S:.*]] = arith.addf %arg0, %[[N]] : f32
// CHECK: %[[W:.*]] = arith.extf %[[S]] : f32 to f64
// CHECK: %[[KD:.*]] = arith.sitofp %[[K]] : i64 to f64
// CHECK: arith.addf %[[W]], %[[KD]] : f64
[[ct::differentiable]] double conversions(float x, int n) {
  long k = (int)(x * 2.0f);
  return x + n + static_cast<double>(k);
}

// x += y; x *= 2; ++x; x--: each a load, an op and a store of the slot,
// promoted to SSA values.
// CHECK-LABEL: func.func @_Z8compounddd
// CHECK: %[[A:.*]] = arith.addf %arg0, %arg1
// CHECK: %[[B:.*]] = arith.mulf %[[A]], %cst
// CHECK: %[[C:.*]] = arith.addf %[[B]], %cst
// CHECK: %[[D:.*]] = arith.subf %[[C]], %cst
// CHECK: return %[[D]]
[[ct::differentiable]] double compound(double x, double y) {
  x += y;
  x *= 2;
  ++x;
  x--;
  return x;
}

// The conditional operator and short-circuit logic become branches: the
// right side of && is evaluated only when the left side holds.
// CHECK-LABEL: func.func @_Z6choosedd
// CHECK: %[[L:.*]] = arith.cmpf olt, %arg0, %arg1
// CHECK: %[[BOTH:.*]] = scf.if %[[L]] -> (i1) {
// CHECK:   arith.cmpf ogt, %arg1
// CHECK: } else {
// CHECK:   scf.yield %false
// CHECK: scf.if %[[BOTH]] -> (f64) {
// CHECK:   arith.mulf %arg0, %arg1
// CHECK: } else {
// CHECK:   arith.addf %arg0, %arg1
[[ct::differentiable]] double choose(double x, double y) {
  bool both = x < y && y > 0.5;
  return both ? x * y : x + y;
}

// Integers: signed and unsigned division, remainders, shifts, comparisons.
// CHECK-LABEL: func.func @_Z8integersij
// CHECK-DAG: arith.divsi
// CHECK-DAG: arith.remui
// CHECK-DAG: arith.shli
// CHECK-DAG: arith.cmpi ult
[[ct::differentiable]] double integers(int a, unsigned b) {
  int q = a / 3;
  unsigned r = b % 5u;
  int s = q << 2;
  return r < b ? s : r;
}
