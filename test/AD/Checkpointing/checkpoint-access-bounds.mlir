// Which elements of a C pointer's memory a checkpoint copies (AccessBounds).
// First, the elements a checkpointed iteration touches when it reaches them through a choice between that memory and a local
// buffer (a reference chosen at run time: arith.select of the two views)
// at an index a branch chooses (scf.if): the accesses through the choice
// count as accesses of %u, and the index is either branch's, so the working
// copy of %u holds elements [2, 5] (4 of them, from 2) when %u is a C
// pointer's view, else all of it.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func private @iteration(%t: index, %s: f64, %u: memref<?xf64, strided<[1], offset: ?>>, %p: i1) -> f64 {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %local = memref.alloca() : memref<8xf64>
  %cast = memref.cast %local : memref<8xf64> to memref<?xf64, strided<[1], offset: ?>>
  %chosen = arith.select %p, %cast, %u : memref<?xf64, strided<[1], offset: ?>>
  %k = scf.if %p -> (index) {
    scf.yield %c5 : index
  } else {
    scf.yield %c2 : index
  }
  %x = memref.load %chosen[%k] : memref<?xf64, strided<[1], offset: ?>>
  %y = arith.mulf %x, %x : f64
  memref.store %y, %chosen[%k] : memref<?xf64, strided<[1], offset: ?>>
  %next = arith.addf %s, %y : f64
  return %next : f64
}

func.func @f(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index, %p: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %t = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %next = func.call @iteration(%t, %s, %u, %p) {ct.checkpoint_snapshots = 3 : i64, no_inline} : (index, f64, memref<?xf64, strided<[1], offset: ?>>, i1) -> f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @main(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index, %p: i1, %du: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %v = ct.gradient @f(%u, %n, %p) shadows(%du) activity [dup, const, const]
      : (memref<?xf64, strided<[1], offset: ?>>, index, i1, memref<?xf64, strided<[1], offset: ?>>) -> f64
  return %v : f64
}

// CHECK-LABEL: func.func private @f.pullback.dcc
// CHECK-SAME: (%[[U:.*]]: memref<?xf64, strided<[1], offset: ?>>,
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[DIM:.*]] = memref.dim %[[U]], %[[C0]]
// CHECK: %[[UNKNOWN:.*]] = arith.cmpi sge, %[[DIM]], %c576460752303423488
// CHECK: %[[FIRST:.*]] = arith.select %[[UNKNOWN]], %[[C2]], %[[C0]] : index
// CHECK: %[[COUNT:.*]] = arith.select %[[UNKNOWN]], %[[C4]], %[[DIM]] : index
// CHECK: %[[WORK:.*]] = memref.alloc(%[[COUNT]]) : memref<?xf64>
// CHECK: %[[SHIFT:.*]] = arith.subi %[[C0]], %[[FIRST]] : index
// CHECK: memref.reinterpret_cast %[[WORK]] to offset: [%[[SHIFT]]], sizes: [%[[DIM]]], strides: [1]

// The index of a minimum found so far, carried by an inner loop (each
// iteration passes on its own value or the counter): it is one of its initial
// value and the counter's values, so the copy holds elements [0, 5].
// CHECK-LABEL: func.func private @g.pullback.dc
// CHECK-SAME: (%[[U2:.*]]: memref<?xf64, strided<[1], offset: ?>>,
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK: %[[DIM2:.*]] = memref.dim %[[U2]]
// CHECK: %[[UNKNOWN2:.*]] = arith.cmpi sge, %[[DIM2]], %c576460752303423488
// CHECK: %[[COUNT2:.*]] = arith.select %[[UNKNOWN2]], %[[C6]], %[[DIM2]] : index
// CHECK: memref.alloc(%[[COUNT2]]) : memref<?xf64>
func.func private @argmin(%t: index, %s: f64, %u: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %best = scf.for %j = %c1 to %c6 step %c1 iter_args(%b = %c0) -> (index) {
    %x = memref.load %u[%j] : memref<?xf64, strided<[1], offset: ?>>
    %y = memref.load %u[%b] : memref<?xf64, strided<[1], offset: ?>>
    %less = arith.cmpf olt, %x, %y : f64
    %next = arith.select %less, %j, %b : index
    scf.yield %next : index
  }
  %m = memref.load %u[%best] : memref<?xf64, strided<[1], offset: ?>>
  %sq = arith.mulf %m, %m : f64
  memref.store %sq, %u[%best] : memref<?xf64, strided<[1], offset: ?>>
  %next = arith.addf %s, %sq : f64
  return %next : f64
}

