// A buffer chosen by a branch whose regions each allocate their own (a
// function returning a std::vector from two places): reverse mode gives the
// chosen buffer one zeroed shadow of its size, right after the branch, and
// each region's buffer takes that shadow as its own, so that the adjoints
// accumulated after the branch reach the stores inside it; it is freed where
// the reverse code of the branch's block ends. In a loop body reversed from
// the tape, the chosen buffer's size comes from the tape, and each reverse
// iteration allocates and frees its own shadow. Forward mode yields the
// regions' shadows beside the buffers (a region whose buffer holds nothing
// active yields zeros).
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s --check-prefix=PASSED

// CHECK-LABEL: func.func private @chosen.jvp.ac
// CHECK: scf.if %{{.*}} -> (memref<?xf64>, memref<?xf64>)
// CHECK: memref.dealloc %{{.*}}#0
// CHECK: memref.dealloc %{{.*}}#1
// CHECK-LABEL: func.func private @chosen.pullback.ac
// CHECK: %[[CHOSEN:.*]] = scf.if
// CHECK: %[[N:.*]] = memref.dim %[[CHOSEN]], %c0
// CHECK: %[[SHADOW:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: scf.if
// CHECK:   memref.load %[[SHADOW]]
// CHECK: memref.dealloc %[[SHADOW]]
// CHECK: ct.tape_free
// CHECK-NEXT: return

// CHECK-LABEL: func.func private @chosen_in_loop.pullback.ac
// The forward loop pushes each chosen buffer's size ...
// CHECK: scf.for
// CHECK:   %[[V:.*]] = scf.if
// CHECK:   %[[LEN:.*]] = memref.dim %[[V]], %c0
// CHECK:   ct.tape_push %{{.*}}, %[[LEN]] : index
// CHECK-NOT: ct.tape_push %{{.*}}, %[[LEN]] : index
// ... and each reverse iteration pops it for a shadow it frees at its end.
// CHECK: scf.for
// CHECK:   %[[M:.*]] = ct.tape_pop %{{.*}} : index
// CHECK:   %[[S:.*]] = memref.alloc(%[[M]]) : memref<?xf64>
// CHECK:   scf.if
// CHECK:     memref.load %[[S]]
// CHECK:   memref.dealloc %[[S]]
// CHECK: }
// CHECK: return
func.func @chosen(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %positive = arith.cmpi sgt, %n, %c0 : index
  %v = scf.if %positive -> (memref<?xf64>) {
    %a = memref.alloc(%n) : memref<?xf64>
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.mulf %x, %x : f64
      memref.store %s, %a[%i] : memref<?xf64>
    }
    scf.yield %a : memref<?xf64>
  } else {
    %e = memref.alloc(%c0) : memref<?xf64>
    scf.yield %e : memref<?xf64>
  }
  %len = memref.dim %v, %c0 : memref<?xf64>
  %sum = scf.for %i = %c0 to %len step %c1 iter_args(%acc = %zero) -> f64 {
    %e = memref.load %v[%i] : memref<?xf64>
    %t = arith.mulf %e, %e : f64
    %next = arith.addf %acc, %t : f64
    scf.yield %next : f64
  }
  memref.dealloc %v : memref<?xf64>
  return %sum : f64
}
func.func @chosen_in_loop(%x: f64, %n: index, %m: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %total = scf.for %k = %c0 to %m step %c1 iter_args(%outer = %zero) -> f64 {
    %positive = arith.cmpi sgt, %n, %k : index
    %v = scf.if %positive -> (memref<?xf64>) {
      %a = memref.alloc(%n) : memref<?xf64>
      scf.for %i = %c0 to %n step %c1 {
        %s = arith.mulf %x, %x : f64
        memref.store %s, %a[%i] : memref<?xf64>
      }
      scf.yield %a : memref<?xf64>
    } else {
      %e = memref.alloc(%c0) : memref<?xf64>
      scf.yield %e : memref<?xf64>
    }
    %len = memref.dim %v, %c0 : memref<?xf64>
    %sum = scf.for %i = %c0 to %len step %c1 iter_args(%acc = %outer) -> f64 {
      %e = memref.load %v[%i] : memref<?xf64>
      %t = arith.mulf %e, %x : f64
      %next = arith.addf %acc, %t : f64
      scf.yield %next : f64
    }
    memref.dealloc %v : memref<?xf64>
    %sq = arith.mulf %sum, %sum : f64
    scf.yield %sq : f64
  }
  return %total : f64
}
// Memory a branch passes out where it made it, poison from its other
// region (a checkpointed loop's state in a branch, differentiated again):
// the shadow has the buffer's size when the region that made it ran, 0
// when no buffer was chosen (differentiated as it is: the pipeline's
// simplification would merge the two branches).
// PASSED-LABEL: func.func private @passed.pullback.acc
// PASSED-SAME: %{{[^:]*}}: f64, %{{[^:]*}}: index, %[[C:[^:]*]]: i1
// PASSED: %[[CHOSEN:.*]] = scf.if %[[C]]
// PASSED: %[[N:.*]] = memref.dim %[[CHOSEN]], %c0
// PASSED: %[[SIZE:.*]] = arith.select %[[C]], %[[N]], %c0
// PASSED: %[[SHADOW:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf64>
// PASSED: memref.dealloc %[[SHADOW]]
// PASSED: return
func.func @passed(%x: f64, %n: index, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %none = ub.poison : memref<?xf64>
  %v = scf.if %c -> (memref<?xf64>) {
    %a = memref.alloc(%n) : memref<?xf64>
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.mulf %x, %x : f64
      memref.store %s, %a[%i] : memref<?xf64>
    }
    scf.yield %a : memref<?xf64>
  } else {
    scf.yield %none : memref<?xf64>
  }
  %r = scf.if %c -> (f64) {
    %e = memref.load %v[%c0] : memref<?xf64>
    %t = arith.mulf %e, %e : f64
    memref.dealloc %v : memref<?xf64>
    scf.yield %t : f64
  } else {
    scf.yield %zero : f64
  }
  return %r : f64
}
func.func @grad_passed(%x: f64, %n: index, %c: i1) -> (f64, f64) {
  %v:2 = ct.gradient @passed(%x, %n, %c) activity [active, const, const] : (f64, index, i1) -> (f64, f64)
  return %v#0, %v#1 : f64, f64
}
func.func @grad_chosen_in_loop(%x: f64, %n: index, %m: index) -> (f64, f64) {
  %v:2 = ct.gradient @chosen_in_loop(%x, %n, %m) activity [active, const, const] : (f64, index, index) -> (f64, f64)
  return %v#0, %v#1 : f64, f64
}
func.func @grad_chosen(%x: f64, %n: index) -> (f64, f64) {
  %v:2 = ct.gradient @chosen(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  return %v#0, %v#1 : f64, f64
}
func.func @jvp_chosen(%x: f64, %t: f64, %n: index) -> (f64, f64) {
  %v:2 = ct.jvp @chosen(%x, %n) tangents(%t) activity [active, const] : (f64, index, f64) -> (f64, f64)
  return %v#0, %v#1 : f64, f64
}
