// ct-outline-checkpoints: the body of a loop marked ct.checkpoint_loop
// becomes a function (induction variable, carried values, then what the
// body uses from outside); constants and views made outside are remade
// inside it, so that it takes the whole buffer. The loop calls it with the
// snapshot count, never inlined. Inner loops first.
// RUN: %cotangent-opt %s --ct-outline-checkpoints --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func private @step.checkpointed
// CHECK-SAME: (%[[T:.*]]: i32, %[[S:.*]]: f64, %[[U:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[SIZE:.*]]: index, %[[A:.*]]: f64) -> f64
// CHECK-NOT: ct.checkpoint_loop
// CHECK: %[[VIEW:.*]] = memref.subview %[[U]][1] [%[[SIZE]]] [1]
// CHECK: scf.for
// CHECK: memref.load %[[VIEW]]
// CHECK: memref.store {{.*}}, %[[VIEW]]
// CHECK: %[[SUM:.*]] = arith.addf %[[S]]
// CHECK: return %[[SUM]] : f64
// CHECK-LABEL: func.func @step(
// CHECK: %[[SIZE0:.*]] = arith.subi %arg1
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[C:.*]] = {{.*}}) -> (f64)
// CHECK-NEXT: %[[R:.*]] = func.call @step.checkpointed(%[[I]], %[[C]], %arg0, %[[SIZE0]], %arg2) {ct.checkpoint_snapshots = 4 : i64, no_inline}
// CHECK-NEXT: scf.yield %[[R]] : f64
func.func @step(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index, %a: f64, %steps: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f64
  %size = arith.subi %n, %c1 : index
  %v = memref.subview %u[1] [%size] [1] : memref<?xf64, strided<[1], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
  %r = scf.for %t = %c0_i32 to %steps step %c1_i32 iter_args(%s = %zero) -> (f64) : i32 {
    ct.checkpoint_loop snapshots 4
    scf.for %i = %c0 to %size step %c1 {
      %x = memref.load %v[%i] : memref<?xf64, strided<[1], offset: ?>>
      %y = arith.mulf %x, %a : f64
      memref.store %y, %v[%i] : memref<?xf64, strided<[1], offset: ?>>
    }
    %last = memref.load %u[%c0] : memref<?xf64, strided<[1], offset: ?>>
    %next = arith.addf %s, %last : f64
    scf.yield %next : f64
  }
  return %r : f64
}

// -----

// Nested markers: the inner body first, then the outer one, which then
// holds the inner loop and its call.
// CHECK-LABEL: func.func private @nested.checkpointed(
// CHECK: memref.store
// CHECK-LABEL: func.func private @nested.checkpointed_0
// CHECK: scf.for
// CHECK: func.call @nested.checkpointed(
// CHECK-SAME: ct.checkpoint_snapshots = 0 : i64
// CHECK-LABEL: func.func @nested(
// CHECK: scf.for
// CHECK-NEXT: func.call @nested.checkpointed_0(
// CHECK-SAME: ct.checkpoint_snapshots = 2 : i64
func.func @nested(%u: memref<8xf64>, %x: f64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    ct.checkpoint_loop snapshots 2
    scf.for %j = %c0 to %n step %c1 {
      ct.checkpoint_loop snapshots 0
      %k = arith.remui %j, %c1 : index
      memref.store %x, %u[%k] : memref<8xf64>
    }
  }
  return
}

// -----

// A loop whose trip count is not known when it starts cannot be
// checkpointed.
func.func @uncounted(%u: memref<8xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{cannot checkpoint this loop: its trip count is not known when it starts}}
  %r = scf.while (%i = %c0) : (index) -> index {
    %v = memref.load %u[%i] : memref<8xf64>
    %go = arith.cmpf olt, %v, %x : f64
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    ct.checkpoint_loop snapshots 0
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  return
}
