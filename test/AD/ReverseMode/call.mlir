// A differentiated call runs the callee's forward half in the forward sweep
// and its reverse half in the reverse sweep, both on the caller's tape. The
// callee's reverse needs exp's result: the forward half pushes it and the
// reverse half pops it (a transcendental function is kept, not recomputed).
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @sq(%x: f64) -> f64 {
  %0 = arith.mulf %x, %x : f64
  %1 = math.exp %0 : f64
  return %1 : f64
}

// CHECK-LABEL: func.func private @sq.rev.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[TAPE:.*]]: !ct.tape, %[[SEED:.*]]: f64) -> f64
// CHECK: %[[E:.*]] = ct.tape_pop %[[TAPE]] : f64
// CHECK: %[[A:.*]] = arith.mulf %[[E]], %[[SEED]]
// CHECK: %[[B:.*]] = arith.mulf %[[X]], %[[A]]
// CHECK: %[[D:.*]] = arith.addf %[[B]], %[[B]]
// CHECK: return %[[D]]

// CHECK-LABEL: func.func private @sq.fwd.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[TAPE:.*]]: !ct.tape) -> f64
// CHECK: %[[XX:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[E:.*]] = math.exp %[[XX]]
// CHECK: ct.tape_push %[[TAPE]], %[[E]] : f64
// CHECK: return %[[E]]

// (The result is squared: used linearly, the call would run the callee's
// combined pullback instead, eager-loops.mlir.)
func.func @f(%x: f64, %y: f64) -> f64 {
  %a = func.call @sq(%x) : (f64) -> f64
  %b = arith.mulf %a, %y : f64
  %c = arith.mulf %b, %a : f64
  return %c : f64
}

// CHECK-LABEL: func.func private @f.pullback.aa
// CHECK: %[[TAPE:.*]] = ct.tape_init
// CHECK: %[[A:.*]] = call @sq.fwd.a(%{{.*}}, %[[TAPE]]) : (f64, !ct.tape) -> f64
// CHECK: %[[DX:.*]] = call @sq.rev.a(%{{.*}}, %[[TAPE]], %{{.*}}) : (f64, !ct.tape, f64) -> f64
// CHECK: ct.tape_free %[[TAPE]]
// CHECK: return %{{.*}}, %[[DX]], %{{.*}}

func.func @main(%x: f64, %y: f64) -> (f64, f64, f64) {
  %v, %dx, %dy = ct.gradient @f(%x, %y) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  return %v, %dx, %dy : f64, f64, f64
}
