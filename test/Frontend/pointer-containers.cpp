// Pointers kept in memory the function creates. A pointer element (or a
// pointer field of a struct in an array or vector) keeps its offset in its
// own slot (an 8-byte slot: `double`, as memory of addresses has), as the
// integer's bits; reading it at a run-time index loads that offset
// and addresses the one array all such pointers designate. A pointer
// variable assigned another array selects among its arrays by a slot
// saying which one. A struct's std::vector field reserved in its
// constructor and pushed to is kept in the struct as C++ lays it out (the
// addresses of its first element, its end and its capacity's end): C++
// grows it past the capacity reserved.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

// CHECK-LABEL: func.func @_Z14storedPointersPKdi(
// CHECK-SAME: %[[X:arg0]]: memref<?xf64, strided<[1], offset: ?>>, %[[I:arg1]]: i32)
// CHECK: %[[ROWS:.*]] = memref.alloca() : memref<2xf64>
// CHECK: memref.store %[[ZERO:.*]], %[[ROWS]][%c0]
// CHECK: memref.store %[[TWO:.*]], %[[ROWS]][%c1]
// CHECK: %[[K:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[BITS:.*]] = memref.load %[[ROWS]][%[[K]]] : memref<2xf64>
// CHECK: %[[OFFSET:.*]] = arith.bitcast %[[BITS]] : f64 to i64
// CHECK: %[[START:.*]] = arith.index_cast %[[OFFSET]] : i64 to index
// CHECK: %[[AT:.*]] = arith.addi %[[START]], %c1 : index
// CHECK: memref.load %[[X]][%[[AT]]]
[[ct::differentiable]] double storedPointers(const double *x, int i) {
  const double *rows[2] = {x, x + 2};
  return rows[i][1];
}

// CHECK-LABEL: func.func @_Z13movingPointerPKdS0_i(
// CHECK-SAME: %[[A:arg0]]: memref<?xf64, strided<[1], offset: ?>>, %[[B:arg1]]: memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[WHICH:.*]] = %c0) -> (f64, index)
// CHECK: %[[ISB:.*]] = arith.cmpi eq, %[[WHICH]], %c1 : index
// CHECK: %[[P:.*]] = arith.select %[[ISB]], %[[B]], %[[A]]
// CHECK: memref.load %[[P]][
// CHECK: scf.yield %{{.*}}, %c1 : f64, index
[[ct::differentiable]] double movingPointer(const double *a, const double *b,
                                            int n) {
  const double *p = a;
  double s = 0;
  for (int k = 0; k < n; k++) {
    s += p[k];
    p = b;
  }
  return s;
}

struct Holder {
  std::vector<double> v;
  explicit Holder(int n) { v.reserve(n); }
};

// CHECK-LABEL: func.func @_Z11vectorFieldPKdi(
// CHECK: %[[OBJECT:.*]] = memref.alloca() : memref<3xf64>
// CHECK: scf.if
// CHECK:   memref.alloc(
// CHECK:   ct.store_address %{{.*}}, %[[OBJECT]][%c0]
// CHECK: scf.for
// CHECK:   scf.if
// CHECK:     memref.dealloc
// CHECK:   }
// CHECK:   %[[ELEMENTS:.*]] = ct.load_address %[[OBJECT]][%c0] : memref<3xf64> -> memref<?xf64
// CHECK:   memref.store %{{.*}}, %[[ELEMENTS]][
// CHECK:   ct.store_address %{{.*}}, %[[OBJECT]][%c1]
// CHECK: %[[LAST:.*]] = ct.load_address %[[OBJECT]][%c0]
// CHECK: memref.load %[[LAST]][
// CHECK: memref.dealloc %[[LAST]]
[[ct::differentiable]] double vectorField(const double *x, int n) {
  Holder h(n);
  for (int k = 0; k < n; k++)
    h.v.push_back(x[k]);
  return h.v[n - 1];
}
