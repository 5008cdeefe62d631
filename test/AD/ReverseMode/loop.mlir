// A loop whose reverse needs values from every iteration: the forward loop
// pushes them (after sizing the tape from the trip count), the reversed loop
// runs over the same trip count and pops them in reverse order; the loop
// counter needs no tape (it is recomputed), and constants are rematerialised.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @f(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> f64 {
    %s = math.sin %acc : f64
    %m = arith.mulf %s, %x : f64
    scf.yield %m : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @f.pullback.ac
// CHECK-SAME: (%[[X:.*]]: f64, %[[N:.*]]: index, %[[SEED:.*]]: f64) -> (f64, f64)
// CHECK: %[[TAPE:.*]] = ct.tape_init : !ct.tape
// CHECK: %[[TRIPS:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK: %[[SLOTS:.*]] = arith.muli %[[TRIPS]], %{{.*}} : index
// CHECK: ct.tape_reserve %[[TAPE]], %[[SLOTS]]
// CHECK: %[[V:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK:   %[[SIN:.*]] = math.sin %[[ACC]] : f64
// CHECK:   arith.mulf %[[SIN]], %[[X]] : f64
// CHECK:   ct.tape_push %[[TAPE]], %[[SIN]] : f64
// CHECK:   ct.tape_push %[[TAPE]], %[[ACC]] : f64
// CHECK:   scf.yield
// CHECK: }
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[TRIPS]] step %{{.*}} {
// CHECK:   %[[PACC:.*]] = ct.tape_pop %[[TAPE]] : f64
// CHECK:   %[[PSIN:.*]] = ct.tape_pop %[[TAPE]] : f64
// CHECK:   arith.mulf %[[X]], %{{.*}} : f64
// CHECK:   arith.mulf %[[PSIN]], %{{.*}} : f64
// CHECK:   math.cos %[[PACC]] : f64
// CHECK: }
// CHECK: ct.tape_free %[[TAPE]]
// CHECK: return %[[V]], %{{.*}} : f64, f64

func.func @main(%x: f64, %n: index) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x, %n) activity [active, const]
      : (f64, index) -> (f64, f64)
  return %v, %dx : f64, f64
}

// An `int` loop: the reversed loop recomputes the counter as
// lb + (trips - 1 - k), which stays in [lb, ub). Like the trip count, it
// assumes that ub - lb fits the type, and says so with `nsw`, so that LLVM
// widens the counter and folds the index cast as it does in the forward loop.
func.func @product(%x: memref<?xf64>, %lb: i32, %ub: i32) -> f64 {
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %one) -> f64 : i32 {
    %j = arith.index_cast %i : i32 to index
    %v = memref.load %x[%j] : memref<?xf64>
    %p = arith.mulf %acc, %v : f64
    scf.yield %p : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @product.pullback.dcc
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[LB:.*]]: i32, %[[UB:.*]]: i32,
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] overflow<nsw> : i32
// CHECK: %[[TRIPS:.*]] = arith.maxsi %[[SPAN]], %{{.*}} : i32
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[TRIPS]] step %{{.*}} : i32 {
// CHECK:   %[[LAST:.*]] = arith.subi %[[TRIPS]], %{{.*}} overflow<nsw> : i32
// CHECK:   %[[BACK:.*]] = arith.subi %[[LAST]], %[[K]] overflow<nsw> : i32
// CHECK:   %[[I:.*]] = arith.addi %[[LB]], %[[BACK]] overflow<nsw> : i32
// CHECK:   %[[J:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK:   memref.load %[[X]][%[[J]]] : memref<?xf64>

func.func @product_main(%x: memref<?xf64>, %dx: memref<?xf64>, %lb: i32,
                        %ub: i32) -> f64 {
  %v = ct.gradient @product(%x, %lb, %ub) shadows(%dx)
      activity [dup, const, const]
      : (memref<?xf64>, i32, i32, memref<?xf64>) -> f64
  return %v : f64
}
