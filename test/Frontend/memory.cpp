// Pointers and references are 1-D memrefs of scalars with a dynamic offset
// (a reference is element 0); local arrays are memref.allocas of their
// flattened size, passed to pointer parameters through a cast. Pointer
// arithmetic moves an offset within one memref; `&a[i]` passed on is a
// subview starting at the element.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

// CHECK-LABEL: func.func @_Z3dotPKdS0_i(%arg0: memref<?xf64, strided<[1], offset: ?>>, %arg1: memref<?xf64, strided<[1], offset: ?>>, %arg2: i32) -> f64
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK:   %[[K:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK:   memref.load %arg0[%[[K]]] : memref<?xf64, strided<[1], offset: ?>>
// CHECK:   memref.load %arg1[%[[K]]] : memref<?xf64, strided<[1], offset: ?>>
[[ct::differentiable]] double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

// Writing through a pointer and a reference.
// CHECK-LABEL: func.func @_Z5scalePdRdi(
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.store %{{.*}}, %arg0[%{{.*}}] : memref<?xf64, strided<[1], offset: ?>>
// CHECK: memref.store %{{.*}}, %arg1[%[[C0]]] : memref<?xf64, strided<[1], offset: ?>>
[[ct::differentiable]] void scale(double *p, double &total, int n) {
  double t = 0;
  for (int i = 0; i < n; ++i) {
    p[i] *= 2;
    t += p[i];
  }
  total = t;
}

// Local 1-D and 2-D arrays whose address is taken: one alloca of all their
// elements, row-major. Scalars, and short arrays only read and written at
// constant indices, become SSA values.
// CHECK-LABEL: func.func @_Z6localsd
// CHECK-DAG: %[[M:.*]] = memref.alloca() : memref<4xf64>
// CHECK-DAG: %[[V:.*]] = memref.alloca() : memref<3xf64>
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: memref.store %arg0, %[[M]][%[[C3]]] : memref<4xf64>
// CHECK: memref.cast %[[V]] : memref<3xf64> to memref<?xf64, strided<[1], offset: ?>>
// CHECK: call @_Z3dotPKdS0_i
// CHECK-NOT: memref.alloca
// CHECK: return
[[ct::differentiable]] double locals(double x) {
  double v[3] = {x, 2 * x, 3.0};
  double m[2][2];
  m[0][0] = v[1];
  m[1][1] = x;
  m[0][1] = m[1][0] = 0;
  double promoted[2][2] = {{x, 0}, {0, x}};
  return dot(v, v, 3) + dot(m[0], m[1], 2) + promoted[0][0] * promoted[1][1];
}

// A reference to an element, read and written through.
// CHECK-LABEL: func.func @_Z8aliasingPdi
// CHECK: %[[I:.*]] = arith.index_cast %arg1
// CHECK: memref.load %arg0[%[[I]]]
// CHECK: memref.store %{{.*}}, %arg0[%[[I]]]
[[ct::differentiable]] double aliasing(double *p, int i) {
  double &r = p[i];
  r = r * r;
  return r;
}

// A pointer variable walks its array: `*q++` reads at the offset and
// moves it, which becomes a loop-carried index.
// CHECK-LABEL: func.func @_Z4walkPKdi
// CHECK: scf.for {{.*}} iter_args(%[[OFF:.*]] = %c1, %{{.*}} = %{{.*}}) -> (index, f64)
// CHECK:   %[[NEXT:.*]] = arith.addi %[[OFF]], %c1 : index
// CHECK:   memref.load %arg0[%[[OFF]]]
// CHECK:   scf.yield %[[NEXT]]
[[ct::differentiable]] double walk(const double *p, int n) {
  double s = 0;
  const double *q = p + 1;
  for (int i = 1; i < n; ++i)
    s += *q++ * p[i - 1];
  return s;
}

// `&a[k]` and `p + k` passed on: a view from the element to the end.
// A local scalar passed by reference stays in memory for the callee.
// CHECK-LABEL: func.func @_Z4tailPKdi
// CHECK: %[[S:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[K:.*]] = arith.index_cast %arg1
// CHECK: %[[SIZE:.*]] = arith.subi %{{.*}}, %[[K]]
// CHECK: memref.subview %arg0[%[[K]]] [%[[SIZE]]] [1]
// CHECK: memref.cast %[[S]]
// CHECK: call @_ZL10accumulatePKdRd
// CHECK: memref.subview %arg0[2] [%{{.*}}] [1]
static void accumulate(const double *p, double &into) { into += p[0] * p[1]; }
[[ct::differentiable]] double tail(const double *p, int k) {
  double s = 0;
  accumulate(&p[k], s);
  accumulate(p + 2, s);
  return s;
}
