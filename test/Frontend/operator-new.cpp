// `::operator new(bytes)` called as a function is C's malloc: bytes, typed
// by the cast that follows (a memref.alloc of bytes / sizeof(scalar)
// scalars); `::operator delete` is free (memref.dealloc). So are their
// array forms, the nothrow form (its size is its first argument) and the
// builtins libraries call for them. std::valarray, which owns its array
// through them, is lowered from its own code.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

#include <new>
#include <valarray>

[[ct::differentiable]] double raw(const double *x, int n) {
  double *a = static_cast<double *>(::operator new(n * sizeof(double)));
  float *f = static_cast<float *>(
      ::operator new[](n * sizeof(float), std::nothrow));
  a[0] = x[0];
  f[0] = 2.0f;
  double r = a[0] * f[0];
  ::operator delete[](f);
  ::operator delete(a);
  return r;
}

// CHECK-LABEL: func.func @_Z3rawPKdi(
// CHECK: %[[BYTES:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK: %[[DOUBLES:.*]] = arith.divui %[[BYTES]], %c8
// CHECK: %[[A:.*]] = memref.alloc(%[[DOUBLES]]) {ct.heap_function = "operator new"} : memref<?xf64>
// CHECK: %[[FLOATS:.*]] = arith.divui %{{.*}}, %c4
// CHECK: %[[F:.*]] = memref.alloc(%[[FLOATS]]) {ct.heap_function = "operator new[]"} : memref<?xf32>
// CHECK: memref.store %{{.*}}, %[[A]][%c0]
// CHECK: memref.store %{{.*}}, %[[F]][%c0]
// CHECK: memref.dealloc %[[F]] {ct.heap_function = "operator delete[]"}
// CHECK: memref.dealloc %[[A]] {ct.heap_function = "operator delete"}
// CHECK-NOT: call @_Znwm
// CHECK-NOT: call @_ZdlPv

[[ct::differentiable]] double sumOfSquares(const double *x, int n) {
  std::valarray<double> v(x, n);
  return (v * v).sum();
}

// The valarray is its size and the address of its array (slot 1), memory
// the function makes and frees.
// CHECK-LABEL: func.func @_Z12sumOfSquaresPKdi(
// CHECK: %[[OBJECT:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[ARRAY:.*]] = memref.alloc(%{{.*}}) {ct.heap_function = "operator new"} : memref<?xf64>
// CHECK: %[[VIEW:.*]] = memref.cast %[[ARRAY]]
// CHECK: ct.store_address %[[VIEW]], %[[OBJECT]][%c1]
// CHECK: call @{{.*}}__valarray_destroy_elements
// CHECK-NEXT: %[[HELD:.*]] = ct.load_address %[[OBJECT]][%c1]
// CHECK-NEXT: memref.dealloc %[[HELD]]
