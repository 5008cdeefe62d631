// Loops reversed in place. The loop of @f sums one term per iteration, and
// its result reaches the return linearly (times c, minus c): the adjoint of
// every term is seed * c, known before the loop. So each iteration is
// undone right after it ran, in the forward sweep: its values are used
// directly, its scratch buffer %t is read back, and no tape or reverse
// loop is needed. The fill writes t[r] for the same r in every iteration,
// so t[0] is the iteration's own too.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @f(%x: memref<?xf64>, %c: f64, %m: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() : memref<8xf64>
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%a = %zero) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    scf.for %r = %c0 to %n step %c1 {
      %v = memref.load %x[%r] : memref<?xf64>
      %p = arith.mulf %v, %xi : f64
      %e = math.sin %p : f64
      memref.store %e, %t[%r] : memref<8xf64>
    }
    %first = memref.load %t[%c0] : memref<8xf64>
    %q = scf.for %j = %c1 to %n step %c1 iter_args(%b = %first) -> f64 {
      %w = memref.load %t[%j] : memref<8xf64>
      %w2 = arith.mulf %w, %w : f64
      %b2 = arith.addf %b, %w2 : f64
      scf.yield %b2 : f64
    }
    %l = math.log %q : f64
    %a2 = arith.addf %a, %l : f64
    scf.yield %a2 : f64
  }
  %scaled = arith.mulf %s, %c : f64
  %r = arith.subf %scaled, %c : f64
  return %r : f64
}

// CHECK-LABEL: func.func private @f.pullback.dacc
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[C:.*]]: f64, %{{.*}}: index, %{{.*}}: index, %[[SEED:.*]]: f64, %{{.*}}: memref<?xf64>)
// CHECK-NOT: ct.tape
// CHECK: %[[T:.*]] = memref.alloca() : memref<8xf64>
// CHECK: %[[TERM:.*]] = arith.mulf %[[SEED]], %[[C]] : f64
// CHECK: %[[S:.*]] = scf.for
// The iteration ...
// CHECK:   scf.for
// CHECK:     math.sin
// CHECK:   %[[Q:.*]] = scf.for
// CHECK:   math.log
// ... then its reverse: d log(q) = term / q, the sum's loop backwards
// reading t again, the fill's loop backwards.
// CHECK:   arith.divf %{{.*}}, %[[Q]]
// CHECK:   scf.for
// CHECK:     memref.load %[[T]]
// CHECK:   scf.for
// CHECK:     math.cos
// CHECK:   scf.yield
// CHECK-NEXT: }
// Then only the adjoint of c is left to the reverse sweep.
// CHECK-NOT: scf.for
// CHECK: %[[DC:.*]] = arith.mulf %[[S]], %[[SEED]]
// CHECK-NOT: scf.for
// CHECK: return

// The result goes through log: its adjoint needs the result, so the loop
// is reversed after the forward sweep.
func.func @nonlinear(%x: memref<?xf64>, %m: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%a = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %a2 = arith.addf %a, %e : f64
    scf.yield %a2 : f64
  }
  %l = math.log %s : f64
  return %l : f64
}

// CHECK-LABEL: func.func private @nonlinear.pullback.dc
// CHECK: %[[S:.*]] = scf.for
// CHECK:   math.exp
// CHECK-NOT: arith.divf
// CHECK:   scf.yield
// CHECK: arith.divf %{{.*}}, %[[S]]
// CHECK: scf.for
// CHECK:   ct.tape_pop

// The carried value is a product, not a sum: its adjoint differs from one
// iteration to the next, so the loop is reversed after the forward sweep.
func.func @product(%x: memref<?xf64>, %m: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %p = scf.for %i = %c0 to %m step %c1 iter_args(%a = %one) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a2 = arith.mulf %a, %v : f64
    scf.yield %a2 : f64
  }
  return %p : f64
}

