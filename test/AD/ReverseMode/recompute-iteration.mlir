// Per-iteration recomputation. Each iteration of the outer loop fills the
// scratch buffer %t, then reads it in a nested loop (`t[j]` for j in
// [1, n), inside [0, n) that the fill covers). What an iteration reads is
// thus what it wrote first or memory nothing writes later (%x), so the
// reverse iteration runs the primal iteration again and reads %t back,
// instead of the forward sweep taping n values per iteration.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @f(%x: memref<?xf64>, %m: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() : memref<8xf64>
  %res = memref.alloca() : memref<8xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %r = %c0 to %n step %c1 {
      %v = memref.load %x[%r] : memref<?xf64>
      %s = math.sin %v : f64
      memref.store %s, %t[%r] : memref<8xf64>
    }
    %acc = scf.for %j = %c1 to %n step %c1 iter_args(%a = %zero) -> f64 {
      %w = memref.load %t[%j] : memref<8xf64>
      %p = arith.mulf %w, %w : f64
      %q = arith.addf %a, %p : f64
      scf.yield %q : f64
    }
    memref.store %acc, %res[%i] : memref<8xf64>
  }
  %r0 = memref.load %res[%c0] : memref<8xf64>
  return %r0 : f64
}

// CHECK-LABEL: func.func private @f.pullback.dcc
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: f64, %{{.*}}: memref<?xf64>)
// CHECK-NOT: ct.tape
// The forward sweep: the primal loop, taping nothing.
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     math.sin
// CHECK:     memref.store %{{.*}}, %[[T:.*]][%{{.*}}] : memref<8xf64>
// CHECK:   scf.for
// CHECK:     memref.load %[[T]]
// The reverse sweep: each iteration first runs again ...
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     memref.load %[[X]]
// CHECK:     math.sin
// CHECK:     memref.store %{{.*}}, %[[T]][%{{.*}}] : memref<8xf64>
// ... but not what only fed its result, which later code has used ...
// CHECK-NOT: iter_args
// ... then its reverse reads the scratch buffer back ...
// CHECK:   scf.for
// CHECK:     %[[W:.*]] = memref.load %[[T]][%{{.*}}] : memref<8xf64>
// CHECK:     arith.mulf %[[W]], %{{.*}} fastmath<contract>
// ... and the fill's reverse recomputes the cosine from x.
// CHECK:   scf.for
// CHECK:     memref.load %[[X]]
// CHECK:     math.cos
// CHECK-NOT: ct.tape
// CHECK: return

// The fill writes the same elements in every iteration and precedes the
// reads: t[0], which the fill writes only if n > 0, is then either written
// first or written by no iteration. The iteration is rerun.
func.func @first(%x: memref<?xf64>, %m: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloca() : memref<8xf64>
  %res = memref.alloca() : memref<8xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %r = %c0 to %n step %c1 {
      %v = memref.load %x[%r] : memref<?xf64>
      %s = math.sin %v : f64
      memref.store %s, %t[%r] : memref<8xf64>
    }
    %t0 = memref.load %t[%c0] : memref<8xf64>
    %acc = scf.for %j = %c1 to %n step %c1 iter_args(%a = %t0) -> f64 {
      %w = memref.load %t[%j] : memref<8xf64>
      %p = arith.mulf %w, %w : f64
      %q = arith.addf %a, %p : f64
      scf.yield %q : f64
    }
    memref.store %acc, %res[%i] : memref<8xf64>
  }
  %r0 = memref.load %res[%c0] : memref<8xf64>
  return %r0 : f64
}

// CHECK-LABEL: func.func private @first.pullback.dcc
// CHECK-NOT: ct.tape
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     math.sin
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     math.sin
// CHECK:   memref.load %{{.*}}[%c0]
// CHECK-NOT: ct.tape
// CHECK: return

// The fill runs only in odd iterations: an even iteration reads what the
// iteration before it wrote, so nothing is rerun and the reads are taped.
func.func @odd_fill(%x: memref<?xf64>, %m: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() : memref<8xf64>
  %res = memref.alloca() : memref<8xf64>
  scf.for %i = %c0 to %m step %c1 {
    %parity = arith.remui %i, %c2 : index
    %odd = arith.cmpi eq, %parity, %c1 : index
    scf.if %odd {
      scf.for %r = %c0 to %n step %c1 {
        %v = memref.load %x[%r] : memref<?xf64>
        %s = math.sin %v : f64
        memref.store %s, %t[%r] : memref<8xf64>
      }
    }
    %acc = scf.for %j = %c0 to %n step %c1 iter_args(%a = %zero) -> f64 {
      %w = memref.load %t[%j] : memref<8xf64>
      %p = arith.mulf %w, %w : f64
      %q = arith.addf %a, %p : f64
      scf.yield %q : f64
    }
    memref.store %acc, %res[%i] : memref<8xf64>
  }
  %r0 = memref.load %res[%c0] : memref<8xf64>
  return %r0 : f64
}

// CHECK-LABEL: func.func private @odd_fill.pullback.dcc
// CHECK: scf.for
// CHECK:   scf.if
// CHECK:   scf.for
// CHECK:     %[[W:.*]] = memref.load
// CHECK:     ct.tape_push %{{.*}}, %[[W]] : f64

