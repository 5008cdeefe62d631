// Adjoints of values whose users all sit in their own block are SSA sums,
// built as the reverse sweep meets the users and read by the reverse of the
// defining op: no slot (the arguments keep theirs, read at the return), so
// mem2reg has nothing to promote in straight-line code. %s is used twice:
// its adjoint is the sum of both contributions, in the reverse order of
// the uses, as a slot would have added them.
// RUN: %cotangent-opt %s --ct-differentiate | FileCheck %s

// CHECK-LABEL: func.func private @f.pullback.aa
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[SEED:.*]]: f64)
// CHECK-COUNT-2: memref.alloca() : memref<f64>
// CHECK-NOT: memref.alloca
// CHECK: %[[S:.*]] = math.sin %[[X]]
// CHECK: %[[P:.*]] = arith.mulf %[[S]], %[[Y]]
// CHECK: %[[E:.*]] = math.exp
// The seed times each partial of %r (for %e, then %p); the adjoint of %q,
// then of %p: the return's share plus %q's.
// CHECK: arith.mulf %{{.*}}, %[[SEED]]
// CHECK: %[[DR:.*]] = arith.mulf %{{.*}}, %[[SEED]]
// CHECK: %[[DQ:.*]] = arith.mulf %[[E]], %{{.*}}
// CHECK: %[[FROMQ:.*]] = arith.mulf %[[S]], %[[DQ]]
// CHECK: %[[DP:.*]] = arith.addf %[[DR]], %[[FROMQ]] fastmath<reassoc,contract>
// The adjoint of %s: %q's share first, then %p's.
// CHECK: %[[S1:.*]] = arith.mulf %[[P]], %[[DQ]]
// CHECK: %[[S2:.*]] = arith.mulf %[[Y]], %[[DP]]
// CHECK: %[[DS:.*]] = arith.addf %[[S1]], %[[S2]] fastmath<reassoc,contract>
// CHECK: %[[COS:.*]] = math.cos %[[X]]
// CHECK: arith.mulf %[[COS]], %[[DS]]
// CHECK: return
func.func @f(%x: f64, %y: f64) -> f64 {
  %s = math.sin %x : f64
  %p = arith.mulf %s, %y : f64
  %q = arith.mulf %p, %s : f64
  %e = math.exp %q : f64
  %r = arith.addf %e, %p : f64
  return %r : f64
}
func.func @g(%x: f64, %y: f64) -> (f64, f64, f64) {
  %v:3 = ct.gradient @f(%x, %y) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  return %v#0, %v#1, %v#2 : f64, f64, f64
}
