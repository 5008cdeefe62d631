// Calls of functions that a custom rule replaces are marked no_inline, so
// that the autodiff pipeline's inliner keeps them; other calls inline.
// RUN: %cotangent-opt %s --ct-keep-rule-calls | FileCheck %s --check-prefix=MARK
// RUN: %cotangent-opt %s --ct-keep-rule-calls --inline | FileCheck %s --check-prefix=INLINE

func.func private @square(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @square_pb(%x: f64, %s: f64) -> f64 {
  %y = arith.mulf %x, %s : f64
  return %y : f64
}
ct.custom_gradient @square pullback @square_pb

func.func private @cube(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  %z = arith.mulf %y, %x : f64
  return %z : f64
}

// MARK-LABEL: func.func @caller
// MARK: call @square(%{{.*}}) {no_inline}
// MARK: call @cube(%{{.*}}) :
// INLINE-LABEL: func.func @caller
// INLINE: call @square(%{{.*}}) {no_inline}
// INLINE-NOT: call @cube
func.func @caller(%x: f64) -> f64 {
  %a = func.call @square(%x) : (f64) -> f64
  %b = func.call @cube(%a) : (f64) -> f64
  return %b : f64
}
