// A helper's pointer parameter given a growing local vector's address
// (`append(&v, e)`) is bound to that vector as a reference parameter
// would be: the helper is lowered in place and `out->push_back` is the
// vector's own growth (its address, size and capacity slots: new memory
// of twice the capacity where it is full, the elements moved, the old
// memory freed). A null test of such a parameter is false where it is
// bound, and true where the caller passes `nullptr`: each call takes its
// branch alone (no test, no growth for the call given null).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

#include <vector>

void append(std::vector<double> *out, double e) {
  if (out)
    out->push_back(e);
}

[[ct::differentiable]] double f(const double *x, int n) {
  std::vector<double> v;
  append(&v, x[0]);
  append(nullptr, x[1]);
  return v.back() * v[0];
}

// CHECK-LABEL: func.func @_Z1fPKdi(
// CHECK-NOT: call
// CHECK: %[[ADDRESS:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[SIZE:.*]] = memref.alloca() : memref<1xindex>
// CHECK: %[[CAPACITY:.*]] = memref.alloca() : memref<1xindex>
// CHECK: %[[X0:.*]] = memref.load %arg0[%c0]
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[SIZE]]
// CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[OLD]], %c1
// CHECK-NEXT: %[[HAS:.*]] = memref.load %[[CAPACITY]]
// CHECK-NEXT: %[[FULL:.*]] = arith.cmpi ugt, %[[NEW]], %[[HAS]]
// CHECK-NEXT: scf.if %[[FULL]] {
// CHECK: memref.alloc(
// CHECK: memref.dealloc
// CHECK: ct.store_address {{.*}}, %[[ADDRESS]]
// CHECK: }
// CHECK-NEXT: memref.store %[[NEW]], %[[SIZE]]
// CHECK: memref.store %[[X0]], %{{.*}}[%[[OLD]]]
// One push only: the call given nullptr adds nothing.
// CHECK-NOT: arith.cmpi ugt
// CHECK-NOT: scf.if
// CHECK: return
