// The frontend's output is input the AD engine accepts: a C++ function with
// a pointer, a counted loop and an early return, lowered by cotangent-cc,
// then differentiated (reverse and forward) and run, against closed forms.
// (Until the plugin and ct:: entry points exist, the requests are written
// in MLIR: Inputs/frontend-main.mlir.)
// RUN: %cotangent-cc %s -- -std=c++20 > %t.mlir
// RUN: sed -e '$d' %t.mlir > %t.full.mlir
// RUN: cat %S/Inputs/frontend-main.mlir >> %t.full.mlir
// RUN: %cotangent-opt %t.full.mlir --ct-autodiff %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 4: ok

[[ct::differentiable]] double poly(const double *p, double x, int n) {
  double s = 0, power = 1;
  for (int k = 0; k < n; ++k) {
    if (k == 3)
      return s;
    s += p[k] * power;
    power *= x;
  }
  return s;
}
