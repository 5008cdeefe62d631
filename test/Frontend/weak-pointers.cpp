// A std::weak_ptr is two addresses, as a std::shared_ptr (docs/Memory.md,
// item 24). Made from a std::shared_ptr whose block the function made, it
// counts one observer more in the block's third `long`; `expired()` is
// whether the block's use count is zero (a block the caller made is alive:
// its owners outlive the call; null is expired); destroying it counts one
// observer fewer, and frees the block when neither owners nor observers
// are left.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

#include <memory>

// CHECK-LABEL: func.func @{{.*}}observed
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MINUS_ONE:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[W:.*]] = memref.alloca() : memref<2xf64>
// CHECK: memref.alloc() : memref<3xi64>
// The std::weak_ptr made: one observer more.
// CHECK: %[[COUNT:.*]] = ct.load_address %{{.*}}[%[[C1]]] : memref<2xf64> -> memref<?xi64
// CHECK: scf.if
// CHECK: scf.if
// CHECK: %[[OBSERVERS:.*]] = memref.load %[[COUNT]][%[[C2]]]
// CHECK: %[[MORE:.*]] = arith.addi %[[OBSERVERS]], %[[ONE]]
// CHECK: memref.store %[[MORE]], %[[COUNT]][%[[C2]]]
// CHECK: ct.store_address %[[COUNT]], %[[W]][%[[C1]]]
// expired(): the use count of the block it observes.
// CHECK: %[[OBSERVED:.*]] = ct.load_address %[[W]][%[[C1]]]
// CHECK: %[[USE:.*]] = memref.load %[[OBSERVED]][%[[C1]]]
// CHECK: %[[ALIVE:.*]] = arith.cmpi sgt, %[[USE]], %[[ZERO]]
// Its destruction: one observer fewer; the block freed if nothing is left.
// CHECK: %[[LEFT:.*]] = arith.addi %{{.*}}, %[[MINUS_ONE]]
// CHECK: memref.store %[[LEFT]], %[[OBSERVED]][%[[C2]]]
// CHECK: %[[OWNERS:.*]] = memref.load %[[OBSERVED]][%[[C1]]]
// CHECK: %[[NO_OWNER:.*]] = arith.cmpi eq, %[[OWNERS]], %[[ZERO]]
// CHECK: scf.if %[[NO_OWNER]] {
// CHECK: %[[NO_OBSERVER:.*]] = arith.cmpi eq, %[[LEFT]], %[[ZERO]]
// CHECK: scf.if %[[NO_OBSERVER]] {
// CHECK: memref.dealloc %[[OBSERVED]]
[[ct::differentiable]] double observed(const double *x) {
  auto p = std::make_shared<double>(x[0]);
  std::weak_ptr<double> w = p;
  return w.expired() ? 0.0 : *p;
}
