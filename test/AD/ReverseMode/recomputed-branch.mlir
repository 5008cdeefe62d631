// A value chosen by a branch of cheap ops (LICM's guarded load of a loop
// invariant: `n > 0 ? a[i] : 0`) is computed again by the reverse sweep,
// like a load of memory that keeps its contents: the branch is cloned
// there, with what it uses from outside, instead of taping its result.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @guarded.pullback.dcc
// CHECK-NOT: ct.tape
// CHECK: scf.for
// CHECK:   scf.if
// CHECK:     memref.load
// The reverse sweep: the branch again, then its value as the factor.
// CHECK: scf.for
// CHECK:   %[[AGAIN:.*]] = scf.if
// CHECK:     memref.load
// CHECK:   scf.for
// CHECK:     arith.mulf {{.*}}%[[AGAIN]]{{[,]? }}
// CHECK-NOT: ct.tape
// CHECK: return
func.func @guarded(%a: memref<?xf64>, %m: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f64 {
    %some = arith.cmpi sgt, %n, %c0 : index
    %v = scf.if %some -> f64 {
      %x = memref.load %a[%i] : memref<?xf64>
      scf.yield %x : f64
    } else {
      scf.yield %zero : f64
    }
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%b = %acc) -> f64 {
      %w = memref.load %a[%j] : memref<?xf64>
      %p = arith.mulf %w, %v : f64
      %q = arith.addf %b, %p : f64
      scf.yield %q : f64
    }
    scf.yield %s : f64
  }
  %sq = arith.mulf %r, %r : f64
  return %sq : f64
}

func.func @main(%a: memref<?xf64>, %da: memref<?xf64>, %m: index,
                %n: index) -> f64 {
  %g = ct.gradient @guarded(%a, %m, %n) shadows(%da) activity [dup, const, const]
      : (memref<?xf64>, index, index, memref<?xf64>) -> f64
  return %g : f64
}
