// ct-outline-checkpoints: the body of a loop marked ct.checkpoint_loop
// becomes a function (induction variable, carried values, then what the
// body uses from outside); constants and views made outside are remade
// inside it, so that it takes the whole buffer. The loop calls it with the
// snapshot count, never inlined. Inner loops first. A while loop's
// condition and body become one function together.
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
    ct.checkpoint_loop snapshots 4 depth 1
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
    ct.checkpoint_loop snapshots 2 depth 1
    scf.for %j = %c0 to %n step %c1 {
      ct.checkpoint_loop snapshots 0 depth 2
      %k = arith.remui %j, %c1 : index
      memref.store %x, %u[%k] : memref<8xf64>
    }
  }
  return
}

// -----

// A loop whose trip count is known only when it ends: one call per test
// of its condition, `(carried, captured) -> (continues, next carried,
// results)`, the body run when the condition holds; the loop calls it from
// its condition region.
// CHECK-LABEL: func.func private @uncounted.checkpointed
// CHECK-SAME: (%[[I:.*]]: index, %[[U:.*]]: memref<8xf64>, %[[X:.*]]: f64) -> (i1, index, index)
// CHECK: %[[V:.*]] = memref.load %[[U]][%[[I]]]
// CHECK: %[[GO:.*]] = arith.cmpf olt, %[[V]], %[[X]]
// CHECK: %[[R:.*]]:2 = scf.if %[[GO]] -> (index, index) {
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}}
// CHECK: scf.yield %[[NEXT]], %[[I]] : index, index
// CHECK: } else {
// CHECK: scf.yield %[[I]], %[[I]] : index, index
// CHECK: return %[[GO]], %[[R]]#0, %[[R]]#1 : i1, index, index
// CHECK-LABEL: func.func @uncounted
// CHECK: %[[W:.*]]:2 = scf.while (%[[C:.*]] = %{{.*}}) : (index) -> (index, index) {
// CHECK-NEXT: %[[S:.*]]:3 = func.call @uncounted.checkpointed(%[[C]], %arg0, %arg1) {ct.checkpoint_snapshots = 0 : i64, no_inline}
// CHECK-NEXT: scf.condition(%[[S]]#0) %[[S]]#1, %[[S]]#2 : index, index
// CHECK: } do {
// CHECK-NEXT: ^bb0(%[[A:.*]]: index, %{{.*}}: index):
// CHECK-NEXT: scf.yield %[[A]] : index
// CHECK: return %[[W]]#1 : index
func.func @uncounted(%u: memref<8xf64>, %x: f64) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %v = memref.load %u[%i] : memref<8xf64>
    %go = arith.cmpf olt, %v, %x : f64
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    ct.checkpoint_loop snapshots 0 depth 1
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  return %r : index
}

// -----

// A marker with fewer loops around it than its depth: its loop ran at
// most once and was folded away. The marker goes; nothing is outlined (the
// loop around it is not the one the pragma named).
// CHECK-LABEL: func.func @folded
// CHECK-NOT: ct.checkpoint_loop
// CHECK-NOT: func.call
// CHECK: return
// CHECK-NOT: checkpointed
func.func @folded(%u: memref<8xf64>, %x: f64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    ct.checkpoint_loop snapshots 0 depth 2
    memref.store %x, %u[%c0] : memref<8xf64>
  }
  return
}
