// Objects a std::unique_ptr owns are reached through the address it keeps,
// so their pointer fields keep addresses too (docs/Memory.md, item 13): a
// View made by std::make_unique stores the caller's array's address into
// its first slot (packed beside the int), the holder's member keeps the
// View's address, and reading `h.view->p[1]` loads one address, then the
// other. Destroying the holder frees the View.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

#include <memory>

struct View {
  const double *p;
  int n;
};
struct ViewHolder {
  std::unique_ptr<View> view;
};

// CHECK-LABEL: func.func @{{.*}}ownedView
// CHECK: %[[TEMPORARY:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[HOLDER:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[X:.*]] = memref.subview %arg0
// CHECK: ct.store_address %[[X]], %[[TEMPORARY]][%{{.*}}]
// CHECK: %[[OBJECT:.*]] = memref.alloc() {ct.heap_function = "operator new"} : memref<2xf64>
// CHECK: %[[OBJECT_MEMORY:.*]] = memref.cast %[[OBJECT]] : memref<2xf64> to memref<?xf64>
// CHECK: %[[COPIED:.*]] = ct.load_address %[[TEMPORARY]]
// CHECK: ct.store_address %[[COPIED]], %[[OBJECT_MEMORY]][%{{.*}}]
// CHECK: %[[OWNED:.*]] = memref.cast %[[OBJECT]]
// CHECK: ct.store_address %[[OWNED]], %[[HOLDER]]
// CHECK: %[[VIEW:.*]] = ct.load_address %[[HOLDER]]
// CHECK: %[[DATA:.*]] = ct.load_address %[[VIEW]]
// CHECK: %[[VALUE:.*]] = memref.load %[[DATA]][%{{.*}}]
// CHECK: memref.dealloc %[[VIEW]]
// CHECK: return %[[VALUE]]
[[ct::differentiable]] double ownedView(const double *x, int n) {
  ViewHolder h{std::make_unique<View>(View{x, n})};
  return h.view->p[1];
}
