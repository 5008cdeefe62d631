// The std::vector fields of a struct that a std::vector holds are kept in
// the struct as C++ lays them out (docs/Memory.md): three address slots
// each, so that a Layer { std::vector<double> weights; int width; } is
// four 8-byte slots (the width packed in the last) and a std::vector of
// them is itself kept in memory. push_back on a layer's field works on the
// field's slots inside the element: its size and capacity from the
// addresses there, growth into new memory (the numbers copied, the old
// memory freed, the three addresses stored back into the element), the
// value stored, the new end. The end of the scope frees each element's
// field memory, then the elements. A network the caller passes is read
// through the addresses in the caller's objects.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

struct Layer {
  std::vector<double> weights;
  int width = 0;
};

// CHECK-LABEL: func.func @_Z10lastWeightd(
// CHECK-SAME: %[[X:[a-z0-9]+]]: f64
// CHECK: %[[NET:.*]] = memref.alloca() : memref<3xf64>
// The layers: 32 bytes, four slots each.
// CHECK: arith.divui %{{.*}}, %c32
// CHECK: %[[FRESH:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// The default-constructed layer: null addresses, the width zeroed.
// CHECK: ct.store_address %[[NULL:[0-9]+]], %{{.*}}
// CHECK: arith.andi
// The field's slots, inside the first layer.
// CHECK: %[[LAYERS:.*]] = ct.load_address %[[NET]][%c0]
// CHECK: %[[END:.*]] = ct.load_address %[[LAYERS]][%c1] : {{.*}} -> memref<?xi8
// CHECK: %[[FIRST:.*]] = ct.load_address %[[LAYERS]][%c0] : {{.*}} -> memref<?xi8
// Its size, in doubles, and the growth past its capacity.
// CHECK: %[[SIZE:.*]] = arith.divui %{{.*}}, %c8
// CHECK: scf.if
// CHECK: %[[GROWN:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[GROWN]]
// CHECK: memref.dealloc
// CHECK: ct.store_address %{{.*}}, %[[LAYERS]][%c0]
// CHECK: ct.store_address %{{.*}}, %[[LAYERS]][%c1]
// CHECK: ct.store_address %{{.*}}, %[[LAYERS]][%c2]
// CHECK: }
// The value, at the old size; the new end.
// CHECK: %[[WEIGHTS:.*]] = ct.load_address %[[LAYERS]][%c0]
// CHECK: memref.store %[[X]], %[[WEIGHTS]][%[[SIZE]]]
// CHECK: ct.store_address %{{.*}}, %[[LAYERS]][%c1]
// The read: the element's field, then its first number.
// CHECK: %[[AGAIN:.*]] = ct.load_address %[[NET]][%c0]
// CHECK: %[[READ:.*]] = ct.load_address %[[AGAIN]][%c0]
// CHECK: %[[RESULT:.*]] = memref.load %[[READ]][%c0]
// The scope's end: each layer's numbers, then the layers.
// CHECK: scf.for
// CHECK: %[[OWN:.*]] = ct.load_address %[[AGAIN]][%{{.*}}]
// CHECK: memref.dealloc %[[OWN]]
// CHECK: }
// CHECK: memref.dealloc %[[AGAIN]]
// CHECK: return %[[RESULT]]
[[ct::differentiable]] double lastWeight(double x) {
  std::vector<Layer> net(1);
  net[0].weights.push_back(x);
  return net[0].weights[0];
}

// CHECK-LABEL: func.func @_Z14firstOfCallersRKSt6vectorI5LayerSaIS0_EE(
// CHECK-SAME: %[[NET:[a-z0-9]+]]: memref<?xf64
// CHECK: %[[LAYERS:.*]] = ct.load_address %[[NET]][%c0]
// CHECK: %[[WEIGHTS:.*]] = ct.load_address %[[LAYERS]][%c0]
// CHECK: memref.load %[[WEIGHTS]][%c0]
[[ct::differentiable]] double firstOfCallers(const std::vector<Layer> &net) {
  return net[0].weights[0];
}
