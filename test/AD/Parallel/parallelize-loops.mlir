// ct-parallelize-loops: a loop marked ct.parallel becomes scf.parallel when
// what it carries are reductions and the memory it writes is written only
// at elements its own iteration indexes, or only accumulated into (then
// atomically). Anything else keeps the loop serial; every mark goes.
// RUN: %cotangent-opt %s --ct-parallelize-loops | FileCheck %s

!m = memref<?xf64, strided<[1], offset: ?>>

// A map with a sum: the store at i stays a plain store, the sum becomes
// scf.reduce.
// CHECK-LABEL: func.func @map_and_sum
// CHECK: %[[R:.*]] = scf.parallel (%[[I:.*]]) = (%c0) to (%{{.*}}) step (%c1) init (%{{.*}}) -> f64 {
// CHECK:   memref.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK-NOT: atomic_rmw
// CHECK:   scf.reduce(%{{.*}} : f64) {
// CHECK:   ^bb0(%[[L:.*]]: f64, %[[RHS:.*]]: f64):
// CHECK:     %[[S:.*]] = arith.addf %[[L]], %[[RHS]]
// CHECK:     scf.reduce.return %[[S]]
// CHECK: return %[[R]]
func.func @map_and_sum(%x: !m, %y: !m, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : !m
    %w = math.sin %v : f64
    memref.store %w, %y[%i] : !m
    %next = arith.addf %acc, %w : f64
    scf.yield %next : f64
  } {ct.parallel}
  return %s : f64
}

// A product written with the running value second (`c * acc`): the
// combiner is `lhs * rhs`, the form convert-scf-to-openmp knows (it left
// the loop unconverted, an error, when the operands came the other way).
// CHECK-LABEL: func.func @product_running_second
// CHECK:   scf.reduce(%{{.*}} : f64) {
// CHECK:   ^bb0(%[[L:.*]]: f64, %[[RHS:.*]]: f64):
// CHECK:     %[[P:.*]] = arith.mulf %[[L]], %[[RHS]]
// CHECK:     scf.reduce.return %[[P]]
func.func @product_running_second(%x: !m, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %p = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> f64 {
    %v = memref.load %x[%i] : !m
    %next = arith.mulf %v, %acc : f64
    scf.yield %next : f64
  } {ct.parallel}
  return %p : f64
}

// Adding into elements other iterations may add into (a shadow of memory
// every iteration reads): atomic adds; a subtraction adds the negation.
// An element indexed by the reversed counter (n - 1 - k) is the
// iteration's own: a plain update.
// CHECK-LABEL: func.func @scatter
// CHECK: scf.parallel (%[[K:.*]]) =
// CHECK:   memref.atomic_rmw addf %{{.*}}, %arg1[%{{.*}}]
// CHECK:   %[[NEG:.*]] = arith.negf
// CHECK:   memref.atomic_rmw addf %[[NEG]], %arg1[%c0]
// CHECK:   %[[OLD:.*]] = memref.load %arg2[%[[OWN:.*]]]
// CHECK:   memref.store %{{.*}}, %arg2[%[[OWN]]]
// CHECK-NOT: scf.for
func.func @scatter(%bins: memref<?xindex>, %h: !m, %d: !m, %n: index, %v: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %b = memref.load %bins[%k] : memref<?xindex>
    %old = memref.load %h[%b] : !m
    %new = arith.addf %old, %v : f64
    memref.store %new, %h[%b] : !m
    %old0 = memref.load %h[%c0] : !m
    %new0 = arith.subf %old0, %v : f64
    memref.store %new0, %h[%c0] : !m
    %last = arith.subi %n, %c1 : index
    %own = arith.subi %last, %k : index
    %o = memref.load %d[%own] : !m
    %p = arith.addf %o, %v : f64
    memref.store %p, %d[%own] : !m
  } {ct.parallel}
  return
}

// A read of an element another iteration writes (a recurrence): serial,
// and the mark is gone.
// CHECK-LABEL: func.func @recurrence
// CHECK: scf.for
// CHECK-NOT: ct.parallel
// CHECK-NOT: scf.parallel
func.func @recurrence(%y: !m, %n: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %c1 to %n step %c1 {
    %prev = arith.subi %i, %c1 : index
    %v = memref.load %y[%prev] : !m
    %w = arith.mulf %v, %v : f64
    memref.store %w, %y[%i] : !m
  } {ct.parallel}
  return
}

// A value carried that is not a reduction (it feeds the next iteration's
// work): serial.
// CHECK-LABEL: func.func @carried
// CHECK: scf.for
// CHECK-NOT: scf.parallel
func.func @carried(%y: !m, %n: index, %x0: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %x0) -> f64 {
    memref.store %x, %y[%i] : !m
    %next = math.cos %x : f64
    scf.yield %next : f64
  } {ct.parallel}
  return %r : f64
}

