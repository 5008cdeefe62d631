// Iterations that touch no element another iteration writes commute, and
// so do their reverses (they only add into shared adjoints): the reversed
// loop then runs in the primal's order, which LLVM vectorises without
// reversing vectors. A reversed loop that pops the tape keeps its order
// until ct-tape-blocks reads its block by position; it is marked for that.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s --check-prefix=BLOCKS

// t[i] = 3 x[i] writes its own element: the reverse of iteration k is that
// of primal iteration k.
func.func @scale(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3.0 : f64
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() : memref<64xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %s = arith.mulf %v, %c3 : f64
    memref.store %s, %t[%i] : memref<64xf64>
  }
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %t[%i] : memref<64xf64>
    %p = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %p : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @scale.pullback.dc
// CHECK-SAME: (%{{.*}}: memref<?xf64>, %[[N:[^:]*]]: index, %{{.*}}: f64, %[[DX:[^:]*]]: memref<?xf64>)
// CHECK: %[[TRIPS:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[TRIPS]] step %{{.*}} {
// CHECK-NOT: arith.subi
// CHECK:   memref.load %[[DT:.*]][%[[K]]] : memref<64xf64>
// CHECK:   memref.store %{{.*}}, %[[DT]][%[[K]]] : memref<64xf64>
// CHECK:   memref.load %[[DX]][%[[K]]] : memref<?xf64>
// CHECK:   memref.store %{{.*}}, %[[DX]][%[[K]]] : memref<?xf64>
// CHECK: }

// t[i] = t[i - 1] x[i] reads what the iteration before wrote: reversed.
func.func @prefix(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %t = memref.alloca() : memref<64xf64>
  memref.store %one, %t[%c0] : memref<64xf64>
  scf.for %i = %c1 to %n step %c1 {
    %im1 = arith.subi %i, %c1 : index
    %prev = memref.load %t[%im1] : memref<64xf64>
    %v = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %prev, %v : f64
    memref.store %p, %t[%i] : memref<64xf64>
  }
  %nm1 = arith.subi %n, %c1 : index
  %r = memref.load %t[%nm1] : memref<64xf64>
  return %r : f64
}

// CHECK-LABEL: func.func private @prefix.pullback.dc
// CHECK: %[[TRIPS:.*]] = arith.maxsi
// CHECK: ct.tape_reserve %{{.*}}, %[[TRIPS]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[TRIPS]] step %{{.*}} {
// CHECK-NEXT:   ct.tape_pop
// CHECK:   %[[LAST:.*]] = arith.subi %[[TRIPS]], %{{.*}} overflow<nsw> : index
// CHECK:   arith.subi %[[LAST]], %[[K]] overflow<nsw> : index
// CHECK-NOT: ct.commuting_iterations
// CHECK: ct.tape_free

// u is overwritten after the loop, so the reverse pops u[i]: the reversed
// loop keeps its order and is marked; ct-tape-blocks then reads the block
// upwards, slot k in iteration k, and the primal index is k again. (u holds
// running sums, which the loop reading it cannot compute again.)
func.func @overwritten(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %u = memref.alloca() : memref<64xf64>
  %t = memref.alloca() : memref<64xf64>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %s = math.sin %v : f64
    %next = arith.addf %acc, %s : f64
    memref.store %next, %u[%i] : memref<64xf64>
    scf.yield %next : f64
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %u[%i] : memref<64xf64>
    %w = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %v, %w : f64
    memref.store %p, %t[%i] : memref<64xf64>
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %u[%i] : memref<64xf64>
  }
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %t[%i] : memref<64xf64>
    %q = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @overwritten.pullback.dc
// CHECK: scf.for
// CHECK:   ct.tape_pop
// CHECK: } {ct.commuting_iterations}

// BLOCKS-LABEL: func.func private @overwritten.pullback.dc
// BLOCKS: %[[BLOCK:.*]] = ct.tape_release %{{.*}}, %[[SLOTS:.*]]
// BLOCKS: scf.for %[[K:.*]] = %{{.*}} to %[[TRIPS:.*]] step %{{.*}} {
// BLOCKS:   %[[LAST:.*]] = arith.subi %[[TRIPS]], %{{.*}} overflow<nsw> : index
// BLOCKS:   %[[FLIPPED:.*]] = arith.subi %[[LAST]], %[[K]] overflow<nsw, nuw> : index
// BLOCKS:   %[[TOP:.*]] = arith.subi %[[SLOTS]], %{{.*}} overflow<nsw, nuw> : index
// BLOCKS:   %[[SLOT:.*]] = arith.subi %[[TOP]], %[[FLIPPED]] overflow<nsw, nuw> : index
// BLOCKS:   ct.tape_read %[[BLOCK]][%[[SLOT]]] : f64
// BLOCKS-NOT: ct.commuting_iterations
// BLOCKS: ct.tape_free

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %n: index)
    -> (f64, f64, f64) {
  %a = ct.gradient @scale(%x, %n) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %b = ct.gradient @prefix(%x, %n) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %c = ct.gradient @overwritten(%x, %n) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  return %a, %b, %c : f64, f64, f64
}
