// Reverse mode of a checkpointed loop (its body one call of the outlined
// iteration, as ct-outline-checkpoints leaves it). The iteration updates
// the in/out buffer %u in place and carries a sum. Nothing goes on a tape:
// the forward sweep runs the loop as the schedule's forward part says
// (advance, take a snapshot of the sum and of the elements of %u the
// iteration touches: [0, 7] here, from the inner loop's bounds, since %u
// may be a C pointer's memory), hands the state over to a working copy,
// and runs the rest. The reverse sweep follows the schedule on the working
// copy and reverses each iteration with the iteration's combined pullback,
// which takes the working copy and %u's own shadow; the sum's adjoint flows
// from one reversal to the previous one.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func private @iteration(%t: index, %s: f64, %u: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %u[%i] : memref<?xf64, strided<[1], offset: ?>>
    %y = arith.mulf %x, %x : f64
    memref.store %y, %u[%i] : memref<?xf64, strided<[1], offset: ?>>
  }
  %last = memref.load %u[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %next = arith.addf %s, %last : f64
  return %next : f64
}

func.func @f(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %t = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %next = func.call @iteration(%t, %s, %u) {ct.checkpoint_snapshots = 3 : i64, no_inline} : (index, f64, memref<?xf64, strided<[1], offset: ?>>) -> f64
    scf.yield %next : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @f.pullback.dc
// CHECK-SAME: (%[[U:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[N:.*]]: index, %[[SEED:.*]]: f64, %[[DU:.*]]: memref<?xf64, strided<[1], offset: ?>>)
// CHECK-NOT: ct.tape
// CHECK: %[[STATE:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: call @ct_checkpoint_init(%[[STATE]], %{{.*}}, %{{.*}})
// CHECK: %[[SUMS:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[HANDED:.*]] = memref.alloc() : memref<1xf64>
// CHECK: %[[DIM:.*]] = memref.dim %[[U]]
// The copy of %u: its elements [0, 7] when %u is a C pointer's view.
// CHECK: arith.cmpi sge, %[[DIM]], %c576460752303423488
// CHECK: %[[WORK:.*]] = memref.alloc(%[[COUNT:.*]]) : memref<?xf64>
// CHECK: %[[SHIFTED:.*]] = memref.reinterpret_cast %[[WORK]] to offset: [0], sizes: [%[[DIM]]], strides: [1]
// CHECK: %[[VIEW:.*]] = memref.cast %[[SHIFTED]]
// CHECK: %[[SNAPS:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// Forward: the loop as the schedule drives it, then the rest.
// CHECK: scf.while
// CHECK: call @ct_checkpoint_forward_next(%[[STATE]])
// CHECK: scf.index_switch
// CHECK: case 1 {
// CHECK: scf.for
// CHECK: call @iteration(
// CHECK: case 2 {
// CHECK: memref.store %{{.*}}, %[[SUMS]]
// CHECK: memref.load %[[U]]
// CHECK: memref.store %{{.*}}, %[[SNAPS]]
// CHECK: case 6 {
// CHECK: memref.store %{{.*}}, %[[HANDED]]
// CHECK: memref.store %{{.*}}, %[[WORK]]
// CHECK: scf.for
// CHECK: call @iteration(
// Reverse: the rest of the schedule, on the working copy.
// CHECK: memref.load %[[HANDED]]
// CHECK: scf.while
// CHECK: call @ct_checkpoint_reverse_next(%[[STATE]])
// CHECK: scf.index_switch
// CHECK: case 1 {
// CHECK: call @iteration(%{{.*}}, %{{.*}}, %[[VIEW]])
// CHECK: case 2 {
// CHECK: case 3 {
// CHECK: memref.load %[[SUMS]]
// CHECK: case 4 {
// CHECK: call @iteration.pullback.cad(%{{.*}}, %{{.*}}, %[[VIEW]], %{{.*}}, %[[DU]])
// CHECK: memref.dealloc %[[SNAPS]]
// CHECK: memref.dealloc %[[WORK]]
// CHECK: memref.dealloc %[[STATE]]

// The same loop in a branch: the forward branch passes the schedule's
// state (and the snapshots) out as results, poison where it does not run;
// the reverse branch, which runs when it ran, follows and frees them.
// CHECK-LABEL: func.func private @g.pullback.dcc
// CHECK: %[[NONE:.*]] = ub.poison : memref<?xi64>
// CHECK: %[[PASSED:.*]]:{{[0-9]+}} = scf.if %{{.*}} -> (f64, memref<?xi64>
// CHECK:   %[[MADE:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:   call @ct_checkpoint_init(%[[MADE]]
// CHECK:   scf.yield %{{.*}}, %[[MADE]],
// CHECK: } else {
// CHECK:   scf.yield %{{.*}}, %[[NONE]],
// CHECK: scf.if
// CHECK:   call @ct_checkpoint_reverse_next(%[[PASSED]]#1)
// CHECK:   call @iteration.pullback.cad(
// CHECK:   memref.dealloc %[[PASSED]]#1
func.func @g(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.if %c -> f64 {
    %s = scf.for %t = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
      %next = func.call @iteration(%t, %s, %u) {ct.checkpoint_snapshots = 3 : i64, no_inline} : (index, f64, memref<?xf64, strided<[1], offset: ?>>) -> f64
      scf.yield %next : f64
    }
    scf.yield %s : f64
  } else {
    scf.yield %zero : f64
  }
  %sq = arith.mulf %r, %r : f64
  return %sq : f64
}

// CHECK-LABEL: func.func private @ct_checkpoint_init
// CHECK-SAME: llvm.emit_c_interface

func.func @main(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index, %du: memref<?xf64, strided<[1], offset: ?>>, %c: i1) -> f64 {
  %v = ct.gradient @f(%u, %n) shadows(%du) activity [dup, const]
      : (memref<?xf64, strided<[1], offset: ?>>, index, memref<?xf64, strided<[1], offset: ?>>) -> f64
  %w = ct.gradient @g(%u, %n, %c) shadows(%du) activity [dup, const, const]
      : (memref<?xf64, strided<[1], offset: ?>>, index, i1, memref<?xf64, strided<[1], offset: ?>>) -> f64
  %sum = arith.addf %v, %w : f64
  return %sum : f64
}
