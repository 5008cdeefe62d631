// A std::unique_ptr with a deleter of the program's (an empty class) is one
// address, as with the default deleter: kept in a slot of its own, and
// where it is destroyed the deleter's call operator is lowered in place
// with its parameter bound to the address held, under a test that it is
// not null (std::unique_ptr never calls its deleter with null). A deleter
// calling `free` frees the memory; one that does nothing leaves nothing
// (its test folds away).
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <cstdlib>
#include <memory>

int frees = 0;

struct FreeDeleter {
  void operator()(double *p) const {
    ++frees;
    std::free(p);
  }
};

// CHECK-LABEL: func.func @{{.*}}owned
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[MEMORY:.*]] = memref.alloc(%{{.*}}) {ct.heap_function = "malloc"} : memref<?xf64>
// CHECK: %[[CAST:.*]] = memref.cast %[[MEMORY]]
// CHECK: ct.store_address %[[CAST]], %[[SLOT]][%{{.*}}]
// CHECK: %[[WRITTEN:.*]] = ct.load_address %[[SLOT]]
// CHECK: memref.store %{{.*}}, %[[WRITTEN]]
// CHECK: %[[HELD:.*]] = ct.load_address %[[SLOT]]
// CHECK: %[[VALUE:.*]] = memref.load %[[HELD]]
// CHECK: %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[HELD]]
// CHECK: %[[NOT_NULL:.*]] = arith.cmpi ne, %[[ADDRESS]], %{{.*}} : index
// CHECK: scf.if %[[NOT_NULL]] {
// CHECK: memref.get_global @frees
// CHECK: arith.addi
// CHECK: memref.dealloc %[[HELD]] {ct.heap_function = "free"}
// CHECK-NEXT: }
// CHECK-NEXT: return %[[VALUE]]
[[ct::differentiable]] double owned(const double *x, int n) {
  std::unique_ptr<double[], FreeDeleter> b(
      static_cast<double *>(std::malloc(n * sizeof(double))));
  b[0] = x[0] * x[0];
  return b[0];
}

struct NoDelete {
  void operator()(const double *) const {}
};

// CHECK-LABEL: func.func @{{.*}}borrowed
// CHECK: %[[VIEW:.*]] = memref.subview %arg0
// CHECK: ct.store_address %[[VIEW]]
// CHECK-NOT: memref.dealloc
// CHECK: return
[[ct::differentiable]] double borrowed(const double *x, int n) {
  std::unique_ptr<const double[], NoDelete> view(x);
  return view[0] * view[n - 1];
}
