// Loops reversed in place inside loops reversed in place: pair sums such as
// a pair potential, E = sum over i < j of v(x_i, x_j). The sum's adjoint is
// known before the outer loop, so it is known before every inner loop too:
// each inner iteration is undone right after it ran, and the tape, which
// held one entry per pair, is not needed at all.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// The running sum flows through the inner loop (e += v inside it).
func.func @pairs(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %e = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %j0 = arith.addi %i, %c1 : index
    %inner = scf.for %j = %j0 to %n step %c1 iter_args(%b = %a) -> f64 {
      %xj = memref.load %x[%j] : memref<?xf64>
      %d = arith.subf %xi, %xj : f64
      %v = math.exp %d : f64
      %b2 = arith.addf %b, %v : f64
      scf.yield %b2 : f64
    }
    scf.yield %inner : f64
  }
  return %e : f64
}

// CHECK-LABEL: func.func private @pairs.pullback.dc
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %{{.*}}: index, %[[SEED:.*]]: f64, %[[DX:.*]]: memref<?xf64>)
// CHECK-NOT: ct.tape
// CHECK: scf.for %[[I:[[:alnum:]_]+]] =
// CHECK:   memref.load %[[X]][%[[I]]]
// CHECK:   scf.for %[[J:[[:alnum:]_]+]] =
// CHECK:     %[[V:.*]] = math.exp
// The inner iteration's reverse, right after it: the term's adjoint is the
// seed, d exp = exp * seed, and x_j gets minus that.
// CHECK:     arith.addf %{{[[:alnum:]_]+}}, %[[SEED]]
// CHECK:     arith.mulf %[[V]], %{{[[:alnum:]_]+}}
// CHECK:     memref.load %[[DX]][%[[J]]]
// CHECK:     memref.store %{{[[:alnum:]_]+}}, %[[DX]][%[[J]]]
// CHECK:     scf.yield
// CHECK:   }
// Then the outer iteration's own reverse: x_i's adjoint.
// CHECK:   memref.store %{{[[:alnum:]_]+}}, %[[DX]][%[[I]]]
// CHECK:   scf.yield
// CHECK-NEXT: }
// CHECK-NOT: scf.for
// CHECK: return

// The inner loop sums from zero and its sum is added to the outer one,
// through a linear factor computed before it (the usual way to write it).
func.func @scaled_partial_sums(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %e = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %partial = scf.for %j = %c0 to %n step %c1 iter_args(%b = %zero) -> f64 {
      %xj = memref.load %x[%j] : memref<?xf64>
      %p = arith.mulf %xi, %xj : f64
      %v = math.sin %p : f64
      %b2 = arith.addf %b, %v : f64
      scf.yield %b2 : f64
    }
    %w = arith.mulf %partial, %xi : f64
    %a2 = arith.addf %a, %w : f64
    scf.yield %a2 : f64
  }
  return %e : f64
}

// The inner sum's adjoint is seed * x_i, known before the inner loop.
// CHECK-LABEL: func.func private @scaled_partial_sums.pullback.dc
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %{{.*}}: index, %[[SEED:.*]]: f64, %{{.*}}: memref<?xf64>)
// CHECK-NOT: ct.tape
// CHECK: scf.for
// CHECK:   %[[XI:.*]] = memref.load %[[X]]
// CHECK:   %[[DP:.*]] = arith.mulf %[[SEED]], %[[XI]]
// CHECK:   %[[P:.*]] = scf.for
// CHECK:     math.sin
// CHECK:     arith.addf %{{[[:alnum:]_]+}}, %[[DP]]
// CHECK:     math.cos
// CHECK:     scf.yield
// CHECK:   }
// Then x_i's adjoint from w = partial * x_i.
// CHECK:   arith.mulf %[[P]], %{{[[:alnum:]_]+}}
// CHECK:   scf.yield
// CHECK-NEXT: }
// CHECK-NOT: scf.for
// CHECK: return

