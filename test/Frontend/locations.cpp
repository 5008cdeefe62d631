// Source locations travel into MLIR: each op carries the file, line and
// column of the C++ it comes from.
// RUN: %cotangent-cc --print-locations %s -- -std=c++20 | FileCheck %s

[[ct::differentiable]] double f(double x, double y) {
  double p = x * y;
  return p + x;
}
// CHECK: arith.mulf %arg0, %arg1 : f64 loc("{{.*}}locations.cpp":6:14)
// CHECK: arith.addf %{{.*}}, %arg0 : f64 loc("{{.*}}locations.cpp":7:10)
