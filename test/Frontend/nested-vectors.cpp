// A vector of vectors is a vector kept in memory whose elements are rows
// kept in memory too: three address slots each. `m[i]` is row i's slots
// (at 3 * i in the outer vector's elements), `m[i][j]` a load through the
// row's first address, `m.size()` the distance between two addresses. A
// row made empty stores null in its three slots; growing it allocates new
// memory and moves each row's three addresses into it. The entry point
// passes the caller's object and checks, row by row, that the derivative
// argument has the parameter's shape.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

// CHECK-LABEL: func.func @_Z2atRKSt6vectorIS_IdSaIdEESaIS1_EEii(
// CHECK-SAME: %[[M:arg0]]: memref<?xf64, strided<[1], offset: ?>>, %arg1: i32, %arg2: i32) -> f64
// CHECK: %[[ROWS:.*]] = ct.load_address %[[M]][%c0]
// CHECK: %[[AT:.*]] = arith.muli %{{.*}}, %c3 : index
// CHECK: %[[ROW:.*]] = ct.load_address %[[ROWS]][%[[AT]]]
// CHECK: memref.load %[[ROW]][
// CHECK: %[[END:.*]] = ct.load_address %[[M]][%c1] {{.*}} -> memref<?xi8
// CHECK: %[[FIRST:.*]] = ct.load_address %[[M]][%c0] {{.*}} -> memref<?xi8
// CHECK: arith.divui %{{.*}}, %c24 : index
[[ct::differentiable]] double at(const std::vector<std::vector<double>> &m,
                                 int i, int j) {
  return m[i][j] * m.size();
}

// CHECK-LABEL: func.func @_Z4growdi(
// CHECK: %[[OUTER:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[NULL:.*]] = ct.pointer_view
// CHECK: ct.store_address %[[NULL]], %[[OUTER]][%c0]
// Room for two rows: their addresses move into the new memory.
// CHECK: %[[ROOM:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK:   ct.load_address
// CHECK:   ct.store_address
// CHECK: memref.dealloc
// Each new row empty: null in its three slots.
// CHECK: scf.for
// CHECK:   ct.store_address %[[NULL]]
// CHECK:   ct.store_address %[[NULL]]
// CHECK:   ct.store_address %[[NULL]]
// Row 1 grows: new memory of numbers, stored in its first slot.
// CHECK: memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: ct.store_address
// CHECK: memref.store %arg0
// Where the scope ends: each row's memory, then the outer vector's.
// CHECK: scf.for
// CHECK:   memref.dealloc
// CHECK: memref.dealloc
[[ct::differentiable]] double grow(double x, int n) {
  std::vector<std::vector<double>> rows(2);
  rows[1].push_back(x);
  return rows[1][0];
}

// CHECK-LABEL: func.func @_ZN2ct6detail5entryINS0_11gradient_of{{.*}}_Z2at
// The derivative argument's size, then each row's, against the parameter's.
// CHECK: arith.cmpi ne
// CHECK: scf.if
// CHECK:   ct.abort "cotangent: the derivative argument of parameter 'm' of 'at' is a std::vector of another shape than the parameter's"
// CHECK: scf.for
// CHECK:   arith.cmpi ne
// CHECK:   scf.if
// CHECK:     ct.abort
// CHECK: ct.gradient @_Z2atRKSt6vectorIS_IdSaIdEESaIS1_EEii
// CHECK-SAME: activity [dup, const, const]
double use(const std::vector<std::vector<double>> &m,
           std::vector<std::vector<double>> *dm) {
  return ct::gradient<at, ct::wrt<0>>(m, 1, 2, dm);
}

double useGrow(double x, double *dx) {
  return ct::gradient<grow, ct::wrt<0>>(x, 3, dx);
}
