// A std::vector outside the function is its three address slots where C++
// keeps them (a memref.global of three f64 slots, with the slots of its
// first element, end and capacity and its elements' scalar type): the
// function reads and resizes it through them, as a vector parameter it
// resizes. One the function changes gets a copy of its own per call: the
// wrapper copies its elements into fresh memory whose addresses a fresh
// object keeps, calls the body with that object, then grows the variable's
// own memory if the copy outgrew it (memory marked as the variable's, which
// holds no derivative), copies the final elements back without derivative,
// sets its end and frees the copy. A vector only read keeps no copy.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include | FileCheck %s --check-prefix=AD
// The engine gives the copy a shadow (its object and its elements), the
// variable's own memory none: no shadow is made beside the memory it grows.
// AD-LABEL: func.func private @_Z7squaresPKdi.pullback
// AD: %[[COPY:.*]] = memref.alloc() : memref<3xf64>
// AD-NEXT: %[[SHADOW:.*]] = memref.alloc() : memref<3xf64>
// AD: ct.store_address %{{.*}}, %[[SHADOW]]
// AD: memref.alloc(%{{.*}}) {ct.outside_memory} : memref<?xf64>
// AD-NEXT: ct.load_address
// AD-NEXT: memref.dealloc

#include <cotangent/cotangent.h>

#include <vector>

// CHECK-DAG: memref.global "public" @work : memref<3xf64> {ct.source_name = "work", ct.vector_scalar = f64, ct.vector_slots = array<i64: 0, 1, 2>}
// CHECK-DAG: memref.global "public" @weights : memref<3xf64> {ct.source_name = "weights", ct.vector_scalar = f64, ct.vector_slots = array<i64: 0, 1, 2>}
std::vector<double> work;
std::vector<double> weights;

// CHECK-LABEL: func.func @_Z7squaresPKdi(
// CHECK-SAME: %[[X:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[N:.*]]: i32)
// CHECK: %[[WORK:.*]] = memref.get_global @work : memref<3xf64>
// CHECK: ct.abort "cotangent: 'squares' writes 'work' by name and is given its memory through parameter 'x'
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<3xf64>
// CHECK: %[[SIZE:.*]] = arith.divui
// CHECK: %[[ELEMENTS:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf64>
// CHECK: %[[OLD:.*]] = ct.load_address %[[WORK]][%{{.*}}] : memref<3xf64> -> memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.for
// CHECK: memref.load %[[OLD]]
// CHECK: memref.store %{{.*}}, %[[ELEMENTS]]
// CHECK: ct.store_address %{{.*}}, %[[COPY]][%{{.*}}]
// CHECK: ct.store_address %{{.*}}, %[[COPY]][%{{.*}}]
// CHECK: ct.store_address %{{.*}}, %[[COPY]][%{{.*}}]
// CHECK: %[[RESULT:.*]] = call @_Z7squaresPKdi.with_copies(%[[X]], %[[N]], %[[COPY]])
// CHECK: %[[GROWS:.*]] = arith.cmpi ugt
// CHECK: scf.if %[[GROWS]] {
// CHECK: memref.alloc(%{{.*}}) {ct.outside_memory} : memref<?xf64>
// CHECK: memref.dealloc
// CHECK: ct.store_address %{{.*}}, %[[WORK]]
// CHECK: ct.store_address %{{.*}}, %[[WORK]]
// CHECK: }
// CHECK: %[[OWN:.*]] = ct.load_address %[[WORK]]
// CHECK: %[[MADE:.*]] = ct.load_address %[[COPY]]
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %[[MADE]]
// CHECK: %[[CUT:.*]] = ct.stop_gradient %[[V]] : f64
// CHECK: memref.store %[[CUT]], %[[OWN]]
// CHECK: ct.store_address %{{.*}}, %[[WORK]]
// CHECK: memref.dealloc %[[MADE]]
// CHECK: memref.dealloc %[[COPY]] : memref<3xf64>
// CHECK: return %[[RESULT]]

// The body resizes the copy through its slots.
// CHECK-LABEL: func.func private @_Z7squaresPKdi.with_copies(
// CHECK-SAME: %{{.*}}: memref<3xf64>) -> f64 attributes {ct.param_names = ["x", "n", "work"]
// CHECK-NOT: memref.get_global @work
// CHECK: ct.load_address
// CHECK: memref.alloc
// CHECK: ct.store_address
// CHECK: return
[[ct::differentiable]] double squares(const double *x, int n) {
  work.resize(n);
  for (int i = 0; i < n; ++i)
    work[i] = x[i] * x[i];
  return work[n - 1] * weights[0];
}

// A vector only read: no copy, read where it is.
// CHECK-LABEL: func.func @_Z8weightedPKdi(
// CHECK-NOT: call
// CHECK: memref.get_global @weights
// CHECK: ct.load_address
// CHECK: return
[[ct::differentiable]] double weighted(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += weights[i] * x[i];
  return s;
}

double run(const double *x, int n, double *dx) {
  return ct::gradient<squares>(x, n, dx) + ct::gradient<weighted>(x, n, dx);
}
