// A place chosen by a branch whose regions write and then yield memory from
// outside it (a function returning one of two references, inlined, each
// return after a write): the result is each place it may be. Activity sees
// the store through it reach both places, and reverse mode's shadow of it
// is the same choice between the places' shadows, made from the branch's
// condition; forward mode yields the places' shadows.
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s

func.func @scale_chosen(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<1xf64>
  %b = memref.alloca() : memref<1xf64>
  memref.store %x, %a[%c0] : memref<1xf64>
  memref.store %y, %b[%c0] : memref<1xf64>
  %c = arith.cmpf ogt, %x, %y : f64
  %place = scf.if %c -> (memref<?xf64, strided<[1], offset: ?>>) {
    memref.store %y, %a[%c0] : memref<1xf64>
    %cast = memref.cast %a : memref<1xf64> to memref<?xf64, strided<[1], offset: ?>>
    scf.yield %cast : memref<?xf64, strided<[1], offset: ?>>
  } else {
    memref.store %x, %b[%c0] : memref<1xf64>
    %cast = memref.cast %b : memref<1xf64> to memref<?xf64, strided<[1], offset: ?>>
    scf.yield %cast : memref<?xf64, strided<[1], offset: ?>>
  }
  %v = memref.load %place[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %w = arith.mulf %v, %y : f64
  memref.store %w, %place[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %ra = memref.load %a[%c0] : memref<1xf64>
  %rb = memref.load %b[%c0] : memref<1xf64>
  %r = arith.addf %ra, %rb : f64
  return %r : f64
}

// CHECK-LABEL: func.func private @scale_chosen.jvp.aa
// CHECK: scf.if %{{.*}} -> (memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>)

// CHECK-LABEL: func.func private @scale_chosen.pullback.aa
// CHECK: %[[A:.*]] = memref.alloca() : memref<1xf64>
// CHECK-NEXT: %[[SA:.*]] = memref.alloca() : memref<1xf64>
// CHECK-NEXT: memref.store %{{.*}}, %[[SA]]
// CHECK-NEXT: %[[B:.*]] = memref.alloca() : memref<1xf64>
// CHECK-NEXT: %[[SB:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[C:.*]] = arith.cmpf ogt
// CHECK-NEXT: %[[CAST_A:.*]] = memref.cast %[[SA]]
// CHECK-NEXT: %[[CAST_B:.*]] = memref.cast %[[SB]]
// CHECK: %[[SHADOW:.*]] = arith.select %[[C]], %[[CAST_A]], %[[CAST_B]]
// CHECK: scf.if %[[C]]
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.store %{{.*}}, %[[B]]
// The adjoint of the store through the place, read from the chosen shadow.
// CHECK: %[[SEED:.*]] = memref.load %[[SHADOW]]
// CHECK: memref.store %{{.*}}, %[[SHADOW]]
func.func @main(%x: f64, %y: f64) -> (f64, f64, f64, f64) {
  %v:3 = ct.gradient @scale_chosen(%x, %y) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %t:2 = ct.jvp @scale_chosen(%x, %y) tangents(%x, %y) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  return %v#1, %v#2, %t#0, %t#1 : f64, f64, f64, f64
}
