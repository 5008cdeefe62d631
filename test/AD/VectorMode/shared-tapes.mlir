// A tape that one callee pushes lanes onto and another pops them from (the
// halves of a split derivative share their tapes): the lanes found in the
// pushing callee reach the caller's tape and, from it, the popping callee,
// whose pops then carry the lanes too (not one tangent for every lane).
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @save.jvp.da.lanes2.ssww.(
// CHECK-COUNT-2: ct.tape_push %arg2
// CHECK-LABEL: func.func private @restore.jvp.d.lanes2.sw.sw(
// CHECK: ct.tape_pop %arg0 : f64
// CHECK: %[[A:.*]] = ct.tape_pop %arg1 : f64
// CHECK: %[[B:.*]] = ct.tape_pop %arg1 : f64
// CHECK: vector.from_elements %[[B]], %[[A]] : vector<2xf64>
// CHECK-LABEL: func.func private @f.jvp.a.lanes2.sw.sw(
// CHECK: call @save.jvp.da.lanes2.ssww.(
// CHECK: call @restore.jvp.d.lanes2.sw.sw(
func.func private @save(%t: !ct.tape, %x: f64) {
  %s = math.sin %x : f64
  ct.tape_push %t, %s : f64
  return
}
func.func private @restore(%t: !ct.tape) -> f64 {
  %v = ct.tape_pop %t : f64
  return %v : f64
}
func.func @f(%x: f64) -> f64 {
  %t = ct.tape_init : !ct.tape
  call @save(%t, %x) : (!ct.tape, f64) -> ()
  %v = call @restore(%t) : (!ct.tape) -> f64
  ct.tape_free %t
  %r = arith.mulf %v, %x : f64
  return %r : f64
}

func.func @request(%x: f64, %tx: vector<2xf64>) -> vector<2xf64> {
  %y, %ty = ct.jvp @f(%x) tangents(%tx) lanes 2 activity [active] : (f64, vector<2xf64>) -> (f64, vector<2xf64>)
  return %ty : vector<2xf64>
}