// Iteration i writes t[i] and reads t[0..i]: what earlier iterations
// wrote. It cannot be rerun from its inputs, so the reads are taped.
func.func @g(%x: memref<?xf64>, %m: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() : memref<8xf64>
  %res = memref.alloca() : memref<8xf64>
  scf.for %i = %c0 to %m step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %s = math.sin %v : f64
    memref.store %s, %t[%i] : memref<8xf64>
    %i1 = arith.addi %i, %c1 : index
    %acc = scf.for %j = %c0 to %i1 step %c1 iter_args(%a = %zero) -> f64 {
      %w = memref.load %t[%j] : memref<8xf64>
      %p = arith.mulf %w, %w : f64
      %q = arith.addf %a, %p : f64
      scf.yield %q : f64
    }
    memref.store %acc, %res[%i] : memref<8xf64>
  }
  %r0 = memref.load %res[%c0] : memref<8xf64>
  return %r0 : f64
}

// CHECK-LABEL: func.func private @g.pullback.dcc
// CHECK: scf.for
// CHECK:   math.sin
// CHECK:   scf.for
// CHECK:     %[[W:.*]] = memref.load
// CHECK:     ct.tape_push %{{.*}}, %[[W]] : f64
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     ct.tape_pop

// The scratch buffer is made in an outer loop: the reverse code cannot
// reach it, so nothing is rerun and the read is taped (rerunning would fail
// to differentiate).
func.func @h(%x: memref<?xf64>, %y: memref<?xf64>, %m: index, %n: index)
    -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %res = memref.alloca() : memref<8xf64>
  scf.for %o = %c0 to %c1 step %c1 {
    %t = memref.alloca() : memref<8xf64>
    scf.for %i = %c0 to %m step %c1 {
      scf.for %r = %c0 to %n step %c1 {
        %v = memref.load %y[%r] : memref<?xf64>
        %s = math.sin %v : f64
        memref.store %s, %t[%r] : memref<8xf64>
      }
      %acc = scf.for %j = %c0 to %n step %c1 iter_args(%a = %zero) -> f64 {
        %w = memref.load %t[%j] : memref<8xf64>
        %u = memref.load %x[%j] : memref<?xf64>
        %p = arith.mulf %w, %u : f64
        %q = arith.addf %a, %p : f64
        scf.yield %q : f64
      }
      memref.store %acc, %res[%i] : memref<8xf64>
    }
  }
  %r0 = memref.load %res[%c0] : memref<8xf64>
  return %r0 : f64
}

// CHECK-LABEL: func.func private @h.pullback.dccc
// CHECK: scf.for
// CHECK:   memref.alloca() : memref<8xf64>
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK:       %[[W:.*]] = memref.load
// CHECK:       ct.tape_push %{{.*}}, %[[W]] : f64

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %m: index, %n: index) {
  %one = arith.constant 1.0 : f64
  %f = ct.pullback @f(%x, %m, %n) seeds(%one) shadows(%dx)
      activity [dup, const, const]
      : (memref<?xf64>, index, index, f64, memref<?xf64>) -> f64
  %first = ct.pullback @first(%x, %m, %n) seeds(%one) shadows(%dx)
      activity [dup, const, const]
      : (memref<?xf64>, index, index, f64, memref<?xf64>) -> f64
  %odd = ct.pullback @odd_fill(%x, %m, %n) seeds(%one) shadows(%dx)
      activity [dup, const, const]
      : (memref<?xf64>, index, index, f64, memref<?xf64>) -> f64
  %g = ct.pullback @g(%x, %m, %n) seeds(%one) shadows(%dx)
      activity [dup, const, const]
      : (memref<?xf64>, index, index, f64, memref<?xf64>) -> f64
  %h = ct.pullback @h(%x, %x, %m, %n) seeds(%one) shadows(%dx)
      activity [dup, const, const, const]
      : (memref<?xf64>, memref<?xf64>, index, index, f64, memref<?xf64>) -> f64
  %deeper = ct.pullback @deeper_work(%x, %m, %n) seeds(%one) shadows(%dx)
      activity [dup, const, const]
      : (memref<?xf64>, index, index, f64, memref<?xf64>) -> f64
  return
}

// Rerunning an iteration costs its whole work; taping costs the values its
// reverse needs. Here the reverse needs t[j] (a factor) at depth 1, but
// the iteration's work is nested two deep (a matrix-vector product, like
// Q x in GMM, where t[j] + ... needs no value): running it again would
// cost a trip count more than the tape, so the iteration is not rerun and
// t[j] is taped.
// CHECK-LABEL: func.func private @deeper_work.pullback.dcc
// CHECK: ct.tape_push
// CHECK-NOT: math.sin
// CHECK: return
func.func @deeper_work(%x: memref<?xf64>, %m: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() : memref<8xf64>
  %res = memref.alloca() : memref<8xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %r = %c0 to %n step %c1 {
      memref.store %zero, %t[%r] : memref<8xf64>
    }
    scf.for %j = %c0 to %n step %c1 {
      scf.for %k = %c0 to %n step %c1 {
        %v = memref.load %x[%k] : memref<?xf64>
        %s = math.sin %v : f64
        %w = memref.load %t[%j] : memref<8xf64>
        %u = arith.addf %w, %s : f64
        memref.store %u, %t[%j] : memref<8xf64>
      }
    }
    %acc = scf.for %j = %c0 to %n step %c1 iter_args(%a = %zero) -> f64 {
      %w = memref.load %t[%j] : memref<8xf64>
      %p = arith.mulf %w, %w : f64
      %q = arith.addf %a, %p : f64
      scf.yield %q : f64
    }
    memref.store %acc, %res[%i] : memref<8xf64>
  }
  %r0 = memref.load %res[%c0] : memref<8xf64>
  return %r0 : f64
}
