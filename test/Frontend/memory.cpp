// Pointers and references to scalars are 1-D memrefs (a reference is
// element 0); local arrays are memref.allocas of their shape, passed to
// pointer parameters through a cast.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

// CHECK-LABEL: func.func @_Z3dotPKdS0_i(%arg0: memref<?xf64>, %arg1: memref<?xf64>, %arg2: i32) -> f64
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK:   %[[K:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK:   memref.load %arg0[%[[K]]] : memref<?xf64>
// CHECK:   memref.load %arg1[%[[K]]] : memref<?xf64>
[[ct::differentiable]] double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

// Writing through a pointer and a reference.
// CHECK-LABEL: func.func @_Z5scalePdRdi(%arg0: memref<?xf64>, %arg1: memref<?xf64>, %arg2: i32)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.store %{{.*}}, %arg0[%{{.*}}] : memref<?xf64>
// CHECK: memref.store %{{.*}}, %arg1[%[[C0]]] : memref<?xf64>
[[ct::differentiable]] void scale(double *p, double &total, int n) {
  double t = 0;
  for (int i = 0; i < n; ++i) {
    p[i] *= 2;
    t += p[i];
  }
  total = t;
}

// Local 1-D and 2-D arrays.
// CHECK-LABEL: func.func @_Z6localsd
// CHECK-DAG: memref.alloca() : memref<3xf64>
// CHECK-DAG: memref.alloca() : memref<2x2xf64>
// CHECK: memref.cast %{{.*}} : memref<3xf64> to memref<?xf64>
// CHECK: call @_Z3dotPKdS0_i
[[ct::differentiable]] double locals(double x) {
  double v[3] = {x, 2 * x, 3.0};
  double m[2][2];
  m[0][0] = x;
  m[1][1] = v[1];
  return dot(v, v, 3) + m[0][0] * m[1][1];
}

// A reference to a local element, read through.
// CHECK-LABEL: func.func @_Z8aliasingPdi
// CHECK: memref.load %arg0
[[ct::differentiable]] double aliasing(double *p, int i) {
  double &r = p[i];
  r = r * r;
  return r;
}
