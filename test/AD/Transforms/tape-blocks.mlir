// ct-tape-blocks: a loop whose only tape ops are pushes (or pops) in its
// own body claims (or releases) all its slots before it and writes (reads)
// them by iteration. Loops that use the tape otherwise keep their pushes.
// RUN: %cotangent-opt %s --ct-tape-blocks --canonicalize --cse | FileCheck %s

// Two pushes per iteration: slots 2k and 2k + 1 of a block of 2 * trips
// (trips = max(0, ceildiv(n - 1, 2)) for i = 1, 3, ...). The claim makes
// room itself: the reserve before the loop goes. Positions lie in the
// block, so their arithmetic carries nsw and nuw for LLVM.
// CHECK-LABEL: func.func @pushes
// CHECK-SAME: (%[[T:.*]]: !ct.tape, %[[N:.*]]: index, %[[X:.*]]: f64)
// CHECK-NOT: ct.tape_reserve
// CHECK: %[[TRIPS:.*]] = arith.maxsi
// CHECK: %[[SLOTS:.*]] = arith.muli %[[TRIPS]], %c2
// CHECK: %[[BLOCK:.*]] = ct.tape_claim %[[T]], %[[SLOTS]]
// CHECK: scf.for %[[I:.*]] = %c1 to %[[N]] step %c2 {
// CHECK:   %[[SINCE:.*]] = arith.subi %[[I]], %c1 overflow<nsw> : index
// CHECK:   %[[K:.*]] = arith.divui %[[SINCE]], %c2
// CHECK:   %[[S0:.*]] = arith.muli %[[K]], %c2 overflow<nsw, nuw>
// CHECK:   ct.tape_write %{{.*}}, %[[BLOCK]][%[[S0]]] : f64
// CHECK:   %[[S1:.*]] = arith.addi %{{.*}}, %c1 overflow<nsw, nuw>
// CHECK:   ct.tape_write %{{.*}}, %[[BLOCK]][%[[S1]]] : i1
// CHECK-NOT: ct.tape_push
// CHECK: return
func.func @pushes(%t: !ct.tape, %n: index, %x: f64) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  ct.tape_reserve %t, %n
  scf.for %i = %c1 to %n step %c2 {
    %s = math.sin %x : f64
    ct.tape_push %t, %s : f64
    %b = arith.cmpf ogt, %s, %x : f64
    ct.tape_push %t, %b : i1
  }
  return
}

// The reverse: iteration k reads what iteration trips - 1 - k pushed, the
// value pushed last first.
// CHECK-LABEL: func.func @pops
// CHECK: %[[TRIPS:.*]] = arith.maxsi
// CHECK: %[[SLOTS:.*]] = arith.muli %[[TRIPS]], %c2
// CHECK: %[[BLOCK:.*]] = ct.tape_release %{{.*}}, %[[SLOTS]]
// CHECK: scf.for %[[K:.*]] = %c0 to %{{.*}} step %c1 iter_args
// CHECK:   %[[LAST:.*]] = arith.subi %[[TRIPS]], %c1 overflow<nsw, nuw>
// CHECK:   %[[PUSHED:.*]] = arith.subi %[[LAST]], %[[K]] overflow<nsw, nuw>
// CHECK:   %[[AT:.*]] = arith.muli %[[PUSHED]], %c2 overflow<nsw, nuw>
// CHECK:   %[[S1:.*]] = arith.addi %[[AT]], %c1 overflow<nsw, nuw>
// CHECK:   ct.tape_read %[[BLOCK]][%[[S1]]] : i1
// CHECK:   ct.tape_read %[[BLOCK]][%[[AT]]] : f64
// CHECK-NOT: ct.tape_pop
// CHECK: return
func.func @pops(%t: !ct.tape, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %b = ct.tape_pop %t : i1
    %s = ct.tape_pop %t : f64
    %v = arith.select %b, %s, %zero : f64
    %a = arith.addf %acc, %v : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// A reversed loop that reverse mode marked as commuting runs the other way
// round once its pops are reads: k becomes trips - 1 - k, so iteration k
// reads slot k (k = trips - 1 - (trips - 1 - k) after LLVM's clean-up).
// CHECK-LABEL: func.func @commuting
// CHECK-SAME: (%{{.*}}: !ct.tape, %[[N:.*]]: index, %[[OUT:.*]]: memref<?xf64>)
// CHECK: %[[BLOCK:.*]] = ct.tape_release
// CHECK: scf.for %[[K:.*]] = %c0 to %[[N]] step %c1 {
// CHECK:   %[[LAST:.*]] = arith.subi %[[N]], %c1 overflow<nsw> : index
// CHECK:   %[[FLIPPED:.*]] = arith.subi %[[LAST]], %[[K]] overflow<nsw, nuw> : index
// CHECK:   %[[SLOT:.*]] = arith.subi %{{.*}}, %[[FLIPPED]] overflow<nsw, nuw> : index
// CHECK:   %[[V:.*]] = ct.tape_read %[[BLOCK]][%[[SLOT]]] : f64
// CHECK:   memref.store %[[V]], %[[OUT]][%[[FLIPPED]]]
// CHECK: }
// CHECK-NOT: ct.commuting_iterations
func.func @commuting(%t: !ct.tape, %n: index, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = ct.tape_pop %t : f64
    memref.store %v, %out[%k] : memref<?xf64>
  } {ct.commuting_iterations}
  return
}

// A marked loop whose tape use stays as it is keeps its order; the mark
// goes.
// CHECK-LABEL: func.func @commuting_kept
// CHECK: scf.for %[[K:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK-NEXT:   ct.tape_pop
// CHECK-NEXT:   ct.tape_push
// CHECK-NEXT:   memref.store %{{.*}}, %{{.*}}[%[[K]]]
// CHECK-NOT: ct.commuting_iterations
// CHECK: return
func.func @commuting_kept(%t: !ct.tape, %n: index, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = ct.tape_pop %t : f64
    ct.tape_push %t, %v : f64
    memref.store %v, %out[%k] : memref<?xf64>
  } {ct.commuting_iterations}
  return
}

// The inner loop becomes a block; the outer loop, which claims it, keeps
// its own push. A loop that passes the tape to a call keeps its pushes.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK:   ct.tape_claim
// CHECK:   scf.for
// CHECK:     ct.tape_write
// CHECK:   ct.tape_push
// CHECK: scf.for
// CHECK:   ct.tape_push
// CHECK:   call @takes_tape
func.func @nested(%t: !ct.tape, %n: index, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      ct.tape_push %t, %x : f64
    }
    ct.tape_push %t, %x : f64
  }
  scf.for %i = %c0 to %n step %c1 {
    ct.tape_push %t, %x : f64
    func.call @takes_tape(%t) : (!ct.tape) -> ()
  }
  return
}
func.func private @takes_tape(!ct.tape)