// The inner loop multiplies what it carries: the outer sum's adjoint is
// not that of every inner value, so neither loop is reversed in place.
func.func @through_product(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %e = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> f64 {
    %inner = scf.for %j = %c0 to %n step %c1 iter_args(%b = %a) -> f64 {
      %xj = memref.load %x[%j] : memref<?xf64>
      %b2 = arith.mulf %b, %xj : f64
      scf.yield %b2 : f64
    }
    scf.yield %inner : f64
  }
  return %e : f64
}

// CHECK-LABEL: func.func private @through_product.pullback.dc
// CHECK: ct.tape_init
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     ct.tape_push
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     ct.tape_pop

// The inner sum goes through exp before reaching the outer sum: its
// adjoint needs its value, so the inner loop is reversed after it ran (in
// the outer iteration's reverse, taping within the iteration), while the
// outer loop is still reversed in place.
func.func @nonlinear_inner(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %e = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> f64 {
    %partial = scf.for %j = %c0 to %n step %c1 iter_args(%b = %zero) -> f64 {
      %xj = memref.load %x[%j] : memref<?xf64>
      %v = math.sin %xj : f64
      %b2 = arith.addf %b, %v : f64
      scf.yield %b2 : f64
    }
    %l = math.exp %partial : f64
    %a2 = arith.addf %a, %l : f64
    scf.yield %a2 : f64
  }
  return %e : f64
}

// CHECK-LABEL: func.func private @nonlinear_inner.pullback.dc
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     math.sin
// CHECK:   math.exp
// CHECK:   scf.for
// CHECK:     math.cos
// CHECK:   scf.yield
// CHECK-NEXT: }
// CHECK-NOT: scf.for
// CHECK: return

// The sum's factor is read after the loop (`return x[0] * sum` in C++),
// from memory the loop does not write: it is read again before the loop,
// where the adjoint of the sum is needed.
func.func @factor_after(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %a2 = arith.addf %a, %e : f64
    scf.yield %a2 : f64
  }
  %w = memref.load %x[%c0] : memref<?xf64>
  %r = arith.mulf %w, %s : f64
  return %r : f64
}

// CHECK-LABEL: func.func private @factor_after.pullback.dc
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %{{.*}}: index, %[[SEED:.*]]: f64, %{{.*}}: memref<?xf64>)
// CHECK-NOT: ct.tape
// CHECK: %[[W:.*]] = memref.load %[[X]][%{{[[:alnum:]_]+}}]
// CHECK: %[[DS:.*]] = arith.mulf %[[SEED]], %[[W]]
// CHECK: scf.for
// CHECK:   math.exp
// CHECK:   arith.addf %{{[[:alnum:]_]+}}, %[[DS]]
// CHECK:   scf.yield
// CHECK-NEXT: }
// CHECK-NOT: scf.for
// CHECK: return

// Here the factor's memory is written between the loop and the read: the
// loop is reversed after the forward sweep.
func.func @factor_overwritten(%x: memref<?xf64>, %y: memref<?xf64>,
                              %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %a2 = arith.addf %a, %e : f64
    scf.yield %a2 : f64
  }
  %two = arith.constant 2.0 : f64
  memref.store %two, %y[%c0] : memref<?xf64>
  %w = memref.load %y[%c0] : memref<?xf64>
  %r = arith.mulf %w, %s : f64
  return %r : f64
}

// CHECK-LABEL: func.func private @factor_overwritten.pullback.dcc
// CHECK: scf.for
// CHECK:   math.exp
// CHECK-NOT: arith.mulf
// CHECK:   scf.yield
// CHECK: scf.for
// CHECK:   ct.tape_pop

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %n: index) {
  %p = ct.gradient @pairs(%x, %n) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %s = ct.gradient @scaled_partial_sums(%x, %n) shadows(%dx)
      activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %t = ct.gradient @through_product(%x, %n) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %u = ct.gradient @nonlinear_inner(%x, %n) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %f = ct.gradient @factor_after(%x, %n) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %o = ct.gradient @factor_overwritten(%x, %x, %n) shadows(%dx)
      activity [dup, const, const]
      : (memref<?xf64>, memref<?xf64>, index, memref<?xf64>) -> f64
  return
}
