// Memory a loop carries out (a place chosen in the loop, poison on the
// paths that chose none) is each place it may be: a store through it
// after the loop is a store into the local buffer, whose tangent the loop
// carries beside it (the shadow, or poison where the place is poison).
// RUN: %cotangent-opt %s --ct-differentiate | FileCheck %s
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup \
// RUN:   | FileCheck %s --check-prefix=CLEAN

func.func @carried(%x: f64, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %a = memref.alloca() : memref<2xf64>
  memref.store %zero, %a[%c0] : memref<2xf64>
  %none = ub.poison : memref<2xf64>
  %r:2 = scf.while (%i = %c0) : (index) -> (index, memref<2xf64>) {
    %go = arith.cmpi slt, %i, %c3 : index
    %place = scf.if %c -> memref<2xf64> {
      scf.yield %a : memref<2xf64>
    } else {
      scf.yield %none : memref<2xf64>
    }
    scf.condition(%go) %i, %place : index, memref<2xf64>
  } do {
  ^bb0(%i: index, %place: memref<2xf64>):
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  memref.store %x, %r#1[%c0] : memref<2xf64>
  %v = memref.load %a[%c0] : memref<2xf64>
  %w = arith.mulf %v, %x : f64
  return %w : f64
}

// The tangent of `a` is a zeroed buffer; the loop yields it (or poison)
// and carries it out beside the place; the store after the loop writes the
// tangent of x through it.
// CHECK-LABEL: func.func private @carried.jvp.ac
// CHECK-SAME: (%[[X:.*]]: f64, %[[C:.*]]: i1, %[[TX:.*]]: f64)
// CHECK: %[[A:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[SHADOW:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[NONE:.*]] = ub.poison : memref<2xf64>
// CHECK: %[[NOSHADOW:.*]] = ub.poison : memref<2xf64>
// CHECK: %[[R:.*]]:3 = scf.while
// CHECK: scf.if %[[C]] -> (memref<2xf64>, memref<2xf64>)
// CHECK: scf.yield %[[A]], %[[SHADOW]]
// CHECK: scf.yield %[[NONE]], %[[NOSHADOW]]
// CHECK: memref.store %[[X]], %[[R]]#1[
// CHECK: memref.store %[[TX]], %[[R]]#2[

// Cleaned up (poison is whichever place): d(x * x) = 2 x tx.
// CLEAN-LABEL: func.func private @carried.jvp.ac
// CLEAN-SAME: (%[[X:.*]]: f64, %{{.*}}: i1, %[[TX:.*]]: f64)
// CLEAN: %[[A:.*]] = memref.alloca() : memref<2xf64>
// CLEAN: %[[SHADOW:.*]] = memref.alloca() : memref<2xf64>
// CLEAN: memref.store %[[X]], %[[A]][
// CLEAN: memref.store %[[TX]], %[[SHADOW]][
// CLEAN: %[[T:.*]] = memref.load %[[SHADOW]][
// CLEAN: %[[P:.*]] = arith.mulf %[[X]], %[[T]]
// CLEAN: %[[Q:.*]] = arith.mulf %{{.*}}, %[[TX]]
// CLEAN: %[[SUM:.*]] = arith.addf %[[P]], %[[Q]]
// CLEAN: return %{{.*}}, %[[SUM]]

func.func @requests(%x: f64, %c: i1, %tx: f64) -> f64 {
  %r:2 = ct.jvp @carried(%x, %c) tangents(%tx) activity [active, const] : (f64, i1, f64) -> (f64, f64)
  return %r#1 : f64
}