// CHECK-LABEL: func.func private @product.pullback.dc
// CHECK: ct.tape_init
// CHECK: scf.for
// CHECK:   ct.tape_push
// CHECK: scf.for
// CHECK:   ct.tape_pop

// The sum reaches the return through a branch after the loop, in one
// region only (the fuzzer's seed 48138: `return c ? s : other`): its
// adjoint is the seed only when that region runs, which is not known
// before the loop, so the loop is reversed after the forward sweep and the
// seed reaches it only through the branch's reverse.
func.func @chosen_after(%x: memref<?xf64>, %m: index, %c: i1, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%a = %y) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.sin %v : f64
    %a2 = arith.addf %a, %e : f64
    scf.yield %a2 : f64
  }
  %r = scf.if %c -> f64 {
    scf.yield %s : f64
  } else {
    %w = memref.load %x[%c0] : memref<?xf64>
    scf.yield %w : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @chosen_after.pullback.dcca
// CHECK-SAME: %[[SEED:[^:]*]]: f64, %{{.*}}: memref<?xf64>)
// CHECK: scf.for
// CHECK:   math.sin
// CHECK-NOT: math.cos
// CHECK: scf.if
// CHECK: scf.for
// CHECK:   math.cos
// CHECK-NOT: return %{{.*}}, %[[SEED]]
// CHECK: return

// A Hessian-vector product: reverse mode over the forward derivative of @f.
// The forward derivative carries the tangent of the sum as a sum too (once
// simplified: forward mode writes it as 1 * da + 1 * dl), so the loop is
// again reversed in place, taping only within an iteration.
func.func @f.direction(%x: memref<?xf64>, %c: f64, %m: index, %n: index,
                       %v: memref<?xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %y, %dy = ct.jvp @f(%x, %c, %m, %n) tangents(%v, %zero)
      activity [dup, active, const, const]
      : (memref<?xf64>, f64, index, index, memref<?xf64>, f64) -> (f64, f64)
  return %dy : f64
}

// The partials of sin and cos (cos and -sin of the same product) are the
// primal's own cos and sin, taped, not computed again.
// CHECK-LABEL: func.func private @f.direction.pullback.daccd
// CHECK: scf.for {{.*}} iter_args
// CHECK:   %[[SIN:.*]] = math.sin
// CHECK:   %[[COS:.*]] = math.cos
// CHECK:   ct.tape_push %{{.*}}, %[[COS]]
// CHECK:   ct.tape_push %{{.*}}, %[[SIN]]
// CHECK:   math.log
// CHECK:   ct.tape_pop
// CHECK:   ct.tape_pop
// CHECK-NOT: math.
// CHECK: return

// A call whose result reaches the return linearly, with factors computed
// before it: its adjoint (seed * y) is known before it runs, so the
// callee's combined pullback runs in its place, with no halves and no tape.
func.func @sq(%x: f64) -> f64 {
  %e = math.exp %x : f64
  %s = arith.mulf %e, %x : f64
  return %s : f64
}
func.func @scaled_call(%x: f64, %y: f64) -> f64 {
  %a = func.call @sq(%x) : (f64) -> f64
  %b = arith.mulf %a, %y : f64
  return %b : f64
}

// CHECK-LABEL: func.func private @scaled_call.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[SEED:.*]]: f64)
// CHECK-NOT: ct.tape
// CHECK: %[[DA:.*]] = arith.mulf %[[SEED]], %[[Y]]
// CHECK: call @sq.pullback.a(%[[X]], %[[DA]]) : (f64, f64) -> (f64, f64)
// CHECK-NOT: @sq.rev

// A recursion like the determinant by minors: each level sums, over the
// entries it keeps, entry times the recursion's value one level down. The
// early return puts the loop in a branch, the skipped entries pass the sum
// through another, and the recursive call's adjoint (the sum's times the
// entry) is known before it: the pullback calls itself, and only the
// call's value is taped, within an iteration.
func.func @tree(%x: memref<?xf64>, %depth: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %leaf = arith.cmpi eq, %depth, %c0 : index
  %r = scf.if %leaf -> f64 {
    %v = memref.load %x[%c0] : memref<?xf64>
    scf.yield %v : f64
  } else {
    %below = arith.subi %depth, %c1 : index
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
      %skip = arith.cmpi eq, %i, %depth : index
      %next = scf.if %skip -> f64 {
        scf.yield %acc : f64
      } else {
        %xi = memref.load %x[%i] : memref<?xf64>
        %sub = func.call @tree(%x, %below, %n) : (memref<?xf64>, index, index) -> f64
        %t = arith.mulf %xi, %sub : f64
        %a = arith.addf %acc, %t : f64
        scf.yield %a : f64
      }
      scf.yield %next : f64
    }
    scf.yield %s : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @tree.pullback.dcc
// CHECK: scf.if
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     scf.if
// CHECK:     } else {
// CHECK:       %[[XI:.*]] = memref.load
// CHECK:       %[[SEED:.*]] = arith.mulf %{{.*}}, %[[XI]]
// CHECK:       call @tree.pullback.dcc(%{{.*}}, %{{.*}}, %{{.*}}, %[[SEED]], %{{.*}})
// CHECK-NOT: @tree.fwd
// CHECK-NOT: @tree.rev

// A recursion that writes memory (at its leaf): its pullback must not run
// early, so the call is split into halves.
func.func @writes(%x: f64, %m: memref<?xf64>, %depth: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %leaf = arith.cmpi eq, %depth, %c0 : index
  %r = scf.if %leaf -> f64 {
    memref.store %x, %m[%c0] : memref<?xf64>
    %xx = arith.mulf %x, %x : f64
    scf.yield %xx : f64
  } else {
    %below = arith.subi %depth, %c1 : index
    %v = func.call @writes(%x, %m, %below) : (f64, memref<?xf64>, index) -> f64
    scf.yield %v : f64
  }
  return %r : f64
}
func.func @calls_writes(%x: f64, %m: memref<?xf64>, %depth: index) -> f64 {
  %v = func.call @writes(%x, %m, %depth) : (f64, memref<?xf64>, index) -> f64
  return %v : f64
}

// CHECK-LABEL: func.func private @calls_writes.pullback.adc
// CHECK: call @writes.fwd
// CHECK: call @writes.rev

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %c: f64, %m: index,
                %n: index) {
  %f:2 = ct.gradient @f(%x, %c, %m, %n) shadows(%dx)
      activity [dup, active, const, const]
      : (memref<?xf64>, f64, index, index, memref<?xf64>) -> (f64, f64)
  %nl = ct.gradient @nonlinear(%x, %m) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %p = ct.gradient @product(%x, %m) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %true = arith.constant true
  %ca:2 = ct.gradient @chosen_after(%x, %m, %true, %c) shadows(%dx)
      activity [dup, const, const, active]
      : (memref<?xf64>, index, i1, f64, memref<?xf64>) -> (f64, f64)
  %h:2 = ct.gradient @f.direction(%x, %c, %m, %n, %x) shadows(%dx, %dx)
      activity [dup, active, const, const, dup]
      : (memref<?xf64>, f64, index, index, memref<?xf64>, memref<?xf64>,
         memref<?xf64>) -> (f64, f64)
  %sc:3 = ct.gradient @scaled_call(%c, %c) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  %t = ct.gradient @tree(%x, %m, %n) shadows(%dx) activity [dup, const, const]
      : (memref<?xf64>, index, index, memref<?xf64>) -> f64
  %w:2 = ct.gradient @calls_writes(%c, %x, %m) shadows(%dx)
      activity [active, dup, const]
      : (f64, memref<?xf64>, index, memref<?xf64>) -> (f64, f64)
  return
}
