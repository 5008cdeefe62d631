// A std::vector a std::unique_ptr owns lives in the memory it owns as C++
// lays it out: three address slots (first element, end, end of capacity),
// made by the library's `new std::vector<double>(n)` (each slot set, then
// the elements allocated and stored), reached through the address the
// unique_ptr keeps (`*v`: a ct.load_address of the owned object, then of
// its first slot), and freed where the owner is destroyed: the elements if
// the object is not null, then the object.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

#include <memory>
#include <vector>

[[ct::differentiable]] double owned(const double *x, int n) {
  auto v = std::make_unique<std::vector<double>>(n);
  (*v)[1] = x[0];
  return (*v)[1];
}

// CHECK-LABEL: func.func @_Z5ownedPKdi(
// CHECK: %[[OWNER:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[OBJECT:.*]] = memref.alloc() {ct.heap_function = "operator new"} : memref<3xf64>
// CHECK: %[[SLOTS:.*]] = memref.cast %[[OBJECT]]
// CHECK: ct.store_address %{{.*}}, %[[SLOTS]][%c0]
// CHECK: ct.store_address %{{.*}}, %[[SLOTS]][%c1]
// CHECK: ct.store_address %{{.*}}, %[[SLOTS]][%c2]
// CHECK: memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: ct.store_address %{{.*}}, %[[OWNER]][%c0]
// CHECK: %[[X0:.*]] = memref.load %arg0[%c0]
// CHECK-NEXT: %[[HELD:.*]] = ct.load_address %[[OWNER]][%c0]
// CHECK-NEXT: %[[ELEMENTS:.*]] = ct.load_address %[[HELD]][%c0]
// CHECK-NEXT: memref.store %[[X0]], %[[ELEMENTS]][%c1]
// CHECK: %[[READ:.*]] = memref.load %{{.*}}[%c1]
// CHECK: scf.if
// CHECK: %[[FREED:.*]] = ct.load_address %{{.*}}[%c0]
// CHECK-NEXT: memref.dealloc %[[FREED]]
// CHECK: memref.dealloc
// CHECK: return %[[READ]]
