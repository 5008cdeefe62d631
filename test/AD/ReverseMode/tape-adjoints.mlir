// Reverse over reverse through a loop: the first derivative's reverse
// sweep pops what its forward sweep pushed. Differentiated again, the tape's
// adjoint is a tape of adjoints, made where the reverse code of the tape's
// block starts: the reverse of each pop (in the first derivative's reverse
// loop) pushes the adjoint of the value popped; the reverse of each push
// (in its forward loop, reversed after) pops it back, last in first out.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @loop(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f64 {
    %m = arith.mulf %acc, %acc : f64
    %s = math.sin %m : f64
    scf.yield %s : f64
  }
  return %r : f64
}
func.func @dloop(%x: f64, %n: index) -> f64 {
  %v, %dx = ct.gradient @loop(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  return %dx : f64
}
func.func @main(%x: f64, %n: index) -> (f64, f64) {
  %v, %ddx = ct.gradient @dloop(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  return %v, %ddx : f64, f64
}

// The rev half of the first derivative, reversed: its tape argument is the
// first derivative's tape, emptied by the forward sweep (the fwd half).
// CHECK-LABEL: func.func private @loop.pullback.ac.rev.acc
// CHECK-SAME: %[[TAPE:[a-z0-9]+]]: !ct.tape
// CHECK: %[[ADJOINTS:.*]] = ct.tape_init : !ct.tape
// The first derivative's reverse loop, reversed: its pops of values that
// carry derivatives push their adjoints.
// CHECK: scf.for
// CHECK-COUNT-5: ct.tape_pop %[[TAPE]] : f64
// CHECK-NOT: ct.tape_pop
// CHECK: ct.tape_push %[[ADJOINTS]], %{{.*}} : f64
// CHECK-NEXT: ct.tape_push %[[ADJOINTS]], %{{.*}} : f64
// CHECK-NEXT: }
// Its forward loop, reversed: each push pops the adjoint of its value.
// CHECK: scf.for
// CHECK: ct.tape_pop %[[ADJOINTS]] : f64
// CHECK: ct.tape_pop %[[ADJOINTS]] : f64
// CHECK-NOT: ct.tape_push
// CHECK: }
// CHECK: ct.tape_free %[[ADJOINTS]]
// CHECK: return
