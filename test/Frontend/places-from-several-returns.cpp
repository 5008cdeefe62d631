// A helper returning a pointer from several returns (std::find_if's shape),
// lowered in place: each return passes the memory it points into and its
// offset, and where all of them point into the same memory, made before the
// call, the result is a place in that memory at the offset chosen, not a
// view made in a branch or loop (which the reverse sweep cannot keep).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

static const double *firstPositive(const double *a, int n) {
  for (int i = 0; i < n; ++i)
    if (a[i] > 0)
      return a + i;
  return a;
}

// CHECK-LABEL: func.func @_Z18twiceFirstPositivePKdi(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xf64
// CHECK-NOT: memref.subview
// CHECK: %[[AT:.*]] = scf.index_switch %{{.*}} -> index
// CHECK-NOT: memref.subview
// CHECK: memref.load %[[X]][%[[AT]]]
// CHECK: return
[[ct::differentiable]] double twiceFirstPositive(const double *x, int n) {
  return 2 * *firstPositive(x, n);
}
