// Reverse mode of a checkpointed loop whose trip count is known only when
// it ends (as ct-outline-checkpoints leaves it: the condition region calls
// the outlined iteration, which returns whether the loop goes on, what it
// carries on, and the loop's results). The forward sweep asks the online
// schedule for snapshots before each call and counts the calls; the reverse
// sweep follows reverse_next, seeding the last call (the one that ended the
// loop) with the results' adjoints through a select.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func private @halve(%y: f64, %k: index, %a: f64) -> (i1, f64, index, f64, index) {
  %tiny = arith.constant 1.0e-3 : f64
  %c1 = arith.constant 1 : index
  %go = arith.cmpf ogt, %y, %tiny : f64
  %r:2 = scf.if %go -> (f64, index) {
    %next = arith.mulf %y, %a : f64
    %k1 = arith.addi %k, %c1 : index
    scf.yield %next, %k1 : f64, index
  } else {
    scf.yield %y, %k : f64, index
  }
  return %go, %r#0, %r#1, %y, %k : i1, f64, index, f64, index
}

func.func @f(%y0: f64, %a: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %w:4 = scf.while (%y = %y0, %k = %c0) : (f64, index) -> (f64, index, f64, index) {
    %s:5 = func.call @halve(%y, %k, %a) {ct.checkpoint_snapshots = 4 : i64, no_inline} : (f64, index, f64) -> (i1, f64, index, f64, index)
    scf.condition(%s#0) %s#1, %s#2, %s#3, %s#4 : f64, index, f64, index
  } do {
  ^bb0(%y: f64, %k: index, %ry: f64, %rk: index):
    scf.yield %y, %k : f64, index
  }
  return %w#2 : f64
}

// CHECK-LABEL: func.func private @f.pullback.aa
// CHECK-NOT: ct.tape
// CHECK: %[[BUFFER:.*]] = memref.alloc() : memref<30xi64>
// CHECK: %[[STATE:.*]] = memref.cast %[[BUFFER]]
// CHECK: call @ct_checkpoint_online_init(%[[STATE]], %c4_i64)
// CHECK: %[[YS:.*]] = memref.alloc() : memref<4xf64>
// CHECK: %[[KS:.*]] = memref.alloc() : memref<4xindex>
// Forward: snapshots as the schedule says, then the call; calls counted.
// CHECK: scf.while
// CHECK: scf.while
// CHECK: call @ct_checkpoint_online_next(%[[STATE]], %{{.*}})
// CHECK: scf.index_switch
// CHECK: case 2 {
// CHECK: memref.store %{{.*}}, %[[YS]]
// CHECK: case 7 {
// CHECK: call @halve(
// CHECK: call @ct_checkpoint_online_finish(%[[STATE]], %{{.*}})
// Reverse: the schedule's actions; the last call gets the result's seed.
// CHECK: scf.while
// CHECK: call @ct_checkpoint_reverse_next(%[[STATE]])
// CHECK: case 4 {
// CHECK: %[[LAST:.*]] = arith.cmpi eq
// CHECK: %[[SEED:.*]] = arith.select %[[LAST]]
// CHECK: call @halve.pullback.aca(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SEED]])
// CHECK: memref.dealloc %[[BUFFER]]

func.func @main(%y: f64, %a: f64) -> (f64, f64, f64) {
  %v, %dy, %da = ct.gradient @f(%y, %a) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  return %v, %dy, %da : f64, f64, f64
}

// A do/while loop over a C pointer's memory, counting from 2 by 1 while the
// next count is below %n: the iterations touch elements 2 to max(2, n - 1),
// which the snapshots keep (first 2, count max(n - 1, 2) - 1).
func.func private @scale(%k: index, %o: memref<?xf64, strided<[1], offset: ?>>, %n: index) -> (i1, index) {
  %c1 = arith.constant 1 : index
  %v = memref.load %o[%k] : memref<?xf64, strided<[1], offset: ?>>
  %s = math.sin %v : f64
  memref.store %s, %o[%k] : memref<?xf64, strided<[1], offset: ?>>
  %k1 = arith.addi %k, %c1 : index
  %go = arith.cmpi slt, %k1, %n : index
  return %go, %k1 : i1, index
}

func.func @g(%o: memref<?xf64, strided<[1], offset: ?>>, %n: index) {
  %c2 = arith.constant 2 : index
  %w = scf.while (%k = %c2) : (index) -> index {
    %s:2 = func.call @scale(%k, %o, %n) {ct.checkpoint_snapshots = 4 : i64, no_inline} : (index, memref<?xf64, strided<[1], offset: ?>>, index) -> (i1, index)
    scf.condition(%s#0) %s#1 : index
  } do {
  ^bb0(%k: index):
    scf.yield %k : index
  }
  return
}

// CHECK-LABEL: func.func private @g.pullback.dc
// CHECK-SAME: (%{{.*}}: memref<?xf64, strided<[1], offset: ?>>, %[[N:[^:]*]]: index
// CHECK: %[[BEFORE:.*]] = arith.addi %[[N]], %c-1 : index
// CHECK: %[[LAST:.*]] = arith.maxsi %[[BEFORE]], %c2 : index
// CHECK: %[[UNKNOWN:.*]] = arith.cmpi sge, %dim
// CHECK: %[[SPAN:.*]] = arith.addi %[[LAST]], %c-1 : index
// CHECK: %[[COUNT:.*]] = arith.maxsi %[[SPAN]], %c0 : index
// CHECK: arith.select %[[UNKNOWN]], %c2, %c0 : index
// CHECK: arith.select %[[UNKNOWN]], %[[COUNT]], %dim : index

func.func @pointer(%o: memref<?xf64, strided<[1], offset: ?>>, %do: memref<?xf64, strided<[1], offset: ?>>, %n: index) {
  ct.pullback @g(%o, %n) shadows(%do) activity [dup, const]
      : (memref<?xf64, strided<[1], offset: ?>>, index, memref<?xf64, strided<[1], offset: ?>>) -> ()
  return
}
