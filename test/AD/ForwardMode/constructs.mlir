// Forward mode over each construct: tangents ride along loops as extra
// iter_args, along branches as extra results, in memory as a shadow memref,
// through calls as the callee's jvp, and through tapes (in generated
// reverse-mode code) as a shadow tape pushed and popped in step.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @loop(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> f64 {
    %m = arith.mulf %acc, %x : f64
    scf.yield %m : f64
  }
  return %r : f64
}
func.func @branch(%x: f64, %c: i1) -> f64 {
  %r = scf.if %c -> f64 {
    %s = math.sin %x : f64
    scf.yield %s : f64
  } else {
    scf.yield %x : f64
  }
  return %r : f64
}
func.func @memory(%p: memref<?xf64>, %i: index) {
  %v = memref.load %p[%i] : memref<?xf64>
  %w = arith.mulf %v, %v : f64
  memref.store %w, %p[%i] : memref<?xf64>
  return
}
func.func @caller(%x: f64) -> f64 {
  %c = arith.constant true
  %r = func.call @branch(%x, %c) : (f64, i1) -> f64
  return %r : f64
}
func.func @tape(%x: f64) -> f64 {
  %t = ct.tape_init : !ct.tape
  %s = math.sin %x : f64
  ct.tape_push %t, %s : f64
  %p = ct.tape_pop %t : f64
  ct.tape_free %t
  return %p : f64
}
// CHECK-LABEL: func.func private @loop.jvp.ac
// CHECK-SAME: (%[[X:.*]]: f64, %[[N:.*]]: index, %[[TX:.*]]: f64) -> (f64, f64)
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[TACC:.*]] = %{{.*}}) -> (f64, f64) {
// CHECK:   %[[M:.*]] = arith.mulf %[[ACC]], %[[X]]
// CHECK:   %[[A:.*]] = arith.mulf %[[X]], %[[TACC]]
// CHECK:   %[[B:.*]] = arith.mulf %[[ACC]], %[[TX]]
// CHECK:   %[[T:.*]] = arith.addf %[[A]], %[[B]]
// CHECK:   scf.yield %[[M]], %[[T]] : f64, f64
// CHECK: return %[[R]]#0, %[[R]]#1

// CHECK-LABEL: func.func private @branch.jvp.ac
// CHECK-SAME: (%[[X:.*]]: f64, %[[C:.*]]: i1, %[[TX:.*]]: f64)
// CHECK: scf.if %[[C]] -> (f64, f64) {
// CHECK:   %[[S:.*]] = math.sin %[[X]]
// CHECK:   %[[COS:.*]] = math.cos %[[X]]
// CHECK:   %[[T:.*]] = arith.mulf %[[COS]], %[[TX]]
// CHECK:   scf.yield %[[S]], %[[T]]
// CHECK: } else {
// CHECK:   scf.yield %[[X]], %[[TX]]

// CHECK-LABEL: func.func private @memory.jvp.dc
// CHECK-SAME: (%[[P:.*]]: memref<?xf64>, %[[I:.*]]: index, %[[TP:.*]]: memref<?xf64>)
// CHECK-DAG: %[[V:.*]] = memref.load %[[P]][%[[I]]]
// CHECK-DAG: %[[TV:.*]] = memref.load %[[TP]][%[[I]]]
// CHECK-DAG: %[[W:.*]] = arith.mulf %[[V]], %[[V]]
// CHECK-DAG: %[[H:.*]] = arith.mulf %[[V]], %[[TV]]
// CHECK-DAG: %[[TW:.*]] = arith.addf %[[H]], %[[H]]
// CHECK: memref.store %[[W]], %[[P]][%[[I]]]
// CHECK: memref.store %[[TW]], %[[TP]][%[[I]]]

// CHECK-LABEL: func.func private @caller.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[TX:.*]]: f64)
// CHECK: call @branch.jvp.ac(%[[X]], %{{.*}}, %[[TX]]) : (f64, i1, f64) -> (f64, f64)

// CHECK-LABEL: func.func private @tape.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[TX:.*]]: f64)
// CHECK-DAG: %[[T:.*]] = ct.tape_init
// CHECK-DAG: %[[TT:.*]] = ct.tape_init
// CHECK: ct.tape_push %[[T]], %{{.*}} : f64
// CHECK: ct.tape_push %[[TT]], %{{.*}} : f64
// CHECK: %[[V:.*]] = ct.tape_pop %[[T]] : f64
// CHECK: %[[TV:.*]] = ct.tape_pop %[[TT]] : f64
// CHECK-DAG: ct.tape_free %[[T]]
// CHECK-DAG: ct.tape_free %[[TT]]
// CHECK: return %[[V]], %[[TV]]

func.func @main(%x: f64, %tx: f64, %n: index, %c: i1, %p: memref<?xf64>, %tp: memref<?xf64>) {
  %a:2 = ct.jvp @loop(%x, %n) tangents(%tx) activity [active, const] : (f64, index, f64) -> (f64, f64)
  %b:2 = ct.jvp @branch(%x, %c) tangents(%tx) activity [active, const] : (f64, i1, f64) -> (f64, f64)
  ct.jvp @memory(%p, %n) tangents(%tp) activity [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> ()
  %d:2 = ct.jvp @caller(%x) tangents(%tx) activity [active] : (f64, f64) -> (f64, f64)
  %e:2 = ct.jvp @tape(%x) tangents(%tx) activity [active] : (f64, f64) -> (f64, f64)
  return
}