// Pushes onto the tape: serial. Writes by position into a block claimed
// before the loop (ct-tape-blocks): parallel.
// CHECK-LABEL: func.func @tapes
// CHECK: scf.for
// CHECK:   ct.tape_push
// CHECK: ct.tape_claim
// CHECK: scf.parallel
// CHECK:   ct.tape_write
func.func @tapes(%t: !ct.tape, %x: !m, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : !m
    ct.tape_push %t, %v : f64
  } {ct.parallel}
  %block = ct.tape_claim %t, %n
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : !m
    ct.tape_write %v, %block[%i] : f64
  } {ct.parallel}
  return
}

// An adjoint slot every iteration reads and writes back unchanged (the
// adjoint of a sum, the same in every iteration) becomes a value: parallel.
// CHECK-LABEL: func.func @slot
// CHECK-NOT: memref.alloca
// CHECK: scf.parallel
// CHECK:   arith.mulf %{{.*}}, %arg2
// CHECK-NOT: memref.load %alloca
func.func @slot(%x: !m, %dx: !m, %seed: f64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant -0.0 : f64
  %result = memref.alloca() : memref<f64>
  %arg = memref.alloca() : memref<f64>
  memref.store %zero, %arg[] : memref<f64>
  memref.store %seed, %result[] : memref<f64>
  scf.for %k = %c0 to %n step %c1 {
    %a = memref.load %result[] : memref<f64>
    memref.store %zero, %result[] : memref<f64>
    %old = memref.load %arg[] : memref<f64>
    %sum = arith.addf %old, %a : f64
    memref.store %sum, %arg[] : memref<f64>
    %v = memref.load %x[%k] : !m
    %g = arith.mulf %v, %a : f64
    memref.store %g, %dx[%k] : !m
    %back = memref.load %arg[] : memref<f64>
    memref.store %zero, %arg[] : memref<f64>
    memref.store %back, %result[] : memref<f64>
  } {ct.parallel}
  return
}

// Buffers that live for one iteration (ct.iteration_local: declared in the
// C++ loop body, their shadows, adjoint slots of the body's values) move
// into the loop with what fills them, and the tape of an iteration that
// takes back all it pushes (ct.iteration_tape) becomes the iteration's
// own; the body then runs in an alloca scope.
// CHECK-LABEL: func.func @own_buffers
// CHECK-NOT: memref.alloca
// CHECK: scf.parallel
// CHECK:   memref.alloca_scope
// CHECK-DAG: %[[TAPE:.*]] = ct.tape_init
// CHECK-DAG: %[[BUF:.*]] = memref.alloca() {ct.iteration_local} : memref<4xf64>
// CHECK:     scf.for
// CHECK:       memref.store %{{.*}}, %[[BUF]]
// CHECK:     scf.for
// CHECK:       memref.store %{{.*}}, %[[BUF]]
// CHECK:       ct.tape_push %[[TAPE]]
// CHECK:     scf.for
// CHECK:       ct.tape_pop %[[TAPE]]
// CHECK:       memref.load %[[BUF]]
// CHECK:     ct.tape_free %[[TAPE]]
func.func @own_buffers(%x: !m, %y: !m, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %t = ct.tape_init : !ct.tape
  %buf = memref.alloca() {ct.iteration_local} : memref<4xf64>
  scf.for %j = %c0 to %c4 step %c1 {
    memref.store %zero, %buf[%j] : memref<4xf64>
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : !m
    scf.for %j = %c0 to %c4 step %c1 {
      %jf = arith.index_cast %j : index to i64
      %f = arith.sitofp %jf : i64 to f64
      %e = arith.mulf %v, %f : f64
      memref.store %e, %buf[%j] : memref<4xf64>
      %s = math.sin %e : f64
      ct.tape_push %t, %s : f64
    }
    %sum = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f64 {
      %w = ct.tape_pop %t : f64
      %c3 = arith.constant 3 : index
      %back = arith.subi %c3, %j : index
      %u = memref.load %buf[%back] : memref<4xf64>
      %p = arith.mulf %u, %w : f64
      %next = arith.addf %acc, %p : f64
      scf.yield %next : f64
    }
    memref.store %sum, %y[%i] : !m
  } {ct.parallel, ct.iteration_tape}
  ct.tape_free %t
  return
}

// Without ct.iteration_local, the same buffer is shared: serial.
// CHECK-LABEL: func.func @shared_buffer
// CHECK: memref.alloca() : memref<4xf64>
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @shared_buffer(%x: !m, %y: !m, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %buf = memref.alloca() : memref<4xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : !m
    scf.for %j = %c0 to %c4 step %c1 {
      %jf = arith.index_cast %j : index to i64
      %f = arith.sitofp %jf : i64 to f64
      %e = arith.mulf %v, %f : f64
      memref.store %e, %buf[%j] : memref<4xf64>
    }
    %sum = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f64 {
      %c3 = arith.constant 3 : index
      %back = arith.subi %c3, %j : index
      %u = memref.load %buf[%back] : memref<4xf64>
      %next = arith.addf %acc, %u : f64
      scf.yield %next : f64
    }
    memref.store %sum, %y[%i] : !m
  } {ct.parallel}
  return
}

// Row-major elements `i * c + j` of a nest (j from 0 to c) are the outer
// iteration's own.
// CHECK-LABEL: func.func @rows
// CHECK: scf.parallel
// CHECK:   scf.for
// CHECK-NOT: atomic_rmw
// CHECK:   memref.store

