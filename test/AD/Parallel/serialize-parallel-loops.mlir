// ct-serialize-parallel-loops: an scf.parallel becomes one scf.for per
// dimension, each marked ct.parallel, carrying the reductions combined by
// the scf.reduce regions (running value first).
// RUN: %cotangent-opt %s --ct-serialize-parallel-loops | FileCheck %s

// CHECK-LABEL: func.func @two_dims
// CHECK: %[[R:.*]]:2 = scf.for %[[I:.*]] = %c0 to %arg1 step %c1 iter_args(%[[S:.*]] = %{{.*}}, %[[M:.*]] = %{{.*}}) -> (f64, f64) {
// CHECK:   %[[IN:.*]]:2 = scf.for %[[J:.*]] = %c0 to %arg2 step %c1 iter_args(%[[S2:.*]] = %[[S]], %[[M2:.*]] = %[[M]]) -> (f64, f64) {
// CHECK:     %[[V:.*]] = memref.load %arg0[%[[I]], %[[J]]]
// CHECK:     %[[SUM:.*]] = arith.addf %[[S2]], %[[V]]
// CHECK:     %[[WINS:.*]] = arith.cmpf ogt, %[[V]], %[[M2]]
// CHECK:     %[[MAX:.*]] = arith.select %[[WINS]], %[[V]], %[[M2]]
// CHECK:     scf.yield %[[SUM]], %[[MAX]]
// CHECK:   } {ct.parallel}
// CHECK:   scf.yield %[[IN]]#0, %[[IN]]#1
// CHECK: } {ct.parallel}
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @two_dims(%a: memref<?x?xf64>, %r: index, %c: index) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %low = arith.constant -1.0e300 : f64
  %s:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1)
      init (%zero, %low) -> (f64, f64) {
    %v = memref.load %a[%i, %j] : memref<?x?xf64>
    scf.reduce(%v, %v : f64, f64) {
    ^bb0(%lhs: f64, %rhs: f64):
      %sum = arith.addf %lhs, %rhs : f64
      scf.reduce.return %sum : f64
    }, {
    ^bb0(%lhs: f64, %rhs: f64):
      %wins = arith.cmpf ogt, %rhs, %lhs : f64
      %max = arith.select %wins, %rhs, %lhs : f64
      scf.reduce.return %max : f64
    }
  }
  return %s#0, %s#1 : f64, f64
}

// Without reductions: a plain nest of marked loops.
// CHECK-LABEL: func.func @map
// CHECK: scf.for %[[I:.*]] = %c0 to %arg2 step %c1 {
// CHECK:   memref.store %{{.*}}, %arg1[%[[I]]]
// CHECK: } {ct.parallel}
// CHECK-NOT: scf.parallel
func.func @map(%x: memref<?xf64>, %y: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = math.exp %v : f64
    memref.store %w, %y[%i] : memref<?xf64>
    scf.reduce
  }
  return
}

// A loop for a GPU (ct.device) keeps that in its mark when compiling for one
// (device-loops), and is a loop for CPU threads otherwise.
// RUN: %cotangent-opt %s --ct-serialize-parallel-loops=device-loops=1 | FileCheck %s --check-prefix=DEVICE
// DEVICE-LABEL: func.func @for_a_gpu
// DEVICE: scf.for
// DEVICE: } {ct.parallel = "device"}
// CHECK-LABEL: func.func @for_a_gpu
// CHECK: scf.for
// CHECK: } {ct.parallel}
func.func @for_a_gpu(%x: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = arith.mulf %v, %v : f64
    memref.store %w, %x[%i] : memref<?xf64>
    scf.reduce
  } {ct.device}
  return
}
