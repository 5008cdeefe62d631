// Every loop of the derivatives is marked llvm.loop.unroll.runtime.disable,
// each with a loop ID of its own: unrolling derivative loops by a trip count
// known only at run time cost compile time and bought no speed
// (docs/Performance.md).
// RUN: %cotangent-cc %s --emit=llvm -- -std=c++20 -I%cotangent-include | FileCheck %s

#include <cotangent/cotangent.h>

// A product: its forward loop pushes, its reversed loop pops.
[[ct::differentiable]] double product(const double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; ++i)
    p *= x[i];
  return p;
}

double gradient(const double *x, int n, double *dx) {
  return ct::gradient<product>(x, n, dx);
}

// CHECK: br {{.*}}, !llvm.loop ![[FORWARD:[0-9]+]]
// CHECK: br {{.*}}, !llvm.loop ![[REVERSE:[0-9]+]]
// CHECK-DAG: ![[FORWARD]] = distinct !{![[FORWARD]], ![[HINT:[0-9]+]]}
// CHECK-DAG: ![[REVERSE]] = distinct !{![[REVERSE]], ![[HINT]]}
// CHECK-DAG: ![[HINT]] = !{!"llvm.loop.unroll.runtime.disable"