// Adding into shared elements in a nested loop (an atomic per inner
// iteration): chunks of iterations add into private copies of the
// elements the indices can reach ([0, c - 1] here), zeroed per chunk, then
// add the copies in atomically; one chunk per thread.
// CHECK-LABEL: func.func @nested_accumulation
// CHECK: ct.thread_count
// CHECK: scf.parallel (%[[C:.*]]) = (%{{.*}}) to (%{{.*}})
// CHECK:   %[[COPY:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:   scf.for
// CHECK:     memref.store %{{.*}}, %[[COPY]]
// CHECK:   scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:     scf.for
// CHECK:       %[[OLD:.*]] = memref.load %[[COPY]]
// CHECK:       %[[NEW:.*]] = arith.addf %[[OLD]]
// CHECK:       memref.store %[[NEW]], %[[COPY]]
// CHECK:   scf.for %[[E:.*]] = %{{.*}} to
// CHECK:     %[[PART:.*]] = memref.load %[[COPY]][%[[E]]]
// CHECK:     memref.atomic_rmw addf %[[PART]], %arg1
// CHECK:   memref.dealloc %[[COPY]]

// An index read from memory cannot be bounded: serial.
// CHECK-LABEL: func.func @gathered_accumulation
// CHECK-NOT: scf.parallel
// CHECK-NOT: atomic_rmw
// CHECK: return
func.func @rows(%a: !m, %n: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %row = arith.muli %i, %c : index
    scf.for %j = %c0 to %c step %c1 {
      %k = arith.addi %row, %j : index
      %v = memref.load %a[%k] : !m
      %w = arith.mulf %v, %v : f64
      memref.store %w, %a[%k] : !m
    }
  } {ct.parallel}
  return
}
func.func @nested_accumulation(%x: !m, %g: !m, %n: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : !m
    scf.for %j = %c0 to %c step %c1 {
      %old = memref.load %g[%j] : !m
      %new = arith.addf %old, %v : f64
      memref.store %new, %g[%j] : !m
    }
  } {ct.parallel}
  return
}
func.func @gathered_accumulation(%x: !m, %g: !m, %idx: memref<?xindex>,
                                 %n: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : !m
    scf.for %j = %c0 to %c step %c1 {
      %k = memref.load %idx[%j] : memref<?xindex>
      %old = memref.load %g[%k] : !m
      %new = arith.addf %old, %v : f64
      memref.store %new, %g[%k] : !m
    }
  } {ct.parallel}
  return
}

// A loop for a GPU (mark "device") gets a twin for CPU threads right after
// it, with its own copy of each iteration-local buffer (and its fill): the
// device loop adds into shared memory atomically even from a nested loop,
// the twin splits into chunks adding into private copies as any CPU loop.
// CHECK-LABEL: func.func @device_twin
// CHECK: scf.parallel
// CHECK:   memref.alloca_scope
// CHECK:     memref.alloca() {ct.iteration_local} : memref<8xf64>
// CHECK:     scf.for
// CHECK:     scf.for
// CHECK:       memref.atomic_rmw addf
// CHECK: } {ct.device, ct.device_twin = 0 : i64}
// CHECK: ct.thread_count
// CHECK: scf.parallel
// CHECK:   memref.alloca() {ct.iteration_local} : memref<8xf64>
// CHECK: ct.host_twin = 0 : i64
// CHECK: return
func.func @device_twin(%x: !m, %g: !m, %n: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() {ct.iteration_local} : memref<8xf64>
  scf.for %j = %c0 to %c8 step %c1 {
    memref.store %zero, %t[%j] : memref<8xf64>
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : !m
    scf.for %j = %c0 to %c8 step %c1 {
      %jf = arith.index_cast %j : index to i64
      %f = arith.sitofp %jf : i64 to f64
      %p = arith.mulf %v, %f : f64
      memref.store %p, %t[%j] : memref<8xf64>
    }
    scf.for %j = %c0 to %c step %c1 {
      %jj = arith.remui %j, %c8 : index
      %w = memref.load %t[%jj] : memref<8xf64>
      %old = memref.load %g[%j] : !m
      %new = arith.addf %old, %w : f64
      memref.store %new, %g[%j] : !m
    }
  } {ct.parallel = "device"}
  return
}

// A sum of vectors (K lanes) carried through a nested loop has no scalar
// identity to start the nested sum from: the loop stays serial (fuzz seed
// 5018 crashed here).
// CHECK-LABEL: func.func @lane_sum_in_nested_loop
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @lane_sum_in_nested_loop(%x: memref<?xvector<2xf64>>, %n: index,
                                   %c: index) -> vector<2xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : vector<2xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> vector<2xf64> {
    %t = scf.for %j = %c0 to %c step %c1 iter_args(%u = %s) -> vector<2xf64> {
      %v = memref.load %x[%j] : memref<?xvector<2xf64>>
      %w = arith.addf %u, %v : vector<2xf64>
      scf.yield %w : vector<2xf64>
    }
    scf.yield %t : vector<2xf64>
  } {ct.parallel}
  return %r : vector<2xf64>
}
