// The README's first example: only the differentiable function is
// lowered; main, which asks for its gradient, is left to the C++ compiler.
// (`ct::gradient` is declared here as <cotangent/cotangent.h> will declare
// it; the header arrives with the plugin.)
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null
namespace ct {
template <auto F, typename... Args> double gradient(Args... args);
} // namespace ct

// CHECK: module {
// CHECK-NEXT: func.func @_Z1fdd(%arg0: f64, %arg1: f64) -> f64
// CHECK-NEXT:   %[[XX:.*]] = arith.mulf %arg0, %arg0 : f64
// CHECK-NEXT:   %[[V:.*]] = arith.mulf %[[XX]], %arg1 : f64
// CHECK-NEXT:   return %[[V]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: }
[[ct::differentiable]] double f(double x, double y) { return x * x * y; }

int main() {
  double dx = 0, dy = 0;
  double v = ct::gradient<f>(3.0, 4.0, &dx, &dy); // v == 36, dx == 24, dy == 9
  return v == 36 ? 0 : 1;
}
