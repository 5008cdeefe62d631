// A rule builds the partials of every operand; reverse mode fetches only the
// primal values that the partials of active operands use. In `x * h` with h
// inactive, the partial for x is h: x itself is not taped, although the
// function writes its argument memory (so x could not be loaded again).
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// With h active, the partial for h is x, which is taped.
// CHECK-LABEL: func.func private @scale.pullback.dca
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load
// CHECK: ct.tape_push %{{.*}}, %[[X]]
// CHECK: scf.for
// CHECK: ct.tape_pop

// With h inactive, nothing is taped.
// CHECK-LABEL: func.func private @scale.pullback.dcc
// CHECK: scf.for
// CHECK-NOT: ct.tape_push
// CHECK: scf.for
// CHECK-NOT: ct.tape_pop
// CHECK: arith.mulf %arg2, %
// CHECK: return
func.func @scale(%a: memref<?xf64>, %n: index, %h: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf64>
    %y = arith.mulf %x, %h : f64
    memref.store %y, %a[%i] : memref<?xf64>
  }
  return
}

func.func @main(%a: memref<?xf64>, %da: memref<?xf64>, %n: index, %h: f64) -> f64 {
  ct.pullback @scale(%a, %n, %h) shadows(%da) activity [dup, const, const] : (memref<?xf64>, index, f64, memref<?xf64>) -> ()
  %dh = ct.pullback @scale(%a, %n, %h) shadows(%da) activity [dup, const, active] : (memref<?xf64>, index, f64, memref<?xf64>) -> f64
  return %dh : f64
}
