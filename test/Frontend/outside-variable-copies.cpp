// A floating-point variable outside the function that differentiable code
// writes gets a copy of its own per call: each function that uses it, or
// calls one that does, becomes a wrapper that copies the variable into
// fresh memory, calls the function's body with the copy after its own
// parameters, copies the final contents back without derivative and frees
// the copy; bodies pass the copy on to the bodies of the functions they
// call. A variable only read stays where it is, and one whose holders call
// code compiled elsewhere keeps its place with the reason attached.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

// CHECK-DAG: memref.global "public" @state : memref<2xf64> {ct.source_name = "state"}
// CHECK-DAG: memref.global "public" @table : memref<3xf64> {ct.source_name = "table"}
// CHECK-DAG: memref.global "public" @shared : memref<1xf64> {ct.kept_in_place = "it calls 'uniform', which runs as Clang compiled it (a library function, or one bound to a derivative rule) and may read or change it by name", ct.source_name = "shared"}
double state[2];
double table[3];
double shared;
double uniform();

void advance(double x) {
  state[1] = state[0] * x + table[1];
  state[0] = x;
}

// CHECK-LABEL: func.func @_Z3rund(
// CHECK-SAME: %[[X:.*]]: f64)
// CHECK: %[[STATE:.*]] = memref.get_global @state : memref<2xf64>
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<2xf64>
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[V:.*]] = memref.load %[[STATE]][%[[I]]]
// CHECK:   memref.store %[[V]], %[[COPY]][%[[I]]]
// CHECK: %[[R:.*]] = call @_Z3rund.with_copies(%[[X]], %[[COPY]]) : (f64, memref<2xf64>) -> f64
// CHECK: scf.for %[[J:.*]] =
// CHECK:   %[[W:.*]] = memref.load %[[COPY]][%[[J]]]
// CHECK:   %[[CUT:.*]] = ct.stop_gradient %[[W]]
// CHECK:   memref.store %[[CUT]], %[[STATE]][%[[J]]]
// CHECK: memref.dealloc %[[COPY]]
// CHECK: return %[[R]]

// CHECK-LABEL: func.func private @_Z3rund.with_copies(
// CHECK-SAME: %{{.*}}: f64, %[[HELD:.*]]: memref<2xf64>) -> f64
// CHECK-SAME: ct.param_names = ["x", "state"]
// CHECK-NOT: memref.get_global @state
// CHECK: call @_Z7advanced.with_copies(%{{.*}}, %[[HELD]])
// CHECK: memref.load %[[HELD]]
// CHECK: return
[[ct::differentiable]] double run(double x) {
  state[0] = 1;
  advance(x);
  advance(x * x);
  return state[1];
}

// CHECK-LABEL: func.func @_Z5drawsd(
// CHECK-NOT: with_copies
// CHECK: memref.get_global @shared
[[ct::differentiable]] double draws(double x) {
  shared = 2.0;
  return x * uniform() + shared;
}

// A pointer parameter must not point into the variable (it would see the
// variable, not the copy): the wrapper checks before copying.
// CHECK-LABEL: func.func @_Z6scaledPKdd(
// CHECK: %[[VAR:.*]] = memref.get_global @state
// CHECK: memref.extract_aligned_pointer_as_index %[[VAR]]
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: arith.cmpi uge
// CHECK: arith.cmpi ult
// CHECK: scf.if
// CHECK-NEXT: ct.abort "cotangent: 'scaled' writes 'state' by name and is given its memory through parameter 'p'
// CHECK: memref.alloc() : memref<2xf64>
[[ct::differentiable]] double scaled(const double *p, double x) {
  state[0] = p[0] * x;
  return state[0];
}

double gradient(double x, double *dx) { return ct::gradient<run>(x, dx); }
double gradient3(const double *p, double x, double *dx) {
  return ct::gradient<scaled, ct::wrt<1>>(p, x, dx);
}
double gradient2(double x, double *dx) { return ct::gradient<draws>(x, dx); }

// The helper's body reads the table where it is.
// CHECK-LABEL: func.func private @_Z7advanced.with_copies(
// CHECK-SAME: %[[ARG:.*]]: f64, %[[S:.*]]: memref<2xf64>)
// CHECK: memref.get_global @table
// CHECK: memref.store %{{.*}}, %[[S]]
