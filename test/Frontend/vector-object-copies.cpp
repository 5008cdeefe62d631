// A range-for whose loop variable copies each element of a vector kept in
// memory (docs/Memory.md): each iteration makes the copy with the
// element's copy constructor (here a struct's implicit one, which copies
// its vector field: null addresses, room for the source's numbers, the
// numbers copied, the new end), the body reads the copy, and the copy is
// destroyed (its numbers freed) before the next iteration.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

struct Layer {
  std::vector<double> weights;
};

// CHECK-LABEL: func.func @_Z10copiesEachRKSt6vectorI5LayerSaIS0_EE(
// CHECK-SAME: %[[NET:[a-z0-9]+]]: memref<?xf64
// CHECK: %[[COPY:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[LAYERS:.*]] = ct.load_address %[[NET]][%c0]
// CHECK: scf.for
// CHECK: %[[ELEMENT:.*]] = memref.subview %[[LAYERS]]
// The copy starts empty.
// CHECK: %[[NULL:.*]] = ct.pointer_view
// CHECK: ct.store_address %[[NULL]], %[[COPY]][%c0]
// CHECK: ct.store_address %[[NULL]], %[[COPY]][%c1]
// CHECK: ct.store_address %[[NULL]], %[[COPY]][%c2]
// Room for the element's numbers, then the numbers.
// CHECK: scf.if
// CHECK: memref.alloc
// CHECK: %[[FROM:.*]] = ct.load_address %[[ELEMENT]][%c0] : {{.*}} -> memref<?xf64
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[NUMBER:.*]] = memref.load %[[FROM]]
// CHECK-NEXT: memref.store %[[NUMBER]], %{{[0-9]+}}
// CHECK-NEXT: }
// CHECK: ct.store_address %{{.*}}, %[[COPY]][%c1]
// The body reads the copy; the copy's numbers are freed.
// CHECK: %[[READ:.*]] = ct.load_address %[[COPY]][%c0]
// CHECK: memref.load %[[READ]][%c0]
// CHECK: memref.dealloc %[[READ]]
// CHECK: scf.yield
[[ct::differentiable]] double copiesEach(const std::vector<Layer> &net) {
  double s = 0;
  for (Layer layer : net)
    s += layer.weights[0];
  return s;
}
