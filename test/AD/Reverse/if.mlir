// A branch is reversed by a branch on the same condition; each side
// accumulates into the adjoint of what it used. The else side keeps exp's
// result on the tape; once the clean-up merges the forward and reverse
// branches the push and the pop meet and fold away, with the unused tape.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @f(%x: f64, %c: i1) -> f64 {
  %r = scf.if %c -> f64 {
    %s = math.sin %x : f64
    scf.yield %s : f64
  } else {
    %e = math.exp %x : f64
    %m = arith.mulf %e, %x : f64
    scf.yield %m : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @f.pullback.ac
// CHECK-SAME: (%[[X:.*]]: f64, %[[C:.*]]: i1, %[[SEED:.*]]: f64)
// CHECK-NOT: ct.tape
// CHECK: scf.if %[[C]] -> (f64) {
// CHECK:   math.sin %[[X]]
// CHECK:   math.cos %[[X]]
// CHECK: } else {
// CHECK:   %[[E:.*]] = math.exp %[[X]]
// CHECK:   arith.mulf %[[E]], %[[X]]
// CHECK:   arith.mulf %[[X]], %{{.*}}
// CHECK:   arith.mulf %[[E]], %{{.*}}
// CHECK: }
// CHECK-NOT: ct.tape
// CHECK: return

func.func @main(%x: f64, %c: i1) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x, %c) activity [active, const]
      : (f64, i1) -> (f64, f64)
  return %v, %dx : f64, f64
}
