// A std::unique_ptr member is a pointer that keeps its address in its
// object (docs/Memory.md): the constructor's `new[]` is stored into its
// slot, each access loads it, and destroying the object frees what the
// slot holds then. `reset(new ...)` makes the new memory, stores it, then
// frees what the slot held before.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <memory>

struct Holder {
  std::unique_ptr<double[]> data;
  int n;
  explicit Holder(int n) : data(new double[n]), n(n) {}
};

// CHECK-LABEL: func.func @_Z4heldPKd(
// CHECK: %[[OBJECT:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[DATA:.*]] = memref.alloc() {ct.heap_function = "operator new[]"} : memref<2xf64>
// CHECK: %[[VIEW:.*]] = memref.cast %[[DATA]]
// CHECK: ct.store_address %[[VIEW]], %[[OBJECT]][%[[C0:[a-z0-9_]+]]]
// CHECK: %[[P:.*]] = ct.load_address %[[OBJECT]][%[[C0]]] : memref<2xf64> -> memref<?xf64, strided<[1], offset: ?>>
// CHECK: memref.store %{{.*}}, %[[P]][
// CHECK: %[[Q:.*]] = ct.load_address %[[OBJECT]][%[[C0]]]
// CHECK: %[[V:.*]] = memref.load %[[Q]][
// CHECK: memref.dealloc %[[Q]]
// CHECK: return %[[V]]
[[ct::differentiable]] double held(const double *x) {
  Holder h(2);
  h.data[1] = x[0] * x[1];
  return h.data[1];
}

// CHECK-LABEL: func.func @_Z8replacedPKd(
// CHECK: %[[OBJECT:.*]] = memref.alloca() : memref<2xf64>
// CHECK: memref.alloc() {ct.heap_function = "operator new[]"} : memref<1xf64>
// CHECK: %[[NEXT:.*]] = memref.alloc() {ct.heap_function = "operator new[]"} : memref<2xf64>
// CHECK: %[[OLD:.*]] = ct.load_address %[[OBJECT]][%[[C0:[a-z0-9_]+]]]
// CHECK: %[[VIEW:.*]] = memref.cast %[[NEXT]]
// CHECK: ct.store_address %[[VIEW]], %[[OBJECT]][%[[C0]]]
// CHECK: memref.dealloc %[[OLD]]
// CHECK: %[[Q:.*]] = ct.load_address %[[OBJECT]][%[[C0]]]
// CHECK: memref.store %{{.*}}, %[[Q]][
// CHECK: %[[LAST:.*]] = ct.load_address %[[OBJECT]][%[[C0]]]
// CHECK: memref.dealloc %[[LAST]]
[[ct::differentiable]] double replaced(const double *x) {
  Holder h(1);
  h.data.reset(new double[2]);
  h.data[0] = x[0];
  return h.data[0];
}
