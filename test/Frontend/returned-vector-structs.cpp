// A struct holding a std::vector, returned by value from a helper lowered in
// place: the helper's own vector is freed at its return, the result's after
// the caller's last read of it, where the caller's block ends (it was freed
// at the helper's return, before the caller read it).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

struct Values {
  std::vector<double> v;
};

static Values squares(const Values &in) {
  Values out{std::vector<double>(2, 0.0)};
  out.v[0] = in.v[0] * in.v[0];
  out.v[1] = in.v[1] * in.v[1];
  return out;
}

// CHECK-LABEL: func.func @_Z3sumPKd(
// CHECK: %[[IN:.*]] = memref.alloc() : memref<2xf64>
// The helper's `out`, and the result's copy of it.
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<2xf64>
// CHECK: %[[RESULT:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NOT: memref.dealloc %[[RESULT]]
// CHECK: memref.dealloc %[[OUT]]
// CHECK-NOT: memref.dealloc %[[RESULT]]
// CHECK: memref.load %[[RESULT]]
// CHECK: memref.load %[[RESULT]]
// CHECK: memref.dealloc %[[RESULT]]
// CHECK: memref.dealloc %[[IN]]
// CHECK: return
[[ct::differentiable]] double sum(const double *x) {
  Values in{std::vector<double>(x, x + 2)};
  Values out = squares(in);
  return out.v[0] + out.v[1];
}
