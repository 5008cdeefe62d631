// ct-auto-checkpoint: in a function a gradient request differentiates, a
// loop inside no other loop becomes an scf.if between the loop checkpointed
// (its body outlined, the call marked ct.checkpoint_auto) and the loop as
// it was. The choice is made when the loop starts: trips times the bytes an
// iteration records (here: the element the square overwrites, 8 bytes, in
// each of %n inner iterations) over the runtime's limit, and the snapshots
// (the 8 doubles of the buffer the loop writes, and the carried f64: 72
// bytes) small beside that tape. Loops it must leave alone are left alone
// without a word (--verify-diagnostics: nothing reported).
// RUN: %cotangent-opt %s --ct-auto-checkpoint --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func private @steps.checkpointed
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK-LABEL: func.func @steps(
// CHECK-SAME: %[[U:.*]]: memref<8xf64>, %[[N:.*]]: index, %[[T:.*]]: index
// CHECK: %[[INNER:.*]] = arith.uitofp {{.*}} : i64 to f64
// CHECK: %[[PER:.*]] = arith.mulf %[[BYTES:.*]], %[[INNER]]
// The snapshot: the carried f64, then the buffer's 8 elements of 8 bytes.
// CHECK: %[[CARRIED:.*]] = arith.addf %{{.*}}, %[[EIGHT:.*]] : f64
// CHECK: %[[ELEMENTS:.*]] = arith.uitofp
// CHECK: %[[BUFFER:.*]] = arith.mulf %[[ELEMENTS]], %[[EIGHT2:.*]] : f64
// CHECK: %[[SNAP:.*]] = arith.addf %[[CARRIED]], %[[BUFFER]]
// CHECK: %[[TRIPS:.*]] = arith.uitofp
// CHECK: %[[TAPE:.*]] = arith.mulf %[[TRIPS]], %[[PER]]
// CHECK: %[[LIMIT:.*]] = call @ct_checkpoint_tape_limit() : () -> i64
// CHECK: %[[LIMITF:.*]] = arith.sitofp %[[LIMIT]]
// CHECK: %[[OVER:.*]] = arith.cmpf ogt, %[[TAPE]], %[[LIMITF]]
// CHECK: %[[SQUARE:.*]] = arith.mulf %[[SNAP]], %[[SNAP]]
// CHECK: %[[LEFT:.*]] = arith.mulf %{{.*}}, %[[SQUARE]]
// CHECK: %[[RIGHT:.*]] = arith.mulf %[[TAPE]], %[[PER]]
// CHECK: %[[SMALL:.*]] = arith.cmpf olt, %[[LEFT]], %[[RIGHT]]
// CHECK: %[[CHOICE:.*]] = arith.andi %[[OVER]], %[[SMALL]]
// CHECK: %[[R:.*]] = scf.if %[[CHOICE]] -> (f64) {
// CHECK-NEXT: %[[C:.*]] = scf.for %[[I:.*]] = {{.*}} to %[[T]] {{.*}} iter_args(%[[S:.*]] = {{.*}}) -> (f64) {
// CHECK-NEXT: %[[NEXT:.*]] = func.call @steps.checkpointed(%[[I]], %[[S]], %[[U]], %[[N]]) {ct.checkpoint_auto, ct.checkpoint_snapshots = 0 : i64, no_inline}
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK: scf.yield %[[C]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[P:.*]] = scf.for
// CHECK: arith.mulf
// CHECK: scf.yield %[[P]]
// CHECK-NEXT: } {ct.auto_checkpoint_choice}
// CHECK: return %[[R]]
func.func @steps(%u: memref<8xf64>, %n: index, %t: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %t step %c1 iter_args(%s = %zero) -> (f64) {
    scf.for %j = %c0 to %n step %c1 {
      %k = arith.remui %j, %c8 : index
      %x = memref.load %u[%k] : memref<8xf64>
      %y = arith.mulf %x, %x : f64
      memref.store %y, %u[%k] : memref<8xf64>
    }
    %last = memref.load %u[%c0] : memref<8xf64>
    %next = arith.addf %s, %last : f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @grad(%u: memref<8xf64>, %du: memref<8xf64>, %n: index, %t: index) -> f64 {
  %v = ct.gradient @steps(%u, %n, %t) shadows(%du) activity [dup, const, const] : (memref<8xf64>, index, index, memref<8xf64>) -> f64
  return %v : f64
}

// -----

// Left alone: a loop whose tape is known to be small (10 iterations of 16
// bytes), one that records nothing (a product by a constant of memory it
// never writes), one whose inner trip count is read from memory (the
// estimate needs a bound before the loop starts), and an inner loop.
// CHECK-LABEL: func.func @small(
// CHECK-NOT: scf.if
// CHECK-NOT: call
// CHECK: return
func.func @small(%u: memref<?xf64>, %sizes: memref<?xindex>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %two = arith.constant 2.0 : f64
  %zero = arith.constant 0.0 : f64
  %a = scf.for %i = %c0 to %c10 step %c1 iter_args(%s = %zero) -> (f64) {
    %x = memref.load %u[%i] : memref<?xf64>
    %y = arith.mulf %x, %s : f64
    scf.yield %y : f64
  }
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%s = %a) -> (f64) {
    %x = memref.load %u[%i] : memref<?xf64>
    %y = arith.mulf %x, %two : f64
    %z = arith.addf %s, %y : f64
    scf.yield %z : f64
  }
  %c = scf.for %i = %c0 to %n step %c1 iter_args(%s = %b) -> (f64) {
    %m = memref.load %sizes[%i] : memref<?xindex>
    %inner = scf.for %j = %c0 to %m step %c1 iter_args(%p = %s) -> (f64) {
      %x = memref.load %u[%j] : memref<?xf64>
      %y = arith.mulf %x, %p : f64
      scf.yield %y : f64
    }
    scf.yield %inner : f64
  }
  return %c : f64
}

func.func @grad_small(%u: memref<?xf64>, %du: memref<?xf64>, %sizes: memref<?xindex>, %n: index) -> f64 {
  %v = ct.gradient @small(%u, %sizes, %n) shadows(%du) activity [dup, const, const] : (memref<?xf64>, memref<?xindex>, index, memref<?xf64>) -> f64
  return %v : f64
}

// -----

// A triangular inner loop (j < i, j from i + 1) is estimated from the
// outer counter's range: its trips at most %n - 1 per iteration.
// CHECK-LABEL: func.func @triangle(
// CHECK-SAME: %{{.*}}: memref<16xf64>, %[[N:.*]]: index, %[[T:.*]]: index
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// The inner loop's first j: the outer counter's first value, plus 1.
// CHECK: %[[FIRST:.*]] = arith.addi %[[C0]], %{{.*}} : index
// CHECK-NEXT: arith.subi %[[N]], %[[FIRST]]
// CHECK: call @ct_checkpoint_tape_limit
// CHECK: scf.if
// CHECK: } {ct.auto_checkpoint_choice}
func.func @triangle(%u: memref<16xf64>, %n: index, %t: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %s = %c0 to %t step %c1 iter_args(%acc = %zero) -> (f64) {
    scf.for %i = %c0 to %n step %c1 {
      %i1 = arith.addi %i, %c1 : index
      scf.for %j = %i1 to %n step %c1 {
        %k = arith.andi %j, %c15 : index
        %x = memref.load %u[%k] : memref<16xf64>
        %y = arith.mulf %x, %x : f64
        memref.store %y, %u[%k] : memref<16xf64>
      }
    }
    %last = memref.load %u[%c0] : memref<16xf64>
    %next = arith.addf %acc, %last : f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @grad_triangle(%u: memref<16xf64>, %du: memref<16xf64>, %n: index, %t: index) -> f64 {
  %v = ct.gradient @triangle(%u, %n, %t) shadows(%du) activity [dup, const, const] : (memref<16xf64>, index, index, memref<16xf64>) -> f64
  return %v : f64
}

// -----

// Loads of memory the loop writes count once per store into it, not once
// per read: the inner loop reads u[0] nonlinearly %n times, but the
// iteration overwrites it once (8 bytes); a store that adds to its element
// (u[1] += ...) overwrites nothing the reverse sweep needs; the carried
// value `exp` reads counts per use (8 bytes): 16 bytes an iteration, and
// the inner loop, which records nothing, adds no term.
// CHECK-LABEL: func.func @reads_stored_once(
// CHECK: %[[PER:.*]] = arith.constant 1.600000e+01 : f64
// CHECK: %[[TAPE:.*]] = arith.mulf %{{.*}}, %[[PER]] : f64
// CHECK-NEXT: call @ct_checkpoint_tape_limit
// CHECK: } {ct.auto_checkpoint_choice}
func.func @reads_stored_once(%u: memref<8xf64>, %n: index, %t: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %t step %c1 iter_args(%s = %zero) -> (f64) {
    %w = math.exp %s : f64
    memref.store %w, %u[%c0] : memref<8xf64>
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%p = %zero) -> (f64) {
      %x = memref.load %u[%c0] : memref<8xf64>
      %y = math.sin %x : f64
      %old = memref.load %u[%c1] : memref<8xf64>
      %more = arith.addf %old, %y : f64
      memref.store %more, %u[%c1] : memref<8xf64>
      %q = arith.addf %p, %y : f64
      scf.yield %q : f64
    }
    %next = arith.addf %s, %sum : f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @grad_reads_stored_once(%u: memref<8xf64>, %du: memref<8xf64>, %n: index, %t: index) -> f64 {
  %v = ct.gradient @reads_stored_once(%u, %n, %t) shadows(%du) activity [dup, const, const] : (memref<8xf64>, index, index, memref<8xf64>) -> f64
  return %v : f64
}

// -----

// Left alone: a C pointer's memory indexed by a value read from memory (the
// elements it touches are unknown: no snapshot could be sized), a loop
// calling code compiled elsewhere (rerunning would call it again), and a
// loop in a function no reverse-mode request differentiates.
// CHECK-LABEL: func.func @unknown_elements(
// CHECK-NOT: scf.if
// CHECK: return
// CHECK-LABEL: func.func @not_reversed(
// CHECK-NOT: scf.if
// CHECK: return
func.func private @log_value(f64) -> () attributes {ct.external}

func.func @unknown_elements(%u: memref<?xf64, strided<[1], offset: ?>>, %idx: memref<?xindex>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %k = memref.load %idx[%i] : memref<?xindex>
    %x = memref.load %u[%k] : memref<?xf64, strided<[1], offset: ?>>
    %y = arith.mulf %x, %x : f64
    memref.store %y, %u[%k] : memref<?xf64, strided<[1], offset: ?>>
  }
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %x = memref.load %u[%i] : memref<?xf64, strided<[1], offset: ?>>
    %y = arith.mulf %x, %s : f64
    func.call @log_value(%y) : (f64) -> ()
    scf.yield %y : f64
  }
  return %r : f64
}

func.func @not_reversed(%u: memref<8xf64>, %t: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %t step %c1 iter_args(%s = %zero) -> (f64) {
    %x = memref.load %u[%c0] : memref<8xf64>
    %y = arith.mulf %x, %s : f64
    memref.store %y, %u[%c0] : memref<8xf64>
    scf.yield %y : f64
  }
  return %r : f64
}

func.func @grad_unknown(%u: memref<?xf64, strided<[1], offset: ?>>, %du: memref<?xf64, strided<[1], offset: ?>>, %idx: memref<?xindex>, %n: index) -> f64 {
  %v = ct.gradient @unknown_elements(%u, %idx, %n) shadows(%du) activity [dup, const, const] : (memref<?xf64, strided<[1], offset: ?>>, memref<?xindex>, index, memref<?xf64, strided<[1], offset: ?>>) -> f64
  return %v : f64
}

func.func @jvp_only(%u: memref<8xf64>, %du: memref<8xf64>, %t: index) -> (f64, f64) {
  %v, %dv = ct.jvp @not_reversed(%u, %t) tangents(%du) activity [dup, const] : (memref<8xf64>, index, memref<8xf64>) -> (f64, f64)
  return %v, %dv : f64, f64
}
