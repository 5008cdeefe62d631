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

// CHECK-LABEL: func.func private @f.direction.pullback.daccd
// CHECK: scf.for {{.*}} iter_args
// CHECK:   math.sin
// CHECK:   math.log
// CHECK:   ct.tape_pop
// CHECK:   math.cos
// CHECK:   scf.yield
// CHECK-NEXT: }
// CHECK-NOT: math.
// CHECK: return

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %c: f64, %m: index,
                %n: index) {
  %f:2 = ct.gradient @f(%x, %c, %m, %n) shadows(%dx)
      activity [dup, active, const, const]
      : (memref<?xf64>, f64, index, index, memref<?xf64>) -> (f64, f64)
  %nl = ct.gradient @nonlinear(%x, %m) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %p = ct.gradient @product(%x, %m) shadows(%dx) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> f64
  %h:2 = ct.gradient @f.direction(%x, %c, %m, %n, %x) shadows(%dx, %dx)
      activity [dup, active, const, const, dup]
      : (memref<?xf64>, f64, index, index, memref<?xf64>, memref<?xf64>,
         memref<?xf64>) -> (f64, f64)
  return
}
