// A pointer to vectors that is null before it is given one: its reads
// choose among the vectors it may designate, and the stand-in of `nullptr`
// (memory of no elements) is never read. A read through null is undefined
// in C++, so where the choice would be null the read is of another vector;
// a load from memory of no elements would read outside any buffer (which
// AddressSanitizer reports in the derivative).
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx-ct -O0 -c %s -o %t/n.o -fplugin-arg-cotangent-dump-dir=%t/dump
// RUN: FileCheck %s < %t/dump/null-pointer-reads.cpp.mlir

#include <cotangent/cotangent.h>

#include <vector>

// CHECK-LABEL: func.func @_Z8fromNullPKdi(
// CHECK-NOT: memref<0xf64>
// CHECK: %[[FIRST:.*]] = memref.load %{{.*}}[%c0{{.*}}] : memref<?xf64>
// CHECK-NEXT: %[[OTHER:.*]] = memref.load %{{.*}}[%c0{{.*}}] : memref<?xf64>
// CHECK-NEXT: arith.select %{{.*}}, %[[FIRST]], %[[OTHER]] : f64
// CHECK-NOT: memref<0xf64>
// CHECK: return
[[ct::differentiable]] double fromNull(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n, 3.0);
  std::vector<double> *p = nullptr;
  p = &b;
  for (int i = 0; i < n; ++i)
    if (x[i] > 0.4)
      p = &a;
  return (*p)[0] * (*p)[1] + x[2];
}

double use(const double *x, int n, double *dx) {
  return ct::gradient<fromNull>(x, n, dx);
}
