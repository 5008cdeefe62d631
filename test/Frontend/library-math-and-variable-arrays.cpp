// The lowering of arrays of variable length (memory made where declared,
// freed where the scope ends, in one or more dimensions) and of <cmath> functions the C library
// computes: its call sees numbers without derivatives, and the derivative
// is built around it (nextafter as the identity, logb none, frexp's
// mantissa as x 2^-e with the exponent the library stored, modf as x minus
// trunc(x), with the sign of x on a zero fraction; GNU's sincos stores
// math.sin and math.cos).
// RUN: %cotangent-cc %s -- -std=c++20 -Wno-vla-cxx-extension | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -Wno-vla-cxx-extension | %cotangent-opt > /dev/null
#include <cmath>

// CHECK-LABEL: func.func @_Z8variablePKdi
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[A:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: %[[LAST:.*]] = memref.load %[[A]]
// CHECK: memref.dealloc %[[A]] : memref<?xf64>
// CHECK-NEXT: return %[[LAST]]
[[ct::differentiable]] double variable(const double *x, int n) {
  double a[n];
  for (int i = 0; i < n; ++i)
    a[i] = x[i];
  return a[n - 1];
}

// Two dimensions: n * m scalars, each length evaluated once where the
// array is declared; g[i][j] is i * m + j scalars on.
// CHECK-LABEL: func.func @_Z4gridPKdii
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[M:.*]] = arith.index_cast %arg2 : i32 to index
// CHECK: %[[NM:.*]] = arith.muli %[[N]], %[[M]] : index
// CHECK: %[[G:.*]] = memref.alloc(%[[NM]]) : memref<?xf64>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %arg1
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %arg2
// CHECK: %[[JJ:.*]] = arith.index_cast %[[J]] : i32 to index
// CHECK: %[[II:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[ROW:.*]] = arith.muli %[[II]], %[[M]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[ROW]], %[[JJ]] : index
// CHECK: memref.store %{{.*}}, %[[G]][%[[AT]]]
// CHECK: memref.dealloc %[[G]] : memref<?xf64>
[[ct::differentiable]] double grid(const double *x, int n, int m) {
  double g[n][m];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      g[i][j] = x[j];
  return g[n - 1][m - 1];
}

// CHECK-LABEL: func.func @_Z4nextd
// CHECK: %[[X:.*]] = ct.stop_gradient %arg0
// CHECK: %[[TO:.*]] = ct.stop_gradient %cst
// CHECK: %[[V:.*]] = call @nextafter(%[[X]], %[[TO]])
// CHECK: ct.pass_through %[[V]], %arg0 : f64
[[ct::differentiable]] double next(double x) { return std::nextafter(x, 1.0); }

// CHECK-LABEL: func.func @_Z5stepsd
// CHECK: %[[X:.*]] = ct.stop_gradient %arg0
// CHECK: %[[V:.*]] = call @logb(%[[X]])
// CHECK-NEXT: return %[[V]]
[[ct::differentiable]] double steps(double x) { return std::logb(x); }

// CHECK-LABEL: func.func @_Z8mantissad
// CHECK: %[[E:.*]] = memref.alloca() : memref<1xi32>
// CHECK: call @frexp(%{{.*}}, %{{.*}})
// CHECK: %[[EXP:.*]] = memref.load %[[E]]
// CHECK: arith.subi %c0_i32, %[[EXP]]
// CHECK: %[[S1:.*]] = arith.mulf %arg0, %{{.*}}
// CHECK: %[[S2:.*]] = arith.mulf %[[S1]], %{{.*}}
// CHECK: %[[S3:.*]] = arith.mulf %[[S2]], %{{.*}}
// CHECK: return %[[S3]]
[[ct::differentiable]] double mantissa(double x) {
  int e;
  return std::frexp(x, &e);
}

// CHECK-LABEL: func.func @_Z8fractiondPd
// CHECK: %[[T:.*]] = math.trunc %arg0
// CHECK: memref.store %[[T]]
// CHECK: %[[F:.*]] = arith.subf %arg0, %[[T]]
// CHECK: %[[ZERO:.*]] = math.copysign %{{.*}}, %arg0
// CHECK: arith.select %{{.*}}, %[[ZERO]], %[[F]]
[[ct::differentiable]] double fraction(double x, double *whole) {
  return std::modf(x, whole);
}

// CHECK-LABEL: func.func @_Z4bothdPdS_
// CHECK: %[[SV:.*]] = memref.subview %arg1
// CHECK: %[[CV:.*]] = memref.subview %arg2
// CHECK: %[[S:.*]] = math.sin %arg0
// CHECK: memref.store %[[S]], %[[SV]]
// CHECK: %[[C:.*]] = math.cos %arg0
// CHECK: memref.store %[[C]], %[[CV]]
[[ct::differentiable]] void both(double x, double *s, double *c) {
  sincos(x, s, c);
}

// CHECK: func.func private @nextafter(f64, f64) -> f64 attributes {ct.external
// CHECK: func.func private @frexp(f64, memref<?xi32, strided<[1], offset: ?>>) -> f64 attributes {ct.external
