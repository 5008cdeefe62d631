// Tape canonicalizations: a pop right after a push gives back the pushed
// value; a tape only created and freed disappears.
// RUN: %cotangent-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func @push_pop
// CHECK-SAME: (%[[X:.*]]: f64)
// CHECK-NOT: ct.
// CHECK: return %[[X]]
func.func @push_pop(%x: f64) -> f64 {
  %t = ct.tape_init : !ct.tape
  ct.tape_push %t, %x : f64
  %y = ct.tape_pop %t : f64
  ct.tape_free %t
  return %y : f64
}

// Not across another tape operation, nor between types.
// CHECK-LABEL: func @kept
// CHECK: ct.tape_push
// CHECK: ct.tape_push
// CHECK: ct.tape_pop
// CHECK: ct.tape_pop
// CHECK: ct.tape_pop
func.func @kept(%t: !ct.tape, %x: f64, %i: i64) -> (f64, f64, f32) {
  ct.tape_push %t, %x : f64
  ct.tape_push %t, %i : i64
  %a = ct.tape_pop %t : f64
  %b = ct.tape_pop %t : f64
  %c = ct.tape_pop %t : f32
  return %a, %b, %c : f64, f64, f32
}

// A tape that is used is kept.
// CHECK-LABEL: func @used
// CHECK: ct.tape_init
// CHECK: call @consume
// CHECK: ct.tape_free
func.func private @consume(!ct.tape)
func.func @used() {
  %t = ct.tape_init : !ct.tape
  func.call @consume(%t) : (!ct.tape) -> ()
  ct.tape_free %t
  return
}