func.func @g(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %t = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %next = func.call @argmin(%t, %s, %u) {ct.checkpoint_snapshots = 3 : i64, no_inline} : (index, f64, memref<?xf64, strided<[1], offset: ?>>) -> f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @main2(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index, %du: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %v = ct.gradient @g(%u, %n) shadows(%du) activity [dup, const]
      : (memref<?xf64, strided<[1], offset: ?>>, index, memref<?xf64, strided<[1], offset: ?>>) -> f64
  return %v : f64
}

// A while loop inside the iteration that counts by 1 from 1 while
// `i != 5 && u[i] > 0` (C++'s && as a branch): its counter stays below 5 in
// its body, and its condition also sees the 5 it may stop at: [1, 5].
// CHECK-LABEL: func.func private @h.pullback.dc
// CHECK-SAME: (%[[U3:.*]]: memref<?xf64, strided<[1], offset: ?>>,
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[DIM3:.*]] = memref.dim %[[U3]]
// CHECK: %[[UNKNOWN3:.*]] = arith.cmpi sge, %[[DIM3]], %c576460752303423488
// CHECK: arith.select %[[UNKNOWN3]], %[[C1]], %{{.*}} : index
// CHECK: %[[COUNT3:.*]] = arith.select %[[UNKNOWN3]], %[[C5]], %[[DIM3]] : index
// CHECK: memref.alloc(%[[COUNT3]]) : memref<?xf64>
func.func private @scan(%t: index, %s: f64, %u: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f64
  %false = arith.constant false
  %k = scf.while (%i = %c1) : (index) -> index {
    %in = arith.cmpi ne, %i, %c5 : index
    %go = scf.if %in -> (i1) {
      %x = memref.load %u[%i] : memref<?xf64, strided<[1], offset: ?>>
      %positive = arith.cmpf ogt, %x, %zero : f64
      scf.yield %positive : i1
    } else {
      scf.yield %false : i1
    }
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    %x = memref.load %u[%i] : memref<?xf64, strided<[1], offset: ?>>
    %y = arith.mulf %x, %x : f64
    memref.store %y, %u[%i] : memref<?xf64, strided<[1], offset: ?>>
    %n = arith.addi %i, %c1 : index
    scf.yield %n : index
  }
  %last = memref.load %u[%c1] : memref<?xf64, strided<[1], offset: ?>>
  %next = arith.addf %s, %last : f64
  return %next : f64
}

func.func @h(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %t = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %next = func.call @scan(%t, %s, %u) {ct.checkpoint_snapshots = 3 : i64, no_inline} : (index, f64, memref<?xf64, strided<[1], offset: ?>>) -> f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @main3(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index, %du: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %v = ct.gradient @h(%u, %n) shadows(%du) activity [dup, const]
      : (memref<?xf64, strided<[1], offset: ?>>, index, memref<?xf64, strided<[1], offset: ?>>) -> f64
  return %v : f64
}

// A loop counting by 4 up to 8 that reads u[i] and u[i + 3]: its counter
// takes 0 and 4 (not 0 to 7), so the copy holds elements [0, 7].
// CHECK-LABEL: func.func private @k.pullback.dc
// CHECK-SAME: (%[[U4:.*]]: memref<?xf64, strided<[1], offset: ?>>,
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[DIM4:.*]] = memref.dim %[[U4]]
// CHECK: %[[UNKNOWN4:.*]] = arith.cmpi sge, %[[DIM4]], %c576460752303423488
// CHECK: %[[COUNT4:.*]] = arith.select %[[UNKNOWN4]], %[[C8]], %[[DIM4]] : index
// CHECK: memref.alloc(%[[COUNT4]]) : memref<?xf64>
func.func private @byFours(%t: index, %s: f64, %u: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %sum = scf.for %i = %c0 to %c8 step %c4 iter_args(%a = %s) -> (f64) {
    %j = arith.addi %i, %c3 : index
    %x = memref.load %u[%i] : memref<?xf64, strided<[1], offset: ?>>
    %y = memref.load %u[%j] : memref<?xf64, strided<[1], offset: ?>>
    %xy = arith.mulf %x, %y : f64
    memref.store %xy, %u[%i] : memref<?xf64, strided<[1], offset: ?>>
    %next = arith.addf %a, %xy : f64
    scf.yield %next : f64
  }
  return %sum : f64
}

func.func @k(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %t = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %next = func.call @byFours(%t, %s, %u) {ct.checkpoint_snapshots = 3 : i64, no_inline} : (index, f64, memref<?xf64, strided<[1], offset: ?>>) -> f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @main4(%u: memref<?xf64, strided<[1], offset: ?>>, %n: index, %du: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %v = ct.gradient @k(%u, %n) shadows(%du) activity [dup, const]
      : (memref<?xf64, strided<[1], offset: ?>>, index, memref<?xf64, strided<[1], offset: ?>>) -> f64
  return %v : f64
}
